"""The score pad of an own game with points: rounds entered player by player, totals and the
leader, undo and corrections, two tablets, the end of the game."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import OwnGameFactory
from tracker.table.models import Play, PlayChange
from tracker.table.recording import EditConflict, record_result, start_play
from tracker.table.rounds import add_round, finish_own_game, set_round_points, undo_round
from tracker.table.score_pad import apply_key, next_cell, sides_of

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def pad(household, night, family):
    """Anna, Ben and Carla at a most-points own game, first to 100."""
    game = OwnGameFactory(household=household, name="Rommé", scoring="most_points",
                          end="target", end_at=100)
    return start_play(household=household, game="generic", own_game=game,
                      players=family[:3], game_night=night)


def cell_url(play, number, side):
    return reverse("pad_cell", args=[play.pk, number, side])


def save(client, play, number, side, points, version=None, **headers):
    play.refresh_from_db()
    return client.post(cell_url(play, number, side),
                       {"points": str(points), "save": "1",
                        "version": play.version if version is None else version}, **headers)


def totals(play):
    return {p.player.name: p.points for p in play.participants.select_related("player")}


def test_a_round_is_entered_player_by_player_and_saved_at_once(host_client, pad):
    page = host_client.get(pad.get_absolute_url()).content.decode()
    assert 'id="pad-rounds"' in page and "Enter only the final scores" in page
    assert "Anna · Round 1" in page  # the number pad opens on the first cell

    response = save(host_client, pad, 1, 0, 12, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Ben · Round 1" in body  # the pad moves on to the next player
    assert 'id="pad-totals"' in body and 'hx-swap-oob="true"' in body
    assert "Points entered" in body and "Round 1 · Anna: 12" in body
    pad.refresh_from_db()
    assert pad.result["rounds"] == [{pad.participants.all()[0].player_key: 12}]
    assert pad.status == Play.Status.IN_PROGRESS

    assert save(host_client, pad, 1, 1, -5, **HTMX).status_code == 200
    assert save(host_client, pad, 1, 2, 30, **HTMX).status_code == 200
    body = save(host_client, pad, 2, 0, 20, **HTMX).content.decode()
    assert "Ben · Round 2" in body
    pad.refresh_from_db()
    assert totals(pad) == {"Anna": 32, "Ben": -5, "Carla": 30}
    # A reload shows everything saved.
    page = host_client.get(pad.get_absolute_url()).content.decode()
    assert re.search(r'id="total-0"[^>]*>.*?32', page)
    assert "Enter only the final scores" not in page  # the rounds would be lost


def test_the_leader_is_marked_and_ties_lead_together(host_client, pad, family):
    a, b, c = (p.key for p in family[:3])
    add_round(pad, 1, {a: 10, b: 10, c: 3}, expected_version=pad.version)
    page = host_client.get(pad.get_absolute_url()).content.decode()
    assert "Anna & Ben" in page and "lead with 10" in page
    assert len(re.findall(r'class="leader', page)) == 2
    add_round(pad, 2, {a: 0, b: 5, c: 0}, expected_version=pad.version)
    page = host_client.get(pad.get_absolute_url()).content.decode()
    assert "Ben" in page and "leads with 15" in page


def test_fewest_points_lead_and_win(host_client, household, night, family):
    game = OwnGameFactory(household=household, name="Skyjo", scoring="fewest_points",
                          end="target", end_at=100)
    play = start_play(household=household, game="generic", own_game=game, players=family[:2],
                      game_night=night)
    a, b = family[0].key, family[1].key
    add_round(play, 1, {a: 40, b: 25}, expected_version=play.version)
    page = host_client.get(play.get_absolute_url()).content.decode()
    assert "Ben" in page and "leads with 25" in page and "Fewest points win." in page
    add_round(play, 2, {a: 30, b: 80}, expected_version=play.version)
    page = host_client.get(play.get_absolute_url()).content.decode()
    assert "Ben reached 105." in page and "Finish the game?" in page
    response = host_client.post(reverse("pad_finish", args=[play.pk]),
                                {"version": play.version}, **HTMX)
    assert response.status_code == 200
    play.refresh_from_db()
    assert play.status == Play.Status.FINISHED and play.result["finished"] is True
    places = {p.player_id: p.place for p in play.participants.all()}
    assert places == {family[0].pk: 1, family[1].pk: 2}  # 70 beats 105
    assert "Anna" in response.content.decode() and "wins!" in response.content.decode()


def test_the_last_round_is_undone_and_the_history_keeps_it(host_client, pad, family):
    a, b, c = (p.key for p in family[:3])
    add_round(pad, 1, {a: 10, b: 20, c: 30}, expected_version=pad.version)
    add_round(pad, 2, {a: 1, b: 2}, expected_version=pad.version)
    response = host_client.post(reverse("pad_undo_round", args=[pad.pk]),
                                {"version": pad.version}, **HTMX)
    assert response.status_code == 200
    pad.refresh_from_db()
    assert pad.result["rounds"] == [{a: 10, b: 20, c: 30}]
    assert totals(pad) == {"Anna": 10, "Ben": 20, "Carla": 30}
    undone = pad.changes.get(action=PlayChange.Action.ROUND_UNDONE)
    assert undone.data == {"round": 2, "points": {a: 1, b: 2}}
    assert "Round undone" in response.content.decode()
    # Undo without JavaScript: back to the page.
    response = host_client.post(reverse("pad_undo_round", args=[pad.pk]),
                                {"version": pad.version})
    assert response.status_code == 302
    pad.refresh_from_db()
    assert pad.result["rounds"] == []


def test_any_round_is_corrected_and_the_history_lists_the_change(host_client, pad, family):
    a, b, c = (p.key for p in family[:3])
    add_round(pad, 1, {a: 10, b: 20, c: 30}, expected_version=pad.version)
    add_round(pad, 2, {a: 5, b: 5, c: 5}, expected_version=pad.version)
    page = host_client.get(cell_url(pad, 1, 1), **HTMX).content.decode()
    assert "Ben · Round 1" in page and "Stored: 20." in page
    assert save(host_client, pad, 1, 1, 25, **HTMX).status_code == 200
    pad.refresh_from_db()
    assert pad.result["rounds"][0] == {a: 10, b: 25, c: 30}
    assert totals(pad)["Ben"] == 30
    change = pad.changes.get(action=PlayChange.Action.ROUND_CORRECTED)
    assert change.data == {"round": 1, "side": b, "points": 25, "previous": 20}
    page = host_client.get(pad.get_absolute_url()).content.decode()
    assert "Points corrected" in page and "Round 1 · Ben: 20 → 25" in page


def test_a_stale_version_is_a_conflict_and_overwrites_nothing(host_client, pad, family):
    a, b, c = (p.key for p in family[:3])
    add_round(pad, 1, {a: 10, b: 20, c: 30}, expected_version=pad.version)
    seen = pad.version
    set_round_points(pad, 1, b, 22, expected_version=seen)  # the other tablet
    response = save(host_client, pad, 1, 1, 99, version=seen, **HTMX)
    assert response.status_code == 409
    body = response.content.decode()
    assert ("Not saved: another tablet entered 22 here at the same moment, you typed 99. "
            "Save to put 99 in its place, or dismiss to keep 22.") in body
    assert 'id="pad-editor-message" class="refusal-slot" data-refusal' in body
    assert 'name="points" value="99"' in body  # the number pad keeps what was typed
    assert response["HX-Retarget"] == "#pad"
    pad.refresh_from_db()
    assert pad.result["rounds"][0][b] == 22
    for url in (reverse("pad_undo_round", args=[pad.pk]), reverse("pad_finish", args=[pad.pk])):
        assert host_client.post(url, {"version": seen}, **HTMX).status_code == 409
    pad.refresh_from_db()
    assert pad.result["rounds"] == [{a: 10, b: 22, c: 30}] and not pad.result["finished"]
    with pytest.raises(EditConflict):
        undo_round(pad, expected_version=seen)


def test_a_cell_saved_as_seen_stands_whatever_else_changed(host_client, pad, family):
    """A tablet's number pad says what the cell held when it opened (``seen``): another
    tablet's entries in other cells are no conflict, another number in this cell is."""
    a, b, c = (p.key for p in family[:3])
    add_round(pad, 1, {a: 10, b: 20, c: 30}, expected_version=pad.version)
    stale = pad.version
    set_round_points(pad, 1, c, 31, expected_version=stale)  # the other tablet, another cell
    response = host_client.post(cell_url(pad, 1, 1), {"points": "25", "save": "1",
                                                      "version": stale, "seen": "20"}, **HTMX)
    assert response.status_code == 200
    pad.refresh_from_db()
    set_round_points(pad, 1, b, 26, expected_version=pad.version)  # this cell, meanwhile
    response = host_client.post(cell_url(pad, 1, 1), {"points": "27", "save": "1",
                                                      "version": pad.version, "seen": "25"},
                                **HTMX)
    assert response.status_code == 409
    assert "another tablet entered 26 here at the same moment, you typed 27" in \
        response.content.decode()
    pad.refresh_from_db()
    assert pad.result["rounds"] == [{a: 10, b: 26, c: 31}]


