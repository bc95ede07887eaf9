"""A household's data out as one document and back as a new household, refusing bad files."""

import copy
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.factories import PlayerFactory
from tests.tracker.portability.transfer_fixtures import (
    build_everything,
    failing_pages,
    page_addresses,
)
from tracker.evenings.models import Series, Tournament
from tracker.households.models import Household
from tracker.portability.document import MAX_BYTES, ImportRefused
from tracker.portability.export import export_household
from tracker.portability.files import read_document
from tracker.portability.importer import import_household
from tracker.table.models import HeadToHeadTally, KniffelCell, KniffelFieldTally, Play, PlayChange
from tracker.table.recording import record_result, start_play

pytestmark = pytest.mark.django_db


@pytest.fixture
def everything(household, night, family, host):
    return build_everything(household, night, family, host)


def without_export_time(document):
    return {key: value for key, value in document.items() if key != "exported_at"}


def as_file(document):
    return json.dumps(document).encode()


def test_export_import_export_gives_the_same_document(everything):
    first = export_household(everything)

    imported = import_household(read_document(as_file(first)), name=everything.name)

    assert imported.pk != everything.pk
    assert without_export_time(export_household(imported)) == without_export_time(first)
    # Notes, lengths, places and sheets by categories with their sums come back as they were.
    assert {night["place"] for night in first["nights"]} == {"", "Bei Oma in Kassel"}
    assert {(play["note"], play["length_minutes"]) for play in first["plays"]} >= {
        ("Oma's first win 🐘\nalmost", 35), ("", 70), ("", None)}
    wingspan = next(own for own in first["own_games"] if own["name"] == "Wingspan")
    assert (wingspan["sheet"], wingspan["tiebreak"], wingspan["pad_moves"]) == (
        "categories", "Birds", "next_row")
    sums = next(play["result"]["sums"] for play in first["plays"] if "sums" in play["result"])
    assert sums[0] == {"p2": "10+20", "p3": str(everything.players.get(name="Anna").pk)}
    night = imported.game_nights.get(place="Bei Oma in Kassel")
    assert night.plays.get().note == "Oma's first win 🐘\nalmost"


def test_the_document_holds_every_kind_of_thing(everything):
    document = export_household(everything)

    assert (document["format"], document["version"]) == ("family-scorekeeper", 2)
    statuses = {play["status"] for play in document["plays"]}
    assert statuses == {"finished", "abandoned", "in_progress"}
    kniffel = next(play for play in document["plays"] if play["game"] == "kniffel")
    anna = next(p["id"] for p in document["players"] if p["name"] == "Anna")
    assert {"player": anna, "field": "sixes", "points": 30,
            "dice": [6, 6, 6, 6, 6]}.items() <= kniffel["cells"][0].items()
    assert kniffel["result"]["sheets"][anna] == {"sixes": 30}
    assert [change["action"] for change in kniffel["changes"]] == [
        "started", "cell", "cell", "cell_corrected"]
    series = document["series"][0]
    assert series["changes"][0]["action"] == "extended"
    [tournament] = document["tournaments"]
    assert [entry["dropped_after_round"] for entry in tournament["entries"]] == [
        None, None, None, None, 1]
    guest = next(p["id"] for p in document["players"] if p["name"] == "Oma Grete")
    assert any(guest in night["players"] for night in document["nights"])


