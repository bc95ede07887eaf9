"""A play's status: under way, then finished or abandoned; corrections and their undoing."""

import datetime
import json
import re

import pytest
from django.urls import reverse

from tracker.table.models import KniffelCell, Play, PlayChange
from tracker.table.recording import (
    PlayAbandoned,
    abandon_play,
    last_correction,
    record_result,
    start_play,
    undo_cell,
    undo_correction,
    write_cell,
)

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def order_game(household, night, family):
    """Mensch ärgere Dich nicht, scored by finishing order only: no points."""
    return start_play(household=household, game="mensch_aergere_dich_nicht",
                      players=family[:3], game_night=night)


def order(family, *indexes):
    return {"order": [family[index].key for index in indexes]}


def places(play):
    return {p.player.name: p.place for p in play.participants.all()}


def save(client, play, draft, **headers):
    return client.post(reverse("play_entry", args=[play.pk]), {
        "draft": json.dumps(draft), "version": play.version, "save": "1"}, **headers)


def test_saving_a_result_on_an_abandoned_play_is_refused(host_client, order_game, family):
    stale_version = order_game.version
    abandon_play(order_game, expected_version=order_game.version)
    order_game.version = stale_version
    response = save(host_client, order_game, order(family, 0, 1), **HTMX)
    assert response.status_code == 409
    assert "This game has been abandoned" in response.content.decode()
    german = save(host_client, order_game, order(family, 0, 1), HTTP_ACCEPT_LANGUAGE="de",
                  **HTMX)
    assert "Dieses Spiel wurde abgebrochen" in german.content.decode()
    order_game.refresh_from_db()
    assert order_game.status == Play.Status.ABANDONED and order_game.result == {}


def test_an_abandoned_play_offers_no_correction(host_client, order_game, family):
    record_result(order_game, order(family, 0, 1), expected_version=1)
    order_game.refresh_from_db()
    abandon_play(order_game, expected_version=order_game.version)
    page = host_client.get(order_game.get_absolute_url()).content.decode()
    assert "Correct the result" not in page
    assert host_client.get(reverse("play_edit", args=[order_game.pk])).status_code == 302


def test_an_abandoned_kniffel_sheet_changes_no_more(host_client, kniffel, family):
    write_cell(kniffel, family[0], "chance", 20, expected_version=None)
    abandon_play(kniffel, expected_version=kniffel.version)
    url = reverse("cell_editor", args=[kniffel.pk, family[1].pk, "chance"])
    response = host_client.post(url, {"save": "1", "points": "12"}, **HTMX)
    assert response.status_code == 409
    assert "This game has been abandoned" in response.content.decode()
    undo = host_client.post(reverse("sheet_undo", args=[kniffel.pk]),
                            {"version": kniffel.version}, **HTMX)
    assert undo.status_code == 409
    extras = host_client.post(reverse("sheet_extra_kniffels", args=[kniffel.pk]),
                              {"set": f"{family[0].pk}:1", "version": kniffel.version}, **HTMX)
    assert extras.status_code == 409
    with pytest.raises(PlayAbandoned):
        undo_cell(kniffel, expected_version=kniffel.version)
    assert list(KniffelCell.objects.values_list("points", flat=True)) == [20]
    kniffel.refresh_from_db()
    assert kniffel.status == Play.Status.ABANDONED


def test_a_finished_play_may_be_corrected(order_game, family):
    record_result(order_game, order(family, 0, 1), expected_version=1)
    order_game.refresh_from_db()
    record_result(order_game, order(family, 2, 1), expected_version=order_game.version)
    order_game.refresh_from_db()
    assert order_game.status == Play.Status.FINISHED
    assert places(order_game) == {"Carla": 1, "Ben": 2, "Anna": 3}


def test_a_correction_keeps_the_whole_previous_result(order_game, family):
    record_result(order_game, order(family, 0, 1), expected_version=1)
    order_game.refresh_from_db()
    record_result(order_game, order(family, 2, 1), expected_version=order_game.version)
    correction = order_game.changes.get(action=PlayChange.Action.EDITED)
    assert correction.data["previous"]["result"] == order(family, 0, 1)
    assert correction.data["previous"]["places"] == {
        family[0].key: 1, family[1].key: 2, family[2].key: 3}


def test_undo_the_last_correction_of_a_game_without_points(host_client, order_game, family):
    record_result(order_game, order(family, 0, 1), expected_version=1)
    order_game.refresh_from_db()
    record_result(order_game, order(family, 2, 1), expected_version=order_game.version)
    order_game.refresh_from_db()
    page = host_client.get(order_game.get_absolute_url()).content.decode()
    assert "Undo the last correction" in page
    assert "Anna: place 1 → 3" in page and "Carla: place 3 → 1" in page

    url = reverse("play_undo_correction", args=[order_game.pk])
    confirm = host_client.get(url).content.decode()
    assert "Undo the last correction?" in confirm
    assert "Anna: place 3 → 1" in confirm and "Carla: place 1 → 3" in confirm
    assert f'name="version" value="{order_game.version}"' in confirm

    response = host_client.post(url, {"version": order_game.version})
    assert response.status_code == 302
    order_game.refresh_from_db()
    assert order_game.result == order(family, 0, 1)
    assert places(order_game) == {"Anna": 1, "Ben": 2, "Carla": 3}
    page = host_client.get(order_game.get_absolute_url()).content.decode()
    assert "The last correction was undone." in page and "Entry undone" in page
    assert "Undo the last correction" not in page


