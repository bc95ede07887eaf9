"""A site on two app servers that share the database and the cache: a login, a household
chosen, a cell, a tap on a result form, a TV board and an import all hold across them,
whichever server a device's request reaches. Run by ``.ci/run`` on PostgreSQL and Redis (see
:mod:`tests.browser.servers`)."""

from __future__ import annotations

import json
import re
import time
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import requests_to
from tests.browser.servers import SKIP_REASON, WANTED
from tests.browser.test_devices import FOLLOWS_WITHIN_MS, cell, type_points
from tests.browser.test_households import open_household_menu
from tests.browser.test_live import PUSHED_WITHIN_MS
from tests.factories import HouseholdFactory, PlayerFactory
from tests.tracker.portability.transfer_fixtures import build_everything, grown
from tracker.households.models import Household, ImportJob
from tracker.portability.export import export_household
from tracker.room.models import ShareLink
from tracker.table.models import Play
from tracker.table.recording import start_play

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not WANTED, reason=SKIP_REASON)]


@pytest.fixture
def sheet(table) -> Play:
    return start_play(household=table["household"], game="kniffel", players=table["players"],
                      game_night=table["night"], user=table["host"])


def test_a_login_on_one_server_holds_on_the_other(page_on_first: Page, app_servers, table,
                                                  sheet):
    anna = table["players"][0]
    page_on_first.goto(app_servers[1].url + sheet.get_absolute_url())
    expect(page_on_first.locator("#turn")).to_contain_text("Anna's turn")
    type_points(page_on_first, anna, "chance", 21)
    expect(cell(page_on_first, anna, "chance")).to_have_text("21")
    page_on_first.goto(app_servers[0].url + sheet.get_absolute_url())
    expect(cell(page_on_first, anna, "chance")).to_have_text("21")


def test_a_cell_saved_on_one_server_is_told_to_a_tablet_on_the_other(
        page_on_first: Page, page_on_second: Page, app_servers, table, sheet):
    """Each server's streams hear the other's changes through the shared Redis: no page
    asks whether anything changed."""
    anna, ben = table["players"]
    page_on_first.goto(app_servers[0].url + sheet.get_absolute_url())
    page_on_second.goto(app_servers[1].url + sheet.get_absolute_url())
    asked = [requests_to(page, "/follow/") for page in (page_on_first, page_on_second)]
    type_points(page_on_first, anna, "chance", 21)
    expect(cell(page_on_second, anna, "chance")).to_have_text("21", timeout=PUSHED_WITHIN_MS)
    type_points(page_on_second, ben, "fours", 12)
    expect(cell(page_on_first, ben, "fours")).to_have_text("12", timeout=PUSHED_WITHIN_MS)
    assert asked == [[], []]


def test_a_tablet_on_a_restarted_server_misses_nothing(
        page_on_first: Page, page_on_second: Page, app_servers, table, sheet):
    anna, ben = table["players"]
    page_on_first.goto(app_servers[0].url + sheet.get_absolute_url())
    page_on_second.goto(app_servers[1].url + sheet.get_absolute_url())
    app_servers[1].process.terminate()  # the second server goes down for a new version
    try:
        type_points(page_on_first, anna, "chance", 21)
        type_points(page_on_first, ben, "fours", 12)
    finally:
        app_servers[1].restart()  # up again for the tests after this one, whatever happened
    expect(cell(page_on_second, anna, "chance")).to_have_text("21", timeout=15_000)
    expect(cell(page_on_second, ben, "fours")).to_have_text("12")
    type_points(page_on_first, anna, "ones", 3)
    expect(cell(page_on_second, anna, "ones")).to_have_text("3", timeout=PUSHED_WITHIN_MS)


def test_taps_on_a_result_form_reach_the_other_server(
        page_on_first: Page, page_on_second: Page, app_servers, table):
    race = start_play(household=table["household"], game="maus_im_nacken",
                      players=table["players"], game_night=table["night"], user=table["host"])
    page_on_first.goto(app_servers[0].url + race.get_absolute_url())
    page_on_second.goto(app_servers[1].url + race.get_absolute_url())
    anna_first = ".player-card >> nth=0 >> .elephant >> nth=0"
    ben_first = ".player-card >> nth=1 >> .elephant >> nth=0"

    page_on_first.locator(anna_first).get_by_role("button", name="Home").click()
    expect(page_on_second.locator(anna_first)).to_contain_text("home 1.",
                                                               timeout=FOLLOWS_WITHIN_MS)
    page_on_second.locator(ben_first).get_by_role("button", name="Caught").click()
    expect(page_on_second.locator(ben_first)).to_contain_text("caught")
    page_on_first.reload()
    expect(page_on_first.locator(anna_first)).to_contain_text("home 1.")
    expect(page_on_first.locator(ben_first)).to_contain_text("caught")


