"""The score pad of an own game kept round by round: what its page shows.

A column per side (a player, or a team), a row per round and one more for the next round
while the game is under way, the running totals with the leader marked, the number pad
for one cell, and the question once the game's end is reached.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from tracker.common.engine_text import say
from tracker.common.lists import name_list
from tracker.table.announcements import announcement, lead_said, win_said
from tracker.table.models import Participant, Play, PlayChange
from tracker.table.recording import full_result
from tracker.table.rounds import Rounds, stored_rounds

#: The keys of the number pad, in the order they are laid out (three to a row).
KEYS = ["7", "8", "9", "4", "5", "6", "1", "2", "3", "minus", "0", "back"]
MAX_DIGITS = 7


@dataclass
class Side:
    """A column of the pad: a player, or a team with its players."""

    key: str
    index: int
    name: str
    members: list[Participant]
    total: int = 0
    #: The total over the rounds every side has completed: what the lead is decided on.
    standing: int = 0
    leader: bool = False
    place: int | None = None
    colour: str | None = None
    member_names: str = ""


@dataclass
class Cell:
    number: int
    side: Side
    points: int | None
    url: str
    open: bool = False


@dataclass
class Row:
    number: int
    cells: list[Cell] = field(default_factory=list)
    new: bool = False


def sides_of(play: Play) -> list[Side]:
    """The pad's columns: the players in seat order, or the teams in the order stored."""
    participants = list(play.participants.all())
    if not play.house_rules.get("teams"):
        return [Side(key=p.player_key, index=index, name=p.player.name, members=[p],
                     colour=p.player.colour)
                for index, p in enumerate(participants)]
    by_key = {p.player_key: p for p in participants}
    sides = []
    for index, (name, keys) in enumerate((play.result.get("teams") or {}).items()):
        members = [by_key[key] for key in keys if key in by_key]
        sides.append(Side(key=name, index=index, name=name, members=members,
                          member_names=name_list(p.player.name for p in members)))
    return sides


def mark_leaders(sides: list[Side], rounds: Rounds, lower: bool) -> int | None:
    """Mark the sides that lead: the best total over the rounds every side has completed
    (the fewest points where the fewest win), so that a side not yet entered in the round
    under way does not lead by its missing points. Returns the number of the round under way
    (entered for some sides, not yet for all), None when there is none."""
    complete = [round_ for round_ in rounds if all(side.key in round_ for side in sides)]
    for side in sides:
        side.standing = sum(round_.get(side.key, 0) for round_ in complete)
    if complete and sides:
        best = (min if lower else max)(side.standing for side in sides)
        for side in sides:
            side.leader = side.standing == best
    if len(complete) == len(rounds):
        return None
    return next(number for number, round_ in enumerate(rounds, start=1)
                if round_ not in complete)


def apply_key(typed: str, key: str) -> str:
    """The number on the pad's display after a key: a digit, ``minus`` (changes the sign)
    or ``back`` (takes the last digit back). The number pad in the browser does the same."""
    negative, digits = typed.startswith("-"), typed.removeprefix("-")
    if key == "minus":
        negative = not negative
    elif key == "back":
        digits = digits[:-1]
    elif key.isdecimal() and len(key) == 1 and len(digits) < MAX_DIGITS:
        digits = key if digits == "0" else digits + key
    return ("-" if negative else "") + digits


def next_cell(rounds: Rounds, sides: list[Side], after: tuple[int, int] | None = None
              ) -> tuple[int, int]:
    """Where the pad goes on: the next side without points in the round just entered
    (``after``: its number and the side's column), else the first side without points in
    the last round, else the first side of a new round."""
    if after is not None and after[0] <= len(rounds):
        number, index = after
        missing = [side.index for side in sides if side.key not in rounds[number - 1]]
        if missing:
            return number, next((i for i in missing if i > index), missing[0])
    if rounds:
        missing = [side.index for side in sides if side.key not in rounds[-1]]
        if missing:
            return len(rounds), missing[0]
    return len(rounds) + 1, 0


def cell_url(play: Play, number: int, index: int) -> str:
    return reverse("pad_cell", args=[play.pk, number, index])


