"""A host at the table records games on a tablet, through real Chromium."""

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import catch_remaining_elephants, cell_named, choose_game
from tracker.room.models import ShareLink
from tracker.table.models import Play
from tracker.table.recording import start_play, write_cell

pytestmark = pytest.mark.browser

#: Two players' whole games, turn by turn: (field to choose, the five dice).
ANNA_TURNS = [
    ("ones", [1, 1, 1, 2, 3]), ("twos", [2, 2, 2, 5, 6]), ("threes", [3, 3, 3, 1, 1]),
    ("fours", [4, 4, 4, 2, 2]), ("fives", [5, 5, 5, 1, 2]), ("sixes", [6, 6, 6, 6, 2]),
    ("three_of_a_kind", [6, 6, 6, 5, 4]), ("four_of_a_kind", [5, 5, 5, 5, 3]),
    ("full_house", [2, 2, 3, 3, 3]), ("small_straight", [1, 2, 3, 4, 6]),
    ("large_straight", [2, 3, 4, 5, 6]), ("kniffel", [4, 4, 4, 4, 4]),
    ("chance", [6, 5, 5, 4, 3]),
]
BEN_TURNS = [
    ("ones", [1, 1, 2, 3, 4]), ("twos", [2, 2, 1, 5, 6]), ("threes", [3, 3, 1, 1, 2]),
    ("fours", [4, 4, 1, 2, 2]), ("fives", [5, 5, 1, 1, 2]), ("sixes", [6, 6, 6, 1, 2]),
    ("three_of_a_kind", [3, 3, 3, 1, 2]), ("four_of_a_kind", [1, 2, 3, 4, 5]),
    ("full_house", [2, 2, 3, 3, 3]), ("small_straight", [1, 2, 3, 5, 6]),
    ("large_straight", [1, 2, 3, 4, 5]), ("kniffel", [1, 2, 2, 4, 6]),
    ("chance", [6, 6, 5, 4, 3]),
]
# Anna: upper 3+6+9+12+15+24 = 69 (+35 bonus), lower 27+23+25+30+40+50+23 = 218: 322.
# Ben: upper 2+4+6+8+10+18 = 48, lower 12+0+25+0+40+0+24 = 101: 149.


def enter_roll(page: Page, player: str, field_label: str, field: str, dice: list[int]) -> None:
    cell_named(page, player, field_label).click()
    editor = page.locator("#editor")
    expect(editor.locator(".dice-form")).to_be_visible()
    for entered, die in enumerate(dice, start=1):
        editor.locator(f".die-pad[aria-label='{die}']").click()
        expect(editor.locator(".dice-slots button.die")).to_have_count(entered)
    editor.locator(f"button[name=choose][value={field}]").click()
    expect(page.locator("#editor .dice-form")).to_have_count(0)


def test_a_whole_kniffel_game_for_two_with_dice(host_page: Page, live_server, table):
    play = start_play(household=table["household"], game="kniffel", players=table["players"],
                      game_night=table["night"], user=table["host"])
    host_page.goto(live_server.url + play.get_absolute_url())
    rules = play.rules
    for (field, anna_dice), (ben_field, ben_dice) in zip(ANNA_TURNS, BEN_TURNS, strict=True):
        expect(host_page.locator("#turn")).to_contain_text("Anna's turn")
        enter_roll(host_page, "Anna", str(rules.field(field).label), field, anna_dice)
        expect(host_page.locator("#turn")).to_contain_text("Ben's turn")
        enter_roll(host_page, "Ben", str(rules.field(ben_field).label), ben_field, ben_dice)
    totals = host_page.locator("tr.grand td")
    expect(totals).to_have_text(["322", "149"])
    expect(host_page.locator("tr.sum").nth(1).locator("td")).to_have_text(["35", "0"])
    expect(host_page.locator("#turn")).to_contain_text("Anna wins!")
    play.refresh_from_db()
    assert play.status == Play.Status.FINISHED


def test_a_maus_race_from_new_game_to_points(host_page: Page, live_server, table):
    host_page.goto(live_server.url + table["night"].get_absolute_url())
    host_page.get_by_role("link", name="New game").click()
    choose_game(host_page, host_page.get_by_text("Die Maus im Nacken"))
    host_page.get_by_role("button", name="Anna").click()
    expect(host_page.locator(".seat-number")).to_have_count(1)
    host_page.get_by_role("button", name="Ben").click()
    expect(host_page.locator(".hint")).to_contain_text("The mouse starts on square 2.")
    host_page.get_by_role("button", name="Start the game").click()
    host_page.wait_for_url(re.compile(r"/plays/\d+/$"))

    cards = host_page.locator(".player-card")
    anna, ben = cards.nth(0), cards.nth(1)
    anna.locator(".elephant").nth(0).get_by_role("button", name="Home").click()
    expect(anna.locator(".live-points")).to_have_text("13 points")
    ben.locator(".elephant").nth(0).get_by_role("button", name="Home").click()
    expect(ben.locator(".live-points")).to_have_text("12 points")
    anna.locator(".elephant").nth(1).get_by_role("button", name="Seat").click()
    anna.locator(".elephant").nth(1).get_by_role("button", name="8", exact=True).click()
    expect(anna.locator(".live-points")).to_have_text("21 points")
    catch_remaining_elephants(host_page)
    host_page.get_by_role("button", name="Save result").click()
    expect(host_page.locator(".celebrate")).to_contain_text("Anna wins!")
    rows = host_page.locator("table.standings tbody tr")
    expect(rows.nth(0)).to_contain_text("Anna")
    expect(rows.nth(0)).to_contain_text("21")
    expect(rows.nth(1)).to_contain_text("12")