def test_the_document_carries_the_library_and_each_own_game_played(everything):
    document = export_household(everything)

    skyjo = next(own for own in document["own_games"] if own["name"] == "Skyjo")
    assert {key: value for key, value in skyjo.items() if key != "created_at"} == {
        "id": skyjo["id"], "name": "Skyjo", "scoring": "fewest_points", "teams": False,
        "end": "target", "end_at": 100, "min_players": 2, "max_players": 8,
        "note": "Columns of three alike are cleared.", "sheet": "rounds", "categories": [],
        "tiebreak": "", "tiebreak_count": "", "pad_moves": "next_player"}
    assert {own["name"] for own in document["own_games"]} == {
        "Skyjo", "Doppelkopf", "Hanabi", "Carcassonne", "Wingspan"}
    league = next(one for one in document["series"] if one["name"] == "Skyjo league")
    assert league["own_game"] == skyjo["id"]
    assert {play["own_game"] for play in document["plays"] if play["game"] == "generic"} == {
        own["id"] for own in document["own_games"]}
    carcassonne = next(own for own in document["own_games"] if own["name"] == "Carcassonne")
    assert carcassonne["tiebreak_count"] == "meeples left"
    tie = next(play for play in document["plays"] if play["own_game"] == carcassonne["id"])
    assert sorted(tie["result"]["tie_counts"].values()) == [2, 5]
    assert {play["own_game"] for play in document["plays"] if play["game"] != "generic"} == {
        None}
    teams = next(play for play in document["plays"] if play["result"].get("teams"))
    assert teams["result"]["winners"] == ["Re"]


def test_an_old_export_moves_any_other_game_into_other_games(everything):
    document = export_household(everything)
    document["version"] = 1
    del document["own_games"]
    for play in document["plays"]:
        del play["own_game"]
    for group in document["series"] + document["tournaments"]:
        del group["own_game"]
    document["series"] = [one for one in document["series"] if one["game"] != "generic"]
    first = next(play for play in document["plays"] if play["game"] == "maus_im_nacken")
    old = [{**first, "id": f"old{number}", "game": "generic", "series": None,
            "tournament": None, "race_number": None, "round_number": None,
            "table_number": None, "house_rules": {"lower_wins": lower}, "cells": [],
            "changes": [], "status": "finished",
            "result": {"scores": {row["player"]: points for row, points in zip(
                first["participants"], (10, 20), strict=True)}}}
           for number, lower in enumerate((False, True, False))]
    document["plays"] = [play for play in document["plays"] if play["game"] != "generic"
                         ] + old

    imported = import_household(document, name="Old")

    library = {own.name: own for own in imported.own_games.all()}
    assert set(library) == {"Other games", "Other games (fewest points)"}
    assert library["Other games (fewest points)"].scoring == "fewest_points"
    plays = Play.objects.filter(household=imported, game="generic").order_by("id")
    assert [play.own_game.name for play in plays] == [
        "Other games", "Other games (fewest points)", "Other games"]
    assert plays[1].house_rules == {"scoring": "fewest_points", "teams": False,
                                    "end": "host", "end_at": 0}
    assert sorted(p.place for p in plays[1].participants.all()) == [1, 2]


@pytest.mark.parametrize(("change", "names"), [
    (lambda d: d["own_games"].append({**d["own_games"][0], "id": "o9",
                                      "name": d["own_games"][0]["name"].upper()}),
     ["Two own games are called “SKYJO”"]),
    (lambda d: d["own_games"][0].update(scoring="cooperative", teams=True),
     ["Own game “Skyjo”"]),
    (lambda d: d["own_games"][0].update(min_players=5, max_players=3),
     ["Own game “Skyjo”", "max_players"]),
    (lambda d: d["own_games"][0].update(name=" "), ["Own game no. 1", "name"]),
    (lambda d: play_of(d, game="generic").update(own_game=None),
     ["Own game of", "own_game"]),
    (lambda d: play_of(d, game="kniffel").update(own_game="o1"), ["Kniffel of", "own_game"]),
    (lambda d: play_of(d, game="generic", series="s2").update(own_game="o2"),
     ["own_game"]),
], ids=["name-twice", "co-op-in-teams", "fewest-above-most", "no-name", "play-without",
        "rules-game-with-one", "race-of-another-own-game"])
def test_an_own_game_the_app_could_not_have_made_is_refused(everything, change, names):
    message = refused(edited(export_household(everything), change))

    for name in names:
        assert name in message


