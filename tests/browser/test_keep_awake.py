"""During a game the screen stays on, asked for again when the page is shown; a switch lets
it sleep, remembered on the device."""

import pytest
from playwright.sync_api import Page, expect

from tracker.table.recording import start_play

pytestmark = pytest.mark.browser

# A stand-in for the Screen Wake Lock API that counts what the page asks of it.
FAKE_WAKE_LOCK = """
window.__locks = 0; window.__released = 0;
Object.defineProperty(navigator, "wakeLock", {value: {request: async (kind) => {
  window.__locks += 1;
  const lock = {released: false, release: async () => { lock.released = true;
                                                        window.__released += 1; }};
  return lock;
}}});
"""


def test_the_screen_stays_on_during_a_game_until_told_to_sleep(host_page: Page, live_server,
                                                               table):
    race = start_play(household=table["household"], game="maus_im_nacken",
                      players=table["players"], game_night=table["night"])
    host_page.add_init_script(FAKE_WAKE_LOCK)
    host_page.goto(live_server.url + race.get_absolute_url())
    switch = host_page.locator(".keep-awake")
    expect(switch).to_be_visible()
    expect(switch).to_have_attribute("aria-pressed", "true")
    host_page.wait_for_function("window.__locks === 1")

    switch.click()
    expect(switch).to_contain_text("Screen may sleep")
    host_page.wait_for_function("window.__released === 1")
    host_page.reload()
    expect(host_page.locator(".keep-awake")).to_contain_text("Screen may sleep")
    assert host_page.evaluate("window.__locks") == 0

    host_page.locator(".keep-awake").click()
    expect(host_page.locator(".keep-awake")).to_contain_text("Screen stays on")
    host_page.wait_for_function("window.__locks === 1")


def test_a_browser_without_the_api_shows_no_switch(host_page: Page, live_server, table):
    race = start_play(household=table["household"], game="maus_im_nacken",
                      players=table["players"], game_night=table["night"])
    host_page.add_init_script("delete Navigator.prototype.wakeLock;")
    host_page.goto(live_server.url + race.get_absolute_url())
    expect(host_page.locator(".keep-awake")).to_be_hidden()