def test_a_round_sent_twice_is_added_once(host_client, pad, family):
    a = family[0].key
    seen = pad.version
    for _tap in range(2):
        response = save(host_client, pad, 1, 0, 12, version=seen, **HTMX)
        assert response.status_code == 200
    pad.refresh_from_db()
    assert pad.result["rounds"] == [{a: 12}]
    assert pad.changes.filter(action=PlayChange.Action.ROUND_POINTS).count() == 1
    # A whole round sent again is one round too.
    seen = pad.version
    round_ = {p.key: 1 for p in family[:3]}
    add_round(pad, 2, round_, expected_version=seen)
    assert add_round(pad, 2, round_, expected_version=seen) is None
    add_round(pad, 3, round_, expected_version=pad.version)  # the same points, a new round
    pad.refresh_from_db()
    assert len(pad.result["rounds"]) == 3


def test_the_end_is_asked_for_once_the_round_is_complete(host_client, pad, family):
    a, b, c = (p.key for p in family[:3])
    add_round(pad, 1, {a: 60, b: 20, c: 30}, expected_version=pad.version)
    set_round_points(pad, 2, a, 52, expected_version=pad.version)
    page = host_client.get(pad.get_absolute_url()).content.decode()
    assert "Finish the game?" not in page  # Ben and Carla still play round 2
    set_round_points(pad, 2, b, 0, expected_version=pad.version)
    body = save(host_client, pad, 2, 2, 0, **HTMX).content.decode()
    assert "Anna reached 112." in body and "Finish the game?" in body
    pad.refresh_from_db()
    response = host_client.post(reverse("pad_finish", args=[pad.pk]), {"version": pad.version})
    assert response.status_code == 302
    pad.refresh_from_db()
    assert pad.status == Play.Status.FINISHED
    assert [p.place for p in pad.participants.order_by("seat")] == [1, 3, 2]
    assert pad.changes.filter(action=PlayChange.Action.FINISHED).count() == 1
    assert finish_own_game(pad, expected_version=pad.version - 1) is None  # a second tap
    page = host_client.get(pad.get_absolute_url()).content.decode()
    assert "wins!" in page and "Finish the game?" not in page and "Rematch" in page


