"""An organiser runs an 8-player, 3-round Die Maus im Nacken tournament in Chromium."""

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import catch_remaining_elephants
from tests.factories import PlayerFactory
from tracker.evenings.models import Tournament
from tracker.room.models import ShareLink

pytestmark = pytest.mark.browser


def enter_race(page: Page) -> str:
    """The first elephant of the last seat comes home; every other elephant is caught."""
    cards = page.locator(".player-card")
    winner = cards.last.locator(".player-head strong").inner_text()
    cards.last.locator(".elephant").nth(0).get_by_role("button", name="Home").click()
    expect(cards.last.locator(".live-points")).to_have_text("13 points")
    catch_remaining_elephants(page)
    page.get_by_role("button", name="Save result").click()
    expect(page.locator(".celebrate")).to_contain_text(f"{winner} wins!")
    return winner


def test_an_eight_player_tournament_to_the_final_standings(
        host_page: Page, browser: Browser, live_server, table, browser_context_args):
    household = table["household"]
    for name in ("Carla", "David", "Emil", "Frieda", "Greta", "Hugo"):
        PlayerFactory(household=household, name=name)
    page = host_page
    page.goto(live_server.url + "/tournaments/new/")
    page.fill("input[name=name]", "Birthday party")
    page.fill("input[name=rounds_planned]", "3")
    page.locator(".tile", has_text="Die Maus im Nacken").click()
    # Nobody is ticked, not even tonight's players: the organiser taps everyone taking part.
    for name in ("Anna", "Ben"):
        expect(page.locator(".tile", has_text=name).locator("input")).not_to_be_checked()
    for name in ("Anna", "Ben", "Carla", "David", "Emil", "Frieda", "Greta", "Hugo"):
        page.locator(".tile", has_text=name).click()
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    tournament_url = page.url
    tournament = Tournament.objects.get()
    link = ShareLink.objects.create(household=household, tournament=tournament)
    tv = browser.new_context(**browser_context_args).new_page()
    tv.goto(f"{live_server.url}/board/{link.token}/")

    wins: dict[str, int] = {}
    for number in (1, 2, 3):
        page.get_by_role("button", name=f"Seat round {number}").click()
        expect(page.locator(".table-card")).to_have_count(2)
        expect(tv.locator("#board")).to_contain_text(f"Round {number}", timeout=10_000)
        for table_index in range(2):
            page.goto(tournament_url)
            page.locator(".table-card").nth(table_index).get_by_role(
                "link", name="Enter the result").click()
            winner = enter_race(page)
            wins[winner] = wins.get(winner, 0) + 1
        page.goto(tournament_url)

    expect(page.locator(".celebrate")).to_contain_text("wins the tournament!")
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(8)
    top = max(wins.values())
    expect(rows.first.locator("td").last).to_have_text(str(13 * top))
    assert sum(wins.values()) == 6
    expect(tv.locator("table.standings tbody tr").first.locator("td").last).to_have_text(
        str(13 * top), timeout=10_000)
    tv.context.close()