def pad_context(play: Play, *, cell: tuple[int, int] | None = None, typed: str | None = None,
                message: str = "", history: list[PlayChange] | None = None,
                new_change: PlayChange | None = None) -> dict[str, Any]:
    """The pad as stored; ``cell`` (round number, column) is the cell whose number pad is
    open, by default the next to enter while the game is under way. ``typed`` is what the
    number pad shows (by default the cell's points). ``history`` is read when not given;
    ``new_change`` is the entry a save just wrote, for the page to add to its history."""
    rounds = stored_rounds(play)
    sides = sides_of(play)
    under_way = play.status == Play.Status.IN_PROGRESS
    lower = play.house_rules.get("scoring") == "fewest_points"
    for side in sides:
        side.total = sum(round_.get(side.key, 0) for round_ in rounds)
        side.place = side.members[0].place if side.members else None
    round_under_way = mark_leaders(sides, rounds, lower)
    if cell is None and under_way:
        cell = next_cell(rounds, sides)
    if cell is not None and not (1 <= cell[0] <= len(rounds) + (1 if under_way else 0)
                                 and 0 <= cell[1] < len(sides)):
        cell = None
    rows = []
    for number in range(1, len(rounds) + 1 + (1 if under_way else 0)):
        points = rounds[number - 1] if number <= len(rounds) else {}
        rows.append(Row(number=number, new=number > len(rounds), cells=[
            Cell(number=number, side=side, points=points.get(side.key),
                 url=cell_url(play, number, side.index), open=cell == (number, side.index))
            for side in sides]))
    editor = None
    if cell is not None and play.status != Play.Status.ABANDONED:
        side = sides[cell[1]]
        stored = rounds[cell[0] - 1].get(side.key) if cell[0] <= len(rounds) else None
        editor = {"number": cell[0], "side": side, "stored": stored,
                  "typed": typed if typed is not None else
                  ("" if stored is None else str(stored)),
                  "url": cell_url(play, *cell), "keys": KEYS}
    complete = bool(rounds) and all(side.key in rounds[-1] for side in sides)
    end = None
    if under_way and complete:
        reached = play.rules.end_reached(full_result(play, play.result))
        if reached is not None:
            end = say(reached, {side.key: side.name for side in sides})
    history_said = described(history if history is not None else list(
        play.changes.select_related("changed_by")), sides)
    leaders = [side for side in sides if side.leader] if under_way else []
    winners = [side for side in sides if side.place == 1] \
        if play.status == Play.Status.FINISHED else []
    return {
        "play": play,
        "rules": play.rules,
        "sides": sides,
        "rows": rows,
        "rounds_played": len(rounds),
        "editor": editor,
        "end": end,
        "lower_is_better": lower,
        "leaders": leaders,
        "round_under_way": round_under_way if under_way else None,
        "winners": winners,
        "announcement": announcement(
            f"{history_said[0]['text']}." if history_said and history_said[0]["text"] else "",
            win_said([side.name for side in winners]),
            lead_said([side.name for side in leaders], leaders[0].standing) if leaders else ""),
        "can_undo": under_way and bool(rounds),
        "can_finish": under_way and bool(rounds),
        "message": message,
        "history": history_said,
        "new_change": described([new_change], sides)[0] if new_change else None,
        "wide": len(sides) > 4,
    }


def described(changes: list[PlayChange], sides: list[Side]) -> list[dict[str, Any]]:
    """History entries with what each changed on the pad, in words: "Round 3 · Ben: 12 → 15"."""
    names = {side.key: side.name for side in sides}
    return [{"change": change, "text": change_text(change.data, names)} for change in changes]


def change_text(data: dict[str, Any], names: dict[str, str]) -> str:
    number = data.get("round")
    if not isinstance(number, int):
        return ""
    if "side" in data:
        values = {"number": number, "side": names.get(data["side"], data["side"]),
                  "points": data.get("points"), "previous": data.get("previous")}
        if "previous" in data:
            return _("Round %(number)s · %(side)s: %(previous)s → %(points)s") % values
        return _("Round %(number)s · %(side)s: %(points)s") % values
    points = data.get("points") if isinstance(data.get("points"), dict) else {}
    return _("Round %(number)s: %(points)s") % {
        "number": number,
        "points": ", ".join(f"{names.get(side, side)} {value}" for side, value in points.items())}


#: The latest rounds an own game's board shows as rows; the earlier ones share one row with
#: the running totals they reached, so that a long game still fits a TV at 720p.
BOARD_ROUNDS = 12


def board_context(play: Play) -> dict[str, Any]:
    """An own game on the room's board: the running totals after each round (the latest
    ``BOARD_ROUNDS``), the totals and the leaders or winners, a team's members under its
    name; for a game without rounds the sides by place; for a co-operative game whether the
    table won. ``play`` comes with its participants in seat order and their players."""
    # A team game before its teams are formed: the players, as they sit.
    sides = sides_of(play) or [Side(key=p.player_key, index=index, name=p.player.name,
                                    members=[p], colour=p.player.colour)
                               for index, p in enumerate(play.participants.all())]
    rounds = stored_rounds(play)
    finished = play.status == Play.Status.FINISHED
    lower = play.house_rules.get("scoring") == "fewest_points"
    for side in sides:
        side.place = side.members[0].place if side.members else None
        side.total = (sum(round_.get(side.key, 0) for round_ in rounds) if rounds
                      else side.members[0].points if side.members else None)
    running = {side.key: 0 for side in sides}
    rows = []
    for number, round_ in enumerate(rounds, start=1):
        cells = []
        for side in sides:
            running[side.key] += round_.get(side.key, 0)
            cells.append({"total": running[side.key], "points": round_.get(side.key)})
        rows.append({"number": number, "cells": cells})
    earlier = rows[:-BOARD_ROUNDS] if len(rows) > BOARD_ROUNDS else []
    if finished:
        leaders = [side for side in sides if side.place == 1]
        for side in leaders:
            side.leader = True
    elif play.status == Play.Status.ABANDONED:
        leaders = []
    else:
        mark_leaders(sides, rounds, lower)
        leaders = [side for side in sides if side.leader]
    cooperative = play.house_rules.get("scoring") == "cooperative"
    return {
        "sides": sides,
        "round_rows": rows[-BOARD_ROUNDS:],
        "earlier": {"last": earlier[-1]["number"], "cells": earlier[-1]["cells"]}
        if earlier else None,
        "ranked_sides": sorted(sides, key=lambda side: (side.place or 99, side.index)),
        "leaders": [{"player": side,
                     "score": (side.total if finished else side.standing)
                     if play.scored_by_points else None}
                    for side in leaders if not cooperative],
        "cooperative": cooperative,
        "won": play.result.get("won") if cooperative and finished else None,
        "team_score": play.result.get("score") if cooperative else None,
    }
