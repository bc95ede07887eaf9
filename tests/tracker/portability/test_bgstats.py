"""BG Stats files in as a new household, refused whole when damaged, and a household out in
BG Stats' format."""

import copy
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tests.tracker.portability.transfer_fixtures import failing_pages, run_imports
from tracker.households.models import Household, Player
from tracker.portability.bgstats import from_bgstats, is_bgstats
from tracker.portability.bgstats_export import to_bgstats
from tracker.portability.document import ImportRefused
from tracker.portability.files import read_file
from tracker.portability.importer import import_household
from tracker.portability.report import Report, lines
from tracker.table.models import OwnGame, Play
from tracker.table.recording import record_result

pytestmark = pytest.mark.django_db


def score(player, value, *, winner=False, seat=0, start=False, team="", rank=0, role=""):
    return {"playerRefId": player, "score": value, "winner": winner, "seatOrder": seat,
            "startPlayer": start, "team": team, "rank": rank, "role": role,
            "newPlayer": False}


def bgstats_file():
    """Four players; a co-op game, a team game, a fewest-points game, a game without
    points, Yahtzee, and a play whose recorded winner is not the top score."""
    return {
        "about": "BG Stats export",
        "userInfo": {"meRefId": 1},
        "players": [{"id": 1, "uuid": "A", "name": "Anna", "isAnonymous": False},
                    {"id": 2, "uuid": "B", "name": "Ben", "isAnonymous": 0},
                    {"id": 3, "uuid": "C", "name": "Carla"},
                    {"id": 7, "uuid": "D", "name": "David", "isAnonymous": 1}],
        "locations": [{"id": 1, "name": "Home"}],
        "games": [
            {"id": 10, "name": "Pandemic", "cooperative": True, "highestWins": True,
             "noPoints": False, "usesTeams": False, "bggId": 30549, "minPlayerCount": 2,
             "maxPlayerCount": 4},
            {"id": 11, "name": "Codenames", "cooperative": 0, "highestWins": 1,
             "noPoints": 1, "usesTeams": 1},
            {"id": 12, "name": "Skyjo", "cooperative": False, "highestWins": False,
             "noPoints": False, "usesTeams": False},
            {"id": 13, "name": "Catan", "cooperative": False, "highestWins": True,
             "noPoints": False, "usesTeams": False},
            {"id": 14, "name": "Yahtzee", "highestWins": True},
            {"id": 15, "name": "Doppelkopf", "highestWins": True, "usesTeams": True},
        ],
        "plays": [
            {"uuid": "P1", "gameRefId": 10, "playDate": "2024-03-01 19:30:00",
             "durationMin": 45, "locationRefId": 1, "comments": "Close call",
             "playerScores": [score(1, "", winner=True, seat=1),
                              score(2, None, winner=True, seat=2, start=True)]},
            {"uuid": "P2", "gameRefId": 11, "playDate": "2024-03-01 21:00:00",
             "usesTeams": True,
             "playerScores": [score(1, None, winner=True, seat=1, team="Red"),
                              score(2, None, seat=2, team="Blue"),
                              score(3, None, winner=True, seat=3, team="Red", start=True),
                              score(7, None, seat=4, team="Blue")]},
            {"uuid": "P3", "gameRefId": 12, "playDate": "2024-03-02 15:00:00",
             "playerScores": [score(3, "12", winner=True, seat=2),
                              score(1, "30", seat=1, start=True),
                              score(2, "7.5", seat=3)]},
            {"uuid": "P4", "gameRefId": 13, "playDate": "2024-03-02 17:00:00",
             "ignored": True, "expansionPlays": [{"gameRefId": 99}],
             "playerScores": [score(1, 10, winner=True, seat=1, role="Red"),
                              score(2, "9", seat=2),
                              score(7, "8", seat=3)]},
            {"uuid": "P5", "gameRefId": 14, "playDate": "2024-03-03 10:00:00",
             "playerScores": [score(1, "250", winner=True), score(2, "180")]},
            {"uuid": "P6", "gameRefId": 15, "playDate": "2024-03-03 20:00:00",
             "usesTeams": True,
             "playerScores": [score(1, "120", seat=1, team="Re"),
                              score(2, "121", seat=2, team="Kontra", winner=True),
                              score(3, "120", seat=3, team="Re"),
                              score(7, "121", seat=4, team="Kontra", winner=True)]},
        ],
    }


