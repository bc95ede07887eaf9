"""Every device at the table: what one tablet enters the others show within a second, taps
on a result form survive a reload, and entries made without a connection wait on the
device and are applied once when it returns."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import cell_named, choose_game, requests_to, type_on_pad
from tests.factories import OwnGameFactory, PlayerFactory
from tracker.table.models import KniffelCell, Play
from tracker.table.pad_entries import enter_round_points
from tracker.table.recording import record_result, start_play, write_cell
from tracker.table.rounds import set_round_points
from tracker.table.views import pads, plays, sheets

pytestmark = pytest.mark.browser

#: An entry shows on the other tablets within a second; the margin covers a busy CI machine.
FOLLOWS_WITHIN_MS = 2_500


def cell(page: Page, player, field: str):
    return page.locator(f"#c-{player.pk}-{field}")


def type_points(page: Page, player, field: str, points: int) -> None:
    """Tap the cell, type the points, save: as the host does for a cell out of turn, looking
    first that the editor is the cell's (the one before may still be shown a moment)."""
    cell(page, player, field).click()
    editor = page.locator("#editor")
    form = editor.locator(f"form.typed[action$='/cells/{player.pk}/{field}/']")
    out_of_turn = editor.get_by_role("link", name=f"Enter for {player.name}")
    expect(form.or_(out_of_turn)).to_be_visible()
    if out_of_turn.is_visible():
        out_of_turn.click()
    form.locator("input[name=points]").fill(str(points))
    form.get_by_role("button", name="Save").click()


@pytest.fixture
def sheet(table) -> Play:
    return start_play(household=table["household"], game="kniffel", players=table["players"],
                      game_night=table["night"], user=table["host"])


@pytest.fixture
def race(table) -> Play:
    return start_play(household=table["household"], game="maus_im_nacken",
                      players=table["players"], game_night=table["night"], user=table["host"])


def test_a_second_tablet_follows_the_sheet_and_keeps_its_open_editor(
        host_page: Page, second_host_page: Page, live_server, table, sheet):
    anna, ben = table["players"]
    host_page.goto(live_server.url + sheet.get_absolute_url())
    second_host_page.goto(live_server.url + sheet.get_absolute_url())
    expect(second_host_page.locator("#turn")).to_contain_text("Anna's turn")

    type_points(host_page, anna, "chance", 21)
    expect(cell(second_host_page, anna, "chance")).to_have_text("21",
                                                                timeout=FOLLOWS_WITHIN_MS)
    expect(second_host_page.locator("#turn")).to_contain_text("Ben's turn")
    expect(second_host_page.locator("#sum-total")).to_contain_text("21")

    # The second tablet is in the middle of Ben's entry when the first enters another cell.
    cell(second_host_page, ben, "threes").click()
    second_host_page.locator("#editor input[name=points]").fill("9")
    type_points(host_page, ben, "fours", 12)
    expect(cell(second_host_page, ben, "fours")).to_have_text("12", timeout=FOLLOWS_WITHIN_MS)
    expect(second_host_page.locator("#editor input[name=points]")).to_have_value("9")
    second_host_page.locator("#editor").get_by_role("button", name="Save").click()
    expect(cell(host_page, ben, "threes")).to_have_text("9", timeout=FOLLOWS_WITHIN_MS)


def test_a_tap_held_down_while_another_tablet_enters_is_not_lost(
        host_page: Page, live_server, table, sheet):
    anna, ben = table["players"]
    host_page.goto(live_server.url + sheet.get_absolute_url())
    cell(host_page, anna, "ones").click()
    editor = host_page.locator("#editor")
    die = editor.locator(".die-pad[aria-label='1']")
    die.hover()
    host_page.mouse.down()
    # Another tablet enters Ben's chance while the finger is on the die: this tablet reads the
    # sheet again meanwhile, and the tap still counts once the finger is lifted.
    with host_page.expect_request_finished(
            lambda request: request.url == live_server.url + sheet.get_absolute_url()):
        write_cell(sheet, ben, "chance", 22, expected_version=None)
    host_page.evaluate("() => new Promise((done) => setTimeout(done, 200))")
    host_page.mouse.up()
    expect(editor.locator(".dice-slots button.die")).to_have_count(1)
    expect(cell(host_page, ben, "chance")).to_have_text("22", timeout=FOLLOWS_WITHIN_MS)
    expect(editor.locator(".dice-slots button.die")).to_have_count(1)


