"""Files from the apps families already use: a BG Stats export of years and BoardGameGeek's
log of plays come in whole, object by object, and go back out to BG Stats as they came.

The files are in ``tests/data`` (``make_family_files.py`` says what is in them)."""

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.tracker.portability.transfer_fixtures import build_sheet_by_categories, run_imports
from tracker.households.models import Household, ImportJob
from tracker.looking_back import stats
from tracker.portability.bgstats_export import to_bgstats
from tracker.portability.document import ImportRefused
from tracker.portability.files import read_file
from tracker.portability.importer import import_household
from tracker.portability.report import lines
from tracker.table.models import Play
from tracker.table.recording import record_result

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parents[2] / "data"
BGSTATS = DATA / "bgstats_family.json"
BGG = DATA / "bgg_plays.xml"


def imported(data, name=None):
    reading = read_file(data)
    return import_household(reading.document, name=name), lines(reading.notes)


def bgstats_bytes():
    return BGSTATS.read_bytes()


def by_uuid(objects):
    return {obj["uuid"]: obj for obj in objects}


def dixit_of_9_august(household):
    return (Play.objects.filter(household=household, own_game__name="Dixit",
                                played_on="2024-08-09")
            .prefetch_related("participants__player").get())


# BG Stats: in whole


def test_a_bgstats_file_of_years_comes_in_with_every_play_whose_game_it_holds():
    document = json.loads(bgstats_bytes())

    household, notes = imported(bgstats_bytes())

    known_games = {game["id"] for game in document["games"]}
    dated = [play for play in document["plays"] if play["gameRefId"] in known_games
             and play["playDate"]]
    assert household.plays.count() == len(dated) == 320
    assert sorted(household.players.values_list("name", flat=True)) == sorted(
        ["Mama", "Lena", "Papa", "Jonas", "max_meeple", "Lena (2)", "Player 7",
         "Anonymous player"])
    assert household.own_games.count() == 12
    assert "2 plays are of games the file does not hold (deleted since, perhaps): they " \
        "are left out." in notes
    assert "  Feb. 19, 2022, game 99: Mama, Papa" in notes
    assert "  July 2, 2023, game 99: Lena, Jonas" in notes
    assert "  Lena → Lena (2)" in notes
    assert "  Player no. 5 → max_meeple" in notes and "  Player no. 7 → Player 7" in notes


def test_nobody_wins_what_they_did_not_win():
    """Dixit on holiday: Onkel Theo (player 777, whom the file no longer lists) won with 30;
    Lena came second with 27. She stays second, and the play has no winner."""
    household, notes = imported(bgstats_bytes())

    dixit = dixit_of_9_august(household)
    assert {p.player.name: (p.points, p.place) for p in dixit.participants.all()} == {
        "Lena": (27, 2), "Mama": (22, 3), "Jonas": (19, 4)}
    assert "  Dixit of Aug. 9, 2024: player 777" in notes
    assert "  Dixit of Aug. 9, 2024: the winner is not in the file; nobody won, Lena is " \
        "placed 2." in notes
    lena = household.players.get(name="Lena")
    wins = [row for row in stats.played_games(household) if row["name"] == "Dixit"]
    assert wins and dixit.status == Play.Status.FINISHED
    assert not dixit.participants.filter(player=lena, place=1).exists()


def test_a_401_digit_length_or_score_is_an_odd_value_not_an_error(client, host):
    document = json.loads(bgstats_bytes())
    document["plays"][5]["playerScores"][0]["score"] = int("7" * 401)
    client.force_login(host)

    client.post(reverse("household_import"), {"document": SimpleUploadedFile(
        "BGStatsExport.json", json.dumps(document).encode())})
    run_imports()

    job = ImportJob.objects.get()
    assert job.state == ImportJob.State.DONE, job.message
    report = lines(job.notes)
    assert "1 score is not a number the app can keep: it counts as no score." in report
    assert "1 length is not a number of minutes from a minute to a day: the play has no " \
        "length." in report


# BG Stats: out as it came


def differences(before, after):
    """Every field that differs between two BG Stats files, object by object (by uuid)."""
    found = set()
    for kind in ("players", "games", "locations", "plays"):
        old, new = by_uuid(before[kind]), by_uuid(after[kind])
        found |= {(kind, key, "missing") for key in old.keys() - new.keys()}
        found |= {(kind, key, "added") for key in new.keys() - old.keys()}
        for key in old.keys() & new.keys():
            found |= {(kind, key, field) for field in old[key].keys() | new[key].keys()
                      if old[key].get(field) != new[key].get(field)}
    for key in ("tags", "groups", "challenges", "userInfo"):
        if before.get(key) != after.get(key):
            found.add((key, "", ""))
    return found