def test_ties_share_the_place(pad, family):
    a, b, c = (p.key for p in family[:3])
    add_round(pad, 1, {a: 50, b: 50, c: 10}, expected_version=pad.version)
    finish_own_game(pad, expected_version=pad.version)
    assert [p.place for p in pad.participants.order_by("seat")] == [1, 1, 3]


def test_teams_share_a_column_and_its_total(host_client, household, night, family):
    game = OwnGameFactory(household=household, name="Canasta", scoring="most_points",
                          teams=True, end="target", end_at=5000)
    play = start_play(household=household, game="generic", own_game=game, players=family,
                      game_night=night)
    a, b, c, d = (p.key for p in family)
    record_result(play, {"teams": {"Red": [a, c], "Blue": [b, d]}, "rounds": [],
                         "finished": False}, expected_version=play.version)
    page = host_client.get(play.get_absolute_url()).content.decode()
    assert "Red" in page and "Anna, Carla" in page and "Red · Round 1" in page
    assert save(host_client, play, 1, 0, 1200, **HTMX).status_code == 200
    body = save(host_client, play, 1, 1, 800, **HTMX).content.decode()
    assert "Red · Round 2" in body and "leads with 1200" in body
    play.refresh_from_db()
    assert play.result["rounds"] == [{"Red": 1200, "Blue": 800}]
    assert totals(play) == {"Anna": 1200, "Ben": 800, "Carla": 1200, "David": 800}