def test_the_document_names_objects_by_its_own_ids_and_holds_no_secrets(everything, host):
    text = json.dumps(export_household(everything))
    document = json.loads(text)

    finished = next(play for play in document["plays"] if play["status"] == "finished"
                    and play["game"] == "maus_im_nacken" and play["night"])
    assert set(finished["result"]["elephants"]) <= {p["id"] for p in document["players"]}
    assert set(finished["changes"][-1]["data"]["points"]) <= {
        p["id"] for p in document["players"]}
    for secret in ("token", "password", '"host":', "email", "created_by", "changed_by"):
        assert secret not in text
    assert everything.players.first().key not in finished["result"]["elephants"]


def test_another_households_data_never_appears(everything, stranger):
    other = stranger.households.get()
    PlayerFactory(household=other, name="Stranger Sam")

    text = json.dumps(export_household(everything), ensure_ascii=False)

    assert "Stranger Sam" not in text
    assert "Sam" not in json.dumps(export_household(everything))


def test_the_export_takes_the_same_queries_however_many_plays(
        household, night, family, django_assert_max_num_queries):
    for _ in range(30):
        play = start_play(household=household, game="maus_im_nacken", players=family[:2],
                          game_night=night)
        record_result(play, {"elephants": {family[0].key: ["home:1"] + ["caught"] * 3,
                                           family[1].key: ["caught"] * 4}},
                      expected_version=1)

    with django_assert_max_num_queries(14):
        document = export_household(household)

    assert len(document["plays"]) == 30


def test_an_import_takes_a_new_name_when_the_old_one_is_taken(everything):
    document = export_household(everything)

    first = import_household(document)
    second = import_household(document)

    assert first.name == "Familie Test (imported)"
    assert second.name == "Familie Test (imported 2)"


def test_points_and_places_come_from_the_rules_not_the_file(everything):
    document = export_household(everything)
    for play in document["plays"]:
        for participant in play["participants"]:
            participant["points"], participant["place"] = 999, 1

    imported = import_household(document, name="Copy")

    finished = Play.objects.filter(household=imported, status="finished").first()
    assert {p.points for p in finished.participants.all()} != {999}
    assert sorted(p.place for p in finished.participants.all()) == [1, 2]


STORED = (Household, Play, Series, Tournament, PlayChange, KniffelCell, KniffelFieldTally,
          HeadToHeadTally)


def refused(document):
    before = [model.objects.count() for model in STORED]
    with pytest.raises(ImportRefused) as error:
        import_household(document)
    assert [model.objects.count() for model in STORED] == before
    return str(error.value)


def edited(document, change):
    document = copy.deepcopy(document)
    change(document)
    return document


def test_an_impossible_result_is_refused_and_changes_nothing(everything):
    document = export_household(everything)

    def cheat(document):
        play = next(play for play in document["plays"] if play["status"] == "finished")
        for rolls in play["result"]["elephants"].values():
            rolls[:] = ["home:1", "home:1", "home:1", "home:1"]

    message = refused(edited(document, cheat))

    assert "the rules refuse this result" in message
    assert "Oma Grete" in message or "Anna" in message


def test_a_kniffel_cell_that_differs_from_the_sheet_is_refused(everything):
    document = export_household(everything)

    def cheat(document):
        kniffel = next(play for play in document["plays"] if play["game"] == "kniffel")
        kniffel["cells"][0]["points"] = 18

    assert "Kniffel sheet does not match" in refused(edited(document, cheat))
    assert KniffelCell.objects.filter(play__household__name="Familie Test (imported)"
                                      ).count() == 0


def test_a_dangling_reference_is_refused(everything):
    document = export_household(everything)

    def dangle(document):
        document["plays"][0]["participants"][0]["player"] = "p999"

    assert "“participants” names \"p999\", which is not in the file" in refused(
        edited(document, dangle))


