"""BG Stats files read as a new household, the way a tolerant reader reads another app's file.

A BG Stats export is one JSON object with the lists ``players``, ``games`` and ``plays``
(and ``locations``, ``userInfo``, ``tags``, ``groups``, ``challenges``); it has no ``format``
key, which is how it is told from our own export. Only a file that is not such an object is
refused whole. Everything else comes in object by object: what cannot come in is left out,
what had to change to come in is changed, and :mod:`tracker.portability.report` names every
one of them at once, by kind. :func:`from_bgstats` turns the file into our own export
document, which the import then writes as it writes ours; every play in it is one the rules
engine has scored already, so the import never refuses the file for one play.

What is read, and what it becomes:

``players[]``: ``id`` (what plays name the player by) and ``name`` become a player (the
colours handed out in turn). A player without a name is named by its ``bggUsername``, else
"Player 5" (its place in the file); two players with one name stay two players, the second
told apart by its BGG user name, else numbered ("Lena (2)"). A player without an id of its
own (none, or one another player has) is left out, and its scores with it.

``games[]``: ``id`` and ``name`` (else ``bggName``, else "Game 3") become an own game in the
library, its scoring from ``cooperative`` (co-operative), else ``noPoints`` (win or lose
only), else ``highestWins`` (most points; false: fewest points); teams when ``usesTeams``,
or when a play of it is in teams; ``minPlayerCount`` and ``maxPlayerCount`` where they fit 1
to 20. A game named as one of ours by rules (Kniffel, Yahtzee...) becomes an own game too:
the file holds only final scores, which the rules engine cannot check.

``plays[]``: ``gameRefId`` names the game (a play of a game the file lacks, as BG Stats keeps
the plays of a deleted game, is left out); ``playDate`` ("2024-03-01 19:30:00") gives the day
and the time (a play without one is left out); the plays of one day make one game night. A
play BG Stats leaves out of its statistics (``ignored``) is kept in the history and counted
in no statistics, as there. ``comments`` become the play's note (a last paragraph that our
own BG Stats export wrote for a series race or a tournament table, "▸ Summer cup · race 2",
is not part of it); ``durationMin`` its length, from a minute to a day; ``locationRefId``
one of the file's ``locations[]``, the place of the play's game night (the first play's,
where one day's plays took place in several).

``plays[].playerScores[]``: ``playerRefId`` names the player (a score of a player the file
does not list is left out); ``seatOrder`` gives the seats (the file's order where they are
missing or repeat); ``startPlayer`` who started; ``score`` (a number, or a text holding one;
decimals rounded; anything else, a 400-digit number too, is no score) the final score;
``team`` the team; ``rank`` the order in a game without points; ``winner`` the winners, kept as
recorded even where the scores say otherwise (the engine's ``winners``). Where a player left
out had a place, everyone else keeps the place recorded (the engine's ``places``): nobody
wins what they did not win. A co-operative play is won when any player is a winner; its
score is kept when every player has the same one. A team's score is its members' score,
added up where they differ. A play of a game with points in which nobody has a score is
kept as win or lose only; a play with neither scores, ranks nor a winner as abandoned.

Out as it came in: every player, game and play keeps the object BG Stats wrote
(``elsewhere["bgstats"]``: its ``uuid`` and ``id``, BGG's id, name and year,
``bggUsername``, ``isAnonymous``, ``isExpansion``, a play's ``board``, ``rating``,
``expansionPlays``, roles...), and the household keeps the file's locations, tags, groups,
challenges and ``userInfo``; :mod:`tracker.portability.bgstats_export` writes them back, with
what the family changed here put in. An object whose kept part would pass
``KEEP_LIMIT`` keeps only its ids (named in the report).

:mod:`tracker.portability.bgg` reads BoardGameGeek's play log into the same shape and
through the same reader.
"""

from __future__ import annotations

import json
import uuid
from collections import Counter, defaultdict
from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

