"""Every device at the table: pages that follow each other, drafts kept on the server, and
entries applied once however often a device sends them."""

import json
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory
from tracker.evenings.models import Series, Tournament
from tracker.evenings.recording import start_tournament_round
from tracker.households.middleware import without_csrf_tokens
from tracker.households.models import AppliedEntry
from tracker.table.models import KniffelCell, Play
from tracker.table.recording import abandon_play, record_result, start_play, write_cell

HTMX = {"HTTP_HX_REQUEST": "true"}


def page_state(page: str) -> tuple[str, str]:
    """The address a page asks and the state it names, from its <main>."""
    found = re.search(
        r'<main id="main" data-follow="([^"]+)" data-stream="[^"]+" data-state="([^"]*)"', page)
    assert found, "the page does not follow the other devices"
    return found.group(1), found.group(2)


def ask(client, url: str, state: str):
    return client.get(url, HTTP_IF_NONE_MATCH=f'"{state}"')


def key_header(key: str = "a" * 24) -> dict[str, str]:
    return {"HTTP_IDEMPOTENCY_KEY": key}


@pytest.fixture
def maus(household, night, family):
    return start_play(household=household, game="maus_im_nacken", players=family[:2],
                      game_night=night)


@pytest.fixture
def second_client(host):
    """The same household on another tablet."""
    other = Client()
    other.force_login(host)
    return other


def maus_tap(client, play, tap: str, **headers):
    return client.post(reverse("play_entry", args=[play.pk]),
                       {"draft": '{"elephants": {}}', "version": play.version, "tap": tap},
                       **HTMX, **headers)


class TestFollowing:
    def test_a_sheet_is_current_until_another_tablet_enters_a_cell(self, host_client, kniffel,
                                                                    family):
        url, state = page_state(host_client.get(kniffel.get_absolute_url()).content.decode())
        unchanged = ask(host_client, url, state)
        assert unchanged.status_code == 304 and unchanged.content == b""
        write_cell(kniffel, family[0], "chance", 21, expected_version=None)
        changed = ask(host_client, url, state)
        assert changed.status_code == 200
        new_state = changed.content.decode()
        assert new_state != state
        # The page read again names the state the question gave: the next answer is a 304.
        assert page_state(host_client.get(kniffel.get_absolute_url()).content.decode()) == (
            url, new_state)
        assert ask(host_client, url, new_state).status_code == 304

    def test_the_cached_sheet_page_names_the_state_of_what_it_shows(self, host_client,
                                                                     second_client, kniffel):
        first = page_state(host_client.get(kniffel.get_absolute_url()).content.decode())
        cached = page_state(second_client.get(kniffel.get_absolute_url()).content.decode())
        assert first == cached
        assert ask(second_client, *cached).status_code == 304

    def test_a_renamed_player_changes_the_state(self, host_client, kniffel, family):
        url, state = page_state(host_client.get(kniffel.get_absolute_url()).content.decode())
        family[0].name = "Annabel"
        family[0].save()
        assert ask(host_client, url, state).status_code == 200

    def test_a_scoreboard_shared_and_revoked_shows_on_the_other_tablet(
            self, host_client, second_client, kniffel):
        url, state = page_state(second_client.get(kniffel.get_absolute_url()).content.decode())
        host_client.post(reverse("share_create", args=["play", kniffel.pk]))
        shared = ask(second_client, url, state)
        assert shared.status_code == 200
        page = second_client.get(kniffel.get_absolute_url()).content.decode()
        assert "Revoke the link" in page
        host_client.post(re.search(r'action="(/share/[^"]+/revoke/)"', page).group(1))
        assert ask(second_client, url, shared.content.decode()).status_code == 200
        page = second_client.get(kniffel.get_absolute_url()).content.decode()
        assert "Share a scoreboard" in page

    @pytest.mark.parametrize("kind", ["night", "series", "tournament"])
    def test_evenings_series_and_tournaments_follow_their_games(
            self, host_client, household, night, family, kind):
        if kind == "night":
            page, owner = night.get_absolute_url(), {"game_night": night}
        elif kind == "series":
            series = Series.objects.create(household=household, name="Cup",
                                           game="maus_im_nacken", races_planned=3)
            series.players.set(family[:2])
            page, owner = series.get_absolute_url(), {"series": series, "race_number": 1}
        else:
            response = host_client.post(reverse("tournament_new"), {
                "name": "Open", "game": "maus_im_nacken", "rounds_planned": "1",
                "players": [p.pk for p in family]})
            page, owner = response.url, {}
        url, state = page_state(host_client.get(page).content.decode())
        assert ask(host_client, url, state).status_code == 304
        if owner:
            play = start_play(household=household, game="maus_im_nacken", players=family[:2],
                              **owner)
        else:
            start_tournament_round(Tournament.objects.get())
            play = Play.objects.filter(tournament__isnull=False).first()
        maus_tap(host_client, play, f"caught:{family[0].key}:0")
        assert ask(host_client, url, state).status_code == 200

    def test_someone_marked_present_changes_the_evening(self, host_client, night, family,
                                                        household):
        url, state = page_state(host_client.get(night.get_absolute_url()).content.decode())
        host_client.post(reverse("night_players", args=[night.pk]),
                         {"players": [p.pk for p in family[:3]]})
        assert ask(host_client, url, state).status_code == 200

    def test_two_others_present_instead_change_the_evening(self, host_client, night, family):
        night.players.set([family[0], family[3]])
        url, state = page_state(host_client.get(night.get_absolute_url()).content.decode())
        host_client.post(reverse("night_players", args=[night.pk]),
                         {"players": [family[1].pk, family[2].pk]})
        assert list(night.players.order_by("pk")) == [family[1], family[2]]
        assert ask(host_client, url, state).status_code == 200

    def test_only_the_households_own_pages_can_be_followed(self, client, stranger, kniffel):
        url = reverse("follow", args=["play", kniffel.pk])
        assert client.get(url).status_code == 404
        client.force_login(stranger)
        assert client.get(url).status_code == 404
        assert client.get(reverse("follow", args=["cellar", kniffel.pk])).status_code == 404

    def test_asking_costs_one_query_whatever_the_size_of_the_evening(
            self, host_client, household, night, family):
        url, state = page_state(host_client.get(night.get_absolute_url()).content.decode())
        ask(host_client, url, state)  # the session and the user are read, then kept

        def queries() -> int:
            with CaptureQueriesContext(connection) as captured:
                assert ask(host_client, url, state).status_code == 304
            return len(captured)

        few = queries()
        for _ in range(6):
            start_play(household=household, game="kniffel", players=family, game_night=night)
        url, state = page_state(host_client.get(night.get_absolute_url()).content.decode())
        assert queries() == few


