"""From home to a player's page and to a game's page by taps only, at both tablet sizes."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import tap_size
from tests.tracker.looking_back.stats_fixtures import finish_generic

pytestmark = pytest.mark.browser

SIZES = [(768, 1024), (1024, 768)]
TOUCH = 44


def big_enough(locator) -> bool:
    return all(side >= TOUCH for side in tap_size(locator))


@pytest.mark.parametrize("width,height", SIZES)
def test_home_to_a_player_and_a_game_by_taps(host_page: Page, live_server, table, width,
                                             height):
    anna, ben = table["players"]
    finish_generic(table["household"], table["night"], [(anna, 12), (ben, 7)])
    host_page.set_viewport_size({"width": width, "height": height})
    host_page.goto(live_server.url + "/")
    history = host_page.locator(".topnav").get_by_role("link", name="History")
    assert big_enough(history)
    history.click()
    expect(host_page.locator("h1")).to_have_text("History")
    anna_chip = host_page.locator(".chips").get_by_role("link", name="Anna")
    assert big_enough(anna_chip)
    anna_chip.click()
    expect(host_page.locator("h1")).to_contain_text("Anna")
    expect(host_page.locator(".figures")).to_contain_text("100%")
    game = host_page.locator("table").get_by_role("link", name="Uno")
    assert big_enough(game)
    game.click()
    expect(host_page.locator("h1")).to_have_text("Uno")
    expect(host_page.locator("#fairness-sentence")).to_contain_text("won 1 of 1")
    back = host_page.get_by_role("link", name="← History")
    assert big_enough(back)