def test_an_invalid_entry_shows_the_message_and_keeps_what_was_entered(host_page: Page,
                                                                       live_server, table):
    play = start_play(household=table["household"], game="maus_im_nacken",
                      players=table["players"], game_night=table["night"])
    host_page.goto(live_server.url + play.get_absolute_url())
    anna = host_page.locator(".player-card").nth(0)
    anna.locator(".elephant").nth(0).get_by_role("button", name="Home").click()
    expect(anna.locator(".live-points")).to_have_text("13 points")
    host_page.get_by_role("button", name="Save result").click()
    expect(anna.locator(".error").first).to_contain_text(
        "Anna: elephant 2 must be home, on a seat, caught or on the pyramid.")
    expect(anna.locator(".elephant.flagged")).to_have_count(3)
    expect(anna.locator(".elephant").nth(0)).to_contain_text("home 1.")
    assert Play.objects.get(pk=play.pk).result == {}

    kniffel = start_play(household=table["household"], game="kniffel",
                         players=table["players"], game_night=table["night"])
    host_page.goto(live_server.url + kniffel.get_absolute_url())
    cell_named(host_page, "Ben", "Full House").click()
    host_page.get_by_role("link", name="Enter for Ben").click()
    host_page.locator("#editor input[name=points]").fill("24")
    host_page.locator("#editor button[name=save]").click()
    expect(host_page.locator("#editor .error")).to_have_text(
        "Ben: Full House scores 0 or 25, not 24.")
    expect(host_page.locator("#editor input[name=points]")).to_have_value("24")


def test_the_scoreboard_follows_the_table(host_page: Page, browser: Browser, live_server,
                                          table, browser_context_args):
    play = start_play(household=table["household"], game="kniffel", players=table["players"],
                      game_night=table["night"])
    link = ShareLink.objects.create(household=table["household"], play=play)
    tv = browser.new_context(**browser_context_args).new_page()
    tv.goto(f"{live_server.url}/board/{link.token}/")
    expect(tv.locator("tr.grand td")).to_have_text(["0", "0"])

    host_page.goto(live_server.url + play.get_absolute_url())
    cell_named(host_page, "Anna", "Chance").click()
    host_page.locator("#editor input[name=points]").fill("23")
    host_page.locator("#editor button[name=save]").click()
    expect(host_page.locator("tr.grand td").first).to_have_text("23")
    expect(tv.locator("tr.grand td")).to_have_text(["23", "0"], timeout=10_000)
    tv.context.close()


def test_a_conflicting_cell_edit_from_another_tablet_is_refused(
        host_page: Page, second_host_page: Page, live_server, table):
    play = start_play(household=table["household"], game="kniffel", players=table["players"],
                      game_night=table["night"])
    for tablet in (host_page, second_host_page):
        tablet.goto(live_server.url + play.get_absolute_url())
        cell_named(tablet, "Ben", "Chance").click()
        tablet.get_by_role("link", name="Enter for Ben").click()
        expect(tablet.locator("#editor input[name=points]")).to_be_visible()
    host_page.locator("#editor input[name=points]").fill("20")
    host_page.locator("#editor button[name=save]").click()
    expect(host_page.locator("tr.grand td").nth(1)).to_have_text("20")

    second_host_page.locator("#editor input[name=points]").fill("22")
    second_host_page.locator("#editor button[name=save]").click()
    refusal = second_host_page.locator("#sheet-message")
    expect(refusal).to_contain_text(
        "Ben's Chance was entered on another tablet in the meantime (20). "
        "Your entry was not saved.")
    expect(second_host_page.locator("tr.grand td").nth(1)).to_have_text("20")
    # The refusal stays in sight while the tablet follows the game, until it is dismissed.
    write_cell(play, table["players"][0], "chance", 17, expected_version=None)
    expect(cell_named(second_host_page, "Anna", "Chance")).to_have_text("17")
    expect(refusal).to_contain_text("Your entry was not saved.")
    refusal.get_by_role("button", name="Dismiss").click()
    expect(refusal).to_be_empty()