def as_file(document):
    return json.dumps(document).encode()


def imported(document=None, name="From BG Stats"):
    """The household made of ``document``, and its report as lines of text."""
    reading = read_file(as_file(document or bgstats_file()))
    return import_household(reading.document, name=name), lines(reading.notes)


def play_of(household, game):
    return (Play.objects.filter(household=household, own_game__name=game)
            .prefetch_related("participants__player").get())


def places(play):
    return {p.player.name: p.place for p in play.participants.all()}


def test_a_bgstats_file_is_recognised_by_its_content():
    assert is_bgstats(bgstats_file())
    assert not is_bgstats({"format": "family-scorekeeper", "players": [], "games": [],
                           "plays": []})
    assert not is_bgstats({"players": [], "games": {}})


def test_players_games_and_plays_come_in_as_a_new_household():
    household, _notes = imported()

    assert sorted(household.players.values_list("name", flat=True)) == [
        "Anna", "Ben", "Carla", "David"]
    library = {own.name: own for own in household.own_games.all()}
    assert {name: (own.scoring, own.teams) for name, own in library.items()} == {
        "Pandemic": ("cooperative", False), "Codenames": ("places", True),
        "Skyjo": ("fewest_points", False), "Catan": ("most_points", False),
        "Yahtzee": ("most_points", False), "Doppelkopf": ("most_points", True)}
    assert (library["Pandemic"].min_players, library["Pandemic"].max_players) == (2, 4)
    assert [night.date.isoformat() for night in household.game_nights.order_by("date")] == [
        "2024-03-01", "2024-03-02", "2024-03-03"]
    assert Play.objects.filter(household=household, status="finished").count() == 6


def test_each_kind_of_game_keeps_its_result():
    household, _notes = imported()

    pandemic = play_of(household, "Pandemic")
    assert pandemic.result == {"won": True}
    assert set(places(pandemic).values()) == {1}
    assert pandemic.start_seat == 1

    codenames = play_of(household, "Codenames")
    assert codenames.result["teams"] == {"Red": [household.players.get(name="Anna").key,
                                                 household.players.get(name="Carla").key],
                                         "Blue": [household.players.get(name="Ben").key,
                                                  household.players.get(name="David").key]}
    assert places(codenames) == {"Anna": 1, "Carla": 1, "Ben": 2, "David": 2}

    skyjo = play_of(household, "Skyjo")
    assert [p.player.name for p in sorted(skyjo.participants.all(), key=lambda p: p.seat)] == [
        "Anna", "Carla", "Ben"]
    assert skyjo.start_seat == 0
    assert {p.player.name: p.points for p in skyjo.participants.all()} == {
        "Anna": 30, "Carla": 12, "Ben": 8}
    assert places(skyjo) == {"Carla": 1, "Ben": 2, "Anna": 3}
    assert "winners" in skyjo.result


def test_the_recorded_winner_stands_against_the_scores():
    household, _notes = imported()

    skyjo = play_of(household, "Skyjo")
    # Ben has the fewest points (8) but the family recorded Carla as the winner.
    assert skyjo.result["winners"] == [household.players.get(name="Carla").key]
    assert places(skyjo)["Carla"] == 1

    doppelkopf = play_of(household, "Doppelkopf")
    assert doppelkopf.result["scores"] == {"Re": 120, "Kontra": 121}
    assert "winners" not in doppelkopf.result
    assert places(doppelkopf) == {"Ben": 1, "David": 1, "Anna": 2, "Carla": 2}


def test_the_report_lists_what_came_in_changed_and_what_is_kept_unseen():
    _household, notes = imported()
    text = "\n".join(notes)

    assert ("1 game is one the app knows by its rules: it is kept as an own game, since the "
            "file holds only final scores") in text
    assert "  Yahtzee" in notes
    for kept in ("expansionPlays (1)", "role (1)", "bggId (1)"):
        assert f"  {kept}" in notes
    assert "written back by the BG Stats export" in text
    assert "1 play is left out of the statistics in the other app" in text
    assert "1 score with decimals is rounded to a whole number." in text
    assert "1 anonymous player comes in as a player like the others." in text
    assert "not kept" not in text


