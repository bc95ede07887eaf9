"""A grandparent with a keyboard: a Kniffel turn and a score-pad round by keys alone, the
focus where the hands are after every step, and no more key presses than taps."""

import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.factories import OwnGameFactory, PlayerFactory
from tracker.table.models import Play
from tracker.table.pad_entries import enter_round_points
from tracker.table.recording import start_play, write_cell
from tracker.table.views import pads

pytestmark = pytest.mark.browser
SIZES = {"tablet": {"width": 1024, "height": 768}, "phone": {"width": 390, "height": 844}}

#: A Kniffel turn by taps: the cell, five dice, the field.
TAPS_FOR_A_TURN = 7


class Keys:
    """The keyboard, counting what it presses."""

    def __init__(self, page: Page) -> None:
        self.page, self.pressed = page, 0

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.pressed += 1

    def tab_to(self, name: str, limit: int = 60) -> int:
        """Tab until the control named ``name`` has the focus; how many Tabs it took."""
        for tabs in range(1, limit + 1):
            self.press("Tab")
            if self.focused_name() == name:
                return tabs
        raise AssertionError(f"{name} not reached in {limit} Tabs")

    def focused_name(self) -> str:
        return self.page.evaluate("""() => {
          const element = document.activeElement;
          return element.getAttribute('aria-label') || element.value || element.textContent.trim();
        }""")


def focused(page: Page):
    return page.locator("*:focus")


@pytest.fixture
def sheet(table):
    return start_play(household=table["household"], game="kniffel", players=table["players"],
                      game_night=table["night"], user=table["host"])


def test_a_kniffel_turn_by_keyboard_takes_no_more_presses_than_taps(host_page: Page,
                                                                    live_server, sheet):
    page = host_page
    page.goto(live_server.url + sheet.get_absolute_url())
    keys = Keys(page)
    keys.press("Tab")
    expect(focused(page)).to_have_text("Skip to the content")
    tabs = keys.tab_to("Anna, Ones: empty")
    keys.pressed = 0

    keys.press("Enter")
    editor = page.get_by_role("dialog", name="Anna · Ones")
    expect(editor).to_be_visible()
    expect(focused(page)).to_have_attribute("aria-label", "1")
    announcer = page.locator("#announcer")
    for entered, die in enumerate("11123", start=1):
        keys.press(die)
        expect(editor.locator(".dice-slots button.die")).to_have_count(entered)
        # Each key is heard at once, not only once the fifth die is in.
        expect(announcer).to_have_text("The dice rolled: " + ", ".join("11123"[:entered]))
    expect(editor.get_by_role("group", name="The dice rolled").get_by_role("button")
           ).to_have_text(["⚀", "⚀", "⚀", "⚁", "⚂", "Clear"])
    # The fifth die puts the focus on the field the cell was opened for.
    expect(focused(page)).to_contain_text("Ones")
    keys.press("Enter")
    expect(page.locator("#editor")).to_have_class(re.compile("empty"))
    expect(focused(page)).to_have_attribute("aria-label", "Anna, Ones: 3")
    assert keys.pressed <= TAPS_FOR_A_TURN, keys.pressed
    assert tabs <= 20, tabs

    # The next player's cell is one Tab on; Escape closes its editor and the focus returns.
    keys.press("Tab")
    expect(focused(page)).to_have_attribute("aria-label", "Ben, Ones: empty")
    keys.press("Enter")
    expect(page.get_by_role("dialog", name="Ben · Ones")).to_be_visible()
    keys.press("2")
    keys.press("Backspace")
    expect(page.locator("#editor .dice-slots button.die")).to_have_count(0)
    keys.press("Escape")
    expect(page.locator("#editor")).to_have_class(re.compile("empty"))
    expect(focused(page)).to_have_attribute("aria-label", "Ben, Ones: empty")


