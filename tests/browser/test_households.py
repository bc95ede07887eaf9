"""A user of two households switches between them from the top bar, and deletes one,
through real Chromium."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import log_in
from tests.factories import HouseholdFactory, PlayerFactory
from tracker.households.models import Household, Player

pytestmark = pytest.mark.browser
LANDSCAPE = {"width": 1024, "height": 768}


@pytest.fixture
def grandparents(table):
    household = HouseholdFactory(name="Oma und Opa")
    household.members.add(table["host"])
    PlayerFactory(household=household, name="Opa")
    return household


def open_household_menu(page: Page) -> None:
    page.locator("details.household-menu summary").click()


def test_a_user_of_two_households_switches_with_the_top_bar(page: Page, live_server,
                                                            table, grandparents):
    page.set_viewport_size(LANDSCAPE)
    log_in(page, live_server)
    expect(page.locator("h1")).to_have_text("Familie Test")
    expect(page.locator("details.household-menu summary")).to_contain_text("Familie Test")

    open_household_menu(page)
    page.locator(".household-menu").get_by_role("button", name="Oma und Opa").click()
    expect(page.locator("h1")).to_have_text("Oma und Opa")
    expect(page.locator("#messages")).to_contain_text("Now showing Oma und Opa.")
    page.get_by_role("link", name="Household", exact=True).click()
    expect(page.locator("#players")).to_contain_text("Opa")
    expect(page.locator("#players")).not_to_contain_text("Anna")

    page.reload()  # the device remembers the choice
    page.goto(f"{live_server.url}/")
    expect(page.locator("h1")).to_have_text("Oma und Opa")

    # A link to tonight's game night of the other household switches back to it.
    page.goto(f"{live_server.url}/nights/{table['night'].pk}/")
    expect(page.locator("details.household-menu summary")).to_contain_text("Familie Test")
    page.goto(f"{live_server.url}/")
    expect(page.locator("h1")).to_have_text("Familie Test")

    open_household_menu(page)
    page.locator(".household-menu").get_by_role("link", name="Start another household").click()
    page.get_by_label("Name of the household").fill("Schachklub")
    page.get_by_role("button", name="Create the household").click()
    expect(page.locator("h1")).to_have_text("Schachklub")
    open_household_menu(page)
    expect(page.locator(".household-menu .menu-panel button")).to_have_text(
        ["Schachklub", "Familie Test", "Oma und Opa"])


def test_the_last_member_deletes_a_household_after_typing_its_name(page: Page, live_server,
                                                                   table, grandparents):
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server)
    page.get_by_role("link", name="Household", exact=True).click()
    page.get_by_role("link", name="Delete Familie Test").click()
    expect(page.get_by_role("link", name="Download everything (JSON)")).to_be_visible()

    field = page.get_by_label("Type the household's name, Familie Test, to delete it")
    field.fill("Familie")
    page.get_by_role("button", name="Delete Familie Test for good").click()
    expect(page.locator(".error")).to_contain_text("Type the name exactly as it is written")
    assert Household.objects.filter(name="Familie Test").exists()

    page.get_by_label("Type the household's name, Familie Test, to delete it").fill(
        "Familie Test")
    page.get_by_role("button", name="Delete Familie Test for good").click()
    expect(page.locator("#messages")).to_contain_text("Familie Test has been deleted.")
    expect(page.locator("h1")).to_have_text("Oma und Opa")
    assert list(Player.objects.values_list("name", flat=True)) == ["Opa"]


def test_a_tab_left_on_one_household_enters_there_after_another_tab_switched(
        page: Page, live_server, table, grandparents):
    """Two tabs of one browser share the device's choice: what a tab still showing the
    family enters lands in the family, not in the household the other tab chose since."""
    page.set_viewport_size(LANDSCAPE)
    log_in(page, live_server)
    page.goto(f"{live_server.url}/household/")
    other_tab = page.context.new_page()
    other_tab.goto(f"{live_server.url}/")
    other_tab.locator("details.household-menu summary").click()
    other_tab.locator(".household-menu").get_by_role("button", name="Oma und Opa").click()
    expect(other_tab.locator("h1")).to_have_text("Oma und Opa")

    page.get_by_label("Name of the new player").fill("Carla")
    page.get_by_role("button", name="+ Add player").click()
    expect(page.locator("#players")).to_contain_text("Carla")
    assert Player.objects.get(name="Carla").household == table["household"]

    # A whole-page form too: the evening starts in the family, with its players.
    table["night"].delete()
    other_tab.goto(f"{live_server.url}/")
    expect(other_tab.locator("h1")).to_have_text("Familie Test")
    page.goto(f"{live_server.url}/nights/new/")
    other_tab.locator("details.household-menu summary").click()
    other_tab.locator(".household-menu").get_by_role("button", name="Oma und Opa").click()
    expect(other_tab.locator("h1")).to_have_text("Oma und Opa")
    page.locator("#night-form label.tile", has_text="Anna").click()
    page.get_by_role("button", name="Start the evening").click()
    expect(page.locator("details.household-menu summary")).to_contain_text("Familie Test")
    assert table["household"].game_nights.count() == 1
    assert not grandparents.game_nights.exists()
