import re
import threading

import pytest
from django.core.signals import request_finished, request_started
from django.db import connection
from playwright.sync_api import Browser, Page, expect

from tests.browser import servers
from tests.browser.servers import AppServer
from tests.factories import (
    GameNightFactory,
    InvitationFactory,
    OwnGameFactory,
    PlayerFactory,
    UserFactory,
)
from tests.kniffel_games import finished_kniffel
from tracker.common import live
from tracker.evenings.models import Series, Tournament, TournamentEntry
from tracker.evenings.recording import start_series_race, start_tournament_round
from tracker.room.models import ShareLink
from tracker.table.recording import record_result, start_play, write_cell
from tracker.table.rounds import add_round

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
    the live server answers in threads of the tests' own process, each request in a thread
    of its own. An open page's stream of changes is not counted: it lasts as long as the
    page, holds no transaction, and ends its thread's request only when the page closes."""

    def __init__(self) -> None:
        self.count = 0
        self.changed = threading.Condition()
        self.streams: set[int] = set()

    def started(self, environ=None, **_kwargs) -> None:
        with self.changed:
            if environ and live.STREAM_PATH.match(environ.get("PATH_INFO", "")):
                self.streams.add(threading.get_ident())
            else:
                self.count += 1

    def finished(self, **_kwargs) -> None:
        with self.changed:
            if threading.get_ident() in self.streams:
                self.streams.discard(threading.get_ident())
                return
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