def test_a_finished_status_the_result_does_not_support_is_refused(everything):
    document = export_household(everything)

    def claim(document):
        next(play for play in document["plays"] if play["status"] == "in_progress"
             )["status"] = "finished"

    assert "status does not match its result" in refused(edited(document, claim))


def test_a_malformed_document_is_refused_with_the_place_named(everything):
    document = export_household(everything)

    def break_it(document):
        document["series"][0]["races_planned"] = "five"

    assert refused(edited(document, break_it)) == (
        "Series “Summer cup”: “races_planned” is missing or not what it should be.")


def test_two_players_of_one_name_are_refused(everything):
    document = export_household(everything)

    def twin(document):
        document["players"][1]["name"] = document["players"][0]["name"]

    assert "contradicts itself" in refused(edited(document, twin))


@pytest.mark.parametrize(("data", "message"), [
    (b"\x89PNG not json", "neither JSON nor XML"),
    (b"[" * 100_000, "neither JSON nor XML"),
    (b'{"format": "something-else", "version": 1}', "not an export of the scorekeeper"),
    (b'{"format": "family-scorekeeper", "version": 3}', "newer version"),
    (b'{"format": "family-scorekeeper", "version": "1"}', "which version"),
    (b"1" * 5000, "neither JSON nor XML"),
    (b" " * (MAX_BYTES + 1), "larger than 20 MB"),
])
def test_files_that_are_not_our_documents_are_refused(data, message):
    with pytest.raises(ImportRefused, match=message):
        read_document(data)


def test_the_refusal_speaks_german(everything, settings):
    from django.utils import translation

    with translation.override("de"), pytest.raises(ImportRefused) as error:
        read_document(b'{"format": "family-scorekeeper", "version": 9}')

    assert "neueren Version" in str(error.value)


# The commands


def test_the_export_command_writes_a_file_and_the_import_command_reads_it(
        everything, tmp_path, capsys):
    path = tmp_path / "family.json"

    call_command("export_household", "Familie Test", "-o", str(path))
    call_command("import_household", str(path), "--name", "Restored")

    restored = Household.objects.get(name="Restored")
    assert "Imported as 'Restored'" in capsys.readouterr().out
    assert without_export_time(export_household(restored))["plays"] == (
        without_export_time(json.loads(path.read_text()))["plays"])


def test_the_export_command_writes_to_standard_output(everything, capsys):
    call_command("export_household", "Familie Test")

    assert json.loads(capsys.readouterr().out)["household"] == {"name": "Familie Test"}


def test_the_export_command_names_a_household_it_does_not_know():
    with pytest.raises(CommandError, match="No household is called 'Nobody'"):
        call_command("export_household", "Nobody")


def test_the_import_command_refuses_a_bad_file_with_its_reason(db, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "family-scorekeeper", "version": 7}')

    with pytest.raises(CommandError, match="newer version"):
        call_command("import_household", str(path))
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_household", str(tmp_path / "missing.json"))
    assert not Household.objects.exists()


JUNK = [None, "", "p1", "x" * 300, -1, 10**12, 2.5, True, [], {}, ["p1", "p1"], {"p1": 1}]


def leaves(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))
    yield path


def test_any_edited_value_is_imported_or_refused_never_an_error(everything):
    """Every value of the document replaced by junk, one at a time, over a hundred times."""
    import random

    document = export_household(everything)
    paths = [path for path in leaves(document) if path]
    chosen = random.Random(13).sample(paths, min(120, len(paths)))
    for number, path in enumerate(chosen):
        broken = copy.deepcopy(document)
        target = broken
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = JUNK[number % len(JUNK)]
        try:
            import_household(broken)
        except ImportRefused:
            pass


# Documents the rules accept play by play, but whose series, tournaments or histories the
# app could never have made: their pages would fail for ever, so the import refuses them.


def play_of(document, **wanted):
    return next(play for play in document["plays"]
                if all(play[key] == value for key, value in wanted.items()))


