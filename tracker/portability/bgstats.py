"""BG Stats files: read as a new household, and a household written in BG Stats' format.

A BG Stats export is one JSON object with the lists ``players``, ``games`` and ``plays``
(and ``locations``, ``userInfo``, ``tags``, ``groups``, ``challenges`` that we do not keep);
it has no ``format`` key, which is how it is told from our own export. :func:`from_bgstats`
turns it into our own export document, so the import checks it as it checks ours and is
all or nothing; what the file holds that the app cannot show is counted and reported.

What is read, and what it becomes:

``players[]``: ``id`` (what plays name the player by) and ``name`` become a player (the
colours are handed out in turn). ``isAnonymous`` players are players like the others.

``games[]``: ``id`` and ``name`` become an own game in the library, its scoring from
``cooperative`` (co-operative), else ``noPoints`` (win or lose only), else ``highestWins``
(most points; false: fewest points); teams when ``usesTeams``, or when a play of it is in
teams; ``minPlayerCount`` and ``maxPlayerCount`` where they fit 1 to 20. A game named as
one of ours by rules (Kniffel, Yahtzee, Mensch ärgere Dich nicht…) becomes an own game
too: the file holds only final scores, which the rules engine cannot check, and the
report says so.

``plays[]``: ``gameRefId`` names the game; a play BG Stats leaves out of its statistics
(``ignored``) is kept in the history and counted in no statistics, as there;
``playDate`` ("2024-03-01 19:30:00") gives the day and the time; the plays of one day make
one game night. ``usesTeams`` says that the ``team`` of each player score counts.

``plays[].comments`` become the play's note (a comment longer than a note is cut, and
reported); a last paragraph that our own BG Stats export wrote for a series race or a
tournament table ("▸ Summer cup · race 2") is not part of the note, and the report counts
such plays. ``durationMin`` becomes its length, where it lies between a minute and a day
(reported otherwise; 0 is no length). ``locationRefId`` names one of the file's
``locations[]`` (``id``, ``name``), which becomes the place of the play's game night; where
the plays of one day took place in different locations, the night takes the first play's,
and the report names the others.

``plays[].playerScores[]``: ``playerRefId`` names the player; ``seatOrder`` gives the seats
(the file's order where the seat orders are missing or repeat); ``startPlayer`` who started;
``score`` (a number, or a text holding one; decimals are rounded and reported) the final
score; ``team`` the team; ``rank`` the order in a game without points; ``winner`` the
winners, kept as recorded even where the scores say otherwise (the engine's ``winners``).
A co-operative play is won when any player is a winner; its score is kept when every
player has the same one. A team's score is its members' score, added up where they differ
(reported). A play of a game with points in which nobody has a score is kept as win or
lose only; a play with neither scores, ranks nor a winner as abandoned (both reported).

Counted and reported, not kept: expansions, roles and factions (``role``, ``teamRole``),
boards, ratings, pictures, rounds, first plays (``newPlayer``), details from BoardGameGeek,
and the file's tags, groups and challenges.

A play with something odd about it never refuses the file; the report names it (game and
date) with what became of it. A player without a score in a play of a game with points,
or with a score that is not a number, is placed after the players with a score (first where
recorded as a winner); a player not in the file, or listed twice, is left out of that play
(the first listing kept); a play without a readable date or without players is not imported.

Refused whole only what makes the file unreadable: a file that is not a BG Stats export,
a play of a game that is not in the file, and whatever our import refuses.

:func:`tracker.portability.bgstats_export.to_bgstats` writes a household the other way.
"""

from __future__ import annotations

import math
import uuid
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import games
from games import generic
from tracker.common.engine_text import say
from tracker.common.lists import name_list
from tracker.households.models import COLOURS, tidy_name
from tracker.portability.document import ImportRefused
from tracker.table.models import PlayStatus
from tracker.table.story import LONGEST_MINUTES, NOTE_LENGTH, SHORTEST_MINUTES

