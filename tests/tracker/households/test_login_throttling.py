"""Guessing passwords: a few tries, then a pause, for the app's login page and the admin's."""

import pytest
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
PASSWORD = "the-right-one"


@pytest.fixture
def member(household):
    user = UserFactory(username="anna")
    user.set_password(PASSWORD)
    user.save()
    household.members.add(user)
    return user


def log_in(client, url, username, password, address="127.0.0.1"):
    return client.post(url, {"username": username, "password": password},
                       REMOTE_ADDR=address)


@pytest.mark.parametrize("url", [reverse("login"), reverse("admin:login")])
def test_after_five_wrong_passwords_even_the_right_one_waits(client, member, url):
    for _ in range(4):
        assert log_in(client, url, "anna", "guess").status_code == 200
    locked = log_in(client, url, "anna", "guess")
    assert locked.status_code == 429
    assert "Try again in 15 minutes" in locked.content.decode()
    assert log_in(client, url, "anna", PASSWORD).status_code == 429
    assert "_auth_user_id" not in client.session


def test_one_address_trying_many_accounts_is_paused_too(client, member):
    for number in range(20):
        log_in(client, reverse("login"), f"someone{number}", "guess", address="192.0.2.7")
    assert log_in(client, reverse("login"), "anna", PASSWORD,
                  address="192.0.2.7").status_code == 429
    assert log_in(client, reverse("login"), "anna", PASSWORD,
                  address="192.0.2.8").status_code == 302


def test_a_right_password_before_the_limit_starts_the_count_again(client, member):
    for _ in range(4):
        log_in(client, reverse("login"), "anna", "guess")
    assert log_in(client, reverse("login"), "anna", PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        assert log_in(client, reverse("login"), "anna", "guess").status_code == 200


def test_the_pause_is_explained_in_german(client, member):
    for _ in range(5):
        response = client.post(reverse("login"), {"username": "anna", "password": "x"},
                               HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 429
    assert "Versuch es in 15 Minuten wieder" in response.content.decode()


def test_a_strangers_guesses_do_not_lock_the_family_out(client, member):
    for _ in range(5):
        log_in(client, reverse("login"), "anna", "guess", address="192.0.2.66")
    assert log_in(client, reverse("login"), "anna", PASSWORD,
                  address="192.0.2.66").status_code == 429
    assert log_in(client, reverse("login"), "anna", PASSWORD,
                  address="192.0.2.8").status_code == 302


def test_one_address_failing_too_often_waits_for_the_rest_of_the_hour(client, member,
                                                                      settings):
    settings.FAILED_LOGINS_PER_HOUR = 12
    for number in range(11):
        assert log_in(client, reverse("login"), f"someone{number}", "guess",
                      address="192.0.2.66").status_code == 200
    paused = log_in(client, reverse("login"), "someone-else", "guess", address="192.0.2.66")
    assert paused.status_code == 429
    assert "Try again in 60 minutes." in paused.content.decode()
    assert paused["Retry-After"] == str(60 * 60)
    assert log_in(client, reverse("login"), "anna", PASSWORD,
                  address="192.0.2.66").status_code == 429
    assert log_in(client, reverse("admin:login"), "anna", PASSWORD,
                  address="192.0.2.66").status_code == 429
    assert log_in(client, reverse("login"), "anna", PASSWORD,
                  address="192.0.2.8").status_code == 302


@pytest.mark.parametrize("paused_by", ["address", "account"])
def test_a_paused_client_writes_nothing_more(client, member, settings, paused_by):
    """Once an address (or an account at it) waits, its further wrong passwords are refused
    without a row each: a client hammering the login adds nothing to the database."""
    from axes.models import AccessAttempt, AccessFailureLog

    from tracker.households.limits import AddressCount

    settings.FAILED_LOGINS_PER_HOUR = 6
    names = [f"someone{number}" for number in range(6)] if paused_by == "address" else (
        ["anna"] * 5)
    for name in names:
        log_in(client, reverse("login"), name, "guess", address="192.0.2.66")
    rows = (AccessAttempt.objects.count(), AccessFailureLog.objects.count(),
            list(AddressCount.objects.values_list("count", flat=True)))

    for number in range(20):
        answer = log_in(client, reverse("login"), f"anna{number}" if paused_by == "address"
                        else "anna", "guess", address="192.0.2.66")
        assert answer.status_code == 429

    assert (AccessAttempt.objects.count(), AccessFailureLog.objects.count(),
            list(AddressCount.objects.values_list("count", flat=True))) == rows
