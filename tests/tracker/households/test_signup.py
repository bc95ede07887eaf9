"""A family signs itself up from the login page, where the site's owner lets it."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from tracker.households.models import Household

pytestmark = pytest.mark.django_db

FAMILY = {"family-name": "Familie Brandt", "username": "mara",
          "password1": "kniffel-am-abend", "password2": "kniffel-am-abend"}


@pytest.fixture
def open_signup(settings):
    settings.SIGNUP = "open"


def test_an_account_and_its_household_in_one_form(client, open_signup):
    response = client.post(reverse("signup"), FAMILY)
    assert response.status_code == 302 and response["Location"] == reverse("home")
    user = get_user_model().objects.get(username="mara")
    assert list(Household.objects.filter(members=user).values_list("name", flat=True)) == [
        "Familie Brandt"]
    home = client.get(reverse("home")).content.decode()
    assert "Welcome, Familie Brandt! Add your players next." in home


def test_a_mistake_keeps_what_was_typed_and_creates_nothing(client, open_signup):
    response = client.post(reverse("signup"), FAMILY | {"password2": "something else"})
    assert response.status_code == 422
    page = response.content.decode()
    assert 'value="Familie Brandt"' in page and 'value="mara"' in page
    assert not get_user_model().objects.exists() and not Household.objects.exists()


def test_the_login_page_offers_it_and_names_the_demo(client, open_signup):
    call_command("seed_demo", stdout=open("/dev/null", "w"))
    page = client.get(reverse("login")).content.decode()
    assert "Start your own family" in page and reverse("signup") in page
    assert "<strong>demo</strong>" in page


@pytest.mark.parametrize("mode", ["invitation", "closed"])
def test_only_where_the_owner_opened_it(client, settings, mode):
    settings.SIGNUP = mode
    assert client.get(reverse("signup")).status_code == 404
    assert client.post(reverse("signup"), FAMILY).status_code == 404
    assert "Start your own family" not in client.get(reverse("login")).content.decode()
    assert not get_user_model().objects.exists()


def test_a_closed_site_makes_no_account_from_an_invitation(client, settings, household,
                                                            host):
    settings.SIGNUP = "closed"
    invitation = household.invitations.create(created_by=host)
    page = client.get(invitation.get_absolute_url()).content.decode()
    assert "Create the account and join" not in page and "log in" in page
    client.post(invitation.get_absolute_url(), {"username": "mara", "password1": "x" * 12,
                                                "password2": "x" * 12})
    assert not get_user_model().objects.filter(username="mara").exists()


def test_new_accounts_from_one_address_are_limited(client, open_signup, settings):
    settings.SIGNUPS_PER_HOUR = 2
    for number in range(2):
        client.post(reverse("signup"), FAMILY | {"username": f"user{number}"})
        client.logout()
    response = client.post(reverse("signup"), FAMILY | {"username": "user3"})
    assert response.status_code == 429
    assert "Too many new accounts" in response.content.decode()
    assert get_user_model().objects.count() == 2


def test_trying_user_names_from_one_address_is_paused(client, open_signup, settings):
    settings.FAILED_SIGNUPS_PER_HOUR = 10
    get_user_model().objects.create_user("anna", password="x" * 12)
    for _ in range(10):
        taken = client.post(reverse("signup"), FAMILY | {"username": "anna"},
                            REMOTE_ADDR="192.0.2.66")
        assert taken.status_code == 422
    paused = client.post(reverse("signup"), FAMILY, REMOTE_ADDR="192.0.2.66")
    assert paused.status_code == 429
    assert "Too many attempts from this address. Try again in 60 minutes." in (
        paused.content.decode())
    assert not get_user_model().objects.filter(username="mara").exists()
    assert client.post(reverse("signup"), FAMILY, REMOTE_ADDR="192.0.2.8").status_code == 302


def test_trying_user_names_through_an_invitation_is_paused(client, settings, household, host):
    settings.FAILED_SIGNUPS_PER_HOUR = 3
    url = household.invitations.create(created_by=host).get_absolute_url()
    taken = {"username": host.username, "password1": "x" * 12, "password2": "x" * 12}
    for _ in range(3):
        assert client.post(url, taken, REMOTE_ADDR="192.0.2.66").status_code == 422
    paused = client.post(url, taken | {"username": "mara"}, REMOTE_ADDR="192.0.2.66")
    assert paused.status_code == 429
    assert "Too many attempts from this address." in paused.content.decode()
    assert not get_user_model().objects.filter(username="mara").exists()