PLAYER_NAME_LENGTH = 40
GAME_NAME_LENGTH = 60
PLACE_LENGTH = 100
#: What starts the last paragraph of a play's comments in our own BG Stats export when it
#: names the series race or tournament table the play was: BG Stats has neither.
COMPETITION_MARK = "▸ "
#: Exported players, games and plays get uuids derived from this and their ids, the same
#: on every export from this server, so BG Stats can tell what it has already imported.
NAMESPACE = uuid.UUID("6f1d3c2e-5b1a-4c1e-9a57-2d0f8e4b7c61")


def is_bgstats(document: Any) -> bool:
    """Whether ``document`` looks like a BG Stats export rather than ours."""
    return (isinstance(document, dict) and "format" not in document
            and all(isinstance(document.get(key), list)
                    for key in ("players", "games", "plays")))


@dataclass
class Converted:
    """Our own export document made from a BG Stats file, and what the file held that the
    app does not keep."""

    document: dict[str, Any]
    notes: list[str] = field(default_factory=list)


def from_bgstats(document: Mapping[str, Any]) -> Converted:
    """Our export document for a BG Stats ``document``; ImportRefused when it is damaged."""
    return Reader(document).run()


def refused(message: str) -> Exception:
    return ImportRefused(message)


def flag(value: Any) -> bool | None:
    """BG Stats writes its yes and no as true/false or 1/0; None for anything else."""
    if value in (True, 1):
        return True
    if value in (False, 0, None):
        return False
    return None


def rules_game_names() -> dict[str, str]:
    """The names of our games by rules in every language, lower case, to the name shown."""
    names = {}
    for key, rules in games.GAMES.items():
        if key == "generic":
            continue
        for language, _label in settings.LANGUAGES:
            names[rules.name.in_language(language).lower()] = say(rules.name)
    return names


@dataclass
class Side:
    name: str
    members: list[str]
    scores: list[int | None]
    winner: bool
    ranks: list[int]


