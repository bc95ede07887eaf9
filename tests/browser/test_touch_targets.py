"""Every control a finger can tap is at least 44x44 px, on every screen, at both tablet sizes,
and no screen breaks its Content-Security-Policy."""

import pytest
from playwright.sync_api import Page

from games import coach
from tests.browser.conftest import TOO_SMALL, log_in, maus_result
from tests.factories import PlayerFactory
from tests.kniffel_games import finished_kniffel
from tracker.evenings.models import Series, Tournament, TournamentEntry
from tracker.evenings.recording import start_series_race, start_tournament_round
from tracker.households.models import Invitation
from tracker.room.models import ShareLink
from tracker.table.recording import record_result, start_play, write_cell

pytestmark = pytest.mark.browser

TOUCH = 44
SIZES = [(768, 1024), (1024, 768)]


@pytest.fixture
def evening(table, settings, coach_tables):
    """Tonight with a finished race, a race under way, a Kniffel sheet with the coach's hint,
    a finished Kniffel game, a series with a race saved, a tournament with a round seated, and
    an open invitation."""
    settings.COACH_TABLES_DIR = coach_tables
    household, night, host = table["household"], table["night"], table["host"]
    anna, ben = table["players"]
    for name in ("Carla", "David"):
        PlayerFactory(household=household, name=name)
    finished = start_play(household=household, game="maus_im_nacken", players=[anna, ben],
                          game_night=night, user=host)
    record_result(finished, maus_result([anna, ben]), expected_version=finished.version)
    under_way = start_play(household=household, game="maus_im_nacken", players=[anna, ben],
                           game_night=night, user=host)
    sheet = start_play(household=household, game="kniffel", players=[anna, ben],
                       game_night=night, user=host, house_rules=coach.YAHTZEE | {
                           "coach_hint": True})
    write_cell(sheet, anna, "sixes", 24, expected_version=None)
    analysed = finished_kniffel(household, night, [anna, ben])
    series = Series.objects.create(household=household, name="Winter", game="maus_im_nacken",
                                   races_planned=3, created_by=host)
    series.players.set([anna, ben])
    race = start_series_race(series, user=host)
    record_result(race, maus_result([anna, ben]), expected_version=race.version)
    tournament = Tournament.objects.create(household=household, name="Party",
                                           game="maus_im_nacken", rounds_planned=2,
                                           created_by=host)
    for player in household.players.all():
        TournamentEntry.objects.create(tournament=tournament, player=player)
    start_tournament_round(tournament, user=host)
    invitation = Invitation.objects.create(household=household, created_by=host)
    ShareLink.objects.create(household=household, game_night=night)  # its QR code and card
    return {
        "screens": [
            "/", "/nights/new/", night.get_absolute_url(), f"{night.get_absolute_url()}players/",
            f"{night.get_absolute_url()}plays/new/", finished.get_absolute_url(),
            under_way.get_absolute_url(), sheet.get_absolute_url(), "/series/",
            "/series/new/", series.get_absolute_url(), "/tournaments/new/",
            tournament.get_absolute_url(), "/household/",
            "/print/pad/", "/household/import/", "/plays/open/", "/history/",
            f"/plays/{sheet.pk}/cells/{ben.pk}/chance/", f"/plays/{analysed.pk}/coach/{anna.pk}/",
            analysed.get_absolute_url(), f"/players/{anna.pk}/",
        ],
        "logged_out": ["/accounts/login/", f"/invite/{invitation.token}/", "/offline/"],
    }


@pytest.mark.parametrize("width,height", SIZES)
def test_every_control_on_every_screen_is_big_enough_to_tap(page: Page, live_server, table,
                                                            evening, width, height):
    page.set_viewport_size({"width": width, "height": height})
    console_errors = []
    page.on("console", lambda message: message.type == "error" and console_errors.append(
        f"{page.url}: {message.text}"))
    too_small = {}
    for path in evening["logged_out"]:
        page.goto(live_server.url + path)
        too_small[path] = page.evaluate(TOO_SMALL, TOUCH)
    log_in(page, live_server)
    for path in evening["screens"]:
        response = page.goto(live_server.url + path)
        assert response.ok, path
        too_small[path] = page.evaluate(TOO_SMALL, TOUCH)
    assert {path: small for path, small in too_small.items() if small} == {}
    assert console_errors == []  # a style or script the Content-Security-Policy refused