class TestDrafts:
    def test_a_tap_is_kept_and_shown_on_another_tablet(self, host_client, second_client, maus,
                                                       family):
        assert maus_tap(host_client, maus, f"home:{family[0].key}:0").status_code == 200
        other = second_client.get(maus.get_absolute_url()).content.decode()
        assert "home 1." in other
        # And after a reload on the first tablet.
        assert "home 1." in host_client.get(maus.get_absolute_url()).content.decode()

    def test_taps_of_two_tablets_both_count(self, host_client, second_client, maus, family):
        maus_tap(host_client, maus, f"home:{family[0].key}:0")
        # The second tablet still shows the empty form: its draft is the blank one.
        maus_tap(second_client, maus, f"home:{family[1].key}:0")
        draft = Play.objects.get(pk=maus.pk).draft
        assert draft["elephants"][family[0].key][0] == "home:1"
        assert draft["elephants"][family[1].key][0] == "home:2"

    def test_a_tap_changes_the_state_the_other_tablets_follow(self, host_client, maus,
                                                              family):
        url, state = page_state(host_client.get(maus.get_absolute_url()).content.decode())
        maus_tap(host_client, maus, f"pyramid:{family[0].key}:1")
        assert ask(host_client, url, state).status_code == 200

    def test_typed_fields_are_kept_too(self, host_client, household, night, family):
        ducks = start_play(household=household, game="entenspiel", players=family[:2],
                           game_night=night)
        host_client.post(reverse("play_entry", args=[ducks.pk]), {
            "draft": "{}", "version": ducks.version, "tap": "",
            f"square_{family[0].key}": "17"}, **HTMX)
        assert 'value="17"' in host_client.get(ducks.get_absolute_url()).content.decode()

    def test_saving_the_result_ends_the_draft(self, host_client, maus, family):
        maus_tap(host_client, maus, f"home:{family[0].key}:0")
        play = Play.objects.get(pk=maus.pk)
        result = {"elephants": {family[0].key: ["home:1", "caught", "caught", "caught"],
                                family[1].key: ["caught"] * 4}}
        record_result(play, result, expected_version=play.version)
        edit = host_client.get(reverse("play_edit", args=[maus.pk]), **HTMX).content.decode()
        assert json.dumps(result["elephants"][family[1].key]) not in edit or "caught" in edit
        assert Play.objects.get(pk=maus.pk).current_draft is None

    def test_abandoning_drops_the_draft(self, host_client, maus, family):
        maus_tap(host_client, maus, f"home:{family[0].key}:0")
        play = Play.objects.get(pk=maus.pk)
        abandon_play(play, expected_version=play.version)
        assert Play.objects.get(pk=maus.pk).current_draft is None
        maus_tap(host_client, Play.objects.get(pk=maus.pk), f"home:{family[1].key}:0")
        assert Play.objects.get(pk=maus.pk).current_draft is None

    def test_a_correction_under_way_shows_on_another_tablet(self, host_client, second_client,
                                                            maus, family):
        play = Play.objects.get(pk=maus.pk)
        record_result(play, {"elephants": {family[0].key: ["home:1", "caught", "caught",
                                                           "caught"],
                                           family[1].key: ["caught"] * 4}},
                      expected_version=play.version)
        play.refresh_from_db()
        maus_tap(host_client, play, f"pyramid:{family[1].key}:3")
        edit = second_client.get(reverse("play_edit", args=[play.pk])).content.decode()
        assert edit.count("on\">🔺") == 1
        # The stored result itself is unchanged until the correction is saved.
        assert Play.objects.get(pk=play.pk).result["elephants"][family[1].key][3] == "caught"