def requests_to(page: Page, part: str) -> list[str]:
    """The addresses containing ``part`` that ``page`` asks for from now on."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if part in request.url
            else None)
    return asked


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


def cell_named(page: Page, player: str, field: str):
    """A Kniffel or score-pad cell by the start of its name: "Anna, Chance: 21" names the
    player, the field (or "round 2") and what the cell holds."""
    return page.get_by_label(re.compile(rf"^{re.escape(player)}, {re.escape(field)}: "))


def tap_size(locator) -> tuple[float, float]:
    """The width and height a finger has to tap, measured where the element is found: a page
    that follows the other tablets may swap it for its twin in between (bounding_box() then
    finds nothing, and an element already taken out of the page measures 0 by 0), so it is
    found again until it is measured in the page."""
    for _found in range(20):
        size = locator.evaluate(
            "(element) => { if (!element.isConnected) return null;"
            " const box = element.getBoundingClientRect(); return [box.width, box.height]; }")
        if size is not None:
            return size[0], size[1]
    raise AssertionError("the element was swapped away each time it was found")


def type_on_pad(page: Page, typed: str) -> None:
    """Tap ``typed`` on the number pad (digits, + and -) and save it."""
    pad = page.locator("#pad-editor")
    for key in typed:
        pad.locator(f".numpad button[value='{ {'+': 'plus', '-': 'subtract'}.get(key, key) }']"
                    ).click()
    expect(pad.locator("input[name=points]")).to_have_value(typed)
    pad.get_by_role("button", name="Save", exact=True).click()


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


@pytest.fixture
def family_pages(table, settings, coach_tables) -> dict[str, str]:
    """An evening of eight at the table, with every kind of page the family opens on a phone,
    by name: the forms of each game, a Kniffel and a Weltraum-Kniffel sheet of six, the score
    pad of eight, a corrected result, a series, a tournament, the boards and the coach."""
    settings.COACH_TABLES_DIR = coach_tables
    household, night, host = table["household"], table["night"], table["host"]
    players = table["players"] + [
        PlayerFactory(household=household, name=name)
        for name in ("Carla", "David", "Großmutter Hildegard", "Finn", "Greta", "Hannes")]
    night.players.set(players)
    four, six = players[:4], players[:6]

    def play(game, seated, **setup):
        return start_play(household=household, game=game, players=seated, game_night=night,
                          user=host, **setup)

    def own(name, **rules):
        return OwnGameFactory(household=household, name=name, **rules)

    forms = {f"the {name} form": play(game, four if game != "mau_mau" else six)
             for name, game in (("Die Maus im Nacken", "maus_im_nacken"),
                                ("Mouse Trap", "mouse_trap"),
                                ("Alles für die Katz", "alles_fuer_die_katz"),
                                ("Mensch ärgere dich nicht", "mensch_aergere_dich_nicht"),
                                ("Entenspiel", "entenspiel"), ("Mau Mau", "mau_mau"))}
    forms |= {f"the form of an own game {kind}": play("generic", six, own_game=game)
              for kind, game in (("by order", own("Carcassonne", scoring="places")),
                                 ("together", own("Hanabi", scoring="cooperative")),
                                 ("in teams", own("Codenames", teams=True)))}
    kniffel = play("kniffel", six)
    for player in six:
        write_cell(kniffel, player, "sixes", 24, expected_version=None)
    space = play("weltraum_kniffel", six)
    pad = play("generic", players, own_game=own("Wizard"))
    add_round(pad, 1, {player.key: 10 * index - 20 for index, player in enumerate(players)},
              expected_version=pad.version)
    finished = play("maus_im_nacken", players[:2])
    record_result(finished, maus_result(players[:2]), expected_version=finished.version)
    finished.refresh_from_db()
    corrected = maus_result(players[:2])
    corrected["elephants"][players[1].key][1] = "seat:4"
    record_result(finished, corrected, expected_version=finished.version, user=host)
    analysed = finished_kniffel(household, night, players[:2])
    tied = play("generic", players[:3], own_game=own("Wingspan", sheet="categories",
                                                    categories=[{"name": "Birds",
                                                                 "minus": False}],
                                                    tiebreak_count="food tokens left"))
    record_result(tied, {"rounds": [{player.key: 40 for player in players[:3]}],
                         "finished": True}, expected_version=tied.version)
    series = Series.objects.create(household=household, name="Winterrennen",
                                   game="maus_im_nacken", races_planned=3, created_by=host)
    series.players.set(players[:2])
    race = start_series_race(series, user=host)
    record_result(race, maus_result(players[:2]), expected_version=race.version)
    tournament = Tournament.objects.create(household=household, name="Greta's birthday",
                                           game="maus_im_nacken", rounds_planned=2,
                                           created_by=host)
    for player in players:
        TournamentEntry.objects.create(tournament=tournament, player=player)
    start_tournament_round(tournament, user=host)

    def board(**shared):
        return f"/board/{ShareLink.objects.create(household=household, **shared).token}/"

    return {
        "login": "/accounts/login/",
        "sign-up": f"/invite/{InvitationFactory(household=household).token}/",
        "home": "/",
        "a night's page": night.get_absolute_url(),
        "who is here": f"{night.get_absolute_url()}players/",
        "the new-game screen": f"{night.get_absolute_url()}plays/new/",
        **{name: form.get_absolute_url() for name, form in forms.items()},
        "the final scores form of an own game": f"{pad.get_absolute_url()}?final=1",
        "the Kniffel sheet": kniffel.get_absolute_url(),
        "the Weltraum-Kniffel sheet": space.get_absolute_url(),
        "the score pad": pad.get_absolute_url(),
        "a tie to break": tied.get_absolute_url(),
        "a corrected result": finished.get_absolute_url(),
        "the history": "/history/",
        "a player's page": f"/players/{players[4].pk}/",
        "a game's statistics": "/games/kniffel/",
        "the year review": f"/review/{night.date.year}/",
        "the ratings": "/ratings/",
        "a player's ratings": f"/ratings/players/{players[0].pk}/",
        "the place of the night": f"{night.get_absolute_url()}place/",
        "a play's note and length": f"/plays/{finished.pk}/story/",
        "the household": "/household/",
        "the households": "/households/",
        "deleting the household": "/household/delete/",
        "the series": "/series/",
        "a new series": "/series/new/",
        "a series": series.get_absolute_url(),
        "a new tournament": "/tournaments/new/",
        "a tournament": tournament.get_absolute_url(),
        "the print page": "/print/pad/",
        "the import": "/household/import/",
        "the coach's analysis": f"/plays/{analysed.pk}/coach/{players[0].pk}/",
        "the board of the night": board(game_night=night),
        "the board of the Kniffel sheet": board(play=kniffel),
        "the board of the score pad": board(play=pad),
    }


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
