"""Dice answered on the device: die taps in the Kniffel editor ask the server nothing, and the
options the pad shows are the engine's; only the chosen field is sent."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Page, Request, expect

from games import get
from tests.browser.conftest import cell_named
from tracker.table.models import KniffelCell, Play
from tracker.table.recording import start_play, write_cell

pytestmark = pytest.mark.browser

KNIFFEL = get("kniffel")
SPACE = get("weltraum_kniffel")


@contextmanager
def requests_sent(page: Page) -> Iterator[list[Request]]:
    """The requests the page sends to the app meanwhile (the follower's polls left out)."""
    sent: list[Request] = []

    def note(request: Request) -> None:
        if "/follow/" not in request.url and not request.url.endswith(".js"):
            sent.append(request)

    page.on("request", note)
    try:
        yield sent
    finally:
        page.remove_listener("request", note)


def open_editor(page: Page, live_server, play: Play, player, field: str) -> None:
    page.goto(live_server.url + play.get_absolute_url())
    cell_named(page, player.name, say_label(play, field)).click()
    editor = page.locator("#editor")
    expect(editor.locator(".question, .dice-form").first).to_be_visible()
    if editor.locator(".question").count():
        editor.get_by_role("link", name=f"Enter for {player.name}").click()
    expect(editor.locator(".dice-form")).to_be_visible()
    expect(editor.locator("#roll-table")).to_have_count(1)


def say_label(play: Play, field: str) -> str:
    return str(play.rules.field(field).label)


def tap_dice(page: Page, dice: list) -> None:
    editor = page.locator("#editor")
    before = editor.locator(".dice-slots button.die").count()
    for entered, die in enumerate(dice, start=before + 1):
        editor.locator(f".die-pad[value='die:{die}']").click()
        expect(editor.locator(".dice-slots button.die")).to_have_count(entered)


def shown_options(page: Page) -> dict[str, int]:
    buttons = page.locator("#editor .options button[name=choose]")
    return {buttons.nth(i).get_attribute("value"): int(buttons.nth(i).locator("strong")
                                                       .inner_text())
            for i in range(buttons.count())}


def engine_options(play: Play, player, field: str, dice: list) -> dict[str, int]:
    """What the engine offers for ``dice`` with the tapped ``field`` counted as open."""
    play.refresh_from_db()
    sheet = {key: points for key, points in play.result.get("sheets", {})
             .get(str(player.pk), {}).items() if key != field}
    return play.rules.options(dice, sheet, play.house_rules)


def test_die_taps_ask_nothing_and_the_pad_shows_the_engines_options(host_page: Page,
                                                                    live_server, table):
    anna, _ben = table["players"]
    play = start_play(household=table["household"], game="kniffel", players=table["players"],
                      game_night=table["night"], user=table["host"])
    write_cell(play, anna, "kniffel", 50, expected_version=None)
    write_cell(play, anna, "chance", 21, expected_version=None)
    open_editor(host_page, live_server, play, anna, "fours")
    editor = host_page.locator("#editor")
    with requests_sent(host_page) as sent:
        tap_dice(host_page, [3, 3, 2, 2])
        expect(editor.locator(".dice-wanted")).to_be_visible()
        expect(editor.locator(".options button")).to_have_count(0)
        tap_dice(host_page, [2])
        expect(editor.locator(".dice-wanted")).to_be_hidden()
        expect(editor.locator(".options-hint")).to_have_text("The roll scores — tap where it goes:")
        assert shown_options(host_page) == engine_options(play, anna, "fours", [3, 3, 2, 2, 2])
        assert "chance" not in shown_options(host_page) and "kniffel" not in shown_options(
            host_page)
        expect(editor.locator("button.option.tapped")).to_have_attribute("value", "fours")
        expect(editor.locator(".die-pad").first).to_be_disabled()

        # A further Kniffel: only its upper field, by Schmidt's joker.
        editor.get_by_role("button", name="Clear").click()
        expect(editor.locator(".dice-slots button.die")).to_have_count(0)
        expect(editor.locator(".dice-wanted")).to_be_hidden()
        tap_dice(host_page, [4, 4, 4, 4, 4])
        assert shown_options(host_page) == {"fours": 20}
        assert shown_options(host_page) == engine_options(play, anna, "fours", [4] * 5)

        # A die taken back, another tapped: a large straight.
        editor.locator(".dice-slots button.die").nth(0).click()
        expect(editor.locator(".dice-slots button.die")).to_have_count(4)
        expect(editor.locator("input[name=dice]")).to_have_value("4,4,4,4")
        expect(editor.locator(".die-pad").first).to_be_enabled()
        editor.get_by_role("button", name="Clear").click()
        tap_dice(host_page, [6, 2, 5, 3, 4])
        expect(editor.locator("input[name=dice]")).to_have_value("6,2,5,3,4")
        expected = engine_options(play, anna, "fours", [6, 2, 5, 3, 4])
        assert shown_options(host_page) == expected and expected["large_straight"] == 40
        assert sent == []

        editor.locator("button[name=choose][value=large_straight]").click()
        expect(cell_named(host_page, "Anna", "Large straight")).to_have_text("40")
    posts = [request for request in sent if request.method == "POST"]
    assert len(posts) == 1 and posts[0].url.endswith(f"/{anna.pk}/fours/")
    assert "choose=large_straight" in posts[0].post_data
    assert "dice=6%2C2%2C5%2C3%2C4" in posts[0].post_data
    cell = KniffelCell.objects.get(player=anna, field="large_straight")
    assert (cell.points, cell.dice) == (40, [6, 2, 5, 3, 4])


@pytest.mark.parametrize("house_rules", [{}, {"field_choice": "free"}])
def test_the_space_game_offers_what_the_engine_does(host_page: Page, live_server, table,
                                                    house_rules):
    anna, ben = table["players"]
    play = start_play(household=table["household"], game="weltraum_kniffel",
                      players=table["players"], game_night=table["night"], user=table["host"],
                      house_rules=house_rules)
    write_cell(play, ben, "three_and_pair", 4, expected_version=None)
    open_editor(host_page, live_server, play, ben, "ufo")
    editor = host_page.locator("#editor")
    with requests_sent(host_page) as sent:
        for roll in (["ufo", "ufo", "ufo", "rocket", "rocket"],
                     ["sun", "sun", "sun", "sun", "sun"],
                     ["ufo", "rocket", "nebula", "star", "planet"]):
            editor.get_by_role("button", name="Clear").click()
            tap_dice(host_page, roll)
            assert shown_options(host_page) == engine_options(play, ben, "ufo", roll), roll
        assert "three_and_pair" not in shown_options(host_page)
        hint = ("By the rules the roll goes where it scores the most — tap where it goes:"
                if not house_rules else "The roll scores — tap where it goes:")
        expect(editor.locator(".options-hint")).to_have_text(hint)
    assert sent == []


def test_a_filled_cell_tapped_again_offers_itself_as_the_server_does(host_page: Page,
                                                                      live_server, table):
    anna, _ben = table["players"]
    play = start_play(household=table["household"], game="kniffel", players=table["players"],
                      game_night=table["night"], user=table["host"])
    write_cell(play, anna, "kniffel", 50, expected_version=None)
    open_editor(host_page, live_server, play, anna, "kniffel")
    with requests_sent(host_page) as sent:
        tap_dice(host_page, [5, 5, 5, 5, 5])
        # With the Kniffel field counted open the roll is a first Kniffel, no joker.
        assert shown_options(host_page)["kniffel"] == 50
        assert shown_options(host_page) == engine_options(play, anna, "kniffel", [5] * 5)
    assert sent == []


def test_the_keyboard_enters_dice_and_chooses_without_the_mouse(host_page: Page, live_server,
                                                              table):
    anna, _ben = table["players"]
    play = start_play(household=table["household"], game="kniffel", players=table["players"],
                      game_night=table["night"], user=table["host"])
    open_editor(host_page, live_server, play, anna, "chance")
    editor = host_page.locator("#editor")
    editor.locator(".die-pad[aria-label='6']").focus()
    for entered in range(1, 6):
        host_page.keyboard.press("Enter")
        expect(editor.locator(".dice-slots button.die")).to_have_count(entered)
    # The pad is disabled by the fifth die: focus moves on to the field the cell was opened
    # for, so Enter puts the roll there.
    expect(editor.locator("button[name=choose][value=chance]")).to_be_focused()
    expect(editor.locator(".dice-slots").get_by_role("button", name="6")).to_have_count(5)
    host_page.keyboard.press("Enter")
    expect(cell_named(host_page, "Anna", "Chance")).to_have_text("30")


def test_with_the_coachs_hint_the_taps_still_go_to_the_server(host_page: Page, live_server,
                                                              table, settings, coach_tables):
    settings.COACH_TABLES_DIR = coach_tables
    anna, _ben = table["players"]
    play = start_play(household=table["household"], game="weltraum_kniffel",
                      players=table["players"], game_night=table["night"], user=table["host"],
                      house_rules={"coach_hint": True})
    host_page.goto(live_server.url + play.get_absolute_url())
    cell_named(host_page, "Anna", "UFO").click()
    editor = host_page.locator("#editor")
    expect(editor.locator(".coach-hint")).to_be_visible()
    expect(editor.locator("#roll-table")).to_have_count(0)
    with requests_sent(host_page) as sent:
        tap_dice(host_page, ["ufo", "ufo", "ufo", "rocket", "rocket"])
    assert len([request for request in sent if request.method == "POST"]) == 5
    assert shown_options(host_page) == engine_options(
        play, anna, "ufo", ["ufo", "ufo", "ufo", "rocket", "rocket"])
    expect(editor.locator(".coach-says")).to_be_visible()