class Reader:
    def __init__(self, document: Mapping[str, Any]):
        self.document = document
        self.counts: Counter[str] = Counter()
        self.notes: list[str] = []
        #: The plays, and players in plays, the file has something odd about, each named
        #: with what became of it: a file of years is never refused for one line.
        self.named: list[str] = []
        self.players: dict[Any, dict[str, Any]] = {}
        self.games: dict[Any, dict[str, Any]] = {}
        self.locations = self.read_locations()

    def run(self) -> Converted:
        now = timezone.now().isoformat()
        players = self.read_players(now)
        own_games = self.read_games(now)
        plays = [play for index, item in enumerate(self.document["plays"], start=1)
                 if (play := self.read_play(item, index)) is not None]
        for own in own_games:
            own["teams"] = own["teams"] and own["scoring"] != "cooperative"
        nights = self.nights(plays)
        for play in plays:
            self.finish(play)
        extras = [key for key in ("tags", "groups", "challenges")
                  if self.document.get(key)]
        if extras:
            self.counts["extras"] += 1
        document = {
            "format": "family-scorekeeper", "version": 2,
            "household": {"name": _("From BG Stats")},
            "players": players, "own_games": own_games, "nights": nights,
            "series": [], "tournaments": [],
            "plays": [play["item"] for play in plays],
        }
        return Converted(document, self.notes + self.counted() + self.not_in_bgstats()
                         + self.named)

    # The parts

    def read_locations(self) -> dict[Any, str]:
        """The file's locations by id, as places: a location without a readable id or name
        is no place."""
        locations = self.document.get("locations")
        return {item["id"]: name for item in (locations if isinstance(locations, list) else [])
                if isinstance(item, dict) and isinstance(item.get("id"), int | str)
                and not isinstance(item.get("id"), bool)
                and (name := self.name(item.get("name"), PLACE_LENGTH))}

    def story(self, item: Mapping[str, Any], where: str) -> dict[str, Any]:
        """A play's note, length and place from its comments, ``durationMin`` and location."""
        comments = item.get("comments")
        note, competition = split_comments(comments if isinstance(comments, str) else "")
        self.counts["competition"] += bool(competition)
        if len(note) > NOTE_LENGTH:
            self.named.append(_("%(where)s: the comment is longer than %(limit)s characters; "
                                "its first %(limit)s are kept as the note.")
                              % {"where": where, "limit": NOTE_LENGTH})
            note = note[:NOTE_LENGTH]
        minutes = item.get("durationMin")
        length = (round(minutes) if isinstance(minutes, int | float)
                  and not isinstance(minutes, bool) and math.isfinite(minutes) else None)
        if minutes not in (None, 0, "") and not (
                length and SHORTEST_MINUTES <= length <= LONGEST_MINUTES):
            self.named.append(_("%(where)s: the length %(value)s is not kept: a play takes a "
                                "minute to a day (%(limit)s minutes).")
                              % {"where": where, "value": str(minutes)[:20],
                                 "limit": LONGEST_MINUTES})
            length = None
        ref = item.get("locationRefId")
        place = self.locations.get(ref, "") if isinstance(ref, int | str) else ""
        if ref not in (None, 0, "") and not place:
            self.named.append(_("%(where)s: its location is not in the file; it is not kept.")
                              % {"where": where})
        return {"note": note, "length": length or None, "place": place}

    def read_players(self, now: str) -> list[dict[str, Any]]:
        players, names = [], set()
        for index, item in enumerate(self.document["players"], start=1):
            if not isinstance(item, dict):
                raise refused(_("Player no. %(number)s is unreadable.") % {"number": index})
            name = self.name(item.get("name"), PLAYER_NAME_LENGTH)
            if not name:
                raise refused(_("Player no. %(number)s has no name.") % {"number": index})
            if name.lower() in names:
                raise refused(_("Two players are called %(name)s.") % {"name": name})
            ref = item.get("id")
            if not isinstance(ref, int | str) or isinstance(ref, bool) or ref in self.players:
                raise refused(_("%(player)s has no id of its own in the file.")
                              % {"player": name})
            names.add(name.lower())
            self.counts["anonymous"] += flag(item.get("isAnonymous")) is True
            local = {"id": f"p{index}", "name": name,
                     "colour": COLOURS[(index - 1) % len(COLOURS)][0], "created_at": now}
            self.players[ref] = local
            players.append(local)
        return players

    def read_games(self, now: str) -> list[dict[str, Any]]:
        own_games, names, ours = [], set(), rules_game_names()
        for index, item in enumerate(self.document["games"], start=1):
            if not isinstance(item, dict):
                raise refused(_("Game no. %(number)s is unreadable.") % {"number": index})
            name = self.name(item.get("name"), GAME_NAME_LENGTH)
            if not name:
                raise refused(_("Game no. %(number)s has no name.") % {"number": index})
            ref = item.get("id")
            if not isinstance(ref, int | str) or isinstance(ref, bool) or ref in self.games:
                raise refused(_("The game %(game)s has no id of its own in the file.")
                              % {"game": name})
            wanted, number = name, 1
            while name.lower() in names:
                number += 1
                name = f"{wanted[:GAME_NAME_LENGTH - 5]} ({number})"
            if name != wanted:
                self.notes.append(_("Two games are called %(game)s: the second is kept as "
                                    "%(name)s.") % {"game": wanted, "name": name})
            names.add(name.lower())
            if wanted.lower() in ours:
                self.notes.append(_("%(game)s is kept as an own game: the file holds only "
                                    "final scores, which the rules of %(ours)s cannot check.")
                                  % {"game": wanted, "ours": ours[wanted.lower()]})
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
            self.counts["bgg"] += bool(item.get("bggId"))
            own = {"id": f"o{index}", "name": name, "scoring": scoring,
                   "teams": bool(flag(item.get("usesTeams"))), "end": "host", "end_at": 0,
                   "min_players": low if fits and low <= high else None,
                   "max_players": high if fits and low <= high else None,
                   "note": "", "created_at": now}
            self.games[ref] = own
            own_games.append(own)
        return own_games

    def read_play(self, item: Any, index: int) -> dict[str, Any] | None:
        """The play ``item`` (the ``index``-th of the file) as read; None for a play that
        cannot come in (no date, no players), named in the report."""
        fallback = _("Play no. %(number)s") % {"number": index}
        if not isinstance(item, dict):
            self.named.append(_("%(where)s is unreadable: it is not imported.")
                              % {"where": fallback})
            return None
        ref = item.get("gameRefId")
        own = self.games.get(ref) if isinstance(ref, int | str) else None
        moment = parse_moment(item.get("playDate"))
        if own is None:
            raise refused(_("%(where)s: its game is not in the file.") % {"where": fallback})
        if moment is None:
            self.named.append(_("%(where)s (%(game)s): the date %(value)s cannot be read; "
                                "the play is not imported.")
                              % {"where": fallback, "game": own["name"],
                                 "value": str(item.get("playDate"))[:30]})
            return None
        where = _("%(game)s of %(date)s") % {"game": own["name"],
                                             "date": date_format(moment.date(), "DATE_FORMAT")}
        rows = item.get("playerScores")
        rows = [row for row in rows if isinstance(row, dict)] if isinstance(rows, list) else []
        if not rows:
            self.named.append(_("%(where)s has no players: it is not imported.")
                              % {"where": where})
            return None
        seats = [row.get("seatOrder") for row in rows]
        if all(type(seat) is int and seat > 0 for seat in seats) and len(set(seats)) == len(
                seats):
            rows = sorted(rows, key=lambda row: row["seatOrder"])
        teams = bool(flag(item.get("usesTeams"))) or any(
            isinstance(row.get("team"), str) and row["team"].strip() for row in rows)
        if teams:
            own["teams"] = True
        players, seen = [], set()
        for row in rows:
            player_ref = row.get("playerRefId")
            player = self.players.get(player_ref) if isinstance(player_ref, int | str) else None
            if player is None:
                self.named.append(_("%(where)s: the player %(player)s is not in the file; the "
                                    "play comes in without them.")
                                  % {"where": where, "player": str(player_ref)[:20]})
                continue
            if player["id"] in seen:
                self.named.append(_("%(where)s: %(player)s is listed twice; the first "
                                    "listing is kept.")
                                  % {"where": where, "player": player["name"]})
                continue
            seen.add(player["id"])
            players.append({"player": player, "row": row,
                            "score": self.score(row.get("score"), where, player["name"])})
        if not players:
            self.named.append(_("%(where)s has no players: it is not imported.")
                              % {"where": where})
            return None
        rows = [entry["row"] for entry in players]
        self.count_extras(item, rows)
        start = next((seat for seat, row in enumerate(rows)
                      if flag(row.get("startPlayer"))), 0)
        return {"own": own, "moment": moment, "where": where, "players": players,
                "teams": teams, "start": start, "index": index,
                "ignored": flag(item.get("ignored")) is True, **self.story(item, where)}

    def finish(self, play: dict[str, Any]) -> None:
        """The play's entry in our document, once its own game's definition is known."""
        own = play["own"]
        house_rules = {"scoring": own["scoring"], "teams": own["teams"], "end": own["end"],
                       "end_at": own["end_at"]}
        sides = self.sides(play, own["teams"])
        result: dict[str, Any] | None
        scoring = own["scoring"]
        if scoring == "cooperative":
            result = self.cooperative(sides)
        elif scoring == "places":
            result = self.places(sides)
        else:
            result = self.points(sides, scoring, play["where"])
            if result is None:
                house_rules["scoring"] = "places"
                result = self.places(sides)
                if result is not None:
                    self.counts["no_scores"] += 1
        if result is None:
            self.counts["unscorable"] += 1
        if own["teams"]:
            if result is not None:
                result["teams"] = {side.name: side.members for side in sides}
        play["item"] = {
            "id": f"g{play['index']}", "game": "generic", "own_game": own["id"],
            "night": play["night"], "series": None, "race_number": None,
            "tournament": None, "round_number": None, "table_number": None,
            "played_on": play["moment"].date().isoformat(), "house_rules": house_rules,
            "result": result or {},
            "status": PlayStatus.FINISHED if result is not None else PlayStatus.ABANDONED,
            "start_seat": play["start"], "created_at": play["moment"].isoformat(),
            "in_statistics": not play["ignored"],
            "participants": [{"player": entry["player"]["id"], "seat": seat}
                             for seat, entry in enumerate(play["players"])],
            "note": play["note"], "length_minutes": play["length"],
            "cells": [], "changes": [],
        }

    def sides(self, play: dict[str, Any], teams: bool) -> list[Side]:
        """Each player, or each team, with its members' scores, ranks and winner flags."""
        sides: dict[str, Side] = {}
        for entry in play["players"]:
            row, player = entry["row"], entry["player"]
            team = row.get("team") if play["teams"] else None
            name = (self.name(team, generic.TEAM_NAME_LENGTH) if isinstance(team, str)
                    else "") or player["name"][:generic.TEAM_NAME_LENGTH]
            key = name if teams else player["id"]
            side = sides.setdefault(key, Side(key, [], [], False, []))
            side.members.append(player["id"])
            side.scores.append(entry["score"])
            side.winner = side.winner or bool(flag(row.get("winner")))
            rank = row.get("rank")
            if type(rank) is int and rank > 0:
                side.ranks.append(rank)
        return list(sides.values())

    def cooperative(self, sides: list[Side]) -> dict[str, Any]:
        scores = {score for side in sides for score in side.scores}
        result: dict[str, Any] = {"won": any(side.winner for side in sides)}
        if len(scores) == 1 and None not in scores:
            result["score"] = scores.pop()
        elif scores - {None}:
            self.counts["coop_scores"] += 1
        return result

    def places(self, sides: list[Side]) -> dict[str, Any] | None:
        winners = [side.name for side in sides if side.winner]
        ranks = [min(side.ranks) if side.ranks else None for side in sides]
        order = []
        if None not in ranks and len(set(ranks)) == len(ranks):
            order = [side.name for _rank, side in sorted(zip(ranks, sides, strict=True),
                                                         key=lambda pair: pair[0])]
        if not order and not winners:
            return None
        result: dict[str, Any] = {"order": order} if order else {}
        if winners and (not order or order[:len(winners)] != winners):
            result["winners"] = winners
        return result

    def points(self, sides: list[Side], scoring: str, where: str) -> dict[str, Any] | None:
        given = [score for side in sides for score in side.scores if score is not None]
        if not given:
            return None
        scores, unscored = {}, []
        for side in sides:
            if all(score is None for score in side.scores):
                unscored.append(side.name)
                self.named.append(self.unscored_note(side, where))
                continue
            if None in side.scores:
                missing = [member for member, score in zip(side.members, side.scores,
                                                           strict=True) if score is None]
                self.named.append(_("%(where)s: %(players)s of team %(team)s without a "
                                    "score; the team's score is its other members'.")
                                  % {"where": where, "team": side.name,
                                     "players": name_list(self.player_name(member)
                                                          for member in missing)})
                side.scores = [score for score in side.scores if score is not None]
            if len(set(side.scores)) > 1:
                self.counts["team_sum"] += 1
                scores[side.name] = sum(side.scores)
            else:
                scores[side.name] = side.scores[0]
        result: dict[str, Any] = {"scores": scores}
        if unscored:
            result["unscored"] = unscored
        best = (min if scoring == "fewest_points" else max)(scores.values())
        by_score = {name for name, score in scores.items() if score == best}
        winners = [side.name for side in sides if side.winner]
        if winners and set(winners) != by_score:
            result["winners"] = winners
        return result

    def player_name(self, player_id: str) -> str:
        return next(player["name"] for player in self.players.values()
                    if player["id"] == player_id)

    def unscored_note(self, side: Side, where: str) -> str:
        """What became of a side without a score: placed after those with one, or first
        where BG Stats recorded it as a winner."""
        values = {"where": where, "player": self.player_name(side.members[0]),
                  "team": side.name}
        if len(side.members) > 1:
            if side.winner:
                return _("%(where)s: team %(team)s has no score but is recorded as the "
                         "winner; placed first.") % values
            return _("%(where)s: team %(team)s has no score; placed after the teams with "
                     "one.") % values
        if side.winner:
            return _("%(where)s: %(player)s has no score but is recorded as a winner; "
                     "placed first.") % values
        return _("%(where)s: %(player)s has no score; placed after the players with "
                 "one.") % values

    def nights(self, plays: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """One game night per day, with everyone who played that day, at the place of its
        first play with a location."""
        days: dict[Any, list[dict[str, Any]]] = defaultdict(list)
        for play in plays:
            days[play["moment"].date()].append(play)
        nights = []
        for number, (day, its_plays) in enumerate(sorted(days.items()), start=1):
            present: dict[str, None] = {}
            for play in its_plays:
                play["night"] = f"n{number}"
                present.update((entry["player"]["id"], None) for entry in play["players"])
            nights.append({"id": f"n{number}", "date": day.isoformat(), "notes": "",
                           "place": self.place_of(day, its_plays),
                           "players": list(present),
                           "created_at": min(play["moment"] for play in its_plays).isoformat()})
        return nights

    def place_of(self, day: Any, plays: list[dict[str, Any]]) -> str:
        """The place of the night of ``day``: the location of its first play with one; the
        others are named in the report."""
        places = list(dict.fromkeys(play["place"] for play in sorted(
            plays, key=lambda play: play["moment"]) if play["place"]))
        if len(places) > 1:
            self.named.append(_("The plays of %(date)s took place at %(place)s and at "
                                "%(others)s; the game night is kept at %(place)s.")
                              % {"date": date_format(day, "DATE_FORMAT"), "place": places[0],
                                 "others": name_list(places[1:])})
        return places[0] if places else ""

    # Values

    @staticmethod
    def name(value: Any, length: int) -> str:
        return tidy_name(value)[:length].strip() if isinstance(value, str) else ""

    def score(self, value: Any, where: str, player: str) -> int | None:
        """A score as a whole number; None when there is none."""
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        number: float | None = None
        if isinstance(value, int | float) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str):
            try:
                number = float(value.strip().replace(",", "."))
            except ValueError:
                number = None
        if number is None or not math.isfinite(number) or abs(number) > generic.SCORE_LIMIT:
            self.named.append(_("%(where)s: the score of %(player)s, %(value)s, is not a "
                                "number; it counts as no score.")
                              % {"where": where, "player": player, "value": str(value)[:20]})
            return None
        if number != int(number):
            self.counts["decimals"] += 1
        return round(number)

    def count_extras(self, item: Mapping[str, Any], rows: list[dict[str, Any]]) -> None:
        for key, present in (
                ("expansions", bool(item.get("expansionPlays"))),
                ("board", bool(str(item.get("board") or "").strip())),
                ("rating", bool(item.get("rating"))),
                ("images", item.get("playImages") not in (None, "", "[]", [])),
                ("rounds", bool(item.get("rounds"))),
                ("ignored", flag(item.get("ignored")) is True),
                ("roles", any(str(row.get(key) or "").strip() for row in rows
                              for key in ("role", "teamRole"))),
                ("new_player", any(flag(row.get("newPlayer")) for row in rows))):
            self.counts[key] += present

    def not_in_bgstats(self) -> list[str]:
        """What a BG Stats file has no place for, said whenever it could matter: a household
        exported to BG Stats and read back loses these."""
        notes = []
        if self.games:
            notes.append(_("BG Stats files keep no end rules: every game comes in ending when "
                           "the host says so."))
        if self.document.get("plays"):
            notes.append(_("BG Stats files keep no series or tournaments and no points of "
                           "single rounds: their races and tables come in as plays, each "
                           "with its final scores."))
        return notes

    def counted(self) -> list[str]:
        texts = {
            "anonymous": lambda n: ngettext(
                "%(count)s anonymous player is imported as a player like the others.",
                "%(count)s anonymous players are imported as players like the others.", n),
            "competition": lambda n: ngettext(
                "%(count)s play was a series race or a tournament table, as its comment says: "
                "it comes in as a play of its own.",
                "%(count)s plays were series races or tournament tables, as their comments "
                "say: each comes in as a play of its own.", n),
            "expansions": lambda n: ngettext(
                "The expansions used in %(count)s play are not kept.",
                "The expansions used in %(count)s plays are not kept.", n),
            "board": lambda n: ngettext("The board or variant of %(count)s play is not kept.",
                                        "The boards or variants of %(count)s plays are not "
                                        "kept.", n),
            "roles": lambda n: ngettext("Roles and factions in %(count)s play are not kept.",
                                        "Roles and factions in %(count)s plays are not kept.",
                                        n),
            "rating": lambda n: ngettext("The rating of %(count)s play is not kept.",
                                         "The ratings of %(count)s plays are not kept.", n),
            "images": lambda n: ngettext("The pictures of %(count)s play are not kept.",
                                         "The pictures of %(count)s plays are not kept.", n),
            "rounds": lambda n: ngettext("The number of rounds of %(count)s play is not kept.",
                                         "The number of rounds of %(count)s plays is not kept.",
                                         n),
            "new_player": lambda n: ngettext(
                "Who played a game for the first time is not kept (%(count)s play).",
                "Who played a game for the first time is not kept (%(count)s plays).", n),
            "ignored": lambda n: ngettext(
                "%(count)s play that BG Stats leaves out of its statistics is in the history "
                "and, as there, counted in no statistics.",
                "%(count)s plays that BG Stats leaves out of its statistics are in the history "
                "and, as there, counted in no statistics.", n),
            "decimals": lambda n: ngettext(
                "%(count)s score with decimals is rounded to a whole number.",
                "%(count)s scores with decimals are rounded to whole numbers.", n),
            "team_sum": lambda n: ngettext(
                "In %(count)s team play the members' different scores are added up as the "
                "team's score.",
                "In %(count)s team plays the members' different scores are added up as the "
                "team's score.", n),
            "coop_scores": lambda n: ngettext(
                "The players' own scores in %(count)s co-operative play are not kept.",
                "The players' own scores in %(count)s co-operative plays are not kept.", n),
            "no_scores": lambda n: ngettext(
                "%(count)s play of a game with points has no scores: it is kept as win or "
                "lose only.",
                "%(count)s plays of games with points have no scores: they are kept as win "
                "or lose only.", n),
            "unscorable": lambda n: ngettext(
                "%(count)s play has neither scores, ranks nor a winner: it is kept as "
                "abandoned, with its players.",
                "%(count)s plays have neither scores, ranks nor a winner: they are kept as "
                "abandoned, with their players.", n),
            "bgg": lambda n: ngettext(
                "Details from BoardGameGeek (year, pictures, designers) of %(count)s game are "
                "not kept.",
                "Details from BoardGameGeek (year, pictures, designers) of %(count)s games are "
                "not kept.", n),
            "extras": lambda n: _("The file's tags, groups and challenges are not kept."),
        }
        return [text(self.counts[key]) % {"count": self.counts[key]}
                for key, text in texts.items() if self.counts[key]]


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
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment)

