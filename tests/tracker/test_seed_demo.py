from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from tracker.evenings.models import GameNight, Series
from tracker.households.models import Household, Player
from tracker.table.models import KniffelCell, Play

pytestmark = pytest.mark.django_db


def counts():
    return [model.objects.count() for model in (Household, Player, GameNight, Series, Play,
                                                KniffelCell)]


def test_demo_family_is_loaded_once():
    call_command("seed_demo", stdout=StringIO())
    first = counts()
    output = StringIO()
    call_command("seed_demo", stdout=output)
    assert "nothing to do" in output.getvalue()
    assert counts() == first


def test_demo_has_a_finished_series_and_open_and_finished_kniffel():
    call_command("seed_demo", stdout=StringIO())
    series = Series.objects.get()
    assert series.status == Series.Status.FINISHED
    assert series.plays.filter(status=Play.Status.FINISHED).count() == 5
    standings = series.standings()
    assert standings[0].rank == 1 and standings[0].total > standings[-1].total
    kniffel = Play.objects.filter(game="kniffel")
    assert {play.status for play in kniffel} == {Play.Status.FINISHED, Play.Status.IN_PROGRESS}


def test_on_every_start_the_demo_loads_only_into_an_empty_database(django_user_model):
    call_command("seed_demo", "--if-empty", stdout=StringIO())
    assert Household.objects.get().name == "Familie Sommer"
    # The family makes the demo its own: renames the household and the demo account.
    Household.objects.update(name="Familie Berger")
    django_user_model.objects.filter(username="demo").update(username="julia")
    output = StringIO()
    call_command("seed_demo", "--if-empty", stdout=output)
    assert "only into an empty one" in output.getvalue()
    assert list(Household.objects.values_list("name", flat=True)) == ["Familie Berger"]
    # No account "demo" with the password "demo" comes back.
    assert not django_user_model.objects.filter(username="demo").exists()


def test_an_explicit_seed_loads_the_demo_beside_other_households(household):
    call_command("seed_demo", stdout=StringIO())
    assert Household.objects.count() == 2


def test_demo_has_a_co_operative_game_lost_and_won_together():
    from tracker.looking_back.cooperative import table_record
    from tracker.table.models import game_key_of

    call_command("seed_demo", stdout=StringIO())
    household = Household.objects.get(name="Familie Sommer")
    hanabi = household.own_games.get(name="Hanabi")
    players = {player.pk: player for player in household.players.all()}
    record = table_record(household, game_key_of("generic", hanabi.pk), players)
    assert (record.plays, record.won, record.lost, record.last_won) == (2, 1, 1, True)


def test_demo_has_a_finished_game_written_down_by_categories(client, django_user_model):
    call_command("seed_demo", stdout=StringIO())
    wingspan = Household.objects.get(name="Familie Sommer").own_games.get(name="Flügelschlag")
    play, tie = wingspan.plays.order_by("game_night__date", "pk")
    if play.participants.filter(player__name="Lena").count() == 0:
        play, tie = tie, play
    assert play.status == Play.Status.FINISHED
    assert {p.player.name: (p.points, p.place) for p in play.participants.all()} == {
        "Lena": (78, 1), "Tobias": (77, 2), "Oma Gisela": (75, 3), "Max": (72, 4)}
    client.force_login(django_user_model.objects.get(username="demo"))
    page = client.get(play.get_absolute_url()).content.decode()
    assert "Untergelegte Karten" in page and "Lena" in page
    opened = client.get(reverse("pad_cell", args=[play.pk, 1, 0])).content.decode()
    assert 'value="9+7+5+4+6+3+4"' in opened
    assert "Lenas erster Sieg" in page and play.length_minutes == 75
    assert play.game_night.place == "Bei Oma in Kassel"
    # The rematch was level at 81: the food tokens left decided.
    assert {p.player.name: (p.points, p.place) for p in tie.participants.all()} == {
        "Julia": (81, 1), "Tobias": (81, 2), "Max": (70, 3)}
    page = client.get(tie.get_absolute_url()).content.decode()
    assert "Julia, Tobias both have 81: the most Futterplättchen übrig decided (3 to 1)." in page