def test_points_that_are_no_number_are_refused(host_client, pad):
    response = save(host_client, pad, 1, 0, "12a", **HTMX)
    assert response.status_code == 422
    assert "whole number" in response.content.decode()
    pad.refresh_from_db()
    assert pad.result.get("rounds") is None


def test_the_number_pad_works_without_javascript(host_client, pad):
    response = host_client.post(cell_url(pad, 1, 0), {"points": "1", "key": "2"})
    assert response.status_code == 200
    assert 'name="points" value="12"' in response.content.decode()
    response = host_client.post(cell_url(pad, 1, 0), {"points": "12", "key": "minus"})
    assert 'name="points" value="-12"' in response.content.decode()
    response = host_client.post(cell_url(pad, 1, 0),
                                {"points": "-12", "save": "1", "version": pad.version})
    assert response.status_code == 302
    pad.refresh_from_db()
    assert list(pad.result["rounds"][0].values()) == [-12]


@pytest.mark.parametrize("typed,key,shown", [
    ("", "7", "7"), ("7", "0", "70"), ("0", "5", "5"), ("", "minus", "-"), ("-", "3", "-3"),
    ("-3", "minus", "3"), ("12", "back", "1"), ("-1", "back", "-"), ("1234567", "8", "1234567"),
    ("12", "x", "12"),
])
def test_the_number_pad_keys(typed, key, shown):
    assert apply_key(typed, key) == shown


def test_the_pad_moves_on_to_who_is_missing(pad, family):
    sides = sides_of(pad)
    a, b, c = (p.key for p in family[:3])
    assert next_cell([], sides) == (1, 0)
    assert next_cell([{a: 1}], sides, after=(1, 0)) == (1, 1)
    assert next_cell([{a: 1, c: 2}], sides, after=(1, 2)) == (1, 1)
    assert next_cell([{a: 1, b: 1, c: 2}], sides, after=(1, 2)) == (2, 0)
    assert next_cell([{a: 1, b: 1, c: 2}, {b: 3}], sides, after=(1, 0)) == (2, 0)


def test_the_pad_is_only_for_own_games_with_points_and_their_household(
        client, host_client, stranger, household, night, family, pad):
    places = OwnGameFactory(household=household, name="Memory", scoring="places")
    other = start_play(household=household, game="generic", own_game=places,
                       players=family[:2], game_night=night)
    assert host_client.get(cell_url(other, 1, 0)).status_code == 404
    assert 'id="pad-rounds"' not in host_client.get(other.get_absolute_url()).content.decode()
    assert host_client.get(cell_url(pad, 1, 3)).status_code == 404
    assert host_client.get(cell_url(pad, 3, 0)).status_code == 404
    client.force_login(stranger)
    assert client.get(cell_url(pad, 1, 0)).status_code == 404
    assert save(client, pad, 1, 0, 5).status_code == 404


