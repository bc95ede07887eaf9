"""Names of downloaded files: every letter of a name is kept, written without its marks."""

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import OwnGameFactory
from tracker.common.downloads import file_name

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name,expected", [
    ("Familie Müller-Łukasiewicz", "familie-muller-lukasiewicz"),
    ("Søren Ødegård", "soren-odegard"),
    ("Đorđević", "dordevic"),
    ("Straße", "strasse"),
    ("Ærø Œuvre", "aero-oeuvre"),
    ("Þórður", "thordur"),
    ("🎲🚀", ""),
])
def test_file_names_keep_every_letter(name, expected):
    assert file_name(name) == expected


def test_the_export_is_named_after_the_household_with_all_its_letters(host_client, household):
    household.name = "Familie Müller-Łukasiewicz"
    household.save()

    response = host_client.get(reverse("household_export"))

    today = f"{timezone.localdate():%Y-%m-%d}"
    assert response["Content-Disposition"] == (
        f'attachment; filename="familie-muller-lukasiewicz-{today}.json"')


def test_a_household_without_letters_still_gets_a_name(host_client, household):
    household.name = "🎲🎲"
    household.save()

    response = host_client.get(reverse("household_export_csv"))

    assert 'filename="household-' in response["Content-Disposition"]


def test_a_printed_pad_is_named_after_its_game(host_client, household):
    game = OwnGameFactory(household=household, name="Łowcy Skarbów")

    response = host_client.get(reverse("own_game_pad", args=[game.pk]),
                               {"format": "pdf", "paper": "a5"})

    assert response["Content-Disposition"] == 'attachment; filename="pad-lowcy-skarbow-a5.pdf"'
