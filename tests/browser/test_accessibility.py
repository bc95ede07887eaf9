"""Everyone at the table: axe-core (WCAG 2.2 A and AA, and its best practices) finds nothing
on any page a family reaches, signed in, on a tablet and on a phone, with the Kniffel editor
and the number pad open."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.browser.conftest import choose_game, log_in
from tracker.room.models import ShareLink
from tracker.table.recording import start_play, write_cell

pytestmark = pytest.mark.browser

SIZES = {"tablet": {"width": 1024, "height": 768}, "phone": {"width": 390, "height": 844}}
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": [
    "wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]}}
axe = Axe()


def findings(page: Page, name: str) -> dict[str, list[str]]:
    """What axe finds on the page as it is now: each rule with the page's name, and the first
    five elements it names."""
    results = axe.run(page, options=AXE_OPTIONS)
    return {f"{violation['id']} on {name}": [" ".join(node["target"])
                                              for node in violation["nodes"]][:5]
            for violation in results.response["violations"]}


def open_kniffel_editor(page: Page) -> None:
    """Anna's Chance on the sheet of six, five dice entered: the options are offered."""
    page.locator("#sheet a.cell").first.click()
    editor = page.locator("#editor")
    for entered, die in enumerate([5, 5, 2, 2, 2], start=1):
        editor.locator(f".die-pad[aria-label='{die}']").click()
        expect(editor.locator(".dice-slots button.die")).to_have_count(entered)
    expect(editor.locator("button[name=choose]").first).to_be_visible()


@pytest.mark.parametrize("size", SIZES)
def test_axe_finds_nothing_on_any_page(page: Page, live_server, family_pages, size):
    page.set_viewport_size(SIZES[size])
    found: dict[str, list[str]] = {}
    for name, path in family_pages.items():
        if name == "home":
            log_in(page, live_server)
        response = page.goto(live_server.url + path)
        assert response.ok, name
        if name == "the new-game screen":
            choose_game(page, page.locator("label.game-tile:has(input[value=kniffel])"))
        found |= findings(page, name)
        if name == "home":
            # The top bar's menus, opened: the household menu is read when it opens.
            menu = page.locator("details.household-menu summary")
            menu.click()
            expect(page.locator(".household-menu .menu-heading")).to_be_visible()
            found |= findings(page, "the household menu")
            menu.click()
            page.locator("details.menu.language summary").click()
            found |= findings(page, "the language menu")
            page.reload()
        if name == "the Kniffel sheet":
            open_kniffel_editor(page)
            found |= findings(page, "the Kniffel editor")
        if name == "the score pad":
            page.locator("#pad a.pad-cell").first.click()
            expect(page.locator("#pad-editor input[name=points]")).to_be_visible()
            page.locator("#pad-editor .numpad button[value='7']").click()
            found |= findings(page, "the number pad")
    assert found == {}, "\n".join(f"{rule}: {nodes}" for rule, nodes in found.items())


@pytest.mark.parametrize("size", SIZES)
def test_an_entry_from_another_tablet_is_said_once(host_page: Page, live_server, table, size):
    host_page.set_viewport_size(SIZES[size])
    anna, ben = table["players"]
    sheet = start_play(household=table["household"], game="kniffel", players=table["players"],
                       game_night=table["night"], user=table["host"])
    host_page.goto(live_server.url + sheet.get_absolute_url())
    announcer = host_page.locator("#announcer")
    expect(announcer).to_have_attribute("aria-live", "polite")
    write_cell(sheet, anna, "full_house", 25, expected_version=None)
    expect(announcer).to_have_text("Anna: Full House 25. Anna leads with 25. Ben's turn.")
    write_cell(sheet, ben, "chance", 22, expected_version=None)
    expect(announcer).to_have_text("Ben: Chance 22. Anna leads with 25. Anna's turn.")
    # Nothing new: the page follows on, and says nothing again.
    host_page.evaluate("() => { document.getElementById('announcer').textContent = ''; }")
    host_page.wait_for_timeout(1500)
    expect(announcer).to_have_text("")


def test_the_last_change_on_a_board_keeps_its_ring_without_moving(
        page: Page, live_server, table):
    sheet = start_play(household=table["household"], game="kniffel", players=table["players"],
                       game_night=table["night"], user=table["host"])
    write_cell(sheet, table["players"][0], "chance", 21, expected_version=None)
    link = ShareLink.objects.create(household=table["household"], play=sheet)
    fresh = page.locator(".board td.fresh").first
    page.goto(f"{live_server.url}/board/{link.token}/")
    for motion in ("no-preference", "reduce"):
        page.emulate_media(reduced_motion=motion)
        assert fresh.evaluate("(cell) => getComputedStyle(cell).animationName") == "none"
        assert fresh.evaluate("(cell) => getComputedStyle(cell).boxShadow") != "none"
