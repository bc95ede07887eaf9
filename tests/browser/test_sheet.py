"""The Kniffel sheet on a tablet held either way: whose turn it is, and a dice editor in view."""

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import cell_named
from tracker.table.models import KniffelCell, Play
from tracker.table.recording import start_play

pytestmark = pytest.mark.browser

SIZES = [(768, 1024), (1024, 768)]
TOUCH = 44


def open_sheet(page: Page, live_server, table, width: int, height: int) -> Play:
    page.set_viewport_size({"width": width, "height": height})
    play = start_play(household=table["household"], game="kniffel", players=table["players"],
                      game_night=table["night"], user=table["host"])
    page.goto(live_server.url + play.get_absolute_url())
    expect(page.locator("#turn")).to_contain_text("Anna's turn")
    return play


def enter_dice(page: Page, dice: list[int]) -> None:
    editor = page.locator("#editor")
    for entered, die in enumerate(dice, start=1):
        editor.locator(f".die-pad[aria-label='{die}']").click()
        expect(editor.locator(".dice-slots button.die")).to_have_count(entered)


def within_viewport(page: Page, locator: Locator) -> bool:
    box, size = locator.bounding_box(), page.viewport_size
    return box is not None and (
        box["x"] >= 0 and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"])


@pytest.mark.parametrize("width,height", SIZES)
def test_a_cell_out_of_turn_asks_first_then_takes_the_roll(host_page: Page, live_server, table,
                                                           width, height):
    open_sheet(host_page, live_server, table, width, height)
    cell_named(host_page, "Ben", "Full House").click()
    editor = host_page.locator("#editor")
    expect(editor.locator(".question")).to_have_text(
        "It is Anna's turn. Enter this for Ben anyway?")
    expect(editor.locator(".dice-form")).to_have_count(0)
    for name in ("Enter for Ben", "Back to Anna"):
        box = editor.get_by_role("link", name=name).bounding_box()
        assert box["width"] >= TOUCH and box["height"] >= TOUCH
        assert within_viewport(host_page, editor.get_by_role("link", name=name))

    editor.get_by_role("link", name="Enter for Ben").click()
    expect(editor.locator(".dice-form")).to_be_visible()
    enter_dice(host_page, [3, 3, 2, 2, 2])
    expect(editor.locator(".question")).to_have_count(0)
    editor.locator("button[name=choose][value=full_house]").click()
    expect(cell_named(host_page, "Ben", "Full House")).to_have_text("25")
    expect(host_page.locator("#turn")).to_contain_text("Anna's turn")
    cell = KniffelCell.objects.get()
    assert (cell.player, cell.field, cell.points) == (table["players"][1], "full_house", 25)


def test_back_to_the_player_in_turn_opens_that_row(host_page: Page, live_server, table):
    open_sheet(host_page, live_server, table, 1024, 768)
    cell_named(host_page, "Ben", "Sixes").click()
    host_page.locator("#editor").get_by_role("link", name="Back to Anna").click()
    expect(host_page.locator("#editor h2")).to_have_text("Anna · Sixes")
    expect(host_page.locator("#editor .dice-form")).to_be_visible()
    cell_named(host_page, "Anna", "Sixes").click()
    expect(host_page.locator("#editor .question")).to_have_count(0)


@pytest.mark.parametrize("width,height", SIZES)
def test_the_dice_editor_fits_the_screen_with_the_options_showing(host_page: Page, live_server,
                                                                  table, width, height):
    open_sheet(host_page, live_server, table, width, height)
    cell_named(host_page, "Anna", "Chance").click()
    enter_dice(host_page, [5, 5, 2, 2, 2])
    editor = host_page.locator("#editor")
    expect(editor.locator("button[name=choose]")).to_have_count(13)
    typed = editor.get_by_label("Or type the points")
    save = editor.get_by_role("button", name="Save")
    for scrolled in ("0", "document.documentElement.scrollHeight"):
        host_page.evaluate(f"window.scrollTo(0, {scrolled})")
        for part in (editor.locator("h2"), editor.locator(".dice-slots"),
                     editor.locator(".options"), typed, save):
            assert within_viewport(host_page, part), (scrolled, part)
    controls = editor.locator("button:visible, a:visible, input:visible")
    for index in range(controls.count()):
        box = controls.nth(index).bounding_box()
        assert box["width"] >= TOUCH and box["height"] >= TOUCH, controls.nth(index)
    typed.fill("16")
    save.click()
    expect(cell_named(host_page, "Anna", "Chance")).to_have_text("16")


@pytest.mark.parametrize("failure", ["server error", "unreachable"])
def test_a_failed_save_says_so_at_the_cell_and_loses_nothing(host_page: Page,
                                                            live_server, table, failure):
    open_sheet(host_page, live_server, table, 1024, 768)
    cell_named(host_page, "Anna", "Chance").click()
    editor = host_page.locator("#editor")
    typed = editor.get_by_label("Or type the points")
    typed.fill("23")

    def fail(route):
        if failure == "unreachable":
            route.abort("connectionrefused")
        else:
            route.fulfill(status=500, body="Server Error")

    host_page.route("**/cells/**", fail)
    editor.get_by_role("button", name="Save").click()
    if failure == "server error":
        expect(editor.get_by_role("alert")).to_contain_text(
            "The server could not save this (error 500)")
        expect(typed).to_have_value("23")
    else:  # kept on the device and sent again by itself
        expect(editor).to_contain_text("Kept on this device")
        expect(cell_named(host_page, "Anna", "Chance")).to_have_attribute(
            "data-waiting", "23")
    assert not KniffelCell.objects.exists()

    host_page.unroute("**/cells/**")
    if failure == "server error":
        editor.get_by_role("button", name="Save").click()
        expect(editor.get_by_role("alert")).to_have_count(0)
    expect(cell_named(host_page, "Anna", "Chance")).to_have_text("23",
                                                                             timeout=8000)
    assert KniffelCell.objects.get().points == 23
