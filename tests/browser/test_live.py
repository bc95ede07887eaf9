"""Devices told of each change by the server: two tablets and a TV on one game, none of them
asking; and a tablet whose Wi-Fi drops mid-game, which misses nothing and doubles nothing."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import log_in, requests_to
from tests.browser.test_devices import FOLLOWS_WITHIN_MS, cell, type_points
from tests.browser.wifi import Wifi
from tracker.room.models import ShareLink
from tracker.table.models import KniffelCell, PlayChange
from tracker.table.recording import start_play

pytestmark = pytest.mark.browser

#: Pushed, a change shows at once: this bound leaves room for a busy test machine only.
PUSHED_WITHIN_MS = 1_500


@pytest.fixture
def sheet(table):
    return start_play(household=table["household"], game="kniffel", players=table["players"],
                      game_night=table["night"], user=table["host"])


def test_two_tablets_and_a_tv_follow_a_game_without_asking(
        host_page: Page, second_host_page: Page, browser: Browser, live_server, table, sheet):
    anna, ben = table["players"]
    link = ShareLink.objects.create(household=table["household"], play=sheet)
    tv = browser.new_page(viewport={"width": 1280, "height": 720})
    tv.goto(f"{live_server.url}/board/{link.token}/")
    for page in (host_page, second_host_page):
        page.goto(live_server.url + sheet.get_absolute_url())
    asked = [requests_to(page, "/follow/") for page in (host_page, second_host_page, tv)]
    boards_read = requests_to(tv, f"/board/{link.token}/")
    sheets_read = requests_to(second_host_page, sheet.get_absolute_url())
    host_page.wait_for_timeout(600)  # twice the old asking: any asking would show here

    type_points(host_page, anna, "chance", 21)
    expect(cell(second_host_page, anna, "chance")).to_have_text("21", timeout=PUSHED_WITHIN_MS)
    expect(tv.locator(f"#c-{anna.pk}-chance")).to_have_text("21", timeout=PUSHED_WITHIN_MS)
    assert sheets_read == [], "the tablet read the sheet instead of being sent it"
    # The sheet sent carries this tablet's own CSRF token, so its forms are taken.
    tokens = second_host_page.locator("#sheet input[name=csrfmiddlewaretoken]")
    own = second_host_page.evaluate(
        "JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken']")
    assert tokens.count() and set(tokens.evaluate_all("(all) => all.map((i) => i.value)")) == {own}
    type_points(second_host_page, ben, "fours", 12)
    expect(cell(host_page, ben, "fours")).to_have_text("12", timeout=PUSHED_WITHIN_MS)
    expect(tv.locator(f"#c-{ben.pk}-fours")).to_have_text("12", timeout=PUSHED_WITHIN_MS)
    expect(tv.locator("#board")).not_to_have_class("stale")

    assert asked == [[], [], []], "a device asked instead of being told"
    assert [url for url in boards_read if "/live/" not in url] == [], (
        "the TV asked for its content instead of being sent it")
    tv.close()


def test_a_tablet_whose_wifi_drops_misses_nothing_and_doubles_nothing(
        host_page: Page, browser: Browser, browser_context_args, live_server, table, sheet):
    anna, ben = table["players"]
    wifi = Wifi(int(live_server.url.rsplit(":", 1)[1]))
    tablet = browser.new_context(**browser_context_args).new_page()
    try:
        log_in(tablet, wifi.server)
        host_page.goto(live_server.url + sheet.get_absolute_url())
        tablet.goto(wifi.server.url + sheet.get_absolute_url())
        expect(tablet.locator("#turn")).to_contain_text("Anna's turn")

        wifi.cut()
        tablet.context.set_offline(True)
        type_points(host_page, anna, "chance", 21)
        type_points(host_page, ben, "ones", 3)
        # Meanwhile the tablet keeps its own entry, waiting.
        cell(tablet, anna, "fours").click()
        editor = tablet.locator("#editor")
        editor.locator("input[name=points]").fill("12")
        editor.get_by_role("button").click()
        expect(tablet.locator("#connection")).to_contain_text("waiting")

        tablet.context.set_offline(False)
        wifi.restore()
        # Back: what the host entered meanwhile shows without a reload, and the tablet's
        # entry reaches the host's tablet.
        for player, field, points in ((anna, "chance", "21"), (ben, "ones", "3"),
                                      (anna, "fours", "12")):
            expect(cell(tablet, player, field)).to_have_text(points, timeout=15_000)
        expect(cell(host_page, anna, "fours")).to_have_text("12", timeout=FOLLOWS_WITHIN_MS)
        # The stream is back too: the next entry is told, not asked for.
        type_points(host_page, ben, "chance", 17)
        expect(cell(tablet, ben, "chance")).to_have_text("17", timeout=PUSHED_WITHIN_MS)
    finally:
        tablet.context.close()
        wifi.close()
    assert KniffelCell.objects.filter(play=sheet).count() == 4
    assert PlayChange.objects.filter(play=sheet, action=PlayChange.Action.CELL).count() == 4