def local(document, name):
    return next(player["id"] for player in document["players"] if player["name"] == name)


def race_with_carla(document):
    race = play_of(document, series="s1", status="finished")
    anna, carla = local(document, "Anna"), local(document, "Carla")
    race["participants"] = [{**race["participants"][0], "player": anna},
                            {**race["participants"][1], "player": carla}]
    race["result"] = {"elephants": {anna: ["caught"] * 4,
                                    carla: ["home:1", "seat:8", "caught", "caught"]}}


def tournament_without(name):
    def change(document):
        tournament = document["tournaments"][0]
        tournament["entries"] = [entry for entry in tournament["entries"]
                                 if entry["player"] != local(document, name)]
    return change


def final_table_of_strangers(document):
    tournament = document["tournaments"][0]
    tournament["final_table"] = 2
    table = copy.deepcopy(play_of(document, tournament="t1", status="finished"))
    guest = local(document, "Oma Grete")
    tournament["entries"] = [entry for entry in tournament["entries"]
                             if entry["player"] != guest]
    table.update(id="g99", round_number=3, table_number=1, changes=[])
    table["participants"] = [{**table["participants"][0], "player": guest},
                             {**table["participants"][1], "seat": 1}]
    table["participants"] = table["participants"][:2]
    first, second = (row["player"] for row in table["participants"])
    table["result"] = {"elephants": {first: ["home:1", "seat:8", "caught", "caught"],
                                     second: ["caught"] * 4}}
    document["plays"].append(table)


def correction(document):
    return next(play for play in document["plays"]
                if any(change["action"] == "edited" for change in play["changes"]))


def broken_correction(data):
    def change(document):
        correction(document)["changes"][-1]["data"] = data
    return change


def broken_cell_entry(document):
    kniffel = play_of(document, game="kniffel")
    kniffel["changes"][-1]["data"] = {"player": 7, "field": [], "previous": 4}


@pytest.mark.parametrize(("change", "names"), [
    (lambda d: d["series"][0].update(house_rules={"bogus": 3}),
     ["Summer cup", "no house rule called “bogus”"]),
    (lambda d: d["series"][0].update(players=d["series"][0]["players"][:1]),
     ["Summer cup", "is for 2 to 4 players"]),
    (lambda d: d["series"][0].update(tiebreaks=["wins", "wins"]), ["Summer cup"]),
    (race_with_carla, ["Die Maus im Nacken of", "Carla", "Summer cup"]),
    (lambda d: play_of(d, series="s1", status="finished").update(race_number=None),
     ["Die Maus im Nacken of", "race_number"]),
    (lambda d: play_of(d, series="s1", status="finished").update(tournament="t1"),
     ["Die Maus im Nacken of"]),
    (tournament_without("Anna"), ["Die Maus im Nacken of", "Anna", "Party"]),
    (final_table_of_strangers, ["Die Maus im Nacken of", "Oma Grete", "Party"]),
    (lambda d: d["tournaments"][0].update(final_table=9),
     ["Party", "A final table seats 2 to 4 players"]),
    (lambda d: d["tournaments"][0].update(house_rules={"bogus": 1}), ["Party", "bogus"]),
    (lambda d: d["tournaments"][0].update(entries=d["tournaments"][0]["entries"][:1]),
     ["Party", "1 players cannot sit at tables of 2 to 4"]),
    (lambda d: play_of(d, tournament="t1", status="finished").update(round_number=None),
     ["Die Maus im Nacken of", "round_number"]),
    (lambda d: play_of(d, tournament="t1", status="finished").update(round_number=7),
     ["Die Maus im Nacken of", "round_number"]),
    (lambda d: d["tournaments"][0]["entries"][0].update(dropped_after_round=9), ["Party"]),
    (broken_correction({"points": {}, "previous": "nope"}),
     ["Die Maus im Nacken of", "“Result corrected”", "history of changes"]),
    (broken_correction({"points": {}, "previous": {"places": 3, "points": []}}),
     ["Die Maus im Nacken of", "“Result corrected”"]),
    (broken_correction({"points": {"p1": 5}, "places": {}}), ["“Result corrected”"]),
    (broken_cell_entry, ["Kniffel of", "“Cell corrected”"]),
], ids=["series-house-rules", "series-of-one", "series-tiebreak-twice",
        "race-of-a-non-member", "race-without-number", "race-in-a-tournament",
        "round-of-a-non-entrant", "final-table-of-non-entrants", "final-table-too-big",
        "tournament-house-rules", "tournament-of-one", "round-without-number",
        "round-after-the-last", "dropped-after-no-round", "correction-without-previous",
        "correction-previous-malformed", "correction-of-a-stranger", "cell-entry-malformed"])
