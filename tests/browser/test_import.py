"""A member brings back an export through real Chromium and lands on the new household."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import log_in, maus_result
from tracker.households.models import Household
from tracker.portability.export import export_household
from tracker.table.recording import record_result, start_play

pytestmark = pytest.mark.browser


def test_an_imported_export_follows_its_progress_and_shows_the_new_household(
        page: Page, live_server, background_work, table, tmp_path):
    play = start_play(household=table["household"], game="maus_im_nacken",
                      players=table["players"], game_night=table["night"])
    record_result(play, maus_result(table["players"]), expected_version=play.version)
    backup = tmp_path / "backup.json"
    backup.write_text(json.dumps(export_household(table["household"])))
    log_in(page, live_server)

    page.goto(f"{live_server.url}/household/import/")
    expect(page.locator("#import-limit")).to_contain_text("Up to 20 MB")
    page.get_by_label("Exported file").set_input_files(backup)
    page.get_by_label("Name of the new household").fill("Restored")
    page.get_by_role("button", name="Import").click()

    page.wait_for_url(f"{live_server.url}/household/", timeout=15_000)
    expect(page.locator("h1")).to_have_text("Restored")
    expect(page.locator("main")).to_contain_text("Imported as Restored.")
    restored = Household.objects.get(name="Restored")
    assert restored.plays.count() == 1
    assert restored.members.get() == table["host"]


def test_bggs_log_of_plays_comes_in_and_its_report_is_read_by_keyboard(
        page: Page, live_server, background_work, table):
    """Two pages of BGG's log chosen at once; the report names what the log held that could
    not come in as it was, under headings a screen reader lists, and the way on to the new
    household is a link the keyboard reaches."""
    log = (Path(__file__).parents[1] / "data" / "bgg_plays.xml").read_text()
    header, *entries = log.split("  <play ")
    first = header + "  <play " + "  <play ".join(entries[:50]) + "</plays>\n"
    second = header + "  <play " + "  <play ".join(entries[50:])
    log_in(page, live_server)

    page.goto(f"{live_server.url}/household/import/")
    page.get_by_label("Exported file").set_input_files([
        {"name": "plays.xml", "mimeType": "text/xml", "buffer": first.encode()},
        {"name": "plays-2.xml", "mimeType": "text/xml", "buffer": second.encode()}])
    page.get_by_role("button", name="Import").click()

    expect(page.locator(".import-done")).to_have_text("Imported as From BoardGameGeek.",
                                                      timeout=20_000)
    expect(page.get_by_role("heading", level=3)).to_have_text(
        ["Left out", "Came in changed", "Good to know"])
    expect(page.locator("main")).to_contain_text("2021-03-30, Catan: 2 plays")
    link = page.get_by_role("link", name="Open From BoardGameGeek")
    for _ in range(40):
        page.keyboard.press("Tab")
        if link.evaluate("element => element === document.activeElement"):
            break
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live_server.url}/household/")
    expect(page.locator("h1")).to_have_text("From BoardGameGeek")
    assert Household.objects.get(name="From BoardGameGeek").plays.count() == 101