def test_plays_the_rules_could_not_score_are_reported_not_dropped():
    document = bgstats_file()
    document["plays"].append({"gameRefId": 13, "playDate": "2024-03-04 10:00:00",
                              "playerScores": [score(1, None, winner=True),
                                               score(2, None)]})
    document["plays"].append({"gameRefId": 13, "playDate": "2024-03-04 11:00:00",
                              "playerScores": [score(1, None), score(2, None)]})

    household, notes = imported(document)

    plays = Play.objects.filter(household=household, played_on="2024-03-04").order_by("id")
    assert [play.status for play in plays] == ["finished", "abandoned"]
    assert plays[0].house_rules["scoring"] == "places"
    assert "1 play of a game with points has no scores" in "\n".join(notes)
    assert "1 play has neither scores, ranks nor a winner" in "\n".join(notes)


def test_the_pages_of_a_household_from_bgstats_all_answer(client):
    household, _notes = imported()

    assert failing_pages(client, household) == []


STORED = (Household, Player, OwnGame, Play)


def refused(document):
    before = [model.objects.count() for model in STORED]
    with pytest.raises(ImportRefused) as error:
        reading = read_file(document if isinstance(document, bytes) else as_file(document))
        import_household(reading.document)
    assert [model.objects.count() for model in STORED] == before
    return str(error.value)


def edited(change):
    document = copy.deepcopy(bgstats_file())
    change(document)
    return document


@pytest.mark.parametrize(("change", "named", "players"), [
    (lambda d: d["plays"][2].update(gameRefId=99),
     ["1 play is of a game the file does not hold", "  March 2, 2024, game 99: Carla, Anna, Ben"],
     ["Anna", "Ben", "Carla", "David"]),
    (lambda d: d["players"].append({"id": 8, "name": "anna"}),
     ["1 player has the name of another: it is told apart.", "  anna → anna (2)"],
     ["Anna", "anna (2)", "Ben", "Carla", "David"]),
    (lambda d: d["players"].append({"id": 8, "name": "Anna", "bggUsername": "anna_b"}),
     ["  Anna → Anna (anna_b)"], ["Anna", "Anna (anna_b)", "Ben", "Carla", "David"]),
    (lambda d: d["players"].extend([{"id": 8, "name": "", "bggUsername": "max_meeple"},
                                    {"id": 9}]),
     ["2 players have no name: they are named by their BGG user names, or numbered.",
      "  Player no. 5 → max_meeple", "  Player no. 6 → Player 6"],
     ["Anna", "Ben", "Carla", "David", "max_meeple", "Player 6"]),
    (lambda d: d["players"].extend([{"id": 1, "name": "Zoe"}, "Zoe"]),
     ["2 players are unreadable or have no id of their own", "  Player no. 5: Zoe",
      "  Player no. 6"], ["Anna", "Ben", "Carla", "David"]),
], ids=["unknown-game", "same-name", "same-name-bgg-user", "no-name", "no-id"])
def test_what_bgstats_allows_comes_in_and_is_named(change, named, players):
    """BG Stats keeps the plays of a deleted game, lets two players share a name and knows
    players only by their BGG user name: none of it refuses the file."""
    household, notes = imported(edited(change))

    for line in named:
        assert any(note.startswith(line) for note in notes), notes
    assert sorted(household.players.values_list("name", flat=True)) == sorted(players)


def test_every_problem_is_named_at_once_grouped_by_kind():
    def change(document):
        document["players"].extend([{"id": 8, "name": "anna"}, {"id": 9, "name": ""}])
        document["plays"][2].update(gameRefId=99)
        document["plays"][3].update(playDate="yesterday")
        document["plays"][4]["playerScores"][1].update(score="1" * 401)
        document["plays"].extend([{"gameRefId": 98, "playDate": f"2024-05-0{day}",
                                   "playerScores": [score(1, 3)]} for day in range(1, 9)])

    household, notes = imported(edited(change))

    assert "9 plays are of games the file does not hold (deleted since, perhaps): they are " \
        "left out." in notes
    assert sum(line.startswith("  ") and "game 9" in line for line in notes) == 5
    assert "  … and 4 more" in notes
    assert "1 play has no date that can be read: it is left out." in notes
    assert "1 player has the name of another: it is told apart." in notes
    assert "1 player has no name: it is named by its BGG user name, or numbered." in notes
    assert "1 score is not a number the app can keep: it counts as no score." in notes
    assert household.plays.count() == 4