def test_a_bgstats_file_goes_back_out_with_only_the_differences_the_report_named():
    before = json.loads(bgstats_bytes())
    household, notes = imported(bgstats_bytes())

    after = json.loads(json.dumps(to_bgstats(household)))

    games = {game["id"] for game in before["games"]}
    left_out = {play["uuid"] for play in before["plays"]
                if play["gameRefId"] not in games or not play["playDate"]}
    dixit = next(play["uuid"] for play in before["plays"]
                 if any(row["playerRefId"] == 777 for row in play["playerScores"]))
    assert len(left_out) == 3
    assert differences(before, after) == {("plays", key, "missing") for key in left_out} | {
        ("plays", dixit, "playerScores")}
    assert [row["playerRefId"] for row in by_uuid(after["plays"])[dixit]["playerScores"]] == [
        2, 1, 4]
    assert "2 plays are of games the file does not hold (deleted since, perhaps): they are " \
        "left out." in notes
    assert "1 play has no date that can be read: it is left out." in notes
    assert "1 score is of a player the file does not list: the play comes in without it." \
        in notes


def test_what_the_family_changed_goes_out_and_the_rest_as_it_came():
    before = json.loads(bgstats_bytes())
    household, _notes = imported(bgstats_bytes())
    second_lena = household.players.get(name="Lena (2)")
    second_lena.name = "Lena B."
    second_lena.save()
    catan = (Play.objects.filter(household=household, own_game__name="Catan",
                                 status="finished").order_by("played_on").first())
    scores = {key: points + 1 for key, points in catan.result["scores"].items()}
    record_result(catan, {**catan.result, "scores": scores}, expected_version=catan.version)

    after = json.loads(json.dumps(to_bgstats(household)))

    kept = next(player for player in before["players"] if player["id"] == 6)
    renamed = by_uuid(after["players"])[kept["uuid"]]
    assert renamed == {**kept, "name": "Lena B."}
    old_play = next(play for play in before["plays"] if play["uuid"] in {
        p["uuid"] for p in after["plays"]} and play["gameRefId"] == 1
        and play["playDate"][:10] == catan.played_on.isoformat())
    new_play = by_uuid(after["plays"])[old_play["uuid"]]
    assert {row["playerRefId"]: row["score"] for row in new_play["playerScores"]} == {
        row["playerRefId"]: str(int(row["score"]) + 1) for row in old_play["playerScores"]}
    assert {key: value for key, value in new_play.items() if key != "playerScores"} == {
        key: value for key, value in old_play.items() if key not in ("playerScores",
                                                                      "manualWinner",
                                                                      "usesTeams")} | {
        "manualWinner": False, "usesTeams": False}
    assert [row["seatOrder"] for row in new_play["playerScores"]] == [
        row["seatOrder"] for row in old_play["playerScores"]] or all(
        row["seatOrder"] == 0 for row in old_play["playerScores"])


def test_objects_made_here_get_the_same_uuid_in_every_export_and_seats_from_0(
        household, night, family):
    build_sheet_by_categories(household, night, family)

    first, second = to_bgstats(household), to_bgstats(household)

    assert [play["uuid"] for play in first["plays"]] == [
        play["uuid"] for play in second["plays"]]
    assert [player["uuid"] for player in first["players"]] == [
        player["uuid"] for player in second["players"]]
    wingspan = first["plays"][0]
    assert [row["seatOrder"] for row in wingspan["playerScores"]] == [0, 1]
    # Two categories written down at the end are no rounds.
    assert wingspan["rounds"] == 0


def test_a_cooperative_play_made_here_goes_out_with_rank_0(household, night, family):
    from tests.factories import OwnGameFactory
    from tracker.table.recording import start_play

    pandemic = OwnGameFactory(household=household, name="Pandemic", scoring="cooperative")
    play = start_play(household=household, game="generic", own_game=pandemic,
                      players=family[:3], game_night=night)
    record_result(play, {"won": True}, expected_version=1)

    out = to_bgstats(household)

    assert [(row["rank"], row["winner"]) for row in out["plays"][0]["playerScores"]] == [
        (0, True)] * 3


# BoardGameGeek's log of plays