def test_a_document_the_app_could_not_have_made_is_refused_by_name(everything, night, change,
                                                                   names):
    from django.utils.formats import date_format

    message = refused(edited(export_household(everything), change))

    for name in names:
        assert name in message
    if "of" in names[0]:
        assert date_format(night.date, "DATE_FORMAT") in message
    for key in ("g1", "g2", "p1", "p3", "s1", "t1"):
        assert f"{key}:" not in message and f"{key} " not in message


def test_the_pages_of_an_imported_household_all_answer(client, everything):
    imported = import_household(export_household(everything), name="Copy")

    assert len(page_addresses(imported)) > 30
    assert failing_pages(client, imported) == []


def test_an_imported_household_has_its_statistics_tallies(everything):
    from tracker.looking_back import stats
    from tracker.table import tallies

    def counts(household):
        fields = {(row.player.name, row.game, row.field): (row.cells, row.points, row.scored)
                  for row in KniffelFieldTally.objects.select_related("player")
                  .filter(player__household=household)}
        # Own games are counted under their ids, which differ between the two households.
        meetings = {(row.player.name, row.opponent.name, stats.game_name(row.game)):
                    (row.together, row.ahead, row.behind)
                    for row in HeadToHeadTally.objects.select_related("player", "opponent")
                    .filter(player__household=household)}
        return fields, meetings

    imported = import_household(export_household(everything), name="Copy")

    assert counts(imported) == counts(everything)
    assert counts(imported)[1][("Anna", "Ben", "Die Maus im Nacken")] == (1, 0, 1)
    tallies.rebuild()
    assert counts(imported) == counts(everything)


def test_an_imported_player_page_shows_head_to_head_and_kniffel_averages(
        client, household, night, family, everything):
    from django.urls import reverse

    from tests.factories import UserFactory
    from tests.kniffel_games import finished_kniffel

    finished_kniffel(household, night, family[:2])
    imported = import_household(export_household(household), name="Copy")
    member = UserFactory(username="copy")
    imported.members.add(member)
    client.force_login(member)
    anna = imported.players.get(name="Anna")

    page = client.get(reverse("player_detail", args=[anna.pk])).content.decode()

    assert "No game against anyone else yet." not in page
    assert "Ben" in page[page.index("head-to-head"):][:2000]
    client.force_login(everything.members.get())
    before = client.get(reverse("player_detail",
                                args=[household.players.get(name="Anna").pk])).content.decode()
    assert strip_links(page) == strip_links(before)


def strip_links(page):
    import re

    section = page[page.index("<main"):]
    return re.sub(r'(?:href|hx-get)="[^"]*"|Copy|Familie Test', "", section)


