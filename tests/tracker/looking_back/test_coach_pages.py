"""The coach on the web: the analysis of a finished Kniffel game (page and PDF) and its hint on
the dice pads."""

import io
import re

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

import games
from games import coach, coach_tables
from tests.kniffel_games import finished_kniffel
from tests.tasks import run_queued_tasks
from tests.tracker.looking_back.stats_fixtures import finish_generic
from tracker.table import coaching
from tracker.table.recording import start_play

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _tables(settings, coach_tables):
    settings.COACH_TABLES_DIR = coach_tables


def analysis_url(play, player):
    return reverse("play_analysis", args=[play.pk, player.pk])


def test_each_turn_is_weighed_against_the_coach(host_client, household, night, family):
    anna, ben = family[:2]
    play = finished_kniffel(household, night, [anna, ben])
    response = host_client.get(analysis_url(play, anna))
    assert response.status_code == 200
    rows = response.context["rows"]
    assert len(rows) == 13 and all(row["dice"] for row in rows)
    # 4 4 4 6 6 written as Three of a kind (24): the coach takes the Full House.
    full_house_roll = rows[6]
    assert full_house_roll["field"] == "Three of a kind"
    assert full_house_roll["best"]["field"] == "Full House" and full_house_roll["lost"] > 0
    assert rows[10]["same"] and rows[10]["lost"] == 0  # the large straight where it belongs
    summary = response.context["summary"]
    anna_total = play.participants.get(player=anna).points
    assert summary["total"] == anna_total
    assert summary["expected"] == pytest.approx(254.5896, abs=1e-4)
    assert summary["lost"] == pytest.approx(sum(row["lost"] for row in rows))
    # Verhoeff's proficiency: the points given away per weighed choice.
    assert summary["weighed"] == 13
    assert summary["lost_per_choice"] == pytest.approx(summary["lost"] / 13)
    assert summary["lost_per_choice"] > 0
    # Luck and choices explain the whole distance from the expectation to the result.
    assert rows[-1]["expected_final"] == pytest.approx(anna_total)
    assert summary["expected"] + summary["luck"] - summary["lost"] == pytest.approx(anna_total)
    page = response.content.decode()
    assert "Only the final dice of each turn are stored" in page
    assert "Given away per choice (Verhoeff’s proficiency)" in page
    assert f"{summary['lost_per_choice']:.2f}" in page
    assert reverse("print_play_analysis", args=[play.pk, anna.pk]) in page
    assert analysis_url(play, ben) in page


def test_a_sheet_typed_in_has_nothing_to_weigh(host_client, household, night, family):
    anna, ben = family[:2]
    play = finished_kniffel(household, night, [anna, ben])
    response = host_client.get(analysis_url(play, ben))
    assert response.status_code == 200
    assert response.context["summary"]["weighed"] == 0
    assert response.context["summary"]["lost_per_choice"] is None
    assert "nothing for the coach to weigh" in response.content.decode()
    assert "Given away per choice" not in response.content.decode()


def test_the_analysis_prints_as_a_pdf(host_client, household, night, family):
    play = finished_kniffel(household, night, family[:2])
    url = reverse("print_play_analysis", args=[play.pk, family[0].pk])
    pdf = host_client.get(url)
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    from tests.tracker.paper.test_sheets import A4, LETTER, page_sizes

    assert set(page_sizes(pdf.content)) == {A4}
    assert set(page_sizes(host_client.get(url, {"paper": "letter"}).content)) == {LETTER}
    html = host_client.get(url, {"format": "html", "lang": "de"}).content.decode()
    assert "Anna: die Analyse des Trainers" in html and "Würfelglück" in html


def test_the_finished_sheet_and_the_players_page_link_to_the_analysis(
        host_client, household, night, family):
    anna = family[0]
    play = finished_kniffel(household, night, family[:2])
    assert analysis_url(play, anna) in host_client.get(play.get_absolute_url()).content.decode()
    player_page = host_client.get(reverse("player_detail", args=[anna.pk])).content.decode()
    assert analysis_url(play, anna) in player_page


def test_only_finished_kniffel_games_of_the_household_are_analysed(
        host_client, client, stranger, household, night, family, kniffel):
    anna = family[0]
    unfinished = host_client.get(analysis_url(kniffel, anna))
    assert unfinished.status_code == 404
    assert "once it is finished" in unfinished.content.decode()
    other_game = finish_generic(household, night, [(anna, 10), (family[1], 8)])
    assert host_client.get(analysis_url(other_game, anna)).status_code == 404
    finished = finished_kniffel(household, night, family[:2])
    assert host_client.get(analysis_url(finished, family[3])).status_code == 404
    assert host_client.get(
        reverse("print_play_analysis", args=[kniffel.pk, anna.pk])).status_code == 400
    client.force_login(stranger)
    assert client.get(analysis_url(finished, anna)).status_code == 404