def test_a_race_form_follows_and_keeps_its_taps_through_a_reload(
        host_page: Page, second_host_page: Page, live_server, table, race):
    host_page.goto(live_server.url + race.get_absolute_url())
    second_host_page.goto(live_server.url + race.get_absolute_url())
    first_elephant = ".player-card >> nth=0 >> .elephant >> nth=0"

    host_page.locator(first_elephant).get_by_role("button", name="Home").click()
    expect(host_page.locator(first_elephant)).to_contain_text("home 1.")
    expect(second_host_page.locator(first_elephant)).to_contain_text(
        "home 1.", timeout=FOLLOWS_WITHIN_MS)

    second_host_page.locator(".player-card >> nth=1 >> .elephant >> nth=0").get_by_role(
        "button", name="Caught").click()
    host_page.reload()
    expect(host_page.locator(first_elephant)).to_contain_text("home 1.")
    expect(host_page.locator(".player-card >> nth=1 >> .elephant >> nth=0")).to_contain_text(
        "caught")


def test_entries_made_offline_wait_survive_a_reload_and_are_applied_once(
        host_page: Page, live_server, table, sheet):
    anna, ben = table["players"]
    host_page.goto(live_server.url + sheet.get_absolute_url())
    expect(host_page.locator("#turn")).to_contain_text("Anna's turn")
    host_page.context.set_offline(True)
    entries = [(anna, "ones", 3), (ben, "twos", 6), (anna, "threes", 9)]
    for player, field, points in entries:
        type_points(host_page, player, field, points)
        expect(host_page.locator("#editor")).to_contain_text("Kept on this device")
        expect(cell(host_page, player, field).locator("a")).to_have_class(
            re.compile(r"\bwaiting\b"))
        expect(cell(host_page, player, field).locator("a")).to_have_attribute(
            "data-waiting", str(points))
    bar = host_page.locator("#connection")
    expect(bar).to_contain_text("No connection to the server since")
    expect(bar).to_contain_text("waiting to be sent: 3")
    assert not KniffelCell.objects.exists()

    try:
        host_page.reload()
    except Exception:  # noqa: BLE001 - without the service worker the browser shows its own page
        pass
    host_page.context.set_offline(False)
    host_page.goto(live_server.url + sheet.get_absolute_url())
    for player, field, points in entries:
        expect(cell(host_page, player, field)).to_have_text(str(points),
                                                            timeout=FOLLOWS_WITHIN_MS * 2)
    expect(host_page.locator("#connection")).to_be_hidden()
    assert sorted(KniffelCell.objects.values_list("field", "points")) == [
        ("ones", 3), ("threes", 9), ("twos", 6)]
    assert Play.objects.get(pk=sheet.pk).changes.filter(action="cell").count() == 3


def test_taps_on_a_race_form_without_a_connection_are_sent_in_order(
        host_page: Page, live_server, table, race):
    anna, ben = table["players"]
    host_page.goto(live_server.url + race.get_absolute_url())
    host_page.context.set_offline(True)
    for card in (0, 1):
        host_page.locator(f".player-card >> nth={card} >> .elephant >> nth=0").get_by_role(
            "button", name="Home").click()
    expect(host_page.locator("#connection")).to_contain_text("waiting to be sent: 2")
    host_page.context.set_offline(False)
    expect(host_page.locator(".player-card >> nth=1 >> .elephant >> nth=0")).to_contain_text(
        "home 2.", timeout=FOLLOWS_WITHIN_MS * 3)
    elephants = Play.objects.get(pk=race.pk).draft["elephants"]
    assert elephants[anna.key][0] == "home:1" and elephants[ben.key][0] == "home:2"


def test_start_the_game_clicked_twice_starts_one_game(host_page: Page, live_server, table):
    night = table["night"]
    host_page.goto(live_server.url + night.get_absolute_url())
    host_page.get_by_role("link", name="New game").click()
    choose_game(host_page, host_page.get_by_text("Die Maus im Nacken"))
    for player in table["players"]:
        host_page.get_by_role("button", name=player.name).click()
        expect(host_page.get_by_role("button", name=player.name).locator(".seat-number")
               ).to_be_visible()
    host_page.get_by_role("radio", name="Anna").check()
    host_page.get_by_role("button", name="Start the game").dblclick()
    # Both answers lead to the one game: the second's navigation may cut the first's short,
    # so the address is awaited, not a navigation.
    expect(host_page).to_have_url(re.compile(r"/plays/\d+/$"))
    expect(host_page.locator("h1")).to_contain_text("Die Maus im Nacken")
    assert Play.objects.filter(game_night=night).count() == 1


