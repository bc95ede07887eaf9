import factory
from django.contrib.auth import get_user_model

from tracker.evenings.models import GameNight, Series
from tracker.households.models import Household, Invitation, Player
from tracker.table.models import OwnGame


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ["username"]

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("secret")


class HouseholdFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Household

    name = factory.Sequence(lambda n: f"Family {n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    household = factory.SubFactory(HouseholdFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


class GameNightFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = GameNight

    household = factory.SubFactory(HouseholdFactory)


class SeriesFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Series

    household = factory.SubFactory(HouseholdFactory)
    name = factory.Sequence(lambda n: f"Series {n}")
    game = "maus_im_nacken"


class InvitationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Invitation

    household = factory.SubFactory(HouseholdFactory)


class OwnGameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = OwnGame
        django_get_or_create = ("household", "name")

    household = factory.SubFactory(HouseholdFactory)
    name = "Uno"


def played_own_game(household, night, own_game, players, result):
    """A play of ``own_game`` at ``night`` with ``result`` recorded through the rules."""
    from tracker.table.recording import record_result, start_play

    play = start_play(household=household, game="generic", own_game=own_game,
                      players=players, game_night=night)
    record_result(play, result, expected_version=play.version)
    return play