@pytest.fixture
def fresh_process(settings, tmp_path):
    """A server process that has read no table yet, on a machine without stored tables."""
    settings.COACH_TABLES_DIR = tmp_path / "tables"
    coaching._loaded.clear()
    yield
    coaching._loaded.clear()


def finish_preparing() -> None:
    """A worker of background work runs what is queued: the tables asked for."""
    run_queued_tasks()


def queued_tables() -> int:
    return DBTaskResult.objects.filter(task_path="tracker.table.coaching.compute_table").count()


def test_a_missing_table_is_computed_by_the_background_work(
        host_client, household, night, family, fresh_process, settings):
    """The first request answers at once that the coach is getting ready; a worker computes
    the table apart, then shares it through the cache and keeps it on disk."""
    play = finished_kniffel(household, night, family[:2])

    waiting = host_client.get(analysis_url(play, family[0]))
    pdf = host_client.get(reverse("print_play_analysis", args=[play.pk, family[0].pk]),
                          {"lang": "en"})

    assert waiting.status_code == 200
    page = waiting.content.decode()
    assert "The coach is working out its tables" in page
    assert '<meta http-equiv="refresh" content="5">' in page
    assert pdf.status_code == 503 and pdf["Retry-After"] == "5"
    assert "try again in a moment" in pdf.content.decode()
    assert queued_tables() == 1
    finish_preparing()
    response = host_client.get(analysis_url(play, family[0]))
    assert response.context["summary"]["expected"] == pytest.approx(254.5896, abs=1e-4)
    name = coach.table_name(play.rules, play.house_rules)
    assert cache.get(coaching.cache_key(name)) is not None
    assert (settings.COACH_TABLES_DIR / name).exists()


def test_another_server_reads_the_table_from_the_shared_cache(
        host_client, household, night, family, fresh_process, coach_tables, settings,
        monkeypatch):
    """No disk of its own, nothing computed: the table another server shared serves it."""
    play = finished_kniffel(household, night, family[:2])
    name = coach.table_name(play.rules, play.house_rules)
    cache.set(coaching.cache_key(name), (coach_tables / name).read_bytes())
    settings.COACH_TABLES_DIR = "/nonexistent/coach"
    monkeypatch.setattr(coach, "compute_apart", pytest.fail)
    response = host_client.get(analysis_url(play, family[0]))
    assert response.status_code == 200 and response.context["summary"]["weighed"] == 13


def test_pages_on_every_server_queue_one_computation(fresh_process, coach_tables,
                                                     monkeypatch):
    """What is queued is known through the shared cache: servers that do not share their
    memory still ask once."""
    rules = games.get("kniffel")
    calls = []

    def from_the_tables(rules, house_rules, timeout):
        calls.append(rules.key)
        return coach.load(rules, house_rules, coach_tables)

    monkeypatch.setattr(coach, "compute_apart", from_the_tables)
    found = []
    for _server in range(3):
        coaching._loaded.clear()
        found.append(coaching.coach_for(rules, coach.YAHTZEE))
    assert found == [None, None, None] and coaching.being_prepared(rules, coach.YAHTZEE)
    assert queued_tables() == 1
    finish_preparing()
    assert calls == ["kniffel"] and not coaching.being_prepared(rules, coach.YAHTZEE)
    assert coaching.coach_for(rules, coach.YAHTZEE) is not None


def test_a_table_that_cannot_be_computed_is_said_so(
        host_client, household, night, family, fresh_process, monkeypatch):
    play = finished_kniffel(household, night, family[:2])

    attempts = []

    def failing(rules, house_rules, timeout):
        attempts.append(rules.key)
        raise RuntimeError("no room")

    monkeypatch.setattr(coach, "compute_apart", failing)
    host_client.get(analysis_url(play, family[0]))
    finish_preparing()
    page = host_client.get(analysis_url(play, family[0]))
    assert page.status_code == 200
    assert "could not work out its tables" in page.content.decode()
    pdf = host_client.get(reverse("print_play_analysis", args=[play.pk, family[0].pk]))
    assert pdf.status_code == 400
    hinted = hinted_kniffel(household, night, family[:2])
    hint = host_client.post(editor(hinted, family[0]), {"dice": "1,2,3,4,5"}, **HTMX)
    assert "could not work out its tables" in hint.content.decode()
    assert attempts == ["kniffel"] and queued_tables() == 1  # not tried on every request
    cache.delete(coaching.failed_key(coach.table_name(play.rules, play.house_rules)))  # later
    host_client.get(analysis_url(play, family[0]))
    finish_preparing()
    assert attempts == ["kniffel", "kniffel"]