class TestEntriesAppliedOnce:
    def test_a_cell_sent_twice_is_written_once_and_answered_the_same(self, host_client,
                                                                     kniffel, family):
        url = reverse("cell_editor", args=[kniffel.pk, family[0].pk, "chance"])
        data = {"dice": "6,6,5,5,4", "choose": "chance", "version": ""}
        first = host_client.post(url, data, **HTMX, **key_header())
        again = host_client.post(url, data, **HTMX, **key_header())
        assert first.status_code == again.status_code == 200
        # The same answer, but for the forms' CSRF tokens: each answer masks its own.
        assert without_csrf_tokens(again.content) == without_csrf_tokens(first.content)
        assert again["Idempotent-Replayed"] == "true"
        assert KniffelCell.objects.count() == 1
        assert Play.objects.get(pk=kniffel.pk).version == kniffel.version + 1

    def test_a_tap_sent_twice_counts_once(self, host_client, maus, family):
        for _ in range(2):
            maus_tap(host_client, maus, f"home:{family[0].key}:1", **key_header())
        maus_tap(host_client, maus, f"home:{family[1].key}:0", **key_header("b" * 24))
        draft = Play.objects.get(pk=maus.pk).draft["elephants"]
        assert draft[family[0].key][1] == "home:1" and draft[family[1].key][0] == "home:2"

    def test_start_the_game_sent_twice_starts_one_game(self, host_client, night, family):
        data = {"game": "kniffel", "seats": f"{family[0].pk},{family[1].pk}", "start": "1",
                "starter": f"{family[0].pk}"}
        url = reverse("play_new", args=[night.pk])
        first = host_client.post(url, data, **HTMX, **key_header())
        again = host_client.post(url, data, **HTMX, **key_header())
        assert Play.objects.filter(game_night=night).count() == 1
        assert first["HX-Redirect"] == again["HX-Redirect"]

    def test_a_conflict_is_answered_again_as_a_conflict(self, host_client, kniffel, family):
        url = reverse("cell_editor", args=[kniffel.pk, family[0].pk, "chance"])
        write_cell(kniffel, family[0], "chance", 20, expected_version=None)
        data = {"points": "22", "save": "1", "version": ""}
        first = host_client.post(url, data, **HTMX, **key_header())
        assert first.status_code == 409
        assert host_client.post(url, data, **HTMX, **key_header()).status_code == 409
        assert KniffelCell.objects.get().points == 20

    def test_a_refusal_that_may_pass_later_is_not_kept(self, host_client, kniffel, family):
        url = reverse("cell_editor", args=[kniffel.pk, family[0].pk, "nonsense"])
        assert host_client.post(url, {"points": "3", "save": "1"}, **HTMX,
                                **key_header()).status_code == 404
        assert not AppliedEntry.objects.exists()

    def test_a_key_sent_to_another_address_is_refused(self, host_client, kniffel, family):
        cell = reverse("cell_editor", args=[kniffel.pk, family[0].pk, "chance"])
        host_client.post(cell, {"points": "22", "save": "1", "version": ""}, **HTMX,
                         **key_header())
        other = reverse("cell_editor", args=[kniffel.pk, family[0].pk, "ones"])
        response = host_client.post(other, {"points": "3", "save": "1", "version": ""},
                                    **HTMX, **key_header())
        assert response.status_code == 422
        assert KniffelCell.objects.count() == 1

    def test_keys_belong_to_their_user(self, host_client, household, kniffel, family):
        url = reverse("cell_editor", args=[kniffel.pk, family[0].pk, "chance"])
        host_client.post(url, {"points": "22", "save": "1", "version": ""}, **HTMX,
                         **key_header())
        parent = UserFactory(username="parent")
        household.members.add(parent)
        other = Client()
        other.force_login(parent)
        url = reverse("cell_editor", args=[kniffel.pk, family[1].pk, "chance"])
        other.post(url, {"points": "18", "save": "1", "version": ""}, **HTMX, **key_header())
        assert KniffelCell.objects.count() == 2

    def test_keys_are_forgotten_a_week_later_when_the_user_logs_in(self, client, host,
                                                                   kniffel, family):
        AppliedEntry.objects.create(user=host, key="o" * 24, path="/")
        AppliedEntry.objects.filter(user=host).update(
            created_at=timezone.now() - timedelta(days=8))
        AppliedEntry.objects.create(user=host, key="n" * 24, path="/")
        client.force_login(host)
        assert list(AppliedEntry.objects.values_list("key", flat=True)) == ["n" * 24]