@pytest.mark.parametrize(("change", "named", "catan"), [
    (lambda d: d["plays"][3]["playerScores"][1].update(score=""),
     "  Catan of March 2, 2024: Ben",
     {"Anna": (10, 1), "David": (8, 2), "Ben": (None, 3)}),
    (lambda d: d["plays"][3]["playerScores"][1].update(score="lots"),
     "  Catan of March 2, 2024: Ben, “lots”",
     {"Anna": (10, 1), "David": (8, 2), "Ben": (None, 3)}),
    (lambda d: d["plays"][3]["playerScores"][1].update(score=[3]),
     "  Catan of March 2, 2024: Ben, “[3]”",
     {"Anna": (10, 1), "David": (8, 2), "Ben": (None, 3)}),
    (lambda d: d["plays"][3]["playerScores"][2].update(playerRefId=1),
     "  Catan of March 2, 2024: Anna",
     {"Anna": (10, 1), "Ben": (9, 2)}),
    (lambda d: d["plays"][3]["playerScores"][1].update(playerRefId=99),
     "  Catan of March 2, 2024: player 99",
     {"Anna": (10, 1), "David": (8, 3)}),
    (lambda d: d["plays"][3].update(playDate="yesterday"),
     "  Play no. 4 (Catan): “yesterday”", None),
    (lambda d: d["plays"][3].update(playerScores=[]),
     "1 play has no players: it is left out.", None),
], ids=["score-missing", "score-not-a-number", "score-a-list", "player-twice",
        "unknown-player", "bad-date", "no-players"])
def test_a_play_with_an_oddity_comes_in_and_the_report_names_it(change, named, catan):
    """Henrik had to leave early: one line of a file of years never refuses the file."""
    household, notes = imported(edited(change))

    assert any(named in note for note in notes), notes
    assert Play.objects.filter(household=household, own_game__name="Skyjo").exists()
    if catan is None:
        assert not Play.objects.filter(household=household, own_game__name="Catan").exists()
    else:
        play = play_of(household, "Catan")
        assert {p.player.name: (p.points, p.place) for p in play.participants.all()} == catan


def test_a_player_without_a_score_recorded_as_winner_still_wins():
    def change(document):
        document["plays"][3]["playerScores"][0].update(score=None)

    household, notes = imported(edited(change))

    play = play_of(household, "Catan")
    assert {p.player.name: p.place for p in play.participants.all()} == {
        "Anna": 1, "Ben": 2, "David": 3}
    assert "  Catan of March 2, 2024: Anna" in notes


def test_a_play_bgstats_leaves_out_of_its_statistics_is_in_the_history_only(
        client, host):
    """P4 (Catan) is ``ignored`` in the file: in the history, in no statistics, and
    ``ignored`` again in a BG Stats export."""
    from tracker.looking_back import stats

    household, notes = imported()
    catan = play_of(household, "Catan")
    assert catan.in_statistics is False and catan.status == Play.Status.FINISHED
    assert "1 play is left out of the statistics in the other app: it is in the history " \
        "and, as there, counted in no statistics." in notes
    assert catan.game_key not in {row["key"] for row in stats.played_games(household)}
    david = household.players.get(name="David")
    assert stats.player_stats(david, {p.pk: p for p in household.players.all()})["plays"] == 2
    out = to_bgstats(household)
    assert [play.get("ignored") for play in out["plays"]].count(True) == 1
    household.members.add(host)
    client.force_login(host)
    client.post(reverse("household_switch", args=[household.pk]))
    page = client.get(reverse("history")).content.decode()
    assert "Catan" in page and "Not in the statistics" in page


@pytest.mark.parametrize("change", ["abandon", "correct"])
def test_a_play_out_of_the_statistics_changes_no_tally_when_abandoned_or_corrected(change):
    from tracker.table import tallies
    from tracker.table.models import HeadToHeadTally
    from tracker.table.recording import abandon_play

    household, _notes = imported()
    catan = play_of(household, "Catan")
    if change == "abandon":
        abandon_play(catan, expected_version=catan.version)
    else:
        scores = {key: points + 1 for key, points in catan.result["scores"].items()}
        record_result(catan, {**catan.result, "scores": scores},
                      expected_version=catan.version)

    def table():
        return sorted(HeadToHeadTally.objects.values_list(
            "player_id", "opponent_id", "game", "together", "ahead", "behind"))

    kept = table()
    tallies.rebuild()
    assert kept == table()
    assert all(row[3] >= 0 for row in kept)