import games
from games import InvalidResult, generic
from tracker.common.engine_text import say
from tracker.common.lists import name_list
from tracker.households.models import COLOURS
from tracker.portability import score_rows
from tracker.portability.report import Report
from tracker.portability.score_rows import clean_name, finite, flag
from tracker.table.models import PlayStatus
from tracker.table.story import LONGEST_MINUTES, NOTE_LENGTH, SHORTEST_MINUTES

PLAYER_NAME_LENGTH = 40
GAME_NAME_LENGTH = 60
PLACE_LENGTH = 100
#: What starts the last paragraph of a play's comments in our own BG Stats export when it
#: names the series race or tournament table the play was: BG Stats has neither.
COMPETITION_MARK = "▸ "
#: Exported players, games and plays made here get uuids derived from this and their ids,
#: the same on every export from this server, so BG Stats can tell what it has already.
NAMESPACE = uuid.UUID("6f1d3c2e-5b1a-4c1e-9a57-2d0f8e4b7c61")
#: The most of one object of the file kept for the way back, as JSON: BG Stats writes a
#: play in well under 2,000 characters; more is pictures or another app's data.
KEEP_LIMIT = 16_000
#: What an object keeps when the rest would pass ``KEEP_LIMIT``: what identifies it.
IDENTITY = ("id", "uuid", "gameRefId", "playerRefId", "bggId")
#: The details of BG Stats' objects that the app does not show, in the report's words
#: (BG Stats' own field names, as the family finds them in the file).
HIDDEN_PLAY_DETAILS = ("expansionPlays", "board", "rating", "playImages", "rounds")
HIDDEN_ROW_DETAILS = ("role", "teamRole", "newPlayer")
HIDDEN_GAME_DETAILS = ("bggId", "bggName", "bggYear", "isExpansion", "urlImage")
HIDDEN_PLAYER_DETAILS = ("bggUsername",)
HOUSEHOLD_EXTRAS = ("userInfo", "tags", "groups", "challenges")
#: The most of the file's tags, groups, challenges and ``userInfo`` kept, as JSON: a
#: family's lists are a few kB.
HOUSEHOLD_KEEP_LIMIT = 200_000


def is_bgstats(document: Any) -> bool:
    """Whether ``document`` looks like a BG Stats export rather than ours."""
    return (isinstance(document, dict) and "format" not in document
            and all(isinstance(document.get(key), list)
                    for key in ("players", "games", "plays")))


def from_bgstats(document: Mapping[str, Any], report: Report) -> dict[str, Any]:
    """Our export document for a BG Stats ``document``, what was amiss told to ``report``."""
    return Reader(document, report).run()


def is_ref(value: Any) -> bool:
    """Whether ``value`` can be an id the file's objects are named by."""
    return isinstance(value, int | str) and not isinstance(value, bool)


def rules_game_names() -> dict[str, str]:
    """The names of our games by rules in every language, lower case, to the name shown."""
    names = {}
    for key, rules in games.GAMES.items():
        if key == "generic":
            continue
        for language, _label in settings.LANGUAGES:
            names[rules.name.in_language(language).lower()] = say(rules.name)
    return names


def told_apart(wanted: str, taken: set[str], length: int, *, by: str = "") -> str:
    """``wanted``, or told apart from the names ``taken`` (lower case): by ``by`` (a BGG
    user name) where that is free, else numbered, "Lena (2)"."""
    if wanted.lower() not in taken:
        return wanted
    if by:
        candidate = f"{wanted[:length - len(by) - 3]} ({by})"
        if candidate.lower() not in taken:
            return candidate
    number = 2
    while (candidate := f"{wanted[:length - 5]} ({number})").lower() in taken:
        number += 1
    return candidate