def test_a_cell_saved_by_keyboard_is_shown_again_wherever_the_page_was_scrolled(
        host_page: Page, live_server, table, sheet):
    """The focus comes back to the saved cell and the page scrolls to it: the keyboard's
    place on the sheet is where the eyes look (a finger's save leaves the page where it is:
    test_devices.py)."""
    anna = table["players"][0]
    page = host_page
    page.goto(live_server.url + sheet.get_absolute_url())
    keys = Keys(page)
    page.locator(f"#c-{anna.pk}-chance a").focus()
    keys.press("Enter")
    points = page.get_by_role("dialog", name="Anna · Chance").locator("input[name=points]")
    points.focus()
    for key in "21":
        keys.press(key)
    page.evaluate("window.scrollTo(0, 0)")
    keys.press("Enter")
    expect(focused(page)).to_have_attribute("aria-label", "Anna, Chance: 21")
    expect(focused(page)).to_be_in_viewport()


def pad_by_keyboard(page: Page, live_server, table) -> tuple[Play, Keys]:
    """An own game on the score pad, its first cell's number pad opened by keys: the focus
    is in its field."""
    game = OwnGameFactory(household=table["household"], name="Wizard")
    pad = start_play(household=table["household"], game="generic", players=table["players"],
                     game_night=table["night"], user=table["host"], own_game=game)
    page.goto(live_server.url + pad.get_absolute_url())
    keys = Keys(page)
    keys.tab_to("Anna, round 1: empty")
    keys.press("Enter")
    expect(page.get_by_role("dialog", name="Anna · Round 1")).to_be_visible()
    expect(page.locator("#pad-editor input[name=points]")).to_be_focused()
    return pad, keys


def test_escape_closes_the_question_of_a_cell_out_of_turn(host_page: Page, live_server,
                                                          sheet):
    """Ben's cell opened while it is Anna's turn asks first; Escape closes the question (it
    has no form, only its Close) and the focus returns to Ben's cell."""
    page = host_page
    page.goto(live_server.url + sheet.get_absolute_url())
    keys = Keys(page)
    keys.tab_to("Ben, Ones: empty")
    keys.press("Enter")
    expect(page.locator("#editor")).to_contain_text("It is Anna's turn")
    expect(page.locator("#editor")).to_be_focused()
    keys.press("Escape")
    expect(page.locator("#editor")).to_have_class(re.compile("empty"))
    expect(focused(page)).to_have_attribute("aria-label", "Ben, Ones: empty")


def test_a_score_pad_round_by_keyboard(host_page: Page, live_server, table):
    page = host_page
    _pad, keys = pad_by_keyboard(page, live_server, table)
    points = page.locator("#pad-editor input[name=points]")
    keys.pressed = 0
    for typed, next_cell in (("12", "Ben · Round 1"), ("8", "Anna · Round 2")):
        for key in typed:
            keys.press(key)
        keys.press("Enter")
        # The number pad moves on to the next cell and keeps the focus.
        expect(page.get_by_role("dialog", name=next_cell)).to_be_visible()
        expect(points).to_have_value("")
        expect(points).to_be_focused()
    assert keys.pressed == 5  # the digits and an Enter for each player
    expect(page.locator("#announcer")).to_contain_text("Anna leads with 12.")

    keys.press("Escape")
    expect(focused(page)).to_have_attribute("aria-label", "Anna, round 2: empty")


def test_save_pressed_as_a_button_keeps_the_focus_on_the_save_button(host_page: Page,
                                                                     live_server, table):
    """Tabbing to Save and pressing it: the number pad moves on, and the focus stays on the
    Save a screen reader reads, not on the hidden one that Enter in the field presses."""
    page = host_page
    _pad, keys = pad_by_keyboard(page, live_server, table)
    keys.press("7")
    save = page.get_by_role("dialog").get_by_role("button", name="Save", exact=True)
    for _tab in range(20):
        keys.press("Tab")
        if save.evaluate("button => button === document.activeElement"):
            break
    else:
        raise AssertionError("Save not reached by Tab")
    keys.press("Enter")
    expect(page.get_by_role("dialog", name="Ben · Round 1")).to_be_visible()
    expect(save).to_be_focused()


