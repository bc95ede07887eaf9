"""A new family finds its own way in on a site that shows the demo family."""

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_a_new_family_signs_up_beside_the_demo(page: Page, live_server, transactional_db,
                                               settings):
    settings.SIGNUP = "open"
    call_command("seed_demo", stdout=open("/dev/null", "w"))
    page.goto(f"{live_server.url}/accounts/login/")
    expect(page.locator(".demo-login")).to_contain_text("demo")
    page.get_by_role("link", name="Start your own family").click()
    page.get_by_label("Your family's name").fill("Familie Brandt")
    page.get_by_label("User name").fill("mara")
    page.get_by_label("Password", exact=True).fill("kniffel-am-abend")
    page.get_by_label("Password again").fill("kniffel-am-abend")
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(f"{live_server.url}/")
    expect(page.locator("#messages")).to_contain_text("Welcome, Familie Brandt!")
    expect(page.locator("main")).not_to_contain_text("Sommer")