class Reader:
    """Reads one file of another app (``app``: "bgstats", or "bgg" for BoardGameGeek's log
    put into BG Stats' shape by :mod:`tracker.portability.bgg`)."""

    def __init__(self, document: Mapping[str, Any], report: Report, *, app: str = "bgstats"):
        self.document = document
        self.report = report
        self.app = app
        self.hidden: Counter[str] = Counter()
        #: The file's players and games by their id in it, as our document has them.
        self.players: dict[Any, dict[str, Any]] = {}
        self.games: dict[Any, dict[str, Any]] = {}
        #: The file's locations by id: their name, and the object as the file has it.
        self.locations: dict[Any, str] = {}
        self.kept_locations: list[Any] = []
        self.seat_orders: Counter[int] = Counter()
        self.plays_made = 0

    def run(self) -> dict[str, Any]:
        now = timezone.now().isoformat()
        self.read_locations()
        players = self.read_players(now)
        own_games = self.read_games(now)
        plays = [play for index, item in enumerate(self.document["plays"], start=1)
                 if (play := self.read_play(item, index)) is not None]
        for own in own_games:
            own["teams"] = own["teams"] and own["scoring"] != "cooperative"
        nights = self.nights(plays)
        items = [item for play in plays if (item := self.finish(play)) is not None]
        for own in own_games:
            self.keep_definition(own)
        used = {item["night"] for item in items}
        household = {"name": self.household_name(),
                     "elsewhere": {self.app: self.household_kept()}}
        self.report_hidden()
        if own_games:
            self.report.add("no_end_rules", count=len(own_games))
        if items:
            self.report.add("no_competitions", count=len(items))
        return {
            "format": "family-scorekeeper", "version": 2,
            "household": household,
            "players": players, "own_games": own_games,
            "nights": [night for night in nights if night["id"] in used],
            "series": [], "tournaments": [], "plays": items,
        }

    def household_name(self) -> str:
        return _("From BG Stats")

    def household_kept(self) -> dict[str, Any]:
        """What the household keeps of the file: its locations, the lists the app has no
        place for, and the base its seats are counted from."""
        extras = {key: self.document[key] for key in HOUSEHOLD_EXTRAS if key in self.document}
        if len(json.dumps(extras, ensure_ascii=False)) > HOUSEHOLD_KEEP_LIMIT:
            self.report.add("too_large", ", ".join(extras))
            extras = {}
        if any(extras.get(key) for key in HOUSEHOLD_EXTRAS if key != "userInfo"):
            self.hidden["tags, groups, challenges"] += 1
        return {"locations": self.kept_locations, "extras": extras,
                "seat_base": min(self.seat_orders) if self.seat_orders else 0}

    # What is kept for the way back

    def keep(self, raw: Mapping[str, Any], where: str) -> dict[str, Any]:
        """``raw`` as the file has it, to be written back; only what identifies it when the
        whole would pass ``KEEP_LIMIT``."""
        if len(json.dumps(raw, ensure_ascii=False)) <= KEEP_LIMIT:
            return dict(raw)
        self.report.add("too_large", where)
        return {key: raw[key] for key in IDENTITY if key in raw}

    def count_hidden(self, raw: Mapping[str, Any], keys: tuple[str, ...]) -> None:
        for key in keys:
            value = raw.get(key)
            if value not in (None, "", 0, False, [], "[]", {}):
                self.hidden[key] += 1

    def report_hidden(self) -> None:
        kinds = [f"{key} ({count})" for key, count in self.hidden.most_common()]
        if kinds:
            self.report.add("hidden", count=len(kinds))
            for example in kinds:
                self.report.examples["hidden"].append(example)

    # The parts

    def read_locations(self) -> None:
        """The file's locations by id, as places; an unreadable one is left out."""
        locations = self.document.get("locations")
        for index, item in enumerate(locations if isinstance(locations, list) else [],
                                     start=1):
            ref = item.get("id") if isinstance(item, dict) else None
            name = clean_name(item.get("name"), PLACE_LENGTH) if isinstance(item, dict) else ""
            if not is_ref(ref) or ref in self.locations or not name:
                self.report.add("location_unreadable",
                                _("Location no. %(number)s") % {"number": index})
                continue
            self.locations[ref] = name
            self.kept_locations.append(self.keep(item, name))

    def read_players(self, now: str) -> list[dict[str, Any]]:
        players: list[dict[str, Any]] = []
        names: set[str] = set()
        for index, item in enumerate(self.document["players"], start=1):
            number = _("Player no. %(number)s") % {"number": index}
            ref = item.get("id") if isinstance(item, dict) else None
            if not is_ref(ref) or ref in self.players:
                self.report.add("player_unreadable", number if not isinstance(item, dict)
                                else f"{number}: {str(item.get('name'))[:40]}")
                continue
            username = clean_name(item.get("bggUsername"), PLAYER_NAME_LENGTH)
            wanted = clean_name(item.get("name"), PLAYER_NAME_LENGTH)
            if not wanted:
                wanted = username or pgettext("the name of a player who has none",
                                              "Player %(number)s") % {"number": index}
                self.report.add("player_without_name", f"{number} → {wanted}")
            name = told_apart(wanted, names, PLAYER_NAME_LENGTH, by=username)
            if name != wanted:
                self.report.add("player_same_name", f"{wanted} → {name}")
            names.add(name.lower())
            if flag(item.get("isAnonymous")) is True:
                self.report.add("anonymous", name)
            self.count_hidden(item, HIDDEN_PLAYER_DETAILS)
            local = {"id": f"p{len(players) + 1}", "name": name,
                     "colour": COLOURS[len(players) % len(COLOURS)][0], "created_at": now,
                     "elsewhere": {self.app: {"player": self.keep(item, name),
                                              "named": name}}}
            self.players[ref] = local
            players.append(local)
        return players

    def read_games(self, now: str) -> list[dict[str, Any]]:
        own_games: list[dict[str, Any]] = []
        names: set[str] = set()
        ours = rules_game_names()
        for index, item in enumerate(self.document["games"], start=1):
            number = _("Game no. %(number)s") % {"number": index}
            ref = item.get("id") if isinstance(item, dict) else None
            if not is_ref(ref) or ref in self.games:
                self.report.add("game_unreadable", number if not isinstance(item, dict)
                                else f"{number}: {str(item.get('name'))[:60]}")
                continue
            wanted = (clean_name(item.get("name"), GAME_NAME_LENGTH)
                      or clean_name(item.get("bggName"), GAME_NAME_LENGTH))
            if not wanted:
                wanted = pgettext("the name of a game that has none", "Game %(number)s") % {
                    "number": index}
            if wanted != clean_name(item.get("name"), GAME_NAME_LENGTH):
                self.report.add("game_without_name", f"{number} → {wanted}")
            name = told_apart(wanted, names, GAME_NAME_LENGTH)
            if name != wanted:
                self.report.add("game_same_name", f"{wanted} → {name}")
            names.add(name.lower())
            if wanted.lower() in ours:
                self.report.add("rules_game_as_own", wanted)
            self.count_hidden(item, HIDDEN_GAME_DETAILS)
            if flag(item.get("cooperative")):
                scoring = "cooperative"
            elif flag(item.get("noPoints")):
                scoring = "places"
            elif item.get("highestWins") is not None and flag(item.get("highestWins")) is False:
                scoring = "fewest_points"
            else:
                scoring = "most_points"
            low, high = item.get("minPlayerCount"), item.get("maxPlayerCount")
            fits = all(type(count) is int and 1 <= count <= 20 for count in (low, high))
            own = {"id": f"o{len(own_games) + 1}", "name": name, "scoring": scoring,
                   "teams": bool(flag(item.get("usesTeams"))), "end": "host", "end_at": 0,
                   "min_players": low if fits and low <= high else None,
                   "max_players": high if fits and low <= high else None,
                   "note": "", "created_at": now,
                   "elsewhere": {self.app: {"game": self.keep(item, name)}}}
            self.games[ref] = own
            own_games.append(own)
        return own_games

    def keep_definition(self, own: dict[str, Any]) -> None:
        """What the game was as it came in, to tell on the way back what the family changed."""
        own["elsewhere"][self.app]["as_imported"] = {
            key: own[key] for key in ("name", "scoring", "teams", "min_players",
                                      "max_players")}

    def read_play(self, item: Any, index: int) -> dict[str, Any] | None:
        """The play ``item`` (the ``index``-th of the file) as read; None for a play that
        cannot come in, named in the report."""
        number = _("Play no. %(number)s") % {"number": index}
        if not isinstance(item, dict):
            self.report.add("play_unreadable", number)
            return None
        ref = item.get("gameRefId")
        own = self.games.get(ref) if is_ref(ref) else None
        moment = parse_moment(item.get("playDate"))
        rows = item.get("playerScores")
        rows = [row for row in rows if isinstance(row, dict)] if isinstance(rows, list) else []
        if own is None:
            self.report.add("play_without_game", self.identified(item, rows, moment, number))
            return None
        if moment is None:
            self.report.add("play_without_date", _("%(where)s (%(game)s): “%(value)s”") % {
                "where": number, "game": own["name"],
                "value": str(item.get("playDate"))[:30]})
            return None
        where = _("%(game)s of %(date)s") % {"game": own["name"],
                                             "date": date_format(moment.date(), "DATE_FORMAT")}
        seats = [row.get("seatOrder") for row in rows]
        if seats and all(type(seat) is int and seat >= 0 for seat in seats) and len(
                set(seats)) == len(seats):
            rows = sorted(rows, key=lambda row: row["seatOrder"])
            self.seat_orders[min(seats)] += 1
        teams = bool(flag(item.get("usesTeams"))) or any(
            isinstance(row.get("team"), str) and row["team"].strip() for row in rows)
        if teams:
            own["teams"] = True
        players, left_out, seen = [], [], set()
        for row in rows:
            player_ref = row.get("playerRefId")
            player = self.players.get(player_ref) if is_ref(player_ref) else None
            if player is None:
                self.report.add("player_unknown", _("%(where)s: player %(player)s") % {
                    "where": where, "player": str(player_ref)[:20]})
                left_out.append({"player": {"id": f"left-{len(left_out) + 1}",
                                            "name": str(player_ref)[:20]},
                                 "row": row, "score": self.score(row.get("score"), where,
                                                                 str(player_ref)[:20])})
                continue
            if player["id"] in seen:
                self.report.add("player_twice", f"{where}: {player['name']}")
                continue
            seen.add(player["id"])
            players.append({"player": player, "row": row,
                            "score": self.score(row.get("score"), where, player["name"])})
        if not players:
            self.report.add("play_without_players", where)
            return None
        self.count_hidden(item, HIDDEN_PLAY_DETAILS)
        for entry in players:
            self.count_hidden(entry["row"], HIDDEN_ROW_DETAILS)
        start = next((seat for seat, entry in enumerate(players)
                      if flag(entry["row"].get("startPlayer"))), 0)
        if flag(item.get("ignored")) is True:
            self.report.add("ignored", where)
        return {"raw": item, "own": own, "moment": moment, "where": where,
                "players": players, "left_out": left_out, "teams": teams, "start": start,
                "ignored": flag(item.get("ignored")) is True,
                "incomplete": flag(item.get("incomplete")) is True, **self.story(item, where)}

    def identified(self, item: Mapping[str, Any], rows: list[dict[str, Any]],
                   moment: datetime | None, number: str) -> str:
        """A play left out named as the family finds it: its date, the game it names, and
        its players."""
        day = date_format(moment.date(), "DATE_FORMAT") if moment else number
        who = name_list(self.players[ref]["name"] if is_ref(ref) and ref in self.players
                        else str(ref)[:20] for ref in (row.get("playerRefId") for row in rows))
        return _("%(date)s, game %(game)s: %(players)s") % {
            "date": day, "game": str(item.get("gameRefId"))[:20], "players": who or "–"}

    def story(self, item: Mapping[str, Any], where: str) -> dict[str, Any]:
        """A play's note, length and place from its comments, ``durationMin`` and location."""
        comments = item.get("comments")
        note, competition = split_comments(comments if isinstance(comments, str) else "")
        if competition:
            self.report.add("competition", f"{where}: {competition}")
        if len(note) > NOTE_LENGTH:
            self.report.add("note_cut", where)
            note = note[:NOTE_LENGTH]
        minutes = item.get("durationMin")
        length = finite(minutes, LONGEST_MINUTES + 1)
        length = round(length) if length is not None else None
        if minutes not in (None, 0, "") and not (
                length and SHORTEST_MINUTES <= length <= LONGEST_MINUTES):
            self.report.add("length_odd", f"{where}: {str(minutes)[:20]}")
            length = None
        ref = item.get("locationRefId")
        place = self.locations.get(ref, "") if is_ref(ref) else ""
        if ref not in (None, 0, "") and not place:
            self.report.add("location_unknown", where)
        return {"note": note, "length": length or None, "place": place}

    def finish(self, play: dict[str, Any]) -> dict[str, Any] | None:
        """The play's entry in our document, once its own game's definition is known,
        scored by the rules engine; None (named) where the engine refuses it."""
        own = play["own"]
        house_rules = {"scoring": own["scoring"], "teams": own["teams"], "end": own["end"],
                       "end_at": own["end_at"]}
        result, house_rules = self.result(play, play["players"], house_rules, counting=True)
        ids = [entry["player"]["id"] for entry in play["players"]]
        outcome = self.scored(play, ids, result, house_rules)
        if outcome is False:
            return None
        if result is not None and play["left_out"] and outcome is not None:
            recorded = self.recorded_places(play, house_rules)
            if recorded and recorded != outcome.places:
                result["places"] = score_rows.side_places(result, recorded, ids)
                outcome = self.scored(play, ids, result, house_rules)
                if outcome is False:
                    return None
                self.report.add("places_kept", self.places_example(play, recorded))
        status = (PlayStatus.ABANDONED if result is None or play["incomplete"]
                  else PlayStatus.FINISHED)
        if play["incomplete"]:
            self.report.add("incomplete", play["where"])
        item = {
            "id": f"g{self.plays_made + 1}", "game": "generic", "own_game": own["id"],
            "night": play["night"], "series": None, "race_number": None,
            "tournament": None, "round_number": None, "table_number": None,
            "played_on": play["moment"].date().isoformat(), "house_rules": house_rules,
            "result": result or {}, "status": status,
            "start_seat": play["start"], "created_at": play["moment"].isoformat(),
            "in_statistics": not play["ignored"],
            "participants": [{"player": player_id, "seat": seat}
                             for seat, player_id in enumerate(ids)],
            "note": play["note"], "length_minutes": play["length"],
            "cells": [], "changes": [],
        }
        self.plays_made += 1
        item["elsewhere"] = {self.app: self.play_kept(play, item, outcome)}
        return item

    def play_kept(self, play: dict[str, Any], item: dict[str, Any], outcome: Any
                  ) -> dict[str, Any]:
        """The play as the file has it, and what it was as it came in: on the way back, what
        the family did not change goes out as it came."""
        points = outcome.points if outcome else {}
        places = outcome.places if outcome else {}
        return {"play": self.keep(play["raw"], play["where"]), "as_imported": {
            "day": item["played_on"], "note": item["note"], "length": item["length_minutes"],
            "place": play["night_place"], "in_statistics": item["in_statistics"],
            "status": item["status"], "start": item["start_seat"],
            "seats": [[entry["row"].get("playerRefId"), points.get(entry["player"]["id"]),
                       places.get(entry["player"]["id"])] for entry in play["players"]]}}

    def result(self, play: dict[str, Any], entries: list[dict[str, Any]],
               house_rules: dict[str, Any], *, counting: bool
               ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """The result of ``entries`` (the play's players, or with those left out), and the
        house rules it is scored by; the report told only while ``counting``."""
        names = {entry["player"]["id"]: entry["player"]["name"] for entry in entries}
        return score_rows.result_of(entries, house_rules, named_teams=play["teams"],
                                    where=play["where"], names=names,
                                    report=self.report if counting else Report())

    def scored(self, play: dict[str, Any], ids: list[str], result: dict[str, Any] | None,
               house_rules: dict[str, Any]) -> Any:
        """The engine's outcome of ``result`` (None without a result); False, named in the
        report, where the rules refuse the play."""
        rules = games.get("generic")
        problems = rules.validate_setup(ids, house_rules)
        if not problems and result is not None:
            try:
                return rules.score({**result, "players": ids, "house_rules": house_rules})
            except InvalidResult as error:
                problems = error.problems
        if problems:
            names = {entry["player"]["id"]: entry["player"]["name"]
                     for entry in play["players"]}
            said = " ".join(say(problem, names) for problem in problems)
            self.report.add("play_refused", f"{play['where']}: {said}")
            return False
        return None

    def recorded_places(self, play: dict[str, Any], house_rules: dict[str, Any]
                        ) -> dict[str, int]:
        """The places the file recorded for the players who came in, measured against
        everyone it lists, the players left out too; empty where that cannot be told."""
        everyone = play["players"] + play["left_out"]
        result, rules = self.result(play, everyone, house_rules, counting=False)
        if result is None or rules["scoring"] != house_rules["scoring"]:
            return {}
        ids = [entry["player"]["id"] for entry in everyone]
        try:
            outcome = games.get("generic").score({**result, "players": ids,
                                                  "house_rules": rules})
        except InvalidResult:
            return {}
        return {entry["player"]["id"]: outcome.places[entry["player"]["id"]]
                for entry in play["players"]}

    def places_example(self, play: dict[str, Any], recorded: dict[str, int]) -> str:
        names = {entry["player"]["id"]: entry["player"]["name"] for entry in play["players"]}
        if 1 not in recorded.values():
            return _("%(where)s: the winner is not in the file; nobody won, %(player)s is "
                     "placed %(place)s.") % {
                "where": play["where"], "player": names[min(recorded, key=recorded.get)],
                "place": min(recorded.values())}
        return _("%(where)s: the places recorded stand.") % {"where": play["where"]}

    def nights(self, plays: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """One game night per day, with everyone who played that day, at the place of its
        first play with a location."""
        days: dict[date, list[dict[str, Any]]] = defaultdict(list)
        for play in plays:
            days[play["moment"].date()].append(play)
        nights = []
        for number, (day, its_plays) in enumerate(sorted(days.items()), start=1):
            present: dict[str, None] = {}
            place = self.place_of(day, its_plays)
            for play in its_plays:
                play["night"], play["night_place"] = f"n{number}", place
                present.update((entry["player"]["id"], None) for entry in play["players"])
            nights.append({"id": f"n{number}", "date": day.isoformat(), "notes": "",
                           "place": place, "players": list(present),
                           "created_at": min(play["moment"] for play in its_plays).isoformat()})
        return nights

    def place_of(self, day: date, plays: list[dict[str, Any]]) -> str:
        """The place of the night of ``day``: the location of its first play with one; the
        others are named in the report."""
        places = list(dict.fromkeys(play["place"] for play in sorted(
            plays, key=lambda play: play["moment"]) if play["place"]))
        if len(places) > 1:
            self.report.add("night_places", _("%(date)s: %(places)s") % {
                "date": date_format(day, "DATE_FORMAT"), "places": name_list(places)})
        return places[0] if places else ""

    # Values

    def score(self, value: Any, where: str, player: str) -> int | None:
        """A score as a whole number; None when there is none, or it is no number the app
        can keep (named)."""
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        number = finite(value, generic.SCORE_LIMIT)
        if number is None:
            self.report.add("score_unreadable", _("%(where)s: %(player)s, “%(value)s”") % {
                "where": where, "player": player, "value": str(value)[:20]})
            return None
        if number != int(number):
            self.report.add("decimals", f"{where}: {player}, {str(value)[:20]}")
        return round(number)


def split_comments(comments: str) -> tuple[str, str]:
    """A play's comments as its note and the series race or tournament table our own BG
    Stats export named in their last paragraph (see :data:`COMPETITION_MARK`), if it did."""
    note, _break, last = comments.rpartition("\n\n")
    if last.startswith(COMPETITION_MARK) and "\n" not in last:
        return note, last.removeprefix(COMPETITION_MARK)
    return comments, ""


def parse_moment(value: Any) -> datetime | None:
    """BG Stats' "2024-03-01 19:30:00" (or a date alone) as an aware moment."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    try:
        moment = parse_datetime(text if len(text) > 10 else f"{text} 00:00:00")
    except ValueError:
        return None
    if moment is None:
        return None
    try:
        return moment if timezone.is_aware(moment) else timezone.make_aware(moment)
    except (ValueError, OverflowError):
        return None
