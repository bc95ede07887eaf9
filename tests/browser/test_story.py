"""A note and a length at the end of a game, and a night's place, by taps at tablet and phone
size; the note comes back in the history."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import tap_size
from tests.tracker.looking_back.stats_fixtures import finish_generic

pytestmark = pytest.mark.browser

TOUCH = 44


@pytest.mark.parametrize("width,height", [(1024, 768), (390, 844)])
def test_a_note_and_a_length_at_the_end_and_a_place_for_the_night(
        host_page: Page, live_server, table, width, height):
    anna, ben = table["players"]
    play = finish_generic(table["household"], table["night"], [(anna, 12), (ben, 7)])
    host_page.set_viewport_size({"width": width, "height": height})
    host_page.goto(live_server.url + play.get_absolute_url() + "?final=1")
    story = host_page.locator("#story")
    story.get_by_label("Note").fill("Oma's first win")
    story.get_by_label("Length in minutes").fill("35")
    save = story.get_by_role("button", name="Save note and length")
    assert tap_size(save)[1] >= TOUCH
    save.click()
    expect(host_page.locator("#story .story-note")).to_have_text("Oma's first win")
    expect(host_page.locator("#story")).to_contain_text("Took 35 minutes.")
    change = host_page.get_by_role("link", name="Change the note or length")
    assert tap_size(change)[1] >= TOUCH
    change.click()
    host_page.locator("#story").get_by_label("Length in minutes").fill("2000")
    host_page.locator("#story").get_by_role("button", name="Save note and length").click()
    # The browser itself refuses a length over a day (the server does too, with a message).
    expect(host_page.locator("#story input[name=length_minutes]:invalid")).to_have_count(1)
    play.refresh_from_db()
    assert play.length_minutes == 35

    host_page.goto(live_server.url + table["night"].get_absolute_url())
    host_page.get_by_role("link", name="Change the place").click()
    host_page.get_by_label("Where are we playing?").fill("Bei Oma in Kassel")
    host_page.get_by_role("button", name="Save the place").click()
    expect(host_page.locator("#night-place")).to_contain_text("Bei Oma in Kassel")

    host_page.goto(live_server.url + "/history/")
    entries = host_page.locator("#entries")
    expect(entries).to_contain_text("“Oma's first win”")
    expect(entries).to_contain_text("📍 Bei Oma in Kassel")
    expect(entries).to_contain_text("35 min")
