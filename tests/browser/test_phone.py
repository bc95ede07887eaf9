"""A parent's phone at the table: every page fits 360 to 430 pixels without sideways
scrolling of the page, every control a finger taps is 44 pixels or more, and the Kniffel cell
editor is a sheet at the bottom of the screen."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import TOO_SMALL, cell_named, choose_game, log_in
from tests.factories import PlayerFactory
from tracker.table.recording import start_play

pytestmark = pytest.mark.browser

TOUCH = 44
PHONE = {"width": 390, "height": 844}
#: The page's width once every collapsed part (a result's history, a player's form, the
#: language menu) is unfolded, as a finger would.
PAGE_WIDTH = """() => {
  document.querySelectorAll('details').forEach((part) => { part.open = true; });
  return document.documentElement.scrollWidth;
}"""
#: The pages also checked on the narrowest and the widest phone.
NARROW_AND_WIDE = ("home", "a night's page", "the new-game screen", "the Kniffel sheet",
                   "the score pad", "a player's page", "the coach's analysis",
                   "the board of the night", "the board of the Kniffel sheet")


def choose_kniffel_for_three(page: Page) -> None:
    """Kniffel on the new-game screen, three players seated: who starts and the house rules
    with their long choices show."""
    choose_game(page, page.locator("label.game-tile:has(input[value=kniffel])"))
    for name in ("Anna", "Großmutter Hildegard", "Ben"):
        tile = page.locator("button.seat-tap", has_text=name)
        tile.click()
        expect(tile.locator(".seat-number")).to_be_visible()
    expect(page.get_by_label("Bonus for each further Kniffel")).to_be_visible()


def page_width(page: Page, url: str, name: str) -> int:
    """The width of the page called ``name``, opened as at the table."""
    response = page.goto(url)
    assert response.ok, name
    if name == "the new-game screen":
        choose_kniffel_for_three(page)
    return page.evaluate(PAGE_WIDTH)


def test_every_page_fits_a_phone_and_every_control_a_finger(page: Page, live_server,
                                                           family_pages):
    page.set_viewport_size(PHONE)
    too_wide, too_small = {}, {}
    for name, path in family_pages.items():
        if name == "home":
            log_in(page, live_server)
        width = page_width(page, live_server.url + path, name)
        if width > PHONE["width"]:
            too_wide[name] = width
        too_small[name] = page.evaluate(TOO_SMALL, TOUCH)
    assert too_wide == {}, "pages wider than a 390-pixel phone"
    assert {name: small for name, small in too_small.items() if small} == {}

    for phone in (360, 430):
        page.set_viewport_size({**PHONE, "width": phone})
        for name in NARROW_AND_WIDE:
            width = page_width(page, live_server.url + family_pages[name], name)
            if width > phone:
                too_wide[f"{name} at {phone}"] = width
    assert too_wide == {}, "pages wider than the phone"


def test_the_first_account_fits_a_phone(page: Page, live_server, transactional_db):
    for width in (360, 390, 430):
        page.set_viewport_size({**PHONE, "width": width})
        page.goto(live_server.url + "/accounts/first/")
        expect(page.locator("input[name=username]")).to_be_visible()
        assert page.evaluate(PAGE_WIDTH) <= width, width
        assert page.evaluate(TOO_SMALL, TOUCH) == [], width


def test_the_kniffel_editor_is_a_sheet_at_the_bottom_of_a_phone(host_page: Page, live_server,
                                                                table):
    household, night = table["household"], table["night"]
    players = table["players"] + [PlayerFactory(household=household, name=name)
                                  for name in ("Carla", "David", "Emma", "Finn")]
    sheet = start_play(household=household, game="kniffel", players=players,
                       game_night=night, user=table["host"])
    host_page.set_viewport_size(PHONE)
    host_page.goto(live_server.url + sheet.get_absolute_url())
    editor = host_page.locator("#editor")
    assert editor.bounding_box() is None  # nothing open: it takes no room

    cell_named(host_page, "Anna", "Chance").click()
    for entered, die in enumerate([5, 5, 2, 2, 2], start=1):
        editor.locator(f".die-pad[aria-label='{die}']").click()
        expect(editor.locator(".dice-slots button.die")).to_have_count(entered)
    expect(editor.locator("button[name=choose]")).to_have_count(13)
    box = editor.bounding_box()
    assert box["x"] == 0 and box["width"] == PHONE["width"]
    assert abs(box["y"] + box["height"] - PHONE["height"]) <= 1, "not at the bottom"
    assert box["y"] >= 0.35 * PHONE["height"] - 1, "higher than two thirds of the screen"
    controls = editor.locator("button:visible, a:visible, input:visible")
    for control in controls.all():
        part = control.bounding_box()
        assert part["width"] >= TOUCH and part["height"] >= TOUCH, control
        assert part["y"] >= box["y"] and part["y"] + part["height"] <= PHONE["height"], control

    # Scrolled to its end the editor keeps its close button; the sheet's grand total, and
    # the end of the page below it, scroll up above the editor.
    editor.evaluate("element => { element.scrollTop = element.scrollHeight; }")
    close = editor.get_by_role("link", name="Close").bounding_box()
    assert box["y"] <= close["y"] and close["y"] + close["height"] <= PHONE["height"]
    for part in (host_page.locator("#sum-total"), host_page.locator("main > :last-child")):
        part.evaluate("(element, top) => window.scrollBy(0, "
                      "element.getBoundingClientRect().bottom - top)", box["y"])
        seen = part.bounding_box()
        assert seen["y"] + seen["height"] <= box["y"] + 1, "hidden under the editor"
    assert host_page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    editor.get_by_role("link", name="Close").click()
    expect(editor).to_have_class(re.compile(r"\bempty\b"))
    assert editor.bounding_box() is None


@pytest.mark.parametrize("width", [360, 390, 430])
def test_the_maus_form_fits_a_phone_with_four_elephants_each(host_page: Page, live_server,
                                                             table, width):
    host_page.set_viewport_size({"width": width, "height": 844})
    race = start_play(household=table["household"], game="maus_im_nacken",
                      players=table["players"], game_night=table["night"])
    host_page.goto(live_server.url + race.get_absolute_url())
    assert host_page.evaluate("document.documentElement.scrollWidth") <= width
    buttons = host_page.locator(".player-card").first.locator(".choice")
    assert buttons.count() == 16
    for button in buttons.all():
        box = button.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert box["width"] >= TOUCH and box["height"] >= TOUCH


@pytest.mark.parametrize("width", [360, 390, 430])
def test_the_owners_top_bar_with_admin_fits_a_phone(host_page: Page, live_server, table,
                                                    width):
    table["host"].is_staff = table["host"].is_superuser = True
    table["host"].save()
    host_page.set_viewport_size({"width": width, "height": 844})
    for path in ("/", table["night"].get_absolute_url(), "/history/", "/household/"):
        host_page.goto(live_server.url + path)
        assert host_page.locator(".topbar").get_by_role("link", name="Admin").count() == 1
        assert host_page.evaluate("document.documentElement.scrollWidth") <= width, path
        for link in host_page.locator(
                ".topbar a:visible, .topbar .link:visible, .topbar summary:visible").all():
            box = link.bounding_box()
            assert box["x"] + box["width"] <= width, path
            assert box["height"] >= TOUCH, path