def test_undoing_a_correction_from_a_stale_tab_is_a_conflict(host_client, order_game, family):
    record_result(order_game, order(family, 0, 1), expected_version=1)
    order_game.refresh_from_db()
    record_result(order_game, order(family, 2, 1), expected_version=order_game.version)
    order_game.refresh_from_db()
    url = reverse("play_undo_correction", args=[order_game.pk])
    response = host_client.post(url, {"version": order_game.version - 1})
    assert response.status_code == 409
    assert "nothing was undone" in response.content.decode()
    german = host_client.post(url, {"version": order_game.version - 1},
                              HTTP_ACCEPT_LANGUAGE="de")
    assert "nichts wurde rückgängig gemacht" in german.content.decode()
    order_game.refresh_from_db()
    assert order_game.result == order(family, 2, 1)


def test_a_kniffel_cell_correction_keeps_the_points_it_replaced(kniffel, family):
    cell = write_cell(kniffel, family[0], "chance", 20, expected_version=None)
    write_cell(kniffel, family[0], "chance", 25, expected_version=cell.version)
    correction = kniffel.changes.get(action=PlayChange.Action.CELL_CORRECTED)
    assert correction.data["previous"] == {"points": 20, "dice": None}


def test_every_correction_can_be_undone_back_to_the_first_result(host_client, order_game,
                                                                  family):
    record_result(order_game, order(family, 0, 1), expected_version=1)
    for first, second in [(2, 1), (1, 2), (2, 0)]:
        order_game.refresh_from_db()
        record_result(order_game, order(family, first, second),
                      expected_version=order_game.version)
    url = reverse("play_undo_correction", args=[order_game.pk])
    for expected in [order(family, 1, 2), order(family, 2, 1), order(family, 0, 1)]:
        order_game.refresh_from_db()
        assert "Undo the last correction" in host_client.get(
            order_game.get_absolute_url()).content.decode()
        assert host_client.post(url, {"version": order_game.version}).status_code == 302
        order_game.refresh_from_db()
        assert order_game.result == expected
    page = host_client.get(order_game.get_absolute_url()).content.decode()
    assert "Undo the last correction" not in page
    assert page.count("Result corrected") == 3 and page.count("Entry undone") == 3
    assert page.count('class="undone"') == 3
    assert host_client.get(url).status_code == 302  # nothing left to undo


def test_a_correction_after_an_undo_is_undone_in_turn(order_game, family):
    record_result(order_game, order(family, 0, 1), expected_version=1)
    order_game.refresh_from_db()
    record_result(order_game, order(family, 2, 1), expected_version=order_game.version)
    order_game.refresh_from_db()
    undo_correction(order_game, expected_version=order_game.version)
    record_result(order_game, order(family, 1, 0), expected_version=order_game.version)
    order_game.refresh_from_db()
    undo_correction(order_game, expected_version=order_game.version)
    assert order_game.result == order(family, 0, 1)
    assert last_correction(order_game) is None


def test_saving_the_same_result_again_records_nothing(host_client, order_game, family):
    record_result(order_game, order(family, 0, 1), expected_version=1)
    order_game.refresh_from_db()
    record_result(order_game, order(family, 2, 1), expected_version=order_game.version)
    order_game.refresh_from_db()
    version, changes = order_game.version, order_game.changes.count()
    assert save(host_client, order_game, order(family, 2, 1)).status_code == 302
    order_game.refresh_from_db()
    assert (order_game.version, order_game.changes.count()) == (version, changes)
    # The undo still reaches the correction before the save that changed nothing.
    undo_correction(order_game, expected_version=order_game.version)
    assert order_game.result == order(family, 0, 1)


def test_the_undo_question_says_when_without_a_doubled_full_stop(host_client, order_game,
                                                                  family):
    record_result(order_game, order(family, 0, 1), expected_version=1)
    order_game.refresh_from_db()
    record_result(order_game, order(family, 2, 1), expected_version=order_game.version)
    # English short times end with a full stop of their own: "5:30 p.m."
    order_game.changes.filter(action=PlayChange.Action.EDITED).update(
        changed_at=datetime.datetime(2026, 11, 25, 17, 30, tzinfo=datetime.UTC))
    confirm = host_client.get(reverse("play_undo_correction", args=[order_game.pk]),
                              HTTP_ACCEPT_LANGUAGE="en").content.decode()
    [sentence] = re.findall(r"<p>([^<]*corrected the result of[^<]*)</p>", confirm)
    assert "p.m." in sentence and not re.search(r"\.\s*\.", sentence)
