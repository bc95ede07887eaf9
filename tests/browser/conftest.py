import re
import threading

import pytest
from django.core.signals import request_finished, request_started
from django.db import connection
from playwright.sync_api import Browser, Page, expect

from tests.browser import servers
from tests.browser.servers import AppServer
from tests.factories import GameNightFactory, PlayerFactory, UserFactory

PASSWORD = "secret"

#: Every visible control; a checkbox or radio inside a label is tapped through its label.
TOO_SMALL = """(touch) => {
  const small = [];
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary';
  for (const control of document.querySelectorAll(controls)) {
    const target = ['checkbox', 'radio'].includes(control.type) && control.closest('label')
      ? control.closest('label') : control;
    const box = target.getBoundingClientRect();
    const style = getComputedStyle(target);
    // Not drawn, or visually hidden for screen readers (1x1 px, clipped).
    if (box.width <= 1 || box.height <= 1 || style.visibility === 'hidden') continue;
    if (box.width < touch - 0.5 || box.height < touch - 0.5) {
      small.push(`${target.tagName.toLowerCase()}.${target.className} "${
        (target.innerText || target.getAttribute('aria-label') || target.name || '').trim()
      }" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return small;
}"""

MAUS_WIN = {
    "Anna": ["home:1", "seat:8", "caught", "caught"],
    "Ben": ["home:2", "caught", "caught", "pyramid"],
}


def maus_result(players) -> dict:
    """A race of Anna and Ben: Anna wins."""
    return {"elephants": {p.key: MAUS_WIN[p.name] for p in players}}


class RequestsUnderWay:
    """The live server's requests not yet answered, counted by Django's request signals:
    the live server answers in threads of the tests' own process."""

    def __init__(self) -> None:
        self.count = 0
        self.changed = threading.Condition()

    def started(self, **_kwargs) -> None:
        with self.changed:
            self.count += 1

    def finished(self, **_kwargs) -> None:
        with self.changed:
            self.count -= 1
            self.changed.notify_all()

    def wait_until_answered(self, seconds: float) -> None:
        with self.changed:
            self.changed.wait_for(lambda: self.count <= 0, seconds)


UNDER_WAY = RequestsUnderWay()
request_started.connect(UNDER_WAY.started)
request_finished.connect(UNDER_WAY.finished)


@pytest.fixture(autouse=True)
def _requests_answered_before_the_database_is_emptied(request):
    """A test may end while its page still has a request under way (a score sent just
    before the last check). On PostgreSQL the emptying of the database after the test
    (TRUNCATE, which locks every table) and that request's transaction then wait for each
    other, and one of them is ended as a deadlock. Set up after the database and the live
    server, this waits, once the test and its pages are done, until the server has
    answered."""
    if "live_server" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("transactional_db")
    request.getfixturevalue("live_server")
    yield
    UNDER_WAY.wait_until_answered(seconds=10)


@pytest.fixture
def table(transactional_db, household):
    """A host with a password, two players present at tonight's game night."""
    host = UserFactory(username="tablehost")
    host.set_password(PASSWORD)
    host.save()
    household.members.add(host)
    players = [PlayerFactory(household=household, name=name) for name in ("Anna", "Ben")]
    night = GameNightFactory(household=household, host=host)
    night.players.set(players)
    return {"host": host, "players": players, "night": night, "household": household}


def log_in(page: Page, live_server, username: str = "tablehost") -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")


@pytest.fixture
def host_page(page: Page, live_server, table) -> Page:
    log_in(page, live_server)
    return page


@pytest.fixture
def second_host_page(browser: Browser, live_server, table, browser_context_args) -> Page:
    """The same household on a second tablet."""
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    log_in(page, live_server)
    yield page
    context.close()


def catch_remaining_elephants(page: Page) -> None:
    """Tap "Caught" for every elephant of the Maus form that is not entered yet."""
    cards = page.locator(".player-card")
    for card_index in range(cards.count()):
        for index in range(4):
            elephant = cards.nth(card_index).locator(".elephant").nth(index)
            if "not entered" in elephant.inner_text():
                elephant.get_by_role("button", name="Caught").click()
                expect(elephant).not_to_contain_text("not entered")


def choose_game(page: Page, game_tile) -> None:
    """Tap a game on the new-game screen and wait until its setup is drawn: a player tapped
    while the old form is still being replaced would be tapped on a form about to go."""
    game_tile.click()
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def rematch(page: Page) -> None:
    """Tap "Rematch" and wait until the new play's page is open: the finished play's address
    matches the same pattern, so waiting for any play's address would not wait at all."""
    finished_play = page.url
    page.get_by_role("button", name="Rematch").click()
    page.wait_for_url(lambda url: url != finished_play and re.search(r"/plays/\d+/$", url))


@pytest.fixture(scope="session")
def app_servers(django_db_setup) -> list[AppServer]:
    """Two gunicorn servers sharing the tests' database and one cache (see
    :mod:`tests.browser.servers`); stopped before the tests' database is dropped."""
    if not servers.WANTED:
        pytest.skip(servers.SKIP_REASON)
    started = servers.start_servers(connection.settings_dict)
    yield started
    for server in started:
        server.stop()


@pytest.fixture
def background_work(transactional_db):
    """A worker of background work for the live server (django-tasks-db's, as
    ``manage.py run_worker`` runs it at home), in a thread of the tests' process: a
    process of its own would not see the tests' database."""
    from django_tasks_db.management.commands.db_worker import Worker

    worker = Worker(queue_names=["default"], interval=0.1, batch=False, backend_name="default",
                    startup_delay=False, max_tasks=None, worker_id="browser-tests",
                    excluded_queue_names=[])
    thread = threading.Thread(target=worker.run, name="background-work", daemon=True)
    thread.start()
    yield
    worker.running = False
    thread.join(5)


@pytest.fixture
def task_workers(app_servers):
    """Start workers of background work on the servers' shared queue (``start()``), each
    stopped at the end of the test."""
    started: list[servers.TaskWorker] = []

    def start() -> servers.TaskWorker:
        started.append(servers.start_worker(connection.settings_dict))
        return started[-1]

    yield start
    for worker in started:
        worker.kill()


@pytest.fixture
def page_on_first(page: Page, app_servers, table) -> Page:
    """The host's tablet, signed in on the first server."""
    log_in(page, app_servers[0])
    return page


@pytest.fixture
def page_on_second(browser: Browser, app_servers, table, browser_context_args) -> Page:
    """A second tablet of the household, signed in on the second server."""
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    log_in(page, app_servers[1])
    yield page
    context.close()
