"""Stored results of earlier plays in the engine's new shapes, after the data migration."""

import datetime
import secrets

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

import games
from tracker.evenings.models import Series
from tracker.table.models import Play

BEFORE = [("tracker", "0005_start_player_invitations")]
#: The latest state: the pages below run the current code.
AFTER = None


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    targets = targets or executor.loader.graph.leaf_nodes("tracker")
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def old_play(apps, game, players, result, **fields):
    household = apps.get_model("tracker", "Household").objects.get(name="Family")
    night = apps.get_model("tracker", "GameNight").objects.get_or_create(
        household=household, date=datetime.date(2025, 1, 1))[0]
    play = apps.get_model("tracker", "Play").objects.create(
        household=household, game_night=night, game=game, result=result, status="finished",
        **fields)
    for seat, player in enumerate(players):
        apps.get_model("tracker", "Participant").objects.create(
            play=play, player=player, seat=seat, points=0, place=seat + 1)
    return play.pk


@pytest.mark.django_db(transaction=True)
def test_old_results_take_the_new_shapes_and_still_show(client, django_user_model):
    apps = migrate(BEFORE)
    household = apps.get_model("tracker", "Household").objects.create(name="Family")
    Player = apps.get_model("tracker", "Player")
    anna, ben, carl = (Player.objects.create(household=household, name=name, colour=colour)
                       for name, colour in [("Anna", "#d62828"), ("Ben", "#1d4ed8"),
                                                        ("Carl", "#15803d")])
    katz = old_play(apps, "alles_fuer_die_katz", [anna, ben], {
        "mice": {str(anna.pk): {"home": 1, "trapped": 3}, str(ben.pk): {"home": 0, "trapped": 4}},
        "first_home": str(anna.pk)})
    trap = old_play(apps, "mouse_trap", [anna, ben, carl], {
        "captures": [{"mouse": str(carl.pk), "by": str(anna.pk)},
                     {"mouse": str(ben.pk), "by": str(anna.pk)}], "cheese": {}})
    untouched = old_play(apps, "souriciere", [anna, ben], {"order": [str(ben.pk)]})

    migrate(AFTER)

    assert Play.objects.get(pk=katz).result["first_home"] == [str(anna.pk)]
    assert Play.objects.get(pk=trap).result["captures"] == [
        {"mice": [str(carl.pk)], "by": str(anna.pk)}, {"mice": [str(ben.pk)], "by": str(anna.pk)}]
    assert Play.objects.get(pk=untouched).result == {"order": [str(ben.pk)]}
    for pk in (katz, trap):
        play = Play.objects.get(pk=pk)
        outcome = games.get(play.game).score(
            {**play.result, "players": [p.player_key for p in play.participants.all()]})
        assert outcome.winners == [str(anna.pk)]

    user = django_user_model.objects.create_user("host", password="secret")
    Play.objects.get(pk=trap).household.members.add(user)
    client.force_login(user)
    for pk in (katz, trap):
        for view in ("play_detail", "play_edit"):
            page = client.get(reverse(view, args=[pk]))
            assert page.status_code == 200
            assert "Anna" in page.content.decode()

    migrate(BEFORE)
    assert apps.get_model("tracker", "Play").objects.get(pk=trap).result["captures"][0] == {
        "mouse": str(carl.pk), "by": str(anna.pk)}
    migrate(AFTER)




@pytest.mark.django_db(transaction=True)
def test_space_kniffel_sheets_played_with_a_free_choice_stay_valid():
    """A roll written into a field where it did not score the most, before that was the rule."""
    apps = migrate([("tracker", "0010_player_updated_at")])
    household = apps.get_model("tracker", "Household").objects.create(name="Family")
    mia = apps.get_model("tracker", "Player").objects.create(household=household, name="Mia",
                                                             colour="#d62828")
    key = str(mia.pk)
    pk = old_play(apps, "weltraum_kniffel", [mia], {
        "players": [key], "house_rules": {}, "sheets": {key: {"star": 2}},
        "dice": {key: {"star": ["sun", "sun", "sun", "star", "star"]}}},
        played_on=datetime.date(2025, 1, 1))
    series = apps.get_model("tracker", "Series").objects.create(
        household=household, name="Weltraum", game="weltraum_kniffel")

    migrate(AFTER)

    play = Play.objects.get(pk=pk)
    assert play.house_rules == {"field_choice": "free"}
    assert games.get("weltraum_kniffel").validate(play.result) == []
    assert Series.objects.get(pk=series.pk).house_rules == {"field_choice": "free"}
    assert games.get("weltraum_kniffel").validate(
        {**play.result, "house_rules": {}})[0].code == "dice.not_playable"