def test_the_score_pad_and_the_evening_follow_the_other_tablet(
        host_page: Page, second_host_page: Page, live_server, table):
    play = skyjo_on_the_pad(table)
    host_page.goto(live_server.url + play.get_absolute_url())
    second_host_page.goto(live_server.url + play.get_absolute_url())
    expect(second_host_page.locator("#pad-editor h2")).to_have_text("Anna · Round 1")

    type_on_pad(host_page, "12")
    expect(second_host_page.locator("#total-0")).to_contain_text("12",
                                                                 timeout=FOLLOWS_WITHIN_MS)
    # Its number pad had nothing typed: it moves on with the game.
    expect(second_host_page.locator("#pad-editor h2")).to_have_text("Ben · Round 1")

    second_host_page.goto(live_server.url + table["night"].get_absolute_url())
    expect(second_host_page.locator("#followed")).to_contain_text("Skyjo")
    host_page.on("dialog", lambda dialog: dialog.accept())
    host_page.get_by_role("button", name="Abandon").click()
    expect(second_host_page.locator("#followed")).not_to_contain_text(
        "Games in progress", timeout=FOLLOWS_WITHIN_MS)


def test_a_tapped_cell_s_number_pad_stays_while_the_other_tablet_enters(
        host_page: Page, second_host_page: Page, live_server, table):
    """A number pad opened by a tap is where the host is about to type: the other tablet's
    entry does not move it on to the game's next cell."""
    carla = PlayerFactory(household=table["household"], name="Carla")
    skyjo = OwnGameFactory(household=table["household"], name="Skyjo", scoring="fewest_points")
    play = start_play(household=table["household"], game="generic", own_game=skyjo,
                      players=[*table["players"], carla], game_night=table["night"],
                      user=table["host"])
    host_page.goto(live_server.url + play.get_absolute_url())
    second_host_page.goto(live_server.url + play.get_absolute_url())
    cell_named(second_host_page, "Carla", "round 1").click()
    expect(second_host_page.locator("#pad-editor h2")).to_have_text("Carla · Round 1")

    type_on_pad(host_page, "12")
    expect(second_host_page.locator("#total-0")).to_contain_text("12",
                                                                 timeout=FOLLOWS_WITHIN_MS)
    expect(second_host_page.locator("#pad-editor h2")).to_have_text("Carla · Round 1")
    type_on_pad(second_host_page, "5")
    expect(second_host_page.locator("#total-2")).to_contain_text("5")


def test_a_number_typed_into_a_result_form_is_kept_when_the_field_is_left(
        host_page: Page, second_host_page: Page, live_server, table):
    ducks = start_play(household=table["household"], game="entenspiel",
                       players=table["players"], game_night=table["night"], user=table["host"])
    host_page.goto(live_server.url + ducks.get_absolute_url())
    second_host_page.goto(live_server.url + ducks.get_absolute_url())
    squares = host_page.get_by_role("spinbutton", name="Anna")
    squares.fill("17")
    squares.press("Tab")
    followed = second_host_page.get_by_role("spinbutton", name="Anna")
    expect(followed).to_have_value("17", timeout=FOLLOWS_WITHIN_MS)
    host_page.reload()
    expect(host_page.get_by_role("spinbutton", name="Anna")).to_have_value("17")


def test_an_entry_left_on_its_way_is_refused_on_the_next_page_without_taking_its_place(
        host_page: Page, live_server, table):
    """A number typed into one game's form is still on its way when the host moves on to the
    next game. Sent again from there and refused (the first game was finished meanwhile), it
    is said in the bar: the next game's form stays, and no cell of it is marked."""
    anna, ben = table["players"]
    ducks, next_ducks = (start_play(household=table["household"], game="entenspiel",
                                    players=table["players"], game_night=table["night"],
                                    user=table["host"]) for _game in range(2))
    entry_url = f"**{ducks.get_absolute_url()}entry/"
    held = []
    # The first time, the answer does not come before the host leaves the page.
    host_page.route(entry_url, lambda route: held.append(route) if not held else route.continue_())
    host_page.goto(live_server.url + ducks.get_absolute_url())
    squares = host_page.get_by_role("spinbutton", name="Anna")
    squares.fill("17")
    with host_page.expect_request(lambda request: request.url.endswith("/entry/")):
        squares.press("Tab")
    record_result(ducks, {"players": [anna.key, ben.key], "winner": ben.key},
                  expected_version=ducks.version)

    host_page.goto(live_server.url + next_ducks.get_absolute_url())
    expect(host_page.locator("#connection")).to_contain_text(
        "An entry made on another page was not saved: This game was finished on another tablet")
    form = host_page.locator("#play form.entry")
    expect(form).to_have_attribute("hx-post", f"{next_ducks.get_absolute_url()}entry/")
    expect(host_page.get_by_role("spinbutton", name="Anna")).to_have_value("")
    expect(host_page.locator(".waiting")).to_have_count(0)
    ducks.refresh_from_db()
    assert ducks.result["winner"] == ben.key and "squares" not in ducks.result


