"""An evening of the family's own games on a tablet: a game added from the new-game screen,
a co-operative game won and lost, a team game, final scores only, a fewest-points game round
by round to its target; then the history, a player's page and the board."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import choose_game, rematch
from tests.factories import OwnGameFactory, PlayerFactory

pytestmark = pytest.mark.browser


def new_game(page: Page, base: str, night_url: str, game: str, players: list[str],
             starter: str | None = None) -> None:
    page.goto(base + night_url + "plays/new/")
    choose_game(page, page.locator("label.game-tile", has_text=game))
    for name in players:
        page.get_by_role("button", name=name).click()
        expect(page.get_by_role("button", name=name).locator(".seat-number")
               ).to_be_visible()
    if starter:
        page.get_by_role("radio", name=starter).check()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/plays/\d+/$"))


def type_points(page: Page, points: int) -> None:
    pad = page.locator("#pad-editor")
    for key in str(points):
        pad.locator(f".numpad button[value='{key}']").click()
    expect(pad.locator("input[name=points]")).to_have_value(str(points))
    pad.get_by_role("button", name="Save", exact=True).click()
    # The number pad moves on to the next cell, empty, once the points are saved.
    expect(pad.locator("input[name=points]")).to_have_value("")


def test_an_evening_of_own_games(host_page: Page, live_server, table):
    page, base = host_page, live_server.url
    household = table["household"]
    for name in ("Carla", "Dora"):
        table["night"].players.add(PlayerFactory(household=household, name=name))
    OwnGameFactory(household=household, name="Codenames", teams=True)
    OwnGameFactory(household=household, name="Skyjo", scoring="fewest_points", end="target",
                   end_at=100)
    night_url = table["night"].get_absolute_url()

    # Hanabi is added from the new-game screen in one short form, then won together.
    page.goto(base + night_url + "plays/new/")
    page.get_by_text("+ A game of your own").click()
    page.get_by_role("textbox", name="Name").fill("Hanabi")
    page.get_by_label("How it is scored").select_option("cooperative")
    # The choice redraws the form (the buttons wait meanwhile): tap once it is drawn.
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
    page.get_by_role("button", name="Add to our games").click()
    expect(page.locator("label.game-tile", has_text="Hanabi").locator("input")).to_be_checked()
    for name in ("Anna", "Ben", "Carla"):
        page.get_by_role("button", name=name).click()
        expect(page.get_by_role("button", name=name).locator(".seat-number")
               ).to_be_visible()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/plays/\d+/$"))
    expect(page.locator("h1")).to_contain_text("Hanabi")
    page.get_by_text("We won").click()
    page.get_by_label("Score (optional)").fill("21")
    page.get_by_role("button", name="Save result").click()
    expect(page.locator("#play")).to_contain_text("Anna")
    expect(page.locator(".status")).to_contain_text("Finished")

    # The rematch is lost together: nobody wins.
    rematch(page)
    page.get_by_text("We lost").click()
    page.get_by_role("button", name="Save result").click()
    expect(page.locator(".status")).to_contain_text("Finished")

    # Codenames in teams: a tap moves a player on to the next team.
    new_game(page, base, night_url, "Codenames", ["Anna", "Ben", "Carla", "Dora"])
    page.get_by_role("button", name=re.compile("^Ben")).click()
    expect(page.get_by_role("button", name=re.compile("^Ben"))).to_contain_text("Team 1")
    page.get_by_role("button", name=re.compile("^Carla")).click()
    expect(page.get_by_role("button", name=re.compile("^Carla"))).to_contain_text("Team 2")
    page.get_by_label(re.compile("^Team 1")).fill("3")
    page.get_by_label(re.compile("^Team 2")).fill("8")
    page.get_by_role("button", name="Save result").click()
    expect(page.locator(".status")).to_contain_text("Finished")

    # Skyjo round by round until Ben passes 100; the fewest points win.
    new_game(page, base, night_url, "Skyjo", ["Anna", "Ben"])
    for anna, ben in [(20, 45), (15, 38), (10, 30)]:
        type_points(page, anna)
        type_points(page, ben)
    expect(page.locator(".end-question")).to_contain_text("Ben reached 113. Finish the game?")
    page.locator(".end-question").get_by_role("button", name="Finish the game").click()
    expect(page.locator("#pad-standing")).to_contain_text("Anna")

    # Skyjo once more, the final scores only.
    new_game(page, base, night_url, "Skyjo", ["Anna", "Ben"])
    page.get_by_role("link", name="Enter only the final scores").click()
    page.get_by_label("Anna").fill("61")
    page.get_by_label("Ben").fill("44")
    page.get_by_role("button", name="Save result").click()
    expect(page.locator(".status")).to_contain_text("Finished")

    # The history names each own game; a game's page counts only its own plays.
    page.goto(base + "/history/")
    for game in ("Hanabi", "Codenames", "Skyjo"):
        expect(page.locator("main")).to_contain_text(game)
    page.locator(".chips").get_by_role("link", name="Anna").click()
    expect(page.locator("h1")).to_contain_text("Anna")
    games_table = page.locator("table.standings").first
    # Won Hanabi together once, lost it once; won Skyjo once (the fewest points).
    expect(games_table.locator("tr", has_text="Hanabi")).to_contain_text("50%")
    expect(games_table.locator("tr", has_text="Skyjo")).to_contain_text("50%")
    games_table.get_by_role("link", name="Skyjo").click()
    expect(page.locator("h1")).to_have_text("Skyjo")
    expect(page.locator("main")).to_contain_text("2 finished games")

    # The evening's board shows tonight's games by their names.
    page.goto(base + night_url)
    page.get_by_role("button", name="Share a scoreboard").click()
    board = page.locator(".share-url").get_attribute("href")
    page.goto(board if board.startswith("http") else base + board)
    for game in ("Hanabi", "Codenames", "Skyjo"):
        expect(page.locator("#board")).to_contain_text(game)
