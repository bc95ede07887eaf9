"""A Wingspan-like game of four, written down by categories on two tablets at once: each
tablet enters cells (birds added up card by card), shows what the other entered, keeps a
refused entry beside its cell, and the game ends once every category is entered."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import cell_named, type_on_pad
from tests.factories import OwnGameFactory, PlayerFactory
from tracker.table.models import Play
from tracker.table.recording import record_result, start_play

pytestmark = pytest.mark.browser

CATEGORIES = ["Birds", "Bonus cards", "Goals", "Eggs", "Food", "Tucked"]
#: Each player's cells, category by category, as typed on the number pad.
SHEET = {
    "Anna": ["9+7+5+4", "7", "14", "9", "3", "6"],
    "Ben": ["8+9+5+7+6", "4", "9", "12", "1", "8"],
    "Carla": ["6+5+4+7+3", "9", "11", "15", "4", "2"],
    "David": ["9+8+7+6+5", "6", "12", "6", "5", "5"],
}
TOTALS = {"Anna": 64, "Ben": 69, "Carla": 66, "David": 69}


def test_a_wingspan_game_of_four_on_two_tablets(host_page: Page, second_host_page: Page,
                                                 live_server, table):
    household = table["household"]
    players = table["players"] + [PlayerFactory(household=household, name=name)
                                  for name in ("Carla", "David")]
    wingspan = OwnGameFactory(household=household, name="Wingspan", sheet="categories",
                              categories=[{"name": name, "minus": False}
                                          for name in CATEGORIES], tiebreak="Food")
    play = start_play(household=household, game="generic", own_game=wingspan, players=players,
                      game_night=table["night"], user=table["host"])
    first, second = host_page, second_host_page
    for page in (first, second):
        page.goto(live_server.url + play.get_absolute_url())
    expect(first.locator("#pad-editor h2")).to_have_text("Anna · Birds")

    # The first tablet adds up the birds, player after player: the pad moves across.
    for name in SHEET:
        expect(first.locator("#pad-editor h2")).to_have_text(f"{name} · Birds")
        type_on_pad(first, SHEET[name][0])
    # The second tablet shows them, and enters the eggs meanwhile.
    expect(cell_named(second, "David", "Birds")).to_have_text("35")
    for name in SHEET:
        cell_named(second, name, "Eggs").click()
        expect(second.locator("#pad-editor h2")).to_have_text(f"{name} · Eggs")
        type_on_pad(second, SHEET[name][3])
    expect(cell_named(first, "Carla", "Eggs")).to_have_text("15")
    expect(first.locator("#pad-standing")).to_contain_text("Ben leads with 47")
    expect(first.locator("#pad-standing")).not_to_contain_text("the lead counts")

    # Opened again, a cell shows its sum; something else than a sum is refused beside it.
    cell_named(first, "Anna", "Birds").click()
    editor = first.locator("#pad-editor")
    expect(editor.locator("input[name=points]")).to_have_value("9+7+5+4")
    editor.locator("input[name=points]").fill("3*4")
    editor.get_by_role("button", name="Save", exact=True).click()
    expect(editor).to_contain_text("a short sum such as 3+6+2")
    expect(editor.locator("input[name=points]")).to_have_value("3*4")
    expect(cell_named(first, "Anna", "Birds")).to_have_text("25")

    # The rest, the two tablets sharing the categories.
    for index, category in enumerate(CATEGORIES):
        if index in (0, 3):
            continue
        page = first if index % 2 else second
        for name in SHEET:
            cell_named(page, name, category).click()
            type_on_pad(page, SHEET[name][index])
    for page in (first, second):
        for index, name in enumerate(SHEET):
            expect(page.locator(f"#total-{index}")).to_contain_text(str(TOTALS[name]))
    # Ben and David tie at 69: the most food decides, and David has more.
    expect(second.locator(".end-question")).to_contain_text("Every category is entered.")
    second.locator(".end-question").get_by_role("button", name="Finish the game").click()
    expect(first.locator(".celebrate")).to_contain_text("David")
    play.refresh_from_db()
    assert play.status == Play.Status.FINISHED
    assert {p.player.name: p.place for p in play.participants.all()} == {
        "David": 1, "Ben": 2, "Carla": 3, "Anna": 4}
    assert play.result["sums"][0][players[0].key] == "9+7+5+4"


def test_a_tie_broken_by_food_tokens_left_on_a_phone_by_keyboard(
        host_page: Page, second_host_page: Page, live_server, table):
    """Papa and Mama level at 64: the pad asks the two of them, and only them, for the food
    tokens left; typed and sent by keyboard, the places follow on both devices."""
    household = table["household"]
    papa, mama = (PlayerFactory(household=household, name=name) for name in ("Papa", "Mama"))
    jan = PlayerFactory(household=household, name="Jan")
    wingspan = OwnGameFactory(household=household, name="Wingspan", sheet="categories",
                              categories=[{"name": "Birds", "minus": False},
                                          {"name": "Eggs", "minus": False}],
                              tiebreak_count="food tokens left")
    play = start_play(household=household, game="generic", own_game=wingspan,
                      players=[papa, mama, jan], game_night=table["night"], user=table["host"])
    record_result(play, {"rounds": [{papa.key: 50, mama.key: 52, jan.key: 40},
                                    {papa.key: 14, mama.key: 12, jan.key: 9}],
                         "finished": True}, expected_version=play.version)
    phone, tablet = host_page, second_host_page
    phone.set_viewport_size({"width": 390, "height": 844})
    for page in (phone, tablet):
        page.goto(live_server.url + play.get_absolute_url())
    ties = phone.locator("form.ties")
    expect(ties).to_contain_text("Papa, Mama both have 64: the most food tokens left breaks "
                                 "the tie.")
    expect(ties.get_by_label("Jan: food tokens left")).to_have_count(0)

    ties.get_by_label("Papa: food tokens left").focus()
    phone.keyboard.type("5")
    phone.keyboard.press("Tab")
    expect(ties.get_by_label("Mama: food tokens left")).to_be_focused()
    phone.keyboard.type("3")
    phone.keyboard.press("Enter")
    for page in (phone, tablet):
        expect(page.locator(".celebrate")).to_contain_text("Papa")
        expect(page.locator(".tiebreak-note")).to_have_text(
            "Papa, Mama both have 64: the most food tokens left decided (5 to 3).")
        # Decided, the count is still there to correct, folded away.
        expect(page.locator("form.ties")).to_be_hidden()
        expect(page.locator("details.ties-done summary")).to_have_text(
            "Correct the food tokens left")
    assert {p.player.name: p.place for p in play.participants.all()} == {
        "Papa": 1, "Mama": 2, "Jan": 3}