def test_an_entry_that_conflicts_on_arrival_says_so_and_overwrites_nothing(
        host_page: Page, live_server, table, sheet):
    anna, ben = table["players"]
    host_page.goto(live_server.url + sheet.get_absolute_url())
    expect(host_page.locator("#turn")).to_contain_text("Anna's turn")
    host_page.context.set_offline(True)
    type_points(host_page, anna, "chance", 20)
    expect(host_page.locator("#connection")).to_contain_text("waiting to be sent: 1")
    write_cell(sheet, anna, "chance", 25, expected_version=None)  # the other tablet
    host_page.context.set_offline(False)
    expect(host_page.locator("#connection")).to_contain_text(
        "Anna's Chance was entered on another tablet in the meantime (25)",
        timeout=FOLLOWS_WITHIN_MS * 3)
    expect(cell(host_page, anna, "chance")).to_have_text("25", timeout=FOLLOWS_WITHIN_MS)
    assert KniffelCell.objects.get().points == 25


def test_a_correction_under_way_is_not_swapped_away_by_its_own_taps(
        host_page: Page, live_server, table, race):
    anna, ben = table["players"]
    record_result(race, {"elephants": {anna.key: ["home:1", "caught", "caught", "caught"],
                                       ben.key: ["caught"] * 4}},
                  expected_version=race.version)
    host_page.goto(live_server.url + race.get_absolute_url())
    host_page.get_by_role("link", name="Correct the result").click()
    second_elephant = ".player-card >> nth=1 >> .elephant >> nth=1"
    host_page.locator(second_elephant).get_by_role("button", name="Pyramid").click()
    expect(host_page.locator(second_elephant)).to_contain_text("pyramid")
    host_page.wait_for_timeout(2000)  # several rounds of asking: the form stays
    expect(host_page.get_by_role("button", name="Save result")).to_be_visible()
    host_page.get_by_role("button", name="Save result").click()
    expect(host_page.get_by_role("link", name="Correct the result")).to_be_visible()
    assert Play.objects.get(pk=race.pk).result["elephants"][ben.key][1] == "pyramid"


def test_a_cell_tapped_while_a_save_is_on_its_way_takes_the_keys_tapped_next(
        host_page: Page, live_server, table, monkeypatch):
    """On a slow Wi-Fi the host saves, taps another cell before the answer is in, types and
    saves at once: the points go to the cell tapped, not to the one the save goes on to, and
    the saved points stay where they were saved."""
    carla = PlayerFactory(household=table["household"], name="Carla")
    skyjo = OwnGameFactory(household=table["household"], name="Skyjo", scoring="fewest_points")
    play = start_play(household=table["household"], game="generic", own_game=skyjo,
                      players=[*table["players"], carla], game_night=table["night"],
                      user=table["host"])
    save_points = pads.save_points

    def slowly_saved(*args, **kwargs):
        time.sleep(0.5)
        return save_points(*args, **kwargs)

    host_page.goto(live_server.url + play.get_absolute_url())
    monkeypatch.setattr(pads, "save_points", slowly_saved)
    open_pads_slowly(monkeypatch)
    pad = host_page.locator("#pad-editor")
    for key in "12":
        pad.locator(f".numpad button[value='{key}']").click()
    pad.get_by_role("button", name="Save", exact=True).click()
    cell_named(host_page, "Carla", "round 1").click()
    pad.locator(".numpad button[value='7']").click()
    expect(pad.locator("input[name=points]")).to_have_value("7")
    pad.get_by_role("button", name="Save", exact=True).click()

    expect(cell_named(host_page, "Carla", "round 1")).to_have_text("7")
    expect(cell_named(host_page, "Anna", "round 1")).to_have_text("12")
    expect(cell_named(host_page, "Ben", "round 1")).to_have_text("")
    expect(pad.locator("h2")).to_have_text("Ben · Round 1")
    expect(pad.locator("input[name=points]")).to_have_value("")
    play.refresh_from_db()
    assert play.result["rounds"] == [{table["players"][0].key: 12, carla.key: 7}]


