"""BoardGameGeek's log of a user's plays (its XML) read as a new household.

BGG writes a user's plays as ``<plays>`` holding a ``<play>`` per logged entry::

    <play id="8123" date="2024-08-09" quantity="1" length="30" incomplete="0"
          nowinstats="0" location="Oma's">
      <item name="Dixit" objecttype="thing" objectid="39856"/>
      <comments>Oma's first win</comments>
      <players>
        <player username="max_meeple" userid="42" name="Max" startposition="1"
                color="red" score="30" new="0" rating="0" win="1"/>
      </players>
    </play>

The log is put into BG Stats' shape and read by the same tolerant reader
(:class:`tracker.portability.bgstats.Reader`), so it comes in as a BG Stats file does: object
by object, every problem named. What becomes of it:

- a player is one person across the log: the same BGG ``username``, or without one the same
  ``name``; named by ``name``, else by the user name;
- a game is the ``item``'s ``objectid`` (else its name); its scoring is read from its plays,
  as BGG does not say it: a game without scores whose every play of several players was
  won, or lost, by all of them together is co-operative; one without scores otherwise is
  win or lose only; where the winners' scores are the lowest more often than the highest,
  the fewest points win;
- ``quantity`` N: N plays alike (a quantity that is no number from 1 to ``MAX_QUANTITY`` leaves
  the entry out, named); ``incomplete``: abandoned; ``nowinstats``: in the history, counted in
  no statistics; ``length``: the length in minutes; ``location``: the game night's place;
  ``comments``: the note;
- a player's ``win``: a winner, kept as recorded; ``score``: the score; ``startposition``: the
  seat (and 1 started).

Not kept, and named: the players' colours, ratings and first plays (``new``). Each player,
game and play keeps BGG's ids (``elsewhere["bgg"]``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any
from xml.etree.ElementTree import Element

from django.utils.translation import gettext as _

from games.generic import SCORE_LIMIT
from tracker.households.models import tidy_name
from tracker.portability.bgstats import Reader
from tracker.portability.report import Report
from tracker.portability.score_rows import finite

#: The most plays one entry of the log stands for: more is no play a family logged.
MAX_QUANTITY = 100
#: What BGG keeps of a player in a play that the app has no place for.
NOT_KEPT = ("color", "rating", "new")


def is_play_log(root: Element) -> bool:
    return root.tag == "plays"


def from_bgg(root: Element, report: Report) -> dict[str, Any]:
    """Our export document for BGG's ``<plays>`` ``root``, what was amiss told to ``report``."""
    log = Log(root, report)
    return BggReader(log.as_bgstats(), report, username=root.get("username") or "").run()


def yes(value: str | None) -> bool:
    return (value or "").strip() == "1"


