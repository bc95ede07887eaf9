"""Input out of bounds is refused with a message, never read at any cost."""

import json

import pytest
from django.urls import reverse

from tests.factories import OwnGameFactory
from tracker.common.parsing import UnreadableInput, read_json
from tracker.evenings.models import GameNight, Series, Tournament, TournamentEntry
from tracker.table.entry import MAX_HANDS
from tracker.table.recording import start_play

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
HUGE_ID = "9" * 20


@pytest.mark.parametrize("text", ["[" * 5000 + "]" * 5000, '{"x": ' + "9" * 5000 + "}",
                                  '{"x": NaN}', '{"x": 1.5}', "x" * 100_001])
def test_json_out_of_bounds_is_refused(text):
    with pytest.raises(UnreadableInput):
        read_json(text, max_chars=100_000, max_depth=4)


def test_brackets_inside_strings_do_not_count_as_nesting():
    assert read_json('{"a": "[[[[[[\\"{{{{"}', max_chars=100, max_depth=1) == {
        "a": '[[[[[["{{{{'}


def entry(client, play, draft, **data):
    return client.post(reverse("play_entry", args=[play.pk]),
                       {"draft": draft, "version": play.version, **data}, **HTMX)


DAMAGED = ("The form was damaged.", "Das Formular war beschädigt.")


@pytest.mark.parametrize("game,draft,message", [
    ("souriciere", "[" * 500 + "]" * 500,
     ("The form is nested too deeply.", "Das Formular ist zu tief verschachtelt.")),
    ("souriciere", '{"order": [' + "9" * 40 + "]}", DAMAGED),
    ("souriciere", '{"order": 5}', DAMAGED),
    ("mouse_trap", '{"captures": 5}', DAMAGED),
    ("mouse_trap", '{"captures": [{"mice": 5, "by": "x"}]}', DAMAGED),
    ("mau_mau", '{"hands": {"1": 2}}', DAMAGED),
    ("alles_fuer_die_katz", '{"mice": [1], "first_home": []}', DAMAGED),
    ("maus_im_nacken", '{"elephants": 5}', DAMAGED),
])
def test_a_draft_too_deep_too_long_or_misshapen_is_reset(host_client, household, night, family,
                                                         game, draft, message):
    house_rules = {"scoring": "penalty_points"} if game == "mau_mau" else {}
    play = start_play(household=household, game=game, players=family[:3], game_night=night,
                      house_rules=house_rules)
    english, german = message
    response = entry(host_client, play, draft, tap="uncapture")
    assert response.status_code == 400
    assert f"{english} It has been reset; please enter the result again." in (
        response.content.decode())
    response = host_client.post(reverse("play_entry", args=[play.pk]),
                                {"draft": draft, "version": play.version},
                                HTTP_ACCEPT_LANGUAGE="de", **HTMX)
    assert german in response.content.decode()


def test_a_huge_draft_is_refused_before_it_is_read_and_says_the_limit(host_client, household,
                                                                      night, family):
    play = start_play(household=household, game="mau_mau", players=family[:2],
                      game_night=night, house_rules={"scoring": "penalty_points"})
    hands = [{family[0].key: 1, family[1].key: 0}] * 4000
    response = entry(host_client, play, json.dumps({"hands": hands}))
    assert response.status_code == 400
    assert len(response.content) < 20_000
    page = response.content.decode()
    assert "The form is too large (at most" in page and "characters)" in page


def test_mau_mau_hands_stop_at_the_limit_with_a_message(host_client, household, night, family):
    play = start_play(household=household, game="mau_mau", players=family[:2],
                      game_night=night, house_rules={"scoring": "penalty_points"})
    hands = [{family[0].key: "", family[1].key: ""}] * MAX_HANDS
    response = entry(host_client, play, json.dumps({"hands": hands}), tap="addhand")
    assert response.status_code == 422
    page = response.content.decode()
    assert f"At most {MAX_HANDS} hands can be entered." in page
    assert page.count('name="hand_') == MAX_HANDS * 2


@pytest.mark.parametrize("typed", ["--5", "9" * 5000, "٣"])
def test_typed_numbers_that_are_no_numbers_go_to_the_engine_as_typed(host_client, household,
                                                                      night, family, typed):
    play = start_play(household=household, game="generic",
                      own_game=OwnGameFactory(household=household),
                      players=family[:2], game_night=night)
    response = entry(host_client, play, "{}", save="1",
                     score_0=typed, score_1="3")
    assert response.status_code == 422
    assert "Score" in response.content.decode()


@pytest.mark.parametrize("name,data", [
    ("night_new", {"date": "2024-05-01"}),
    ("series_new", {"name": "Cup", "game": "maus_im_nacken", "races_planned": "3",
                    "create": "1"}),
    ("tournament_new", {"name": "Cup", "game": "maus_im_nacken", "rounds_planned": "2"}),
])
def test_an_id_no_database_can_hold_is_a_form_error(host_client, family, name, data):
    response = host_client.post(reverse(name), {**data, "players": [family[0].pk, HUGE_ID]})
    assert response.status_code == 422
    assert f"“{HUGE_ID}” is not a valid value." in response.content.decode()
    assert not GameNight.objects.exists() and not Series.objects.exists()
    assert not Tournament.objects.exists()


def test_history_filtered_by_an_id_out_of_range_explains(host_client, family):
    response = host_client.get(reverse("history"), {"player": HUGE_ID})
    assert response.status_code == 400
    assert "Select a valid choice." in response.content.decode()


def test_a_drop_out_with_a_huge_id_changes_nothing(host_client, household, family):
    tournament = Tournament.objects.create(household=household, name="P", rounds_planned=2)
    for player in family:
        TournamentEntry.objects.create(tournament=tournament, player=player)
    response = host_client.post(reverse("tournament_drop_out", args=[tournament.pk]),
                                {"player": HUGE_ID})
    assert response.status_code == 302
    assert not tournament.entries.filter(dropped_after_round__isnull=False).exists()


def test_an_id_out_of_range_in_the_address_is_not_found(host_client, kniffel, family):
    assert host_client.get(f"/plays/{HUGE_ID}/").status_code == 404
    url = f"/plays/{HUGE_ID}/cells/{family[0].pk}/chance/"
    assert host_client.post(url, {"save": "1", "points": "3"}).status_code == 404


def test_house_rules_typed_as_no_numbers_are_explained(host_client, night, family):
    response = host_client.post(reverse("play_new", args=[night.pk]), {
        "game": "maus_im_nacken", "seats": f"{family[0].key},{family[1].key}",
        "rule_seat_values": "--5, " + "9" * 5000, "start": "1"})
    assert response.status_code == 422


def test_tapping_someone_who_is_not_here_seats_nobody(host_client, night, family):
    response = host_client.post(reverse("play_new", args=[night.pk]),
                                {"game": "maus_im_nacken", "tap": "seat:1:0"}, **HTMX)
    assert response.status_code == 200


def test_a_page_to_go_back_to_that_is_no_path_is_ignored(host_client, kniffel):
    response = host_client.post(reverse("play_abandon", args=[kniffel.pk]),
                                {"version": kniffel.version, "next": 'home{"winner": 1}'})
    assert response.status_code == 302 and response["Location"] == kniffel.get_absolute_url()