def test_a_save_s_answer_leaves_the_page_where_the_finger_went(
        host_page: Page, live_server, table, sheet, monkeypatch):
    """On a slow Wi-Fi the host saves a cell low on the sheet and scrolls up to the next one
    before the answer is in: the answer gives the focus back to the saved cell without
    scrolling the page there, under the finger about to tap (by keyboard it scrolls:
    test_keyboard.py)."""
    anna, _ben = table["players"]
    save_cell = sheets.save_cell

    def slowly_saved(*args, **kwargs):
        time.sleep(0.5)
        return save_cell(*args, **kwargs)

    monkeypatch.setattr(sheets, "save_cell", slowly_saved)
    host_page.goto(live_server.url + sheet.get_absolute_url())
    type_points(host_page, anna, "chance", 21)
    host_page.evaluate("window.scrollTo(0, 0)")
    expect(cell(host_page, anna, "chance")).not_to_be_in_viewport()  # as the finger goes up
    expect(cell(host_page, anna, "chance").locator("a")).to_be_focused()
    assert host_page.evaluate("window.scrollY") == 0


def test_a_cell_tapped_as_the_answer_arrives_on_a_busy_tablet_opens_in_place(
        host_page: Page, live_server, table):
    """On a busy tablet the sheet an answer brings is ready a moment after it shows (htmx
    takes it up as the swap settles). A cell tapped in that moment opens its number pad in
    place, not as a page load that would lose the keys tapped meanwhile; a Save tapped there
    saves in place too."""
    play = skyjo_on_the_pad(table)
    host_page.goto(live_server.url + play.get_absolute_url())
    # The moment a busy tablet takes, made long enough to tap in.
    host_page.evaluate("window.samePage = true; htmx.config.defaultSettleDelay = 3000")
    pad = host_page.locator("#pad-editor")
    type_on_pad(host_page, "12")
    expect(cell_named(host_page, "Anna", "round 1")).to_have_text("12")
    cell_named(host_page, "Ben", "round 1").click()
    expect(pad.locator("h2")).to_have_text("Ben · Round 1")
    pad.locator(".numpad button[value='7']").click()
    expect(pad.locator("input[name=points]")).to_have_value("7")
    pad.get_by_role("button", name="Save", exact=True).click()

    expect(cell_named(host_page, "Ben", "round 1")).to_have_text("7")
    assert host_page.evaluate("window.samePage === true"), "the tap loaded the page again"
    play.refresh_from_db()
    assert play.result["rounds"] == [{table["players"][0].key: 12, table["players"][1].key: 7}]


def test_a_key_or_save_held_down_as_the_number_pad_arrives_still_counts(
        host_page: Page, live_server, table, monkeypatch):
    """A finger on a key (or on Save) of the number pad as the pad of the cell tapped just
    before arrives: the browser sees the finger come up on another element and clicks
    nothing, yet the tap is made on the pad that came."""
    play = skyjo_on_the_pad(table)
    anna, ben = table["players"]
    host_page.goto(live_server.url + play.get_absolute_url())
    open_pads_slowly(monkeypatch)
    pad = host_page.locator("#pad-editor")
    title = pad.locator("h2")

    def held_as_the_pad_arrives(control, arriving: str) -> None:
        control.hover()
        host_page.mouse.down()
        expect(title).to_have_text(arriving)
        host_page.mouse.up()

    cell_named(host_page, "Ben", "round 1").click()
    held_as_the_pad_arrives(pad.locator(".numpad button[value='7']"), "Ben · Round 1")
    expect(pad.locator("input[name=points]")).to_have_value("7")
    pad.get_by_role("button", name="Save", exact=True).click()
    expect(cell_named(host_page, "Ben", "round 1")).to_have_text("7")

    cell_named(host_page, "Anna", "round 1").click()
    pad.locator(".numpad button[value='4']").click()
    held_as_the_pad_arrives(pad.get_by_role("button", name="Save", exact=True),
                            "Anna · Round 1")
    expect(cell_named(host_page, "Anna", "round 1")).to_have_text("4")
    play.refresh_from_db()
    assert play.result["rounds"] == [{anna.key: 4, ben.key: 7}]


def test_save_tapped_twice_on_a_slow_wi_fi_saves_once(host_page: Page, live_server, table,
                                                      monkeypatch):
    """A second tap on Save while the first is on its way saves nothing more: not again, and
    not an empty entry on the cell the pad moves on to."""
    play = skyjo_on_the_pad(table)
    save_points = pads.save_points

    def slowly_saved(*args, **kwargs):
        time.sleep(0.5)
        return save_points(*args, **kwargs)

    host_page.goto(live_server.url + play.get_absolute_url())
    monkeypatch.setattr(pads, "save_points", slowly_saved)
    pad = host_page.locator("#pad-editor")
    pad.locator(".numpad button[value='5']").click()
    refused = []
    host_page.on("response", lambda response: refused.append(response.url)
                 if response.status >= 400 else None)
    save = pad.get_by_role("button", name="Save", exact=True)
    save.click()
    save.click()
    expect(cell_named(host_page, "Anna", "round 1")).to_have_text("5")
    host_page.wait_for_timeout(1_500)  # time for a second save to be answered
    expect(pad.locator("h2")).to_have_text("Ben · Round 1")
    expect(pad.locator(".refusal")).to_have_count(0)
    assert refused == []
    anna, _ben = table["players"]
    play.refresh_from_db()
    assert play.result["rounds"] == [{anna.key: 5}]
    assert play.changes.filter(action="round_points").count() == 1