def test_points_typed_ahead_on_a_slow_wi_fi_are_saved_in_turn(host_page: Page, live_server,
                                                                table, monkeypatch):
    """Typing the next player's points and Enter before the last save is in: they wait on the
    number pad and are saved on the next player's cell once it comes."""
    page = host_page
    pad, keys = pad_by_keyboard(page, live_server, table)
    save_points = pads.save_points

    def slowly_saved(*args, **kwargs):
        time.sleep(0.5)
        return save_points(*args, **kwargs)

    monkeypatch.setattr(pads, "save_points", slowly_saved)
    for key in ("1", "2", "Enter", "8", "Enter"):
        keys.press(key)
    expect(page.get_by_role("dialog", name="Anna · Round 2")).to_be_visible()
    expect(page.locator("#pad-editor input[name=points]")).to_be_focused()
    anna, ben = table["players"]
    pad.refresh_from_db()
    assert pad.result["rounds"] == [{anna.key: 12, ben.key: 8}]


def test_the_focus_stays_on_its_cell_while_another_tablet_enters(host_page: Page, live_server,
                                                                table, sheet):
    anna, _ben = table["players"]
    page = host_page
    page.goto(live_server.url + sheet.get_absolute_url())
    keys = Keys(page)
    keys.tab_to("Ben, Ones: empty")
    write_cell(sheet, anna, "twos", 6, expected_version=None)
    expect(page.locator("#announcer")).to_contain_text("Anna: Twos 6.")
    expect(focused(page)).to_have_attribute("aria-label", "Ben, Ones: empty")


def test_the_focus_stays_on_the_screen_switch_and_the_sheet_s_frame_while_another_tablet_enters(
        host_page: Page, live_server, table):
    """The screen switch and the sideways frame of a sheet too wide for a phone are shown as
    this device has them (whether it keeps its screen on, whether the sheet overflows): a
    change from another tablet leaves them, and the focus on them, as they are."""
    players = [*table["players"], *(PlayerFactory(household=table["household"], name=name)
                                    for name in ("Carla", "Dora", "Emil"))]
    sheet = start_play(household=table["household"], game="kniffel", players=players,
                       game_night=table["night"], user=table["host"])
    page = host_page
    page.add_init_script("Object.defineProperty(navigator, 'wakeLock', "
                         "{value: {request: async () => ({released: false})}});")
    page.set_viewport_size(SIZES["phone"])
    page.goto(live_server.url + sheet.get_absolute_url())
    switch, frame = page.locator(".keep-awake"), page.locator(".sheet-scroll")
    expect(frame).to_have_attribute("tabindex", "0")  # five players overflow a phone
    switch.focus()
    write_cell(sheet, players[0], "twos", 6, expected_version=None)
    expect(page.locator("#announcer")).to_contain_text("Anna: Twos 6.")
    expect(switch).to_be_focused()
    frame.focus()
    write_cell(sheet, players[1], "twos", 4, expected_version=None)
    expect(page.locator("#announcer")).to_contain_text("Ben: Twos 4.")
    expect(frame).to_be_focused()
    expect(frame).to_have_attribute("tabindex", "0")


def test_typing_on_the_number_pad_goes_on_while_another_tablet_enters(host_page: Page,
                                                                      live_server, table):
    """The number pad in use is kept through the other tablet's change, and so is the focus
    in it: the next key typed lands there."""
    page = host_page
    pad, keys = pad_by_keyboard(page, live_server, table)
    points = page.locator("#pad-editor input[name=points]")
    keys.press("1")
    enter_round_points(pad.pk, 1, 1, member=table["host"], typed="7", expected_version=None,
                       seen=None)
    expect(page.locator("#announcer")).to_contain_text("Ben")
    expect(points).to_be_focused()
    keys.press("2")
    expect(points).to_have_value("12")


