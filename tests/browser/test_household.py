"""A family sets itself up on a tablet and a second account joins it, through real Chromium."""

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PASSWORD, log_in
from tests.factories import UserFactory
from tracker.households.models import COLOURS, Household

pytestmark = pytest.mark.browser
PORTRAIT = {"width": 768, "height": 1024}
RED, BLUE = COLOURS[0][0], COLOURS[1][0]


def add_player(page: Page, name: str) -> None:
    form = page.locator("#players form.player-form").last
    form.get_by_label("Name of the new player").fill(name)
    form.get_by_role("button", name="Add player").click()


def test_a_family_sets_itself_up_and_invites_a_second_account(
        page: Page, browser: Browser, live_server, transactional_db, browser_context_args):
    founder = UserFactory(username="founder")
    founder.set_password(PASSWORD)
    founder.save()
    page.set_viewport_size(PORTRAIT)
    log_in(page, live_server, "founder")

    expect(page.locator("main")).to_contain_text("does not belong to a household yet")
    page.get_by_label("Name of the household").fill("Familie Kraus")
    page.get_by_role("button", name="Create the household").click()
    expect(page.locator("h1")).to_have_text("Familie Kraus")

    page.get_by_role("link", name="Household").click()
    page.wait_for_url(f"{live_server.url}/household/")
    new_player = page.locator("#players form.player-form").last
    expect(new_player.locator("input[type=radio]:checked")).to_have_value(RED)
    add_player(page, "Mia")
    expect(page.locator("#players summary", has_text="Mia")).to_contain_text("Red")
    expect(new_player.locator("input[type=radio]:checked")).to_have_value(BLUE)
    new_player.locator("label.swatch").first.click()
    add_player(page, "Jonas")
    expect(page.locator("#players .error")).to_have_text("Mia already plays in Red.")
    new_player.locator("label.swatch").nth(1).click()
    new_player.get_by_role("button", name="Add player").click()
    expect(page.locator("#players summary", has_text="Jonas")).to_contain_text("Blue")

    page.get_by_role("link", name="Home").click()
    page.get_by_role("link", name="Start a game night").click()
    page.locator(".tile", has_text="Mia").click()
    page.locator(".tile", has_text="Jonas").click()
    page.get_by_role("button", name="Start the evening").click()
    page.wait_for_url(re.compile(r"/nights/\d+/$"))

    page.get_by_role("link", name="Household").click()
    page.get_by_role("button", name="Invite someone").click()
    link = page.locator(".invitation-url")
    expect(link).to_have_value(re.compile(rf"^{re.escape(live_server.url)}/invite/[\w-]+/$"))

    context = browser.new_context(**browser_context_args)
    second = context.new_page()
    second.set_viewport_size(PORTRAIT)
    second.goto(link.input_value())
    expect(second.locator("h1")).to_have_text("Familie Kraus")
    second.get_by_label("User name").fill("oma")
    second.get_by_label("Password", exact=True).fill("kiwi-sunset-42")
    second.get_by_label("Password again").fill("kiwi-sunset-42")
    second.get_by_role("button", name="Create the account and join").click()
    second.wait_for_url(f"{live_server.url}/")
    expect(second.locator(".messages")).to_contain_text("Welcome to Familie Kraus!")
    expect(second.locator("h1")).to_have_text("Familie Kraus")
    expect(second.locator(".hero")).to_contain_text("Tonight")
    expect(second.locator(".hero")).to_contain_text("Jonas, Mia")
    context.close()

    page.reload()
    expect(page.locator("#members")).to_contain_text("oma")
    expect(page.locator(".invitation-url")).to_have_count(0)
    household = Household.objects.get()
    assert sorted(user.username for user in household.members.all()) == ["founder", "oma"]