def test_a_save_with_nothing_typed_keeps_its_message_while_the_other_tablet_enters(
        host_page: Page, live_server, table):
    """Save tapped on an empty number pad says what is missing, and the message stays in
    sight through the other tablet's entries until it is seen."""
    play = skyjo_on_the_pad(table)
    host_page.goto(live_server.url + play.get_absolute_url())
    pad = host_page.locator("#pad-editor")
    pad.get_by_role("button", name="Save", exact=True).click()
    expect(pad.locator(".refusal")).to_contain_text("Type the points")
    enter_round_points(play.pk, 1, 1, member=table["host"], typed="7", expected_version=None,
                       seen=None)
    expect(cell_named(host_page, "Ben", "round 1")).to_have_text("7",
                                                                  timeout=FOLLOWS_WITHIN_MS)
    expect(pad.locator(".refusal")).to_contain_text("Type the points")
    expect(pad.locator("h2")).to_have_text("Anna · Round 1")


def test_a_number_pad_opens_on_the_device_without_asking(host_page: Page, live_server, table,
                                                        monkeypatch):
    """A tablet between two Wi-Fi access points, the server slow to answer: the number pad
    of a tapped cell is there at once all the same, drawn on the device, and only its Save
    asks anything of the server."""
    play = skyjo_on_the_pad(table)
    host_page.goto(live_server.url + play.get_absolute_url())
    asked = requests_to(host_page, "/plays/")
    monkeypatch.setattr(pads, "pad_play", lambda *args: time.sleep(3))  # nothing comes in time
    cell_named(host_page, "Ben", "round 1").click()
    editor = host_page.locator("#pad-editor")
    expect(editor.get_by_role("heading")).to_have_text("Ben · Round 1", timeout=500)
    for key in ("9",):
        editor.locator(f".numpad button[value='{key}']").click()
    expect(editor.locator("input[name=points]")).to_have_value("9")
    assert asked == []
    monkeypatch.undo()
    editor.get_by_role("button", name="Save").click()
    expect(cell_named(host_page, "Ben", "round 1")).to_have_text("9")
    play.refresh_from_db()
    assert play.result["rounds"] == [{table["players"][1].key: 9}]
    # What Save sent; after it only the page, read again as the server told of the change.
    assert [url for url in asked if "/rounds/" in url] == [
        f"{live_server.url}/plays/{play.pk}/rounds/1/1/"]


def test_a_score_typed_while_the_one_before_is_on_its_way_is_saved(
        host_page: Page, live_server, table, monkeypatch):
    """On a slow Wi-Fi the first score is still being stored when the second is typed and
    the result saved at once: both count."""
    game = start_play(household=table["household"], game="generic",
                      own_game=OwnGameFactory(household=table["household"]),
                      players=table["players"], game_night=table["night"], user=table["host"])
    store_draft = plays.tap_draft

    def slowly_stored_draft(request, play):
        time.sleep(0.8)
        return store_draft(request, play)

    monkeypatch.setattr(plays, "tap_draft", slowly_stored_draft)
    host_page.goto(live_server.url + game.get_absolute_url())
    host_page.get_by_role("link", name="Enter only the final scores").click()
    host_page.get_by_label("Anna").fill("12")
    host_page.get_by_label("Ben").fill("30")
    host_page.get_by_role("button", name="Save result").click()
    expect(host_page.locator(".status")).to_contain_text("Finished")
    game.refresh_from_db()
    assert {p.player.name: p.points for p in game.participants.all()} == {"Anna": 12, "Ben": 30}


def open_pads_slowly(monkeypatch) -> None:
    """A tapped cell's number pad takes a second to come, as on a slow Wi-Fi."""
    pad_play = pads.pad_play

    def slowly_opened(request, play_id):
        if request.method == "GET":
            time.sleep(1.0)
        return pad_play(request, play_id)

    monkeypatch.setattr(pads, "pad_play", slowly_opened)