def test_a_bgg_log_comes_in_the_same_tolerant_way():
    household, notes = imported(BGG.read_bytes())

    assert household.name == "From BoardGameGeek"
    assert household.plays.count() == 101
    catan_twice = Play.objects.filter(household=household, own_game__name="Catan",
                                      played_on="2021-03-30")
    assert catan_twice.count() == 2
    assert {play.elsewhere["bgg"]["copy"] for play in catan_twice} == {1, 2}
    assert Play.objects.filter(household=household, status="abandoned",
                               own_game__name="Dixit").count() == 1
    assert household.own_games.get(name="Pandemic").scoring == "cooperative"
    assert household.own_games.get(name="Skyjo").scoring == "fewest_points"
    assert household.own_games.get(name="Love Letter").scoring == "places"
    assert household.own_games.get(name="Catan").elsewhere["bgg"]["game"]["objectid"] == "13"
    first = Play.objects.filter(household=household, elsewhere__bgg__id="80000001").get()
    seats = {p.player.name: (p.seat, p.points, p.place)
             for p in first.participants.select_related("player")}
    assert seats == {"Papa": (0, 77, 3), "Mama": (1, 130, 1), "Jonas": (2, 97, 2)}
    assert first.length_minutes == 55 and first.game_night.place == "Home"
    assert Play.objects.filter(household=household, in_statistics=False).count() == 6
    assert "1 play is in the log twice (the same BGG id): it comes in once." in notes
    assert "  2021-03-30, Catan: 2 plays" in notes
    assert "  color (232)" in notes
    assert household.players.get(name="max_meeple").elsewhere["bgg"]["player"][
        "username"] == "max_meeple"


def test_the_pages_of_bggs_log_come_in_chosen_together(client, host):
    text = BGG.read_text()
    plays = text.split("  <play ")
    header, entries = plays[0], plays[1:]
    first = header + "  <play " + "  <play ".join(entries[:60]) + "</plays>\n"
    second = header + "  <play " + "  <play ".join(entries[60:])
    client.force_login(host)

    response = client.post(reverse("household_import"), {"document": [
        SimpleUploadedFile("plays.xml", first.encode()),
        SimpleUploadedFile("plays-2.xml", second.encode())]})
    run_imports()

    page = client.get(response.url).content.decode()
    assert "Imported as From BoardGameGeek." in page
    assert Household.objects.get(name="From BoardGameGeek").plays.count() == 101


@pytest.mark.parametrize(("data", "message"), [
    (b"<html><body>Not found</body></html>", "not BoardGameGeek's log of plays"),
    (b"<plays><play", "not readable XML"),
    (b'<?xml version="1.0"?><!DOCTYPE plays [<!ENTITY a "aaaaaaaa">'
     b'<!ENTITY b "&a;&a;&a;&a;&a;&a;">]><plays>&b;</plays>', "not readable XML"),
])
def test_a_file_that_is_no_play_log_is_refused_whole(data, message):
    with pytest.raises(ImportRefused, match=message):
        read_file(data)


def test_several_files_at_once_are_only_the_pages_of_a_play_log(client, host):
    client.force_login(host)

    response = client.post(reverse("household_import"), {"document": [
        SimpleUploadedFile("plays.xml", BGG.read_bytes()),
        SimpleUploadedFile("BGStatsExport.json", bgstats_bytes())]})

    assert response.status_code == 422
    assert "choose any other file alone" in response.content.decode()
    assert not ImportJob.objects.exists()


# Bounded


def test_what_an_upload_leaves_behind_does_not_grow_with_the_file(client, host):
    """200,000 plays without a date: one line of the report, five examples; nothing of the
    file is left in the job, the session or the pages."""
    document = json.loads(bgstats_bytes())
    document["plays"] = [{"gameRefId": 1, "playDate": "",
                          "playerScores": [{"playerRefId": 1, "score": "3"}]}] * 200_000
    client.force_login(host)

    response = client.post(reverse("household_import"), {"document": SimpleUploadedFile(
        "BGStatsExport.json", json.dumps(document).encode())})
    run_imports()

    job = ImportJob.objects.get()
    assert job.state == ImportJob.State.DONE and bytes(job.data) == b""
    assert "200,000 plays have no date that can be read: they are left out." in lines(
        job.notes)
    assert len(json.dumps(job.notes)) < 6_000
    page = client.get(response.url)
    assert len(page.content) < 60_000
    assert len(client.get(reverse("household")).content) < 60_000
    assert len(client.session.encode(dict(client.session))) < 2_000


def test_the_import_page_says_what_comes_in_and_how_to_get_bggs_log(host_client, household):
    page = host_client.get(reverse("household_import")).content.decode()

    assert "boardgamegeek.com/xmlapi2/plays?username=" in page
    assert "comments, lengths and locations" in page
    assert "multiple" in page
    assert "durations, comments" not in page


def test_an_entry_too_large_to_keep_keeps_its_uuid_and_is_named():
    document = json.loads(bgstats_bytes())
    document["plays"][0]["playImages"] = json.dumps(["x" * 100] * 200)
    document["tags"] = [{"id": 1, "name": "x" * 300_000}]

    household, notes = imported(json.dumps(document).encode())

    out = to_bgstats(household)
    assert "What the app does not show of 2 entries is too large to keep for the way " \
        "back." in notes
    first = by_uuid(out["plays"])[document["plays"][0]["uuid"]]
    assert "playImages" not in first and "tags" not in out
    assert by_uuid(out["plays"]).keys() >= {play["uuid"] for play in document["plays"][1:10]}
