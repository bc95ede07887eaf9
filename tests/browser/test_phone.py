"""A parent's phone at the table: the forms fit 390 pixels without sideways scrolling."""

import pytest
from playwright.sync_api import Page

from tracker.recording import start_play

pytestmark = pytest.mark.browser

TOUCH = 44


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
        for link in host_page.locator(".topbar a, .topbar .link, .topbar summary").all():
            box = link.bounding_box()
            assert box["x"] + box["width"] <= width, path
            assert box["height"] >= TOUCH, path