def skyjo_on_the_pad(table) -> Play:
    """A fewest-points own game of the table's players, kept on the score pad."""
    skyjo = OwnGameFactory(household=table["household"], name="Skyjo", scoring="fewest_points")
    return start_play(household=table["household"], game="generic", own_game=skyjo,
                      players=table["players"], game_night=table["night"], user=table["host"])


def enter_offline(page: Page, player, number: int, value: int) -> None:
    """Tap the player's cell of round ``number`` without a connection and type the points
    into the device's own editor: they wait on the device, shown on the cell."""
    cell = cell_named(page, player.name, f"round {number}")
    cell.click()
    editor = page.locator("#pad-editor")
    editor.locator("input[name=points]").fill(str(value))
    editor.get_by_role("button", name="Save").click()
    expect(cell).to_have_attribute("data-waiting", str(value))


def test_two_saves_answered_out_of_order_leave_the_newer_rows(host_page: Page, live_server,
                                                               table):
    """Anna's points and Ben's are on their way at once; Anna's answer, older, comes last.
    It changes nothing: Ben's points and the lead they make stay."""
    anna, ben = table["players"]
    skyjo = skyjo_on_the_pad(table)
    held = []

    def answer_annas_late(route):
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))  # stored by the server, answered later

    host_page.route(f"**{skyjo.get_absolute_url()}rounds/**", answer_annas_late)
    host_page.goto(live_server.url + skyjo.get_absolute_url())
    cell_named(host_page, "Anna", "round 1").click()
    type_on_pad(host_page, "12")
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        host_page.wait_for_timeout(20)  # lets the route take Anna's save to the server
    assert held, "Anna's save never reached the server"
    type_on_pad(host_page, "8")
    expect(cell_named(host_page, "Ben", "round 1")).to_have_text("8")
    expect(host_page.locator("#pad-standing")).to_contain_text("Ben leads")

    # What the cells show once the late answer is in (before the page reads itself again).
    host_page.evaluate("""() => document.addEventListener("htmx:afterRequest", () => {
        window.shownAfterAnswer = Array.from(document.querySelectorAll("#pad-rounds .pad-cell"),
                                             (cell) => cell.getAttribute("aria-label"));
    }, {once: true})""")
    route, response = held[0]
    route.fulfill(response=response)
    host_page.wait_for_function("() => window.shownAfterAnswer !== undefined")
    shown = host_page.evaluate("window.shownAfterAnswer")
    assert {"Anna, round 1: 12", "Ben, round 1: 8"} <= set(shown), shown
    skyjo.refresh_from_db()
    assert skyjo.result["rounds"] == [{anna.key: 12, ben.key: 8}]


def test_a_pad_waiting_for_a_late_older_answer_moves_on_from_the_newer_rows(
        host_page: Page, live_server, table):
    """Ben's points reach the server before Anna's, but Anna's answer comes first: Ben's
    pad, waiting for the next cell, moves on once Ben's older answer comes (and changes
    nothing), to round 2 as the newer rows show it."""
    anna, ben = table["players"]
    skyjo = skyjo_on_the_pad(table)
    annas, bens = [], []

    def in_reverse(route):
        if "points=12" in (route.request.post_data or ""):
            annas.append(route)  # held until Ben's is stored
        else:
            bens.append((route, route.fetch()))  # stored first, answered last
            annas[0].continue_()

    host_page.route(f"**{skyjo.get_absolute_url()}rounds/**", in_reverse)
    host_page.goto(live_server.url + skyjo.get_absolute_url())
    cell_named(host_page, "Anna", "round 1").click()
    type_on_pad(host_page, "12")
    expect(host_page.get_by_role("dialog", name="Ben · Round 1")).to_be_visible()
    type_on_pad(host_page, "8")
    expect(cell_named(host_page, "Anna", "round 2")).to_be_visible()  # Anna's answer is in
    route, response = bens[0]
    route.fulfill(response=response)
    expect(host_page.get_by_role("dialog", name="Anna · Round 2")).to_be_visible()
    expect(cell_named(host_page, "Ben", "round 1")).to_have_text("8")
    skyjo.refresh_from_db()
    assert skyjo.result["rounds"] == [{anna.key: 12, ben.key: 8}]


