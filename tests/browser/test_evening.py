"""A family's evening through real Chromium, at both tablet sizes: a series inside tonight's
night, a late arrival, a rematch, an abandoned sheet."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import catch_remaining_elephants, cell_named, choose_game, rematch
from tracker.evenings.models import Series
from tracker.table.models import Play
from tracker.table.recording import start_play

pytestmark = pytest.mark.browser

TABLET_SIZES = [{"width": 768, "height": 1024}, {"width": 1024, "height": 768}]


@pytest.fixture(params=TABLET_SIZES, ids=lambda size: f"{size['width']}x{size['height']}")
def tablet(request, host_page: Page) -> Page:
    host_page.set_viewport_size(request.param)
    return host_page


def accept_confirmations(page: Page) -> None:
    page.on("dialog", lambda dialog: dialog.accept())


def record_race_won_by_first_player(page: Page) -> None:
    """On a Maus race's page: the first player's first elephant home, everything else caught."""
    first = page.locator(".player-card").nth(0)
    first.locator(".elephant").nth(0).get_by_role("button", name="Home").click()
    expect(first.locator(".live-points")).to_have_text("13 points")
    catch_remaining_elephants(page)
    page.get_by_role("button", name="Save result").click()
    expect(page.locator(".celebrate")).to_contain_text("wins!")


def test_a_two_race_series_played_to_its_end_inside_tonights_night(tablet: Page, live_server,
                                                                   table):
    tablet.goto(live_server.url + "/")
    tablet.get_by_role("link", name="New series").click()
    tablet.get_by_label("Name").fill("Advent Cup")
    tablet.get_by_label("Races agreed").fill("2")
    for player in table["players"]:
        expect(tablet.get_by_role("checkbox", name=player.name)).to_be_checked()
    tablet.get_by_role("button", name="Start the series").click()
    tablet.get_by_role("button", name="Record race 1").click()
    tablet.wait_for_url(re.compile(r"/plays/\d+/$"))
    expect(tablet.locator(".starter")).to_contain_text("Anna starts.")
    record_race_won_by_first_player(tablet)

    tablet.get_by_role("button", name="Race 2").click()
    tablet.wait_for_url(re.compile(r"/plays/\d+/$"))
    expect(tablet.locator(".starter")).to_contain_text("Ben starts.")
    record_race_won_by_first_player(tablet)
    expect(tablet.get_by_role("button", name="Race 3")).to_have_count(0)
    tablet.get_by_role("link", name="Series standings").click()
    expect(tablet.locator(".play-head .status")).to_have_text("Finished")
    expect(tablet.locator(".celebrate")).to_contain_text("Anna wins the series!")
    assert Series.objects.get().status == Series.Status.FINISHED

    tablet.goto(live_server.url + table["night"].get_absolute_url())
    games = tablet.locator(".rows li.item")
    expect(games).to_have_count(2)
    expect(games.nth(0)).to_contain_text("Advent Cup, race 1")
    expect(games.nth(0)).to_contain_text("🏆 Anna (13), Ben (0)")
    standings = tablet.locator("table.standings tbody tr")
    expect(standings.nth(0)).to_contain_text("Anna")
    expect(standings.nth(0).locator("td").nth(2)).to_have_text("2")
    tablet.get_by_role("button", name="Share a scoreboard").click()
    board = tablet.locator(".share-url").get_attribute("href")
    tablet.goto(live_server.url + board)
    expect(tablet.locator("#board")).to_contain_text("Advent Cup, race 2")
    expect(tablet.locator("#board table.standings tbody tr").nth(0)).to_contain_text("Anna")


def test_abandoning_a_kniffel_sheet(tablet: Page, live_server, table):
    play = start_play(household=table["household"], game="kniffel", players=table["players"],
                      game_night=table["night"])
    accept_confirmations(tablet)
    tablet.goto(live_server.url + "/")
    expect(tablet.locator(".rows li.item", has_text="Kniffel")).to_contain_text("Anna, Ben")
    tablet.goto(live_server.url + play.get_absolute_url())
    cell_named(tablet, "Anna", "Chance").click()
    tablet.locator("#editor input[name=points]").fill("21")
    tablet.locator("#editor button[name=save]").click()
    expect(tablet.locator("tr.grand td").first).to_have_text("21")
    tablet.locator("#sheet-actions").get_by_role("button", name="Abandon").click()
    expect(tablet.locator(".play-head .status")).to_have_text("Abandoned")
    assert Play.objects.get(pk=play.pk).status == Play.Status.ABANDONED
    tablet.goto(live_server.url + "/")
    expect(tablet.locator("body")).not_to_contain_text("Games in progress")


def test_a_late_arrival_is_added_and_seated_in_the_next_game(tablet: Page, live_server, table):
    tablet.goto(live_server.url + table["night"].get_absolute_url())
    tablet.get_by_role("link", name="Who is here?").click()
    tablet.get_by_label("Name of the new player").fill("Carla")
    tablet.get_by_role("button", name="+ Add player").click()
    expect(tablet.get_by_role("checkbox", name="Carla")).to_be_checked()
    tablet.get_by_role("button", name="Save who is here").click()
    expect(tablet.locator(".present")).to_contain_text("Carla")

    tablet.get_by_role("link", name="New game").click()
    choose_game(tablet, tablet.get_by_text("Die Maus im Nacken"))
    for name in ("Carla", "Anna"):
        tablet.get_by_role("button", name=name).click()
        expect(tablet.get_by_role("button", name=name).locator(".seat-number")).to_be_visible()
    tablet.get_by_role("radio", name="Anna").check()
    expect(tablet.locator(".hint")).to_contain_text("Anna starts.")
    tablet.get_by_role("button", name="Start the game").click()
    tablet.wait_for_url(re.compile(r"/plays/\d+/$"))
    expect(tablet.locator(".player-card").nth(0)).to_contain_text("Carla")
    expect(tablet.locator(".starter")).to_contain_text("Anna starts.")


def test_a_rematch_moves_the_start_player_on(tablet: Page, live_server, table):
    play = start_play(household=table["household"], game="maus_im_nacken",
                      players=table["players"], game_night=table["night"])
    tablet.goto(live_server.url + play.get_absolute_url())
    expect(tablet.locator(".starter")).to_contain_text("Anna starts.")
    record_race_won_by_first_player(tablet)
    rematch(tablet)
    expect(tablet.locator(".starter")).to_contain_text("Ben starts.")
    expect(tablet.locator(".player-card").nth(0)).to_contain_text("Anna")
    new_play = Play.objects.exclude(pk=play.pk).get()
    assert new_play.game_night == table["night"] and new_play.start_seat == 1
