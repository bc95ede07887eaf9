"""Names that only look different are refused: a user name beside a taken one, a player's
name beside another player's of the household."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import PlayerFactory, UserFactory
from tracker.households.models import COLOURS
from tracker.households.names import confusable_with

ACCOUNT = {"password1": "kniffel-am-abend", "password2": "kniffel-am-abend"}


@pytest.mark.parametrize(("name", "other", "alike"), [
    ("dеmo", "demo", True),  # Cyrillic е
    ("ｄｅｍｏ", "demo", True),  # full width
    ("rnax", "max", True),
    ("PauI", "Paul", True),  # capital I
    ("b0b", "bob", True),
    ("Mаx", "max", True),  # Cyrillic а, and the capital
    ("Léa", "Lea", False),
    ("Mila", "Mia", False),
    ("ben1", "ben", False),
    ("demo", "demo", False),  # the same name is the uniqueness check's to refuse
])
def test_confusable_names(name, other, alike):
    assert (confusable_with(name, [other]) == other) is alike


@pytest.mark.django_db
def test_sign_up_refuses_a_user_name_that_looks_like_a_taken_one(client, settings):
    settings.SIGNUP = "open"
    UserFactory(username="demo")
    response = client.post(reverse("signup"), ACCOUNT | {"family-name": "Familie Brandt",
                                                         "username": "dеmo"})
    assert response.status_code == 422
    assert ("This user name looks just like “demo”, which is taken."
            in response.content.decode())
    assert get_user_model().objects.count() == 1


@pytest.mark.django_db
def test_an_invitation_refuses_a_look_alike_of_a_member(client, household, host):
    url = household.invitations.create(created_by=host).get_absolute_url()
    look_alike = host.username.replace("o", "о").replace("a", "а").replace("e", "е")
    assert look_alike != host.username
    response = client.post(url, ACCOUNT | {"username": look_alike})
    assert response.status_code == 422
    assert "which is taken" in response.content.decode()


@pytest.mark.django_db
def test_a_player_that_looks_like_another_of_the_household_is_refused(host_client,
                                                                       household):
    PlayerFactory(household=household, name="Max")
    response = host_client.post(reverse("household_player_add"),
                                {"new-name": "Mаx", "new-colour": COLOURS[5][0]})
    assert response.status_code == 422
    assert "This name looks just like Max&#x27;s" in response.content.decode()
    assert household.players.count() == 1