@pytest.mark.django_db(transaction=True)
def test_the_domains_counters_and_times_keep_every_row(client, django_user_model):
    """0018 gives households the counters devices follow; 0019 lets the times default to
    now instead of being stamped: every row and every time stays as stored."""
    apps = migrate([("tracker", "0017_import_jobs")])
    household = apps.get_model("tracker", "Household").objects.create(name="Family")
    anna = apps.get_model("tracker", "Player").objects.create(household=household, name="Anna")
    long_ago = datetime.datetime(2020, 5, 4, 19, 30, tzinfo=datetime.UTC)
    apps.get_model("tracker", "Player").objects.filter(pk=anna.pk).update(created_at=long_ago)
    play_pk = old_play(apps, "maus_im_nacken", [anna], {}, played_on=long_ago.date())
    apps.get_model("tracker", "Play").objects.filter(pk=play_pk).update(created_at=long_ago)

    migrate(AFTER)
    from tracker.households.models import Household, Player

    stored = Household.objects.get(name="Family")
    assert (stored.version, stored.setup_version) == (1, 1)
    assert Player.objects.get(pk=anna.pk).created_at == long_ago
    assert Play.objects.get(pk=play_pk).created_at == long_ago
    assert Play.objects.get(pk=play_pk).participants.get().player_id == anna.pk


@pytest.mark.django_db(transaction=True)
def test_team_plays_stored_before_rank_their_teams_as_teams(client, django_user_model):
    """0020: two teams of two stored as 1, 1, 3, 3 become 1, 1, 2, 2;
    plays without teams keep their places."""
    apps = migrate([("tracker", "0019_times_from_imports")])
    household = apps.get_model("tracker", "Household").objects.create(name="Family")
    names = ["Mama", "Papa", "Finn", "Zoë"]
    players = [apps.get_model("tracker", "Player").objects.create(household=household, name=n)
               for n in names]
    rules = {"scoring": "most_points", "teams": True, "end": "host", "end_at": 0}
    result = {"players": [str(p.pk) for p in players],
              "teams": {"Eltern": [str(players[0].pk), str(players[1].pk)],
                        "Kinder": [str(players[2].pk), str(players[3].pk)]},
              "scores": {"Eltern": 42, "Kinder": 37}}
    team_play = old_play(apps, "generic", players, result, house_rules=rules,
                         played_on=datetime.date(2025, 1, 1))
    solo_play = old_play(apps, "generic", players, {}, house_rules={**rules, "teams": False},
                         played_on=datetime.date(2025, 1, 1))
    Participant = apps.get_model("tracker", "Participant")
    for seat, (team, place) in enumerate([("Eltern", 1), ("Eltern", 1), ("Kinder", 3),
                                          ("Kinder", 3)]):
        Participant.objects.filter(play_id=team_play, seat=seat).update(
            place=place, details={"team": team, "score": 42 if place == 1 else 37})

    migrate(AFTER)

    stored = Play.objects.get(pk=team_play)
    assert [p.place for p in stored.participants.order_by("seat")] == [1, 1, 2, 2]
    assert [p.place for p in Play.objects.get(pk=solo_play).participants.order_by("seat")] \
        == [1, 2, 3, 4]


@pytest.mark.django_db(transaction=True)
def test_stored_answers_of_keyed_entries_shrink_to_a_kilobyte(client, django_user_model):
    """0023: a long answer kept before is dropped (a repeat rebuilds it), a short one is
    compressed and replayed as it was."""
    apps = migrate([("tracker", "0021_plays_out_of_statistics")])
    user = apps.get_model("auth", "User").objects.create(username="anna")
    AppliedEntry = apps.get_model("tracker", "AppliedEntry")
    AppliedEntry.objects.create(user=user, key="l" * 24, path="/plays/1/", status=200,
                                body=("<tr>" + secrets.token_hex(10000) + "</tr>").encode())
    AppliedEntry.objects.create(user=user, key="s" * 24, path="/plays/1/", status=200,
                                body=b"<p>saved</p>")

    migrate(AFTER)
    from tracker.households.middleware import replay
    from tracker.households.models import AppliedEntry as Entry

    assert bytes(Entry.objects.get(key="l" * 24).body) == b""
    short = Entry.objects.get(key="s" * 24)
    request = type("Request", (), {"path": "/plays/1/"})()
    assert replay(short, request).content == b"<p>saved</p>"
