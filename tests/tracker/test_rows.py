"""The hand-written statements of a cell save read and write rows as the ORM does."""

import pytest
from django.db import connection
from django.utils import timezone

from tracker.models import Participant, Play, PlayChange, Player
from tracker.rows import RowReader, columns, insert_row, update_rows

pytestmark = pytest.mark.django_db


def read(model, pk, names=None):
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns(model, 'row', names)} FROM {model._meta.db_table} row"
                       f" WHERE row.id = %s", [pk])
        return RowReader(model, names)(cursor.fetchone())


def test_a_row_read_by_hand_equals_the_orms(kniffel, family):
    kniffel.result = {"sheets": {str(family[0].pk): {"chance": 20}}, "note": "ü"}
    kniffel.save()
    by_hand, by_orm = read(Play, kniffel.pk), Play.objects.get(pk=kniffel.pk)
    for field in Play._meta.concrete_fields:
        assert getattr(by_hand, field.attname) == getattr(by_orm, field.attname), field.name
    assert isinstance(by_hand.updated_at, type(timezone.now()))
    assert by_hand.scored_by_points is True and by_hand._state.adding is False


def test_a_row_read_by_hand_is_stored_again_as_an_update(kniffel):
    participant = read(Participant, kniffel.participants.order_by("seat")[0].pk)
    assert (participant._state.adding, participant._state.db) == (False, "default")
    assert participant.player.name == "Anna" and participant.play == kniffel
    participant.points = 12
    participant.save()
    assert kniffel.participants.count() == 2
    assert kniffel.participants.get(pk=participant.pk).points == 12


def test_a_model_that_reads_its_rows_itself_still_does(kniffel, family):
    play = read(Play, kniffel.pk)
    assert play._stored_night_id == kniffel.game_night_id


def test_a_row_read_in_part_defers_the_rest(family):
    player = read(Player, family[0].pk, ["id", "name"])
    assert player.name == "Anna" and player.get_deferred_fields() == {
        "household_id", "colour", "created_at", "updated_at"}


def test_an_inserted_row_gets_its_id_and_defaults(kniffel, host):
    change = PlayChange(play=kniffel, action=PlayChange.Action.CELL, changed_by=host,
                        data={"field": "chance", "points": 20})
    insert_row(change)
    stored = PlayChange.objects.get(pk=change.pk)
    assert (stored.play_id, stored.changed_by_id, stored.data) == (
        kniffel.pk, host.pk, {"field": "chance", "points": 20})
    assert stored.changed_at is not None and change.changed_at == stored.changed_at


def test_update_rows_matches_each_condition_and_counts_the_rows(kniffel, family):
    participants = list(kniffel.participants.order_by("seat"))
    changed = update_rows(Participant, {"points": 7, "details": {"total": 7}},
                          where={"play": kniffel.pk, "seat": [0, 1]})
    assert changed == 2
    assert [(p.points, p.details) for p in kniffel.participants.order_by("seat")] == [
        (7, {"total": 7})] * 2
    assert update_rows(Participant, {"points": 9}, where={"id": participants[0].pk,
                                                           "points": 8}) == 0
    assert update_rows(Participant, {"points": 9}, where={"id": []}) == 0
    assert Participant.objects.get(pk=participants[0].pk).points == 7


def test_update_rows_adds_one_to_a_counter(kniffel):
    version = kniffel.version
    assert update_rows(Play, {"status": Play.Status.IN_PROGRESS}, where={"id": kniffel.pk},
                       increment=["version"]) == 1
    kniffel.refresh_from_db()
    assert kniffel.version == version + 1