def test_an_entry_that_fails_leaves_nothing_behind(host_client, kniffel, family,
                                                   monkeypatch):
    import tracker.table.cells

    def broken(*args, **kwargs):
        KniffelCell.objects.create(play=kniffel, player=family[0], field="chance", points=9)
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(tracker.table.cells, "write_locked_cell", broken)
    host_client.raise_request_exception = False
    url = reverse("cell_editor", args=[kniffel.pk, family[0].pk, "chance"])
    response = host_client.post(url, {"points": "22", "save": "1", "version": ""}, **HTMX,
                                **key_header())
    assert response.status_code == 500
    assert not KniffelCell.objects.exists() and not AppliedEntry.objects.exists()


def test_everyones_old_keys_are_dropped_once_an_hour(host_client, host, kniffel, family):
    """Another member's week-old keys go with the first entry of the hour, not only when
    that member logs in again."""
    from django.core.cache import cache

    cache.clear()
    stranger = UserFactory(username="away")
    AppliedEntry.objects.create(user=stranger, key="o" * 24, path="/")
    AppliedEntry.objects.update(created_at=timezone.now() - timedelta(days=8))
    url = reverse("cell_editor", args=[kniffel.pk, family[0].pk, "chance"])
    host_client.post(url, {"points": "22", "save": "1", "version": ""}, **HTMX, **key_header())
    assert list(AppliedEntry.objects.values_list("key", flat=True)) == ["a" * 24]
    AppliedEntry.objects.create(user=stranger, key="p" * 24, path="/")
    AppliedEntry.objects.filter(user=stranger).update(
        created_at=timezone.now() - timedelta(days=8))
    host_client.post(url, {"points": "23", "save": "1", "version": ""}, **HTMX,
                     **key_header("b" * 24))
    assert AppliedEntry.objects.filter(user=stranger).count() == 1  # within the hour: kept
    from django.core.management import call_command

    call_command("prune_entry_keys")
    assert not AppliedEntry.objects.filter(user=stranger).exists()


def test_a_tablet_sends_only_what_it_typed_and_blanks_nothing(host_client, second_client,
                                                              household, night, family):
    ducks = start_play(household=household, game="entenspiel", players=family[:3],
                       game_night=night)
    url = reverse("play_entry", args=[ducks.pk])
    anna, ben, carla = (player.key for player in family[:3])
    host_client.post(url, {"draft": "{}", "version": ducks.version, "tap": "",
                           f"square_{ben}": "12"}, **HTMX)
    # The second tablet's form still shows Ben's square empty; it sends only Carla's.
    second_client.post(url, {"draft": "{}", "version": ducks.version, "tap": "",
                             f"square_{carla}": "7"}, **HTMX)
    assert Play.objects.get(pk=ducks.pk).draft["squares"] == {ben: 12, carla: 7}
    # Saving from either tablet takes the draft as stored, with the winner tapped there.
    response = second_client.post(url, {"draft": "{}", "version": ducks.version,
                                        "winner": anna, "save": "1"}, **HTMX)
    assert response.status_code == 200
    finished = Play.objects.get(pk=ducks.pk)
    assert finished.status == Play.Status.FINISHED
    assert finished.result["squares"] == {ben: 12, carla: 7}