def test_a_board_on_one_server_follows_entries_made_on_the_other(
        page_on_first: Page, browser, browser_context_args, app_servers, table,
        sheet):
    anna = table["players"][0]
    link = ShareLink.objects.create(household=table["household"], play=sheet)
    tv = browser.new_context(**browser_context_args).new_page()
    try:
        tv.goto(f"{app_servers[1].url}/board/{link.token}/")
        expect(tv.locator("#board")).to_be_visible()
        page_on_first.goto(app_servers[0].url + sheet.get_absolute_url())
        type_points(page_on_first, anna, "chance", 23)
        expect(tv.locator(f"#c-{anna.pk}-chance")).to_have_text("23", timeout=FOLLOWS_WITHIN_MS)
    finally:
        tv.context.close()


def test_the_household_chosen_on_one_server_is_shown_by_the_other(
        page_on_first: Page, app_servers, table):
    first, second = (server.url for server in app_servers)
    grandparents = HouseholdFactory(name="Oma und Opa")
    grandparents.members.add(table["host"])
    page_on_first.goto(f"{second}/")
    expect(page_on_first.locator("main h1")).to_have_text("Familie Test")

    page_on_first.goto(f"{first}/")
    open_household_menu(page_on_first)
    page_on_first.locator(".household-menu").get_by_role("button", name="Oma und Opa").click()
    expect(page_on_first.locator("main h1")).to_have_text("Oma und Opa")
    page_on_first.goto(f"{second}/")
    expect(page_on_first.locator("main h1")).to_have_text("Oma und Opa")

    # A link into the other household, followed on the second server, switches back.
    page_on_first.goto(second + table["night"].get_absolute_url())
    page_on_first.goto(f"{first}/")
    expect(page_on_first.locator("main h1")).to_have_text("Familie Test")


def test_an_import_uploaded_to_one_server_lands_on_the_other(
        page_on_first: Page, page_on_second: Page, app_servers, task_workers, table, tmp_path):
    task_workers()
    backup = tmp_path / "backup.json"
    backup.write_text(json.dumps(export_household(table["household"])))
    page_on_first.goto(app_servers[0].url + "/household/import/")
    page_on_first.get_by_label("Exported file").set_input_files(backup)
    page_on_first.get_by_label("Name of the new household").fill("Restored")
    page_on_first.get_by_role("button", name="Import").click()
    page_on_first.wait_for_url(re.compile(r"/household/import/\d+/$"))
    progress = urlsplit(page_on_first.url).path

    # The same member follows the job on a tablet whose requests reach the other server.
    page_on_second.goto(app_servers[1].url + progress)
    page_on_second.wait_for_url(app_servers[1].url + "/household/", timeout=20_000)
    expect(page_on_second.locator("h1")).to_have_text("Restored")
    assert Household.objects.get(name="Restored").members.get() == table["host"]


def test_an_import_whose_worker_is_killed_is_finished_by_another(
        page_on_first: Page, app_servers, task_workers, table, tmp_path):
    """Nobody watches: the worker's machine dies half-way, another worker takes the job
    over within a minute and writes only what was left, once."""
    family = [*table["players"], *(PlayerFactory(household=table["household"], name=name)
                                   for name in ("Carla", "David"))]
    document = grown(export_household(build_everything(
        table["household"], table["night"], family, table["host"])), 3000)
    backup = tmp_path / "backup.json"
    backup.write_text(json.dumps(document))
    first = task_workers()
    page_on_first.goto(app_servers[0].url + "/household/import/")
    page_on_first.get_by_label("Exported file").set_input_files(backup)
    page_on_first.get_by_label("Name of the new household").fill("Restored")
    page_on_first.get_by_role("button", name="Import").click()
    page_on_first.wait_for_url(re.compile(r"/household/import/\d+/$"))
    page_on_first.goto(app_servers[0].url + "/")
    job = ImportJob.objects.get()
    wait_for(lambda: ImportJob.objects.get(pk=job.pk).plays_done >= 500, seconds=60)

    first.kill()
    killed_at = ImportJob.objects.get(pk=job.pk).plays_done
    task_workers()
    wait_for(lambda: ImportJob.objects.get(pk=job.pk).ended, seconds=90)

    job.refresh_from_db()
    assert killed_at < len(document["plays"])
    assert (job.state, job.attempts) == ("done", 2)
    assert job.household.plays.count() == len(document["plays"])
    assert job.household.members.get() == table["host"]


def wait_for(condition, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"not within {seconds} s"
        time.sleep(0.2)
