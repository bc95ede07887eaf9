"""Limits on new accounts per address and on households per account, which hold when
requests arrive together and whichever cache the site uses."""

import json
import threading
import time
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory
from tracker.households.models import Household, ImportJob
from tracker.portability.export import export_household

FAMILY = {"family-name": "Familie Brandt", "password1": "kniffel-am-abend",
          "password2": "kniffel-am-abend"}


@pytest.fixture
def open_signup(settings):
    settings.SIGNUP = "open"


@pytest.fixture
def file_cache(settings, tmp_path):
    """The cache of a home server: files (the tests' own cache is in memory)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                                   "LOCATION": tmp_path / "cache"}}


@pytest.fixture
def clock(monkeypatch):
    """Moves the server's clock forward: the database's times and the cache's alike."""
    offset = timedelta()
    real_now, real_time = timezone.now, time.time
    monkeypatch.setattr(timezone, "now", lambda: real_now() + offset)
    monkeypatch.setattr(time, "time", lambda: real_time() + offset.total_seconds())

    def forward(**delta: float) -> None:
        nonlocal offset
        offset += timedelta(**delta)

    return forward


def sign_up(client, number, address="192.0.2.7"):
    return client.post(reverse("signup"), FAMILY | {"username": f"user{number}"},
                       REMOTE_ADDR=address)


def at_once(count, action):
    """Run ``action(number)`` in ``count`` threads that start together; their results."""
    start = threading.Barrier(count)
    results = [None] * count

    def run(number):
        try:
            start.wait()
            results[number] = action(number)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(number,)) for number in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.django_db(transaction=True)
def test_twenty_sign_ups_at_once_make_no_more_accounts_than_the_limit(open_signup, settings):
    settings.SIGNUPS_PER_HOUR = 5
    statuses = at_once(20, lambda number: sign_up(Client(), number).status_code)
    assert get_user_model().objects.count() == 5
    assert Household.objects.count() == 5
    assert sorted(statuses) == [302] * 5 + [429] * 15


@pytest.mark.django_db
def test_the_limit_lasts_an_hour_with_the_file_cache(client, open_signup, settings, file_cache,
                                                     clock):
    settings.SIGNUPS_PER_HOUR = 2
    for number in range(2):
        assert sign_up(client, number).status_code == 302
        client.logout()
    clock(minutes=10)
    refused = sign_up(client, 3)
    assert refused.status_code == 429
    assert "Try again in 50 minutes." in refused.content.decode()
    assert refused["Retry-After"] == str(50 * 60)
    clock(minutes=51)
    assert sign_up(client, 4).status_code == 302
    assert get_user_model().objects.count() == 3


@pytest.mark.django_db
def test_another_address_is_not_held_back(client, open_signup, settings):
    settings.SIGNUPS_PER_HOUR = 1
    assert sign_up(client, 1).status_code == 302
    client.logout()
    assert sign_up(client, 2).status_code == 429
    assert sign_up(client, 3, address="192.0.2.8").status_code == 302


@pytest.mark.django_db
def test_a_refused_sign_up_is_not_counted(client, open_signup, settings):
    settings.SIGNUPS_PER_HOUR = 1
    taken = UserFactory(username="user1")
    assert sign_up(client, 1).status_code == 422
    assert sign_up(client, 2).status_code == 302
    assert get_user_model().objects.exclude(pk=taken.pk).count() == 1


@pytest.mark.django_db
def test_an_account_founds_as_many_households_as_the_setting_allows(host_client, settings):
    settings.HOUSEHOLDS_PER_ACCOUNT = 2
    assert host_client.post(reverse("household_create"), {"name": "Oma"}).status_code == 302
    refused = host_client.post(reverse("household_create"), {"name": "Club"})
    assert refused.status_code == 422
    assert ("You belong to 2 households already, as many as one account may found."
            in refused.content.decode())
    assert Household.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_households_founded_at_once_stop_at_the_limit(settings):
    settings.HOUSEHOLDS_PER_ACCOUNT = 3
    user = UserFactory(username="mara")

    def found(number):
        client = Client()
        client.force_login(user)
        return client.post(reverse("household_create"), {"name": f"Haus {number}"}).status_code

    statuses = at_once(8, found)
    assert Household.objects.filter(members=user).count() == 3
    assert sorted(statuses) == [302] * 3 + [422] * 5


@pytest.mark.django_db
def test_a_new_account_never_gets_more_households_than_allowed(client, open_signup, settings):
    settings.HOUSEHOLDS_PER_ACCOUNT = 0
    response = sign_up(client, 1)
    assert response.status_code == 422
    assert "You belong to 0 households already" in response.content.decode()
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
def test_an_import_counts_as_founding_a_household(host_client, household, settings,
                                                  django_capture_on_commit_callbacks):
    settings.HOUSEHOLDS_PER_ACCOUNT = 2
    data = json.dumps(export_household(household)).encode()

    def upload(name):
        return host_client.post(reverse("household_import"), {
            "document": SimpleUploadedFile("family.json", data, "application/json"),
            "name": name})

    with django_capture_on_commit_callbacks(execute=False):
        assert upload("Copy").status_code == 302
    refused = upload("Another copy")
    assert refused.status_code == 422
    assert "You belong to 2 households already" in refused.content.decode()
    assert ImportJob.objects.count() == 1


@pytest.mark.django_db
def test_an_address_that_waits_learns_nothing_of_the_names_taken(client, open_signup,
                                                                  settings):
    """Past the limit the form comes back with what was typed, but unchecked: whether a
    user name exists is no longer told."""
    settings.FAILED_SIGNUPS_PER_HOUR = 2
    UserFactory(username="oma")
    for _ in range(2):
        taken = client.post(reverse("signup"), FAMILY | {"username": "oma"},
                            REMOTE_ADDR="192.0.2.9")
        assert "A user with that username already exists" in taken.content.decode()

    waiting = client.post(reverse("signup"), FAMILY | {"username": "oma"},
                          REMOTE_ADDR="192.0.2.9")

    page = waiting.content.decode()
    assert waiting.status_code == 429
    assert "already exists" not in page
    assert 'value="oma"' in page and 'value="Familie Brandt"' in page
    assert "kniffel-am-abend" not in page