def test_a_pad_cell_saved_on_two_tablets_at_once_keeps_the_refusal_in_sight(
        host_page: Page, live_server, table):
    """Tablet B types 12 for Anna's round 1 while tablet A saves 15 there: B's save is
    refused with both numbers next to the cell, and the refusal stays while the page follows
    the game, until B dismisses it; saving again puts 12 in place of 15."""
    anna, ben = table["players"]
    play = skyjo_on_the_pad(table)
    host_page.goto(live_server.url + play.get_absolute_url())
    pad = host_page.locator("#pad-editor")
    expect(pad.locator("h2")).to_have_text("Anna · Round 1")
    for key in "12":
        pad.locator(f".numpad button[value='{key}']").click()

    set_round_points(play, 1, anna.key, 15, expected_version=play.version)  # tablet A
    expect(host_page.locator("#total-0")).to_contain_text("15", timeout=FOLLOWS_WITHIN_MS)
    pad.get_by_role("button", name="Save", exact=True).click()
    refusal = host_page.locator("#pad-editor-message")
    expect(refusal).to_contain_text("another tablet entered 15 here at the same moment, you "
                                    "typed 12")

    play.refresh_from_db()
    set_round_points(play, 1, ben.key, 7, expected_version=play.version)  # A goes on
    expect(host_page.locator("#total-1")).to_contain_text("7", timeout=FOLLOWS_WITHIN_MS)
    host_page.wait_for_timeout(1500)  # several rounds of following
    expect(refusal).to_contain_text("you typed 12")
    expect(pad.locator("input[name=points]")).to_have_value("12")

    refusal.get_by_role("button", name="Dismiss").click()
    expect(refusal).to_be_empty()
    expect(pad.locator("input[name=points]")).to_be_focused()
    pad.get_by_role("button", name="Save", exact=True).click()
    expect(host_page.locator("#total-0")).to_contain_text("12")
    play.refresh_from_db()
    assert play.result["rounds"] == [{anna.key: 12, ben.key: 7}]


def test_a_score_pad_goes_on_offline_for_as_many_rounds_as_the_game_needs(
        host_page: Page, live_server, table):
    """Offline, each round entered on the phone opens the next one; the entries wait, go in
    order when the Wi-Fi returns, and each counts once."""
    anna, ben = table["players"]
    play = skyjo_on_the_pad(table)
    host_page.goto(live_server.url + play.get_absolute_url())
    expect(host_page.locator("#pad-editor h2")).to_have_text("Anna · Round 1")
    host_page.context.set_offline(True)
    rounds = [(12, 7), (3, 20), (9, 1)]
    for number, points in enumerate(rounds, start=1):
        for player, value in zip((anna, ben), points, strict=True):
            enter_offline(host_page, player, number, value)
    expect(cell_named(host_page, "Anna", "round 4")).to_be_visible()
    expect(host_page.locator("#connection")).to_contain_text("waiting to be sent: 6")
    assert Play.objects.get(pk=play.pk).result == {}

    host_page.context.set_offline(False)
    expect(host_page.locator("#total-0")).to_contain_text("24", timeout=FOLLOWS_WITHIN_MS * 4)
    expect(host_page.locator("#total-1")).to_contain_text("28")
    expect(host_page.locator("#connection")).to_be_hidden()
    play.refresh_from_db()
    assert play.result["rounds"] == [{anna.key: a, ben.key: b} for a, b in rounds]
    assert play.changes.filter(action="round_points").count() == 6


def test_several_entries_refused_on_arrival_all_stay_in_sight(
        host_page: Page, live_server, table):
    """Offline, the phone enters Anna 12 and Ben 7; another tablet saves 15 and 9 there
    meanwhile. Back online, both refusals are shown, each until dismissed."""
    anna, ben = table["players"]
    play = skyjo_on_the_pad(table)
    host_page.goto(live_server.url + play.get_absolute_url())
    expect(host_page.locator("#pad-editor h2")).to_have_text("Anna · Round 1")
    host_page.context.set_offline(True)
    for player, value in ((anna, 12), (ben, 7)):
        enter_offline(host_page, player, 1, value)
    set_round_points(play, 1, anna.key, 15, expected_version=play.version)  # other tablet
    play.refresh_from_db()
    set_round_points(play, 1, ben.key, 9, expected_version=play.version)
    host_page.context.set_offline(False)
    refusals = host_page.locator("[data-refusal] .refusal")
    expect(refusals).to_have_count(2, timeout=FOLLOWS_WITHIN_MS * 4)
    expect(refusals.nth(0)).to_contain_text("15")
    expect(host_page.locator("[data-refusal]").first).to_contain_text("you typed")
    page_text = host_page.locator("#pad").inner_text()
    assert "you typed 12" in page_text and "you typed 7" in page_text
    host_page.wait_for_timeout(1500)  # following goes on: both stay
    expect(refusals).to_have_count(2)
    refusals.first.get_by_role("button", name="Dismiss").click()
    expect(refusals).to_have_count(1)
    expect(host_page.locator("#pad-editor input[name=points]")).to_be_focused()
    play.refresh_from_db()
    assert play.result["rounds"] == [{anna.key: 15, ben.key: 9}]
