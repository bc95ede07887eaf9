"""A key keeps at most KEPT_BYTES of its entry's answer, and a repeat is still answered as a
device needs: applied once, told where to go, refused with its reason."""

import io
import re

import pytest
from django.db.models.functions import Length
from django.test import Client
from django.urls import reverse

from tests.factories import OwnGameFactory
from tracker.households.middleware import KEPT_BYTES
from tracker.households.models import AppliedEntry
from tracker.table.models import Play, PlayChange
from tracker.table.recording import start_play
from tracker.table.rounds import add_round, set_round_points

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def keyed(key: str) -> dict[str, str]:
    return {"HTTP_IDEMPOTENCY_KEY": key}


@pytest.fixture
def pad(household, night, family):
    game = OwnGameFactory(household=household, name="Skyjo", scoring="fewest_points")
    return start_play(household=household, game="generic", own_game=game,
                      players=family[:4], game_night=night)


def stored_bytes(entry: AppliedEntry) -> int:
    row = AppliedEntry.objects.annotate(size=Length("body")).get(pk=entry.pk)
    return (len(row.key) + len(row.path.encode()) + len(row.content_type)
            + len(str(row.headers)) + len(bytes(row.body)))


def test_a_keyed_pad_entry_keeps_at_most_kept_bytes_and_is_applied_once(host_client, pad):
    url = reverse("pad_cell", args=[pad.pk, 1, 0])
    entry = {"points": "12", "save": "1", "version": pad.version, "seen": ""}
    first = host_client.post(url, entry, **HTMX, **keyed("k" * 32))
    assert first.status_code == 200 and len(first.content) > 4 * KEPT_BYTES
    kept = AppliedEntry.objects.get(key="k" * 32)
    assert stored_bytes(kept) <= KEPT_BYTES

    again = host_client.post(url, entry, **HTMX, **keyed("k" * 32))
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    # Too long to keep, the answer is rebuilt: nothing swapped, the page follows the game.
    assert again["HX-Reswap"] == "none" and again.content == b""
    pad.refresh_from_db()
    assert pad.changes.filter(action=PlayChange.Action.ROUND_POINTS).count() == 1


def test_a_repeated_refusal_says_its_reason(host_client, pad, family):
    add_round(pad, 1, {p.key: 5 for p in family[:4]}, expected_version=pad.version)
    stale = pad.version
    set_round_points(pad, 1, family[0].key, 9, expected_version=stale)  # another tablet
    url = reverse("pad_cell", args=[pad.pk, 1, 0])
    entry = {"points": "7", "save": "1", "version": stale, "seen": "5"}
    first = host_client.post(url, entry, **HTMX, **keyed("r" * 32))
    assert first.status_code == 409
    assert stored_bytes(AppliedEntry.objects.get(key="r" * 32)) <= KEPT_BYTES

    again = host_client.post(url, entry, **HTMX, **keyed("r" * 32))
    assert again.status_code == 409 and again["HX-Reswap"] == "none"
    assert "another tablet entered 9 here at the same moment, you typed 7" in \
        again.content.decode()
    assert 'role="alert"' in again.content.decode()
    assert Play.objects.get(pk=pad.pk).result["rounds"][0][family[0].key] == 9


def test_a_short_answer_is_kept_whole(host_client, pad):
    """A redirect (points saved without htmx) fits and is replayed as it was."""
    url = reverse("pad_cell", args=[pad.pk, 1, 0])
    entry = {"points": "12", "save": "1", "version": pad.version, "seen": ""}
    first = host_client.post(url, entry, **keyed("s" * 32))
    again = host_client.post(url, entry, **keyed("s" * 32))
    assert first.status_code == 302
    assert (again.status_code, again["Location"]) == (302, first["Location"])
    assert "HX-Reswap" not in again


def test_a_repeated_kniffel_answer_is_kept_whole_with_forms_that_still_post(host, kniffel,
                                                                           family):
    """The kept answer leaves the forms' CSRF tokens out (random, they do not compress); a
    repeat fills in fresh ones, so the replayed sheet's Undo works under CSRF checks."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(host)
    client.get(reverse("play_detail", args=[kniffel.pk]))  # the CSRF cookie, as a tablet has it
    token = client.cookies["csrftoken"].value
    url = reverse("cell_editor", args=[kniffel.pk, family[0].pk, "chance"])
    entry = {"dice": "6,6,5,5,4", "choose": "chance", "version": "",
             "csrfmiddlewaretoken": token}
    first = client.post(url, entry, **HTMX, **keyed("c" * 32))
    kept = AppliedEntry.objects.get(key="c" * 32)
    assert first.status_code == 200 and len(bytes(kept.body)) > 0
    assert stored_bytes(kept) <= KEPT_BYTES - 400  # room for more players, longer names

    again = client.post(url, entry, **HTMX, **keyed("c" * 32))
    assert again["Idempotent-Replayed"] == "true" and "HX-Reswap" not in again
    undo = re.search(r'action="(/plays/\d+/undo/)".*?name="csrfmiddlewaretoken" '
                     r'value="([^"]+)"', again.content.decode(), re.DOTALL)
    assert undo and undo.group(2)
    undone = client.post(undo.group(1), {"csrfmiddlewaretoken": undo.group(2),
                                         "version": Play.objects.get(pk=kniffel.pk).version})
    assert undone.status_code in (200, 302)
    assert Play.objects.get(pk=kniffel.pk).cells.count() == 0


def test_an_entry_cut_short_on_its_way_is_refused_and_its_next_try_applied(host_client, pad):
    """A page left while its entry was being sent: the server gets the headers and part of
    the body. That is no entry: it changes nothing and keeps no key, so the same entry sent
    whole from the next page is applied."""
    url = reverse("pad_cell", args=[pad.pk, 1, 0])
    whole = f"points=12&save=1&version={pad.version}&seen="
    cut = host_client.post(url, **HTMX, **keyed("c" * 32), CONTENT_TYPE=(
        "application/x-www-form-urlencoded"), CONTENT_LENGTH=str(len(whole)),
        **{"wsgi.input": io.BytesIO(whole[:9].encode())})
    assert cut.status_code == 400 and "incomplete" in cut.content.decode()
    # Where its page is still open, it swaps nothing away and says why in the bar.
    assert cut["HX-Reswap"] == "none" and 'role="alert"' in cut.content.decode()
    assert not AppliedEntry.objects.filter(key="c" * 32).exists()
    pad.refresh_from_db()
    assert pad.result.get("rounds", []) == []

    again = host_client.post(url, whole, content_type="application/x-www-form-urlencoded",
                             **HTMX, **keyed("c" * 32))
    assert again.status_code == 200 and "Idempotent-Replayed" not in again
    pad.refresh_from_db()
    assert pad.result["rounds"][0][pad.participants.first().player_key] == 12
