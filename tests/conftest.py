import fcntl
import os
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.utils import translation

import games
from games import coach
from tests.browser import servers
from tests.factories import GameNightFactory, HouseholdFactory, PlayerFactory, UserFactory
from tracker.ratings import history
from tracker.table.recording import start_play

# Playwright drives the browser from an event loop; the ORM calls in those tests are synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix,
                                 tmp_path_factory):
    """On SQLite the tests' database is a file, as in production. In memory, a live server's
    threads would share one connection, and SQLite refuses a write on it while another
    thread reads ("database table is locked"): with a scoreboard asking twice a second, a
    browser test saving a result would fail now and then."""
    database = settings.DATABASES["default"]
    if "sqlite" in database["ENGINE"]:
        folder = tmp_path_factory.mktemp("database")
        database.setdefault("TEST", {})["NAME"] = str(folder / "tests.sqlite3")


@pytest.fixture(autouse=True)
def _static_files_without_manifest(settings):
    """Tests run without collectstatic, so static URLs come without hashed names."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


#: What a template left unrendered looks like in a page: a tag, a variable, a comment that
#: Django's one-line ``{# #}`` did not end.
TEMPLATE_SYNTAX = (b"{%", b"{{", b"{#")


@pytest.fixture(autouse=True)
def _no_template_syntax_in_pages(monkeypatch):
    """Every page and fragment a test asks for shows no template syntax: a comment written
    over two lines with ``{# #}`` would show on the score pad after every tap."""
    from django.test import Client

    ask = Client.request

    def request(self, **request):
        response = ask(self, **request)
        if (response.get("Content-Type", "").startswith("text/html")
                and not getattr(response, "streaming", False)):
            shown = next((mark for mark in TEMPLATE_SYNTAX if mark in response.content), None)
            assert shown is None, (
                f"{request.get('PATH_INFO')} shows template syntax {shown!r}: "
                f"{response.content[max(0, response.content.find(shown) - 80):][:200]!r}")
        return response

    monkeypatch.setattr(Client, "request", request)


@pytest.fixture(autouse=True)
def _language_of_each_test_its_own():
    """A language a request or a test activated does not leak into the next test's messages."""
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _imports_without_pauses(monkeypatch):
    """An import pauses between its steps to let tablets' saves in; tests have none."""
    monkeypatch.setattr("tracker.portability.imports.PAUSE_BETWEEN_STEPS", 0)


@pytest.fixture(autouse=True)
def _quick_password_hashes(settings):
    """A password hashed as in production takes a quarter of a second, and every test user
    has one. The app servers of tests/browser/test_two_servers.py check passwords with the
    production hashers, so their run keeps them."""
    if not servers.WANTED:
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _empty_cache(settings):
    """Each test gets its own empty cache in memory: rendered sheets are cached by play and
    version, both repeat from one test to the next, and a server may use the files in data/.
    The histories the ratings read last are forgotten too: ids repeat as well."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "tests"}}
    cache.clear()
    history.READ.clear()


@pytest.fixture(autouse=True)
def _coach_tables_apart(settings, tmp_path_factory):
    """The coach's tables of a test never land in data/: tests that need them ask for
    ``coach_tables``; any other use computes into a directory of the test session."""
    settings.COACH_TABLES_DIR = tmp_path_factory.getbasetemp() / "coach-elsewhere"


@pytest.fixture
def household(db):
    return HouseholdFactory(name="Familie Test")


@pytest.fixture
def host(household):
    """A member of the household: records games."""
    user = UserFactory(username="host")
    household.members.add(user)
    return user


@pytest.fixture
def stranger(db):
    """Logged in, but a member of another household."""
    user = UserFactory(username="stranger")
    HouseholdFactory(name="Other family").members.add(user)
    return user


@pytest.fixture
def admin_user(db):
    return get_user_model().objects.create_superuser("boss", "boss@example.org", "pw")


@pytest.fixture
def family(household):
    """Four players of the household, in seat order."""
    return [PlayerFactory(household=household, name=name)
            for name in ("Anna", "Ben", "Carla", "David")]


@pytest.fixture
def night(household, family):
    """Tonight's game night, all the family present."""
    night = GameNightFactory(household=household)
    night.players.set(family)
    return night


@pytest.fixture
def kniffel(household, night, family):
    """A classic Kniffel game of Anna and Ben, nothing entered yet."""
    return start_play(household=household, game="kniffel", players=family[:2], game_night=night)


@pytest.fixture
def host_client(client, host):
    client.force_login(host)
    return client


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium, started the way this closed network needs."""
    return {
        **browser_type_launch_args,
        "executable_path": os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"),
        "args": ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1024, "height": 768},
            "locale": "en-GB"}


@pytest.fixture(scope="session")
def coach_tables(tmp_path_factory):
    """The coach's tables for the official Yahtzee rules and for Weltraum-Kniffel, computed
    once per test run (a few seconds) into a directory of their own: with several
    workers (pytest -n), the first to need them computes them and the others wait."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run is None:
        directory = tmp_path_factory.mktemp("coach")
        compute_coach_tables(directory)
        return directory
    directory = tmp_path_factory.getbasetemp().parent / f"coach-{run}"
    directory.mkdir(exist_ok=True)
    with open(directory / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (directory / "computed").exists():
            compute_coach_tables(directory)
            (directory / "computed").touch()
    return directory


def compute_coach_tables(directory: Path) -> None:
    for game, house_rules in (("kniffel", coach.YAHTZEE), ("weltraum_kniffel", {})):
        coach.compute(coach.Model(games.get(game), house_rules), directory)
