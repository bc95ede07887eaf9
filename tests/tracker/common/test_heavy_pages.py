"""Large prints and exports: a member has only a few in the making at once."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from tracker.common import heavy

pytestmark = pytest.mark.django_db

PAD = reverse("print_pad") + "?format=pdf&sheets=1"


def fill_slots(user):
    for number in range(heavy.AT_ONCE):
        cache.add(f"heavy:{user.pk}:{number}", 1)


def test_one_print_too_many_is_answered_at_once_with_a_429(host_client, host):
    fill_slots(host)

    response = host_client.get(PAD)

    assert response.status_code == 429
    assert response["Retry-After"] == str(heavy.RETRY_SECONDS)
    assert "already preparing 2 prints or downloads for you" in response.content.decode()


@pytest.mark.parametrize("name", ["household_export", "household_export_csv",
                                  "household_export_bgstats"])
def test_the_exports_count_too(host_client, host, name):
    fill_slots(host)

    assert host_client.get(reverse(name)).status_code == 429


def test_forms_and_previews_are_never_held_back(host_client, host):
    fill_slots(host)

    assert host_client.get(reverse("print_pad")).status_code == 200
    assert host_client.get(reverse("print_pad") + "?format=preview").status_code == 200


def test_another_members_prints_are_not_counted(host_client, host, stranger):
    fill_slots(stranger)

    assert host_client.get(reverse("household_export_csv")).status_code == 200


def test_a_finished_print_frees_its_slot(host_client, host):
    for _ in range(heavy.AT_ONCE + 1):
        assert host_client.get(reverse("household_export_csv")).status_code == 200

    assert all(cache.get(f"heavy:{host.pk}:{number}") is None
               for number in range(heavy.AT_ONCE))