def test_the_hint_says_the_coach_is_getting_ready(host_client, household, night, family,
                                                  fresh_process):
    hinted = hinted_kniffel(household, night, family[:2])
    hint = host_client.post(editor(hinted, family[0]), {"dice": "1,2,3,4,5"}, **HTMX)
    assert "its hint comes in a few seconds" in hint.content.decode()


def hinted_kniffel(household, night, players, hint=True):
    return start_play(household=household, game="kniffel", players=players, game_night=night,
                      house_rules=coach.YAHTZEE | {"coach_hint": hint})


def editor(play, player, field="chance"):
    return reverse("cell_editor", args=[play.pk, player.pk, field])


def test_the_hint_names_the_coachs_field_and_each_fields_worth(
        host_client, household, night, family):
    play = hinted_kniffel(household, night, family[:2])
    response = host_client.post(editor(play, family[0]), {"dice": "1,2,3,4,5"}, **HTMX)
    page = response.content.decode()
    assert "The coach would write this roll as Large straight" in page
    large = next(o for o in response.context["editor"]["options"]
                 if o["key"] == "large_straight")
    assert large["coach"] and large["worth"] == pytest.approx(261.53, abs=0.01)
    assert "coach-pick" in page and "≈ 261.5" in page


def kept_dice(page):
    """The dice the coach's hint says to keep."""
    hint = page.split('class="coach-says"', 1)[1].split("</p>", 1)[0]
    return re.findall(r'<span class="small-die">([^<]+)</span>', hint)


def test_with_rolls_left_the_hint_says_which_dice_to_keep(host_client, household, night, family):
    play = hinted_kniffel(household, night, family[:2])
    url = editor(play, family[0])
    response = host_client.post(url, {"dice": "6,6,5,2,1", "tap": "rolls:2"}, **HTMX)
    page = response.content.decode()
    assert 'name="rolls_left" value="2"' in page
    assert kept_dice(page) == ["⚅", "⚅"] and "and roll 3 dice again" in page
    # Tapping a die keeps the rolls left; nonsense reads as the final roll.
    again = host_client.post(url, {"dice": "6,6,5,2", "rolls_left": "2", "tap": "die:6"},
                             **HTMX).content.decode()
    assert 'name="rolls_left" value="2"' in again and kept_dice(again) == ["⚅", "⚅", "⚅"]
    odd = host_client.post(url, {"dice": "6,6,5,2,1", "tap": "rolls:9"}, **HTMX)
    assert odd.status_code == 200 and 'name="rolls_left" value="0"' in odd.content.decode()


def test_no_hint_unless_the_house_rules_allow_it(host_client, household, night, family):
    play = hinted_kniffel(household, night, family[:2], hint=False)
    page = host_client.post(editor(play, family[0]), {"dice": "1,2,3,4,5"},
                            **HTMX).content.decode()
    assert "coach-hint" not in page and "≈" not in page


def test_space_kniffel_gets_its_hint_at_once(host_client, household, night, family):
    play = start_play(household=household, game="weltraum_kniffel", players=family[:2],
                      game_night=night, house_rules={"coach_hint": True})
    page = host_client.post(editor(play, family[0], "ufo"),
                            {"dice": "ufo,ufo,ufo,sun,star", "tap": "rolls:1"},
                            **HTMX).content.decode()
    assert kept_dice(page) == ["🛸", "🛸", "🛸"] and "and roll 2 dice again" in page


def test_the_tables_command_removes_what_older_rules_left(settings, tmp_path, monkeypatch):
    settings.COACH_TABLES_DIR = tmp_path
    monkeypatch.setattr(coach_tables, "compute_all", lambda directory: iter(()))
    current = tmp_path / coach.table_name(games.get("kniffel"), {})
    stale = tmp_path / "kniffel-0123456789abcdef.npz"
    current.write_bytes(b"table")
    stale.write_bytes(b"table")
    out = io.StringIO()
    call_command("coach_tables", stdout=out)
    assert current.exists() and not stale.exists()
    assert f"removed: {stale.name}" in out.getvalue()


def test_the_hint_is_said_alone_not_with_the_rolls_buttons_and_the_mortarboard(
        host_client, household, night, family):
    """A screen reader heard "Rolls left 012 🎓 Keep …": the hint says only the hint."""
    play = hinted_kniffel(household, night, family[:2])
    page = host_client.post(editor(play, family[0]), {"dice": "6,6,5,2,1", "tap": "rolls:2"},
                            **HTMX).content.decode()

    said = re.findall(r'data-announce="([^"]*)"', page[page.index('class="coach-hint"'):])

    assert said and said[0].startswith("Keep ⚅ ⚅ and roll 3 dice again, expected final")
    assert "Rolls left" not in said[0] and "🎓" not in said[0] and "<" not in said[0]
    assert '<span aria-hidden="true">🎓</span>' in page