@pytest.mark.parametrize("size", SIZES)
def test_the_new_game_screen_keeps_the_focus_on_each_choice(host_page: Page, live_server,
                                                            table, size):
    """Each choice answers with the form again; the focus stayed on none of them, and a
    keyboard began from the top after every player (60 presses for two)."""
    page = host_page
    page.set_viewport_size(SIZES[size])
    page.goto(f"{live_server.url}{table['night'].get_absolute_url()}plays/new/")

    def answered(press: str) -> None:
        """Press ``press`` and wait until the form has answered it with itself."""
        before = page.locator("#setup").element_handle()
        page.keyboard.press(press)
        page.wait_for_function("(old) => !old.isConnected", arg=before)
        page.wait_for_function("() => !document.querySelector('.htmx-settling, .htmx-request')")

    page.locator("input[name=game]").first.focus()
    answered("ArrowDown")
    expect(page.locator("input[name=game]").nth(1)).to_be_checked()
    expect(page.locator("input[name=game]:checked")).to_be_focused()
    seat = page.locator("button.seat-tap").first
    name = seat.get_attribute("value")
    seat.focus()
    answered("Enter")
    expect(page.locator(f"button.seat-tap[value='{name}']")).to_have_class(re.compile("chosen"))
    expect(page.locator(f"button.seat-tap[value='{name}']")).to_be_focused()


@pytest.mark.parametrize("size", SIZES)
def test_the_kniffel_sheet_takes_the_keyboard_straight_to_the_next_field(
        host_page: Page, live_server, sheet, table, size):
    """Full House was 29 Tabs away: one link before the sheet goes to the first open field
    of the player whose turn it is."""
    anna = table["players"][0]
    for field, points in (("ones", 3), ("twos", 6), ("threes", 9)):
        write_cell(sheet, anna, field, points, expected_version=None)
    write_cell(sheet, table["players"][1], "ones", 2, expected_version=None)
    page = host_page
    page.set_viewport_size(SIZES[size])
    page.goto(live_server.url + sheet.get_absolute_url())

    link = page.get_by_role("link", name="To the next field of the player in turn")
    link.focus()
    page.keyboard.press("Enter")

    expect(focused(page)).to_have_attribute("aria-label", "Ben, Twos: empty")


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 512, "height": 384}],
                         ids=["phone", "tablet-at-200%"])
def test_the_number_pad_never_covers_the_cell_it_is_for(host_page: Page, live_server, table,
                                                        size):
    """On a phone and at 200% zoom the number pad is a bar at the bottom: after twelve
    rounds, the cell it is open for, and the cell the focus returns to, stay above it."""
    page = host_page
    page.set_viewport_size(size)
    game = OwnGameFactory(household=table["household"], name="Skyjo")
    pad = start_play(household=table["household"], game="generic", players=table["players"],
                     game_night=table["night"], user=table["host"], own_game=game)
    for number in range(1, 13):
        for index in range(2):
            pad.refresh_from_db()
            enter_round_points(pad.pk, number, index, member=table["host"], typed=str(number),
                               expected_version=pad.version)
    page.goto(live_server.url + pad.get_absolute_url())

    def clear_of_the_pad(cell) -> bool:
        box, bar = cell.bounding_box(), page.locator("#pad-editor").bounding_box()
        return box is not None and bar is not None and box["y"] + box["height"] <= bar["y"] + 1

    cell = page.get_by_label("Anna, round 13: empty")
    cell.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#pad-editor input[name=points]")).to_be_focused()
    page.wait_for_function("() => !document.querySelector('#pad-editor.htmx-settling')")
    assert clear_of_the_pad(page.locator(".pad-cell.open"))
    page.keyboard.press("Escape")
    assert clear_of_the_pad(focused(page))