def test_a_file_of_an_unknown_kind_is_refused():
    assert "neither JSON nor XML" in refused(b"{not json")
    assert "nor one of BG Stats" in refused(as_file({"players": [], "games": "x"}))


def test_any_edited_value_of_a_bgstats_file_is_imported_or_refused_never_an_error():
    import random

    from tests.tracker.portability.test_transfer import JUNK, leaves

    document = bgstats_file()
    paths = [path for path in leaves(document) if path]
    for number, path in enumerate(random.Random(5).sample(paths, min(150, len(paths)))):
        broken = copy.deepcopy(document)
        target = broken
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = JUNK[number % len(JUNK)]
        try:
            import_household(read_file(as_file(broken)).document)
        except ImportRefused:
            pass


# Out, and back


def test_a_household_goes_out_in_bgstats_format_with_scores_winners_and_teams():
    household, _notes = imported()

    out = to_bgstats(household)

    assert is_bgstats(out)
    assert {player["name"] for player in out["players"]} == {"Anna", "Ben", "Carla", "David"}
    games = {game["name"]: game for game in out["games"]}
    assert (games["Skyjo"]["highestWins"], games["Codenames"]["noPoints"],
            games["Pandemic"]["cooperative"], games["Doppelkopf"]["usesTeams"]) == (
        False, True, True, True)
    names = {player["id"]: player["name"] for player in out["players"]}
    by_game = {next(g["name"] for g in out["games"] if g["id"] == play["gameRefId"]): play
               for play in out["plays"]}
    skyjo = {names[row["playerRefId"]]: row for row in by_game["Skyjo"]["playerScores"]}
    # As BG Stats wrote them: Ben's 7.5 came in as 8, and goes back as it came.
    assert {name: (row["score"], row["winner"]) for name, row in skyjo.items()} == {
        "Anna": ("30", False), "Carla": ("12", True), "Ben": ("7.5", False)}
    assert by_game["Skyjo"]["playDate"] == "2024-03-02 15:00:00"
    teams = {names[row["playerRefId"]]: (row["team"], row["winner"], row["rank"])
             for row in by_game["Doppelkopf"]["playerScores"]}
    assert teams == {"Anna": ("Re", False, 0), "Ben": ("Kontra", True, 0),
                     "Carla": ("Re", False, 0), "David": ("Kontra", True, 0)}


def test_a_bgstats_export_imports_back_the_same():
    household, _notes = imported()
    out = to_bgstats(household)

    again, _notes = imported(out, name="Again")

    def summary(one):
        return sorted((play.own_game.name, play.played_on, play.status,
                       tuple(sorted((p.player.name, p.points, p.place)
                                    for p in play.participants.all())))
                      for play in Play.objects.filter(household=one)
                      .select_related("own_game").prefetch_related("participants__player"))

    assert summary(again) == summary(household)
    twice = to_bgstats(again)
    for kind in ("players", "games", "plays", "locations"):
        assert twice[kind] == out[kind]


def test_rules_games_go_out_by_name(household, night, family):
    from tests.tracker.portability.transfer_fixtures import build_everything

    build_everything(household, night, family, None)

    out = to_bgstats(household)

    names = {game["name"] for game in out["games"]}
    assert {"Die Maus im Nacken", "Skyjo", "Carcassonne"} <= names
    assert all(play["playerScores"] for play in out["plays"])
    assert len(out["plays"]) == Play.objects.filter(household=household,
                                                    status="finished").count()


# The commands and the pages


def test_the_commands_read_and_write_bgstats(tmp_path, capsys):
    path = tmp_path / "BGStatsExport.json"
    path.write_text(json.dumps(bgstats_file()))

    call_command("import_household", str(path), "--name", "Games")
    out = capsys.readouterr().out
    assert "Imported as 'Games'" in out and "1 score with decimals is rounded" in out

    call_command("export_household", "Games", "--format", "bgstats", "-o",
                 str(tmp_path / "out.json"))
    assert is_bgstats(json.loads((tmp_path / "out.json").read_text()))


def test_the_import_command_refuses_only_a_file_that_is_no_bgstats_export(tmp_path, capsys):
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(edited(lambda d: d["plays"][0].update(gameRefId=42))))
    call_command("import_household", str(path))
    assert "  March 1, 2024, game 42: Anna, Ben" in capsys.readouterr().out.splitlines()

    path.write_text(json.dumps({"players": [], "games": {}, "plays": []}))
    with pytest.raises(CommandError, match="nor one of BG Stats"):
        call_command("import_household", str(path))
    assert Household.objects.count() == 1