def whole(value: str | None) -> int | None:
    text = (value or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


class Log:
    """BGG's log in BG Stats' shape: players, games, locations and plays with ids of their own,
    each keeping BGG's identity under ``bgg``."""

    def __init__(self, root: Element, report: Report):
        self.root = root
        self.report = report
        self.players: dict[str, dict[str, Any]] = {}
        self.games: dict[str, dict[str, Any]] = {}
        self.locations: dict[str, dict[str, Any]] = {}
        self.not_kept: Counter[str] = Counter()
        #: Per game: how often its winners had the most points, and the fewest.
        self.highest: Counter[str] = Counter()
        self.lowest: Counter[str] = Counter()
        self.scored: set[str] = set()
        self.game_keys: dict[int, str] = {}
        #: The games whose every play of several players was won or lost by all of them.
        self.together: set[str] = set()
        self.apart: set[str] = set()

    def as_bgstats(self) -> dict[str, Any]:
        plays, seen = [], set()
        for index, play in enumerate(self.root.iter("play"), start=1):
            bgg_id = (play.get("id") or "").strip()
            if bgg_id and bgg_id in seen:
                self.report.add("play_twice", _("Play no. %(number)s (BGG id %(id)s)") % {
                    "number": index, "id": bgg_id[:20]})
                continue
            seen.add(bgg_id)
            plays.extend(self.plays(play, index))
        for key, game in self.games.items():
            game["cooperative"] = key in self.together and key not in self.scored
            game["noPoints"] = key not in self.scored
            game["highestWins"] = self.lowest[key] <= self.highest[key]
        if self.not_kept:
            self.report.add("not_kept", count=len(self.not_kept))
            self.report.examples["not_kept"].extend(
                f"{key} ({count})" for key, count in self.not_kept.most_common())
        return {"players": list(self.players.values()), "games": list(self.games.values()),
                "locations": list(self.locations.values()), "plays": plays}

    def plays(self, play: Element, index: int) -> list[dict[str, Any]]:
        """The plays one entry of the log stands for (its ``quantity``)."""
        quantity = whole(play.get("quantity") or "1")
        item = play.find("item")
        if quantity is None or not 1 <= quantity <= MAX_QUANTITY:
            self.report.add("play_unreadable", _("Play no. %(number)s (%(game)s): quantity "
                                                 "“%(value)s”") % {
                "number": index, "game": (item.get("name") if item is not None else "")[:60],
                "value": (play.get("quantity") or "")[:20]})
            return []
        if quantity > 1:
            self.report.add("quantity", _("%(date)s, %(game)s: %(count)s plays") % {
                "date": (play.get("date") or "")[:20],
                "game": (item.get("name") if item is not None else "")[:60],
                "count": quantity})
        comments = play.find("comments")
        location = tidy_name(play.get("location") or "")
        rows = [self.score_row(player) for player in play.iter("player")]
        game = self.game(item) if item is not None else None
        if game is not None:
            self.learn_scoring(game, rows)
        made = {
            "playDate": (play.get("date") or "").strip(), "gameRefId": game,
            "durationMin": whole(play.get("length")) or 0,
            "incomplete": yes(play.get("incomplete")), "ignored": yes(play.get("nowinstats")),
            "comments": (comments.text or "") if comments is not None else "",
            "locationRefId": self.location(location) if location else None,
            "playerScores": rows,
        }
        return [{**made, "bgg": {"id": play.get("id") or "", **(
            {"copy": copy} if quantity > 1 else {})}} for copy in range(1, quantity + 1)]

    def score_row(self, player: Element) -> dict[str, Any]:
        for key in NOT_KEPT:
            if (player.get(key) or "").strip() not in ("", "0"):
                self.not_kept[key] += 1
        seat = whole(player.get("startposition"))
        return {"playerRefId": self.player(player), "score": player.get("score"),
                "winner": yes(player.get("win")), "seatOrder": seat,
                "startPlayer": seat == 1}

    def player(self, player: Element) -> int:
        """The id of the person ``player`` is: the same BGG user, else the same name."""
        username = tidy_name(player.get("username") or "")
        name = tidy_name(player.get("name") or "")
        key = f"user:{username.lower()}" if username else f"name:{name.lower()}"
        if key not in self.players:
            self.players[key] = {
                "id": len(self.players) + 1, "name": name, "bggUsername": username,
                "bgg": {key: value for key in ("username", "userid", "name")
                        if (value := player.get(key))}}
        return self.players[key]["id"]

    def game(self, item: Element) -> int:
        objectid = (item.get("objectid") or "").strip()
        name = tidy_name(item.get("name") or "")
        key = f"id:{objectid}" if objectid else f"name:{name.lower()}"
        if key not in self.games:
            self.games[key] = {"id": len(self.games) + 1, "name": name, "bggName": name,
                               "bggId": whole(objectid), "cooperative": False,
                               "bgg": {"objectid": objectid, "name": name}}
            self.game_keys[self.games[key]["id"]] = key
        return self.games[key]["id"]

    def learn_scoring(self, game: int, rows: list[dict[str, Any]]) -> None:
        """Whether the game is won together, and whether its winners have the most points or
        the fewest, from one play."""
        key = self.game_keys[game]
        if len({row["winner"] for row in rows}) > 1:
            self.apart.add(key)
            self.together.discard(key)
        elif len(rows) > 1 and key not in self.apart:
            self.together.add(key)
        scores = [(finite(row["score"], SCORE_LIMIT), row["winner"]) for row in rows]
        numbers = [score for score, _winner in scores if score is not None]
        if not numbers:
            return
        self.scored.add(key)
        winning = [score for score, winner in scores if winner and score is not None]
        if len(set(numbers)) > 1 and winning:
            self.highest[key] += all(score == max(numbers) for score in winning)
            self.lowest[key] += all(score == min(numbers) for score in winning)

    def location(self, name: str) -> int:
        if name.lower() not in self.locations:
            self.locations[name.lower()] = {"id": len(self.locations) + 1, "name": name}
        return self.locations[name.lower()]["id"]


class BggReader(Reader):
    """The tolerant reader for BGG's log: it keeps BGG's ids of each player, game and play
    (``elsewhere["bgg"]``), and the household the log's user name."""

    def __init__(self, document: dict[str, Any], report: Report, *, username: str):
        super().__init__(document, report, app="bgg")
        self.username = username

    def household_name(self) -> str:
        return _("From BoardGameGeek")

    def household_kept(self) -> dict[str, Any]:
        return {"username": self.username[:100]} if self.username else {}

    def keep(self, raw: dict[str, Any], where: str) -> dict[str, Any]:
        return dict(raw.get("bgg") or {})

    def count_hidden(self, raw: Any, keys: tuple[str, ...]) -> None:
        """BGG's details the app does not keep are counted by :class:`Log`."""

    def play_kept(self, play: dict[str, Any], item: dict[str, Any], outcome: Any
                  ) -> dict[str, Any]:
        return self.keep(play["raw"], play["where"])