def test_nul_characters_in_names_are_left_out_and_said(everything):
    """A name with a NUL in it (which PostgreSQL cannot store) comes in without it, and the
    report says how many were left out."""
    from tracker.portability.files import read_file
    from tracker.portability.report import lines

    document = export_household(everything)
    document["players"][0]["name"] = "An\x00na-Lena"
    document["series"][0]["name"] = "Winter\x00cup"
    reading = read_file(as_file(document))
    imported = import_household(reading.document, name="Copy")

    assert imported.players.filter(name="Anna-Lena").exists()
    assert imported.series.filter(name="Wintercup").exists()
    assert "2 NUL characters (invisible control characters no name can hold) were left out " \
        "of the file's texts." in lines(reading.notes)


@pytest.mark.parametrize("day", ["2024-02-30", "1999-01-01"])
def test_a_play_on_an_impossible_or_other_day_than_its_night_is_refused(everything, day):
    document = export_household(everything)

    def misdate(document):
        play = next(play for play in document["plays"] if play["night"] is not None)
        play["played_on"] = day

    message = refused(edited(document, misdate))

    assert "played_on" in message or "not on the day of its game night" in message


def wingspan(document):
    return next(own for own in document["own_games"] if own["name"] == "Wingspan")


@pytest.mark.parametrize(("change", "names"), [
    (lambda d: play_of(d, length_minutes=35).update(note="x" * 1001), ["note"]),
    (lambda d: play_of(d, length_minutes=35).update(length_minutes=0), ["length_minutes"]),
    (lambda d: play_of(d, length_minutes=35).update(length_minutes=1441), ["length_minutes"]),
    (lambda d: play_of(d, length_minutes=35).update(length_minutes="35"), ["length_minutes"]),
    (lambda d: d["nights"][0].update(place="x" * 101), ["Game night no. 1", "place"]),
    (lambda d: d["nights"][0].update(place=["Kassel"]), ["place"]),
    (lambda d: wingspan(d).update(sheet="scrolls"), ["Own game “Wingspan”", "sheet"]),
    (lambda d: wingspan(d).update(categories=[{"name": "Birds", "minus": "no"}]),
     ["Own game “Wingspan”", "categories"]),
    (lambda d: wingspan(d).update(categories=[{"name": " Birds", "minus": False}]),
     ["Own game “Wingspan”", "categories"]),
    (lambda d: wingspan(d).update(categories=[]), ["Own game “Wingspan”"]),
    (lambda d: wingspan(d).update(tiebreak="Eggs"), ["Own game “Wingspan”"]),
    (lambda d: wingspan(d).update(pad_moves="sideways"), ["Own game “Wingspan”", "pad_moves"]),
    (lambda d: next(play for play in d["plays"] if "sums" in play["result"])["result"][
        "sums"][0].update(p2="10+21"), ["the sum 10+21 does not give the points stored"]),
], ids=["note-too-long", "no-minutes", "more-than-a-day", "minutes-as-text", "place-too-long",
        "place-not-text", "unknown-sheet", "minus-not-a-flag", "untidy-category",
        "sheet-without-categories", "tiebreak-not-a-category", "unknown-pad-move",
        "sum-that-does-not-add-up"])
def test_a_story_or_sheet_the_app_could_not_have_made_is_refused(everything, change, names):
    message = refused(edited(export_household(everything), change))

    for name in names:
        assert name in message


def test_a_file_from_before_notes_places_and_sheets_comes_in_without_them(everything):
    document = export_household(everything)
    for night in document["nights"]:
        del night["place"]
    for play in document["plays"]:
        del play["note"], play["length_minutes"]
    for own in document["own_games"]:
        if own["name"] != "Wingspan":
            for key in ("sheet", "categories", "tiebreak", "tiebreak_count", "pad_moves"):
                del own[key]

    imported = import_household(document, name="Before")

    assert set(imported.game_nights.values_list("place", flat=True)) == {""}
    assert set(imported.plays.values_list("note", "length_minutes")) == {("", None)}
    skyjo = imported.own_games.get(name="Skyjo")
    assert (skyjo.sheet, skyjo.categories, skyjo.tiebreak, skyjo.pad_moves) == (
        "rounds", [], "", "next_player")