def test_the_household_page_offers_the_bgstats_download(client, host, household, family):
    client.force_login(host)

    page = client.get(reverse("household")).content.decode()
    response = client.get(reverse("household_export_bgstats"))

    assert reverse("household_export_bgstats") in page
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('.bgstats.json"')
    assert {player["name"] for player in json.loads(response.content)["players"]} == {
        player.name for player in family}


def test_the_import_page_takes_a_bgstats_file_and_shows_its_report(client, host):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(host)
    upload = SimpleUploadedFile("BGStatsExport.json", as_file(bgstats_file()),
                                content_type="application/json")

    response = client.post(reverse("household_import"), {"document": upload})
    run_imports()

    page = client.get(response.url).content.decode()
    assert "Imported as From BG Stats." in page
    assert "1 score with decimals is rounded to a whole number." in page
    assert "Skyjo of March 2, 2024: Ben, 7.5" in page
    assert Household.objects.get(name="From BG Stats").members.filter(pk=host.pk).exists()
    assert "1 score with decimals" not in client.get(reverse("household")).content.decode()
    # The report stays with the import, never in the session: it can be opened again.
    assert "1 score with decimals" in client.get(response.url).content.decode()


def test_the_upload_refuses_a_file_that_is_not_bgstats_by_name(client, host):
    """A file that is no BG Stats export at all is refused as it is uploaded, and changes
    nothing."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(host)
    upload = SimpleUploadedFile("BGStatsExport.json",
                                as_file({"players": [], "games": [], "plays": 3}))
    count = Household.objects.count()

    response = client.post(reverse("household_import"), {"document": upload})

    assert response.status_code == 422
    assert "nor one of BG Stats" in response.content.decode()
    assert Household.objects.count() == count


def test_the_converted_document_is_ours():
    converted = from_bgstats(bgstats_file(), Report())

    assert converted["format"] == "family-scorekeeper"
    assert converted["version"] == 2


def test_a_household_read_back_from_bgstats_is_told_what_bgstats_cannot_keep(
        household, night, family):
    """A series race goes out with its series named in the comments; reading it back names
    the series, the rounds and the end rules it cannot bring."""
    from tests.tracker.portability.transfer_fixtures import build_everything

    build_everything(household, night, family, None)
    out = to_bgstats(household)

    assert any("· race 1" in play["comments"] for play in out["plays"])
    _again, notes = imported(out, name="Again")
    text = "\n".join(notes)
    assert "The file keeps no end rules" in text
    assert "The file keeps no series, tournaments or points of single rounds" in text


def test_a_play_out_of_the_statistics_counts_in_no_evening_and_says_so_in_the_csv(
        client, host):
    """BG Stats' ignored Catan (Anna won) is no win on its evening, nor in the year's best
    night, and the CSV marks its rows."""
    import csv
    import io

    from tracker.evenings.pages import night_standings

    household, _notes = imported()
    catan = play_of(household, "Catan")
    rows = night_standings(list(catan.game_night.plays.prefetch_related(
        "participants__player")))
    assert all(row.name != "David" for row in rows)  # David played only Catan that day
    household.members.add(host)
    client.force_login(host)
    client.post(reverse("household_switch", args=[household.pk]))
    table = client.get(reverse("household_export_csv")).content.decode("utf-8-sig")
    marks = {(row["Game"], row["In the statistics"]) for row in csv.DictReader(io.StringIO(table))}
    assert ("Catan", "no") in marks and ("Skyjo", "yes") in marks


def test_a_team_member_without_a_score_and_an_unscored_winner_are_named():
    def change(document):
        document["plays"][5]["playerScores"][2].update(score="")  # Carla of team Re
        document["plays"][3]["playerScores"][0].update(score=None)  # Anna, Catan's winner

    household, notes = imported(edited(change))
    text = "\n".join(notes)
    assert "2 players without a score are placed after those with one (first where " \
        "recorded as winners)." in text
    assert "  Doppelkopf of March 3, 2024: Re" in notes
    assert "  Catan of March 2, 2024: Anna" in notes
    assert places(play_of(household, "Catan"))["Anna"] == 1
    assert play_of(household, "Doppelkopf").result["scores"] == {"Re": 120, "Kontra": 121}


# Notes, lengths and places


def test_comments_lengths_and_locations_come_in_as_notes_lengths_and_places():
    household, _notes = imported()

    pandemic = play_of(household, "Pandemic")
    assert (pandemic.note, pandemic.length_minutes) == ("Close call", 45)
    assert pandemic.game_night.place == "Home"
    skyjo = play_of(household, "Skyjo")
    assert (skyjo.note, skyjo.length_minutes, skyjo.game_night.place) == ("", None, "")


def test_a_night_keeps_its_first_location_and_the_report_names_the_others():
    document = bgstats_file()
    document["locations"] += [{"id": 2, "name": "Bei Oma in Kassel"},
                              {"id": 3, "name": "Ferienhaus Sylt"}]
    document["plays"][0]["locationRefId"] = 2
    document["plays"][1]["locationRefId"] = 1
    document["plays"][2].update(locationRefId=3)
    document["plays"][3].update(locationRefId=99)

    household, notes = imported(document)

    assert play_of(household, "Codenames").game_night.place == "Bei Oma in Kassel"
    assert play_of(household, "Skyjo").game_night.place == "Ferienhaus Sylt"
    text = "\n".join(notes)
    assert ("On 1 day the plays took place in several locations: the game night keeps the "
            "first.") in notes
    assert "  March 1, 2024: Bei Oma in Kassel, Home" in notes
    assert "1 play names a location the file does not hold: it comes in at home." in text
    assert "  Catan of March 2, 2024" in notes


@pytest.mark.parametrize(("duration", "kept", "named"), [
    (0, None, False), (None, None, False), (44.6, 45, False), (1440, 1440, False),
    (1441, None, True), (-5, None, True), ("45", 45, False), ("x", None, True),
    (True, None, True), (int("9" * 401), None, True)])
def test_a_length_is_kept_from_a_minute_to_a_day(duration, kept, named):
    document = bgstats_file()
    document["plays"][0]["durationMin"] = duration

    household, notes = imported(document)

    assert play_of(household, "Pandemic").length_minutes == kept
    assert any("not numbers of minutes" in note or "not a number of minutes" in note
               for note in notes) == named


def test_a_comment_longer_than_a_note_is_cut_and_named():
    document = bgstats_file()
    document["plays"][0]["comments"] = "x" * 1005

    household, notes = imported(document)

    assert play_of(household, "Pandemic").note == "x" * 1000
    assert "1 comment is longer than a note: its beginning is kept as the note." in notes
    # The whole comment goes back to BG Stats, as it came.
    assert to_bgstats(household)["plays"][0]["comments"] == "x" * 1005


def test_notes_lengths_and_places_go_out_to_bgstats_and_come_back_exactly(
        household, night, family):
    from tests.tracker.portability.transfer_fixtures import build_everything

    build_everything(household, night, family, None)
    race = Play.objects.filter(household=household, series__name="Summer cup",
                               status="finished").get()
    Play.objects.filter(pk=race.pk).update(note="Ben's comeback\n\nnext time: Anna",
                                           length_minutes=12)
    out = to_bgstats(household)

    assert out["locations"] == [{"id": 1, "uuid": out["locations"][0]["uuid"],
                                 "name": "Bei Oma in Kassel"}]
    comments = {play["comments"] for play in out["plays"]}
    assert "Ben's comeback\n\nnext time: Anna\n\n▸ Summer cup · race 1" in comments
    assert "Oma's first win 🐘\nalmost" in comments
    assert {play["durationMin"] for play in out["plays"]} >= {35, 12, 70, 0}
    kassel = [play for play in out["plays"] if play.get("locationRefId") == 1]
    assert [play["comments"] for play in kassel] == ["Oma's first win 🐘\nalmost"]

    again, notes = imported(out, name="Again")

    stories = set(Play.objects.filter(household=again).values_list("note", "length_minutes"))
    assert {("Ben's comeback\n\nnext time: Anna", 12), ("Oma's first win 🐘\nalmost", 35),
            ("", 70)} <= stories
    assert not any("▸" in note for note, _length in stories)
    # BG Stats' plays of one day make one night: the fixture's two nights are both today's.
    assert set(again.game_nights.values_list("place", flat=True)) == {"Bei Oma in Kassel"}
    assert any("were series races or tournament tables, as their comments say" in note
               for note in notes)
    # Back out, each comment is as it came in, the series race it names included.
    assert [play["comments"] for play in to_bgstats(again)["plays"]] == [
        play["comments"] for play in out["plays"]]