def test_the_final_scores_stay_possible(host_client, pad):
    page = host_client.get(pad.get_absolute_url() + "?final=1").content.decode()
    assert 'id="pad-rounds"' not in page and 'name="version"' in page


def test_an_abandoned_pad_changes_no_more(host_client, pad, family):
    from tracker.table.recording import abandon_play

    add_round(pad, 1, {family[0].key: 3}, expected_version=pad.version)
    abandon_play(pad, expected_version=pad.version)
    response = save(host_client, pad, 1, 1, 4, **HTMX)
    assert response.status_code == 409 and "abandoned" in response.content.decode()
    page = host_client.get(pad.get_absolute_url()).content.decode()
    assert "counts in no standings" in page and 'name="points"' not in page


@pytest.mark.parametrize("players", [2, 4])
def test_saving_points_costs_no_more_queries_than_a_kniffel_cell(host_client, household, night,
                                                                  family, players):
    game = OwnGameFactory(household=household, name="Rommé")
    play = start_play(household=household, game="generic", own_game=game,
                      players=family[:players], game_night=night)
    for number in (1, 2, 3):
        add_round(play, number, {p.key: 10 for p in family[:players]},
                  expected_version=play.version)
    host_client.get(play.get_absolute_url())
    for number, side in ((4, 0), (4, 1), (2, 0)):  # a new round, the next player, a correction
        play.refresh_from_db()
        with CaptureQueriesContext(connection) as queries:
            response = host_client.post(cell_url(play, number, side),
                                        {"points": "18", "save": "1", "version": play.version},
                                        **HTMX)
        assert response.status_code == 200
        statements = [q["sql"] for q in queries
                      if not q["sql"].startswith(("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT"))]
        assert len(statements) <= 6, statements


def test_points_for_a_blank_cell_are_kept_from_a_page_out_of_date(host_client, pad, family):
    a, b, c = (p.key for p in family[:3])
    seen = pad.version
    set_round_points(pad, 1, a, 10, expected_version=seen)  # the other tablet
    assert save(host_client, pad, 1, 1, 20, version=seen, **HTMX).status_code == 200
    assert save(host_client, pad, 1, 0, 99, version=seen, **HTMX).status_code == 409
    pad.refresh_from_db()
    assert pad.result["rounds"] == [{a: 10, b: 20}]


def test_mid_round_the_player_not_yet_entered_does_not_lead(host_client, household, night,
                                                             family):
    """Fewest points win. After round 1 Anna 36, Ben 37, Carla 40; in round 2 Anna took 10
    and Ben 0. Ben's 37 is no lead, nor Carla's 40 without her round 2: Anna led after the
    last round everyone played, and round 2 shows as under way."""
    game = OwnGameFactory(household=household, name="Skyjo", scoring="fewest_points",
                          end="target", end_at=100)
    play = start_play(household=household, game="generic", own_game=game, players=family[:3],
                      game_night=night)
    a, b, c = (p.key for p in family[:3])
    add_round(play, 1, {a: 36, b: 37, c: 40}, expected_version=play.version)
    assert save(host_client, play, 2, 0, 10, **HTMX).status_code == 200
    body = save(host_client, play, 2, 1, 0, **HTMX).content.decode()
    standing = body.split('id="pad-standing"')[1].split("</div>")[0]
    assert "Anna" in standing and "leads with 36" in standing
    assert "Round 2 is under way" in standing
    assert len(re.findall(r'class="leader', body)) == 1
    page = host_client.get(play.get_absolute_url()).content.decode()
    assert re.search(r'id="total-0" class="leader', page)  # Anna, with 46 so far
    assert save(host_client, play, 2, 2, 1, **HTMX).status_code == 200
    page = host_client.get(play.get_absolute_url()).content.decode()
    assert "Ben" in page and "leads with 37" in page and "is under way" not in page
