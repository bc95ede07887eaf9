"""A member brings back an export through real Chromium and lands on the new household."""

import json

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
