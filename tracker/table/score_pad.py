"""The score pad of an own game kept round by round or by categories: what its page shows.

A column per side (a player, or a team), a row per round and one more for the next round
while the game is under way (or a row per category of the game's sheet), the running totals
with the leader marked, the number pad for one cell, and the question once the game's end is
reached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import InvalidResult
from games.sums import MAX_DIGITS
from games.sums import MAX_LENGTH as SUM_LENGTH
from tracker.common.engine_text import say
from tracker.common.lists import name_list
from tracker.table.announcements import announcement, lead_said, win_said
from tracker.table.models import Participant, Play, PlayChange
from tracker.table.recording import full_result
from tracker.table.rounds import ROUNDS, Layout, Rounds, stored_rounds, stored_sums

#: What a number pad says when Save finds no points typed (the device says it itself:
#: ``templates/plays/numpad.html``).
NOTHING_TO_SAVE = gettext_lazy("Type the points as a whole number, or as a short sum such as "
                               "3+6+2.")
#: The keys of the number pad, in the order they are laid out (three to a row).
KEYS = ["7", "8", "9", "4", "5", "6", "1", "2", "3", "minus", "0", "back"]
#: The number pad of a sheet by categories, four to a row: cards are added up as on paper.
SUM_KEYS = ["7", "8", "9", "back", "4", "5", "6", "subtract", "1", "2", "3", "plus", "0"]
OPERATORS = {"plus": "+", "subtract": "-"}


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
    #: Past ten players at a table, the marker that tells two of one colour apart.
    marker: int = 0
    member_names: str = ""


@dataclass
class Cell:
    number: int
    side: Side
    points: int | None
    url: str
    open: bool = False
    #: What its number pad shows when opened: the stored points (as typed: a category taken
    #: off shows them positive), or the sum typed for them.
    typed: str = ""
    #: Its row in words, as its number pad names it ("Round 3", "Birds").
    name: str = ""


@dataclass
class Row:
    number: int
    cells: list[Cell] = field(default_factory=list)
    new: bool = False
    #: What the row is: its round's number, or its category's name.
    label: str = ""
    #: A category taken off the total.
    minus: bool = False
    #: On a sheet with categories in each round, the round the row's block begins.
    starts_round: int | None = None


def typed_for(stored: int | None, kept_sum: str | None, minus: bool) -> str:
    """What a cell's number pad shows when opened: the sum typed for it, else its stored
    points (a category taken off typed positive), else nothing."""
    if kept_sum:
        return kept_sum
    return "" if stored is None else str(-stored if minus else stored)


def pad_keys(layout: Layout) -> list[str]:
    """The number pad's keys: with plus and minus for sums on a sheet by categories."""
    return SUM_KEYS if layout.by_categories else KEYS


def row_name(layout: Layout, number: int) -> str:
    """Row ``number`` in words: "Round 3", "Birds", or "Round 2 · Birds"."""
    category = layout.category(number)
    if category is None:
        return _("Round %(number)s") % {"number": number}
    if layout.in_each_round:
        return _("Round %(number)s · %(category)s") % {
            "number": layout.round_of(number), "category": category["name"]}
    return category["name"]


def sides_of(play: Play) -> list[Side]:
    """The pad's columns: the players in seat order, or the teams in the order stored."""
    participants = list(play.participants.all())
    if not play.house_rules.get("teams"):
        return [Side(key=p.player_key, index=index, name=p.player.name, members=[p],
                     colour=colour, marker=marker)
                for index, (p, (colour, marker)) in enumerate(
                    (p, p.look) for p in participants)]
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


@dataclass
class TieToBreak:
    """Sides of a finished game level on their totals (and on the tie-break category),
    with the count that breaks the tie as entered so far (None: not yet)."""

    total: int
    sides: list[tuple[Side, int | None]]

    @property
    def names(self) -> str:
        return name_list(side.name for side, _count in self.sides)

    @property
    def counted(self) -> bool:
        return all(count is not None for _side, count in self.sides)


def ties_to_break(play: Play, sides: list[Side]) -> list[TieToBreak]:
    """The ties a game's count decides (Wingspan: food tokens left), asked for once the
    game is finished: the sides that would share a place without the counts."""
    if (play.status != Play.Status.FINISHED or not play.house_rules.get("tiebreak_count")
            or play.result.get("places")):
        # Places recorded elsewhere (an import) stand against any count.
        return []
    uncounted = {key: value for key, value in play.result.items() if key != "tie_counts"}
    try:
        places = play.rules.score(full_result(play, uncounted)).places
    except InvalidResult:
        return []
    counts = play.result.get("tie_counts") or {}
    by_place: dict[int, list[Side]] = {}
    for side in sides:
        if side.members:
            by_place.setdefault(places[side.members[0].player_key], []).append(side)
    return [TieToBreak(total=level[0].total,
                       sides=[(side, counts.get(side.key)) for side in level])
            for _place, level in sorted(by_place.items())
            if len(level) > 1 and len({side.total for side in level}) == 1]


def decided_by_tiebreak(play: Play, sides: list[Side], winners: list[Side],
                        ties: list[TieToBreak]) -> str:
    """The sentence that says the tie-break decided, where the winners' total is another
    side's too ("Papa and Mama both have 64: the most Food decided.", or with the count that
    broke the tie, "... the most food tokens left decided (5 to 3)."); "" otherwise."""
    if not winners:
        return ""
    tied = [side for side in sides if side.total == winners[0].total]
    if len(tied) == len(winners):
        return ""
    counted = next((tie for tie in ties if any(side in winners for side, _c in tie.sides)),
                   None)
    said = {"sides": name_list(side.name for side in tied), "total": winners[0].total}
    if counted is not None:
        if not counted.counted:
            return ""
        tied = [side for side, _count in counted.sides]
        said |= {"sides": counted.names, "category": play.house_rules["tiebreak_count"],
                 "counts": _(" to ").join(str(count) for _side, count in sorted(
                     counted.sides, key=lambda entry: -(entry[1] or 0)))}
        if len(tied) == 2:
            return _("%(sides)s both have %(total)s: the most %(category)s decided "
                     "(%(counts)s).") % said
        return _("%(sides)s all have %(total)s: the most %(category)s decided "
                 "(%(counts)s).") % said
    if not play.house_rules.get("tiebreak"):
        return ""
    said["category"] = play.house_rules["tiebreak"]
    if len(tied) == 2:
        return _("%(sides)s both have %(total)s: the most %(category)s decided.") % said
    return _("%(sides)s all have %(total)s: the most %(category)s decided.") % said


def apply_key(typed: str, key: str) -> str:
    """What the pad's display shows after a key: a digit, ``minus`` (changes the sign),
    ``back`` (takes the last character back), or on a sheet by categories ``plus`` and
    ``subtract`` (a short sum: "3+6+2"; an operator after an operator replaces it). The
    number pad in the browser does the same (static/js/app.js)."""
    if key == "minus":
        return typed.removeprefix("-") if typed.startswith("-") else "-" + typed
    if key == "back":
        return typed[:-1]
    if key in OPERATORS:
        if not typed or typed == "-":
            return "-" if key == "subtract" else ""
        if len(typed) >= SUM_LENGTH:
            return typed
        return (typed[:-1] if typed[-1] in "+-" else typed) + OPERATORS[key]
    if not (key.isdecimal() and len(key) == 1) or len(typed) >= SUM_LENGTH:
        return typed
    number = re.split(r"[+-]", typed)[-1]
    if len(number) >= MAX_DIGITS:
        return typed
    return (typed[:-1] if number == "0" else typed) + key


def next_cell(rounds: Rounds, sides: list[Side], after: tuple[int, int] | None = None,
              *, layout: Layout = ROUNDS, down: bool = False, under_way: bool = True
              ) -> tuple[int, int] | None:
    """Where the pad goes on after the cell ``after`` (its row and the side's column).

    On a pad of rounds, across: the next side without points in the round just entered,
    else the first side without points in the last round, else the first side of a new
    round. Otherwise (a sheet by categories, or ``down`` the column as the family prefers)
    the next blank cell in that order, from the top when none follows; None when every
    cell the pad offers is filled.
    """
    if layout.by_categories or down:
        return next_blank(rounds, sides, after, layout.rows_shown(len(rounds), under_way),
                          down=down)
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


def next_blank(rounds: Rounds, sides: list[Side], after: tuple[int, int] | None, rows: int,
               *, down: bool) -> tuple[int, int] | None:
    """The first blank cell after ``after``, row by row (or column by column when ``down``),
    starting again from the top; None when all ``rows`` are filled."""
    cells = [(number, side.index) for number in range(1, rows + 1) for side in sides]
    if down:
        cells.sort(key=lambda cell: (cell[1], cell[0]))
    start = cells.index(after) + 1 if after in cells else 0
    for number, index in cells[start:] + cells[:start]:
        if number > len(rounds) or sides[index].key not in rounds[number - 1]:
            return number, index
    return None


def moves_down(play: Play) -> bool:
    """Whether the family's pad goes down the column after an entry (the next category or
    round), rather than across to the next player; the own game is read with the play."""
    return play.own_game_id is not None and play.own_game.pad_moves == "next_row"


def cell_url(play: Play, number: int, index: int) -> str:
    return reverse("pad_cell", args=[play.pk, number, index])


def pad_context(play: Play, *, cell: tuple[int, int] | None = None, typed: str | None = None,
                message: str = "", history: list[PlayChange] | None = None,
                new_change: PlayChange | None = None) -> dict[str, Any]:
    """The pad as stored; ``cell`` (round number, column) is the cell whose number pad is
    open, by default the next to enter while the game is under way. ``typed`` is what the
    number pad shows (by default the cell's points). ``history`` is read when not given;
    ``new_change`` is the entry a save just wrote, for the page to add to its history."""
    rounds, sums = stored_rounds(play), stored_sums(play)
    sides = sides_of(play)
    layout = Layout.of(play)
    under_way = play.status == Play.Status.IN_PROGRESS
    lower = play.house_rules.get("scoring") == "fewest_points"
    for side in sides:
        side.total = sum(round_.get(side.key, 0) for round_ in rounds)
        side.place = side.members[0].place if side.members else None
    round_under_way = mark_leaders(sides, rounds, lower)
    if layout.by_categories:
        # Blank categories are still to come; only one entered for some sides holds the lead.
        round_under_way = next((number for number, row in enumerate(rounds, start=1)
                                if 0 < len(row) < len(sides)), None)
    shown = layout.rows_shown(len(rounds), under_way)
    if cell is None and under_way:
        cell = next_cell(rounds, sides, layout=layout, down=moves_down(play))
    if cell is not None and not (1 <= cell[0] <= shown and 0 <= cell[1] < len(sides)):
        cell = None
    rows = []
    for number in range(1, shown + 1):
        points = rounds[number - 1] if number <= len(rounds) else {}
        typed_sums = sums[number - 1] if number <= len(sums) else {}
        category = layout.category(number)
        minus = bool(category and category["minus"])
        name = row_name(layout, number)
        rows.append(Row(
            number=number, new=not layout.by_categories and number > len(rounds),
            label=category["name"] if category else str(number),
            minus=minus,
            starts_round=layout.round_of(number) if layout.in_each_round and category
            is layout.categories[0] else None,
            cells=[Cell(number=number, side=side, points=points.get(side.key),
                        url=cell_url(play, number, side.index),
                        open=cell == (number, side.index), name=name,
                        typed=typed_for(points.get(side.key), typed_sums.get(side.key), minus))
                   for side in sides]))
    editor = None
    if cell is not None and play.status != Play.Status.ABANDONED:
        side = sides[cell[1]]
        stored = rounds[cell[0] - 1].get(side.key) if cell[0] <= len(rounds) else None
        kept_sum = sums[cell[0] - 1].get(side.key) if cell[0] <= len(sums) else None
        minus = rows[cell[0] - 1].minus
        editor = {"number": cell[0], "side": side, "stored": stored,
                  "name": row_name(layout, cell[0]), "minus": minus,
                  "typed": typed if typed is not None else typed_for(stored, kept_sum, minus),
                  "url": cell_url(play, *cell), "keys": pad_keys(layout)}
    complete = bool(rounds) and all(side.key in rounds[-1] for side in sides)
    if layout.by_categories and not layout.in_each_round:
        complete = len(rounds) == shown and all(
            side.key in round_ for round_ in rounds for side in sides)
    end = None
    if under_way and complete:
        reached = play.rules.end_reached(full_result(play, play.result))
        if reached is not None:
            end = say(reached, {side.key: side.name for side in sides})
    history_said = described(history if history is not None else list(
        play.changes.select_related("changed_by")), sides, layout)
    if not under_way:
        # Once the game ends the places say who won; the lead by totals is over.
        for side in sides:
            side.leader = False
    leaders = [side for side in sides if side.leader]
    winners = [side for side in sides if side.place == 1] \
        if play.status == Play.Status.FINISHED else []
    ties = ties_to_break(play, sides)
    return {
        "play": play,
        "rules": play.rules,
        "sides": sides,
        "rows": rows,
        "rounds_played": layout.round_of(len(rounds)) if rounds else 0,
        "layout": layout,
        "editor": editor,
        "pad_keys": pad_keys(layout),
        "nothing_to_save": NOTHING_TO_SAVE,
        "moves_down": moves_down(play),
        "end": end,
        "lower_is_better": lower,
        "leaders": leaders,
        "round_under_way": round_under_way if under_way else None,
        "winners": winners,
        "decided_by_tiebreak": decided_by_tiebreak(play, sides, winners, ties),
        "ties": ties,
        "ties_decided": all(tie.counted for tie in ties),
        "announcement": announcement(
            f"{history_said[0]['text']}." if history_said and history_said[0]["text"] else "",
            win_said([side.name for side in winners]),
            lead_said([side.name for side in leaders], leaders[0].standing) if leaders else ""),
        "can_undo": under_way and bool(rounds) and (
            not layout.by_categories or layout.in_each_round),
        "can_finish": under_way and bool(rounds),
        "message": message,
        "history": history_said,
        "new_change": described([new_change], sides, layout)[0] if new_change else None,
        "wide": len(sides) > 4,
    }


def described(changes: list[PlayChange], sides: list[Side], layout: Layout = ROUNDS
              ) -> list[dict[str, Any]]:
    """History entries with what each changed on the pad, in words: "Round 3 · Ben: 12 → 15",
    "Birds · Ada: 3+6+2 = 11"."""
    names = {side.key: side.name for side in sides}
    return [{"change": change, "text": change_text(change.data, names, layout)}
            for change in changes]


def change_text(data: dict[str, Any], names: dict[str, str], layout: Layout = ROUNDS
                ) -> str:
    counts = data.get("tie_counts")
    if isinstance(counts, dict):
        return ", ".join(f"{names.get(side, side)} {count}" for side, count in counts.items()
                         if count is not None)
    number = data.get("round")
    if not isinstance(number, int):
        return ""
    if "side" in data:
        values = {"row": row_name(layout, number) if number >= 1 else "",
                  "side": names.get(data["side"], data["side"]),
                  "points": data.get("points"), "previous": data.get("previous")}
        if isinstance(data.get("sum"), str):
            values["points"] = f"{data['sum']} = {data.get('points')}"
        if "previous" in data:
            return _("%(row)s · %(side)s: %(previous)s → %(points)s") % values
        return _("%(row)s · %(side)s: %(points)s") % values
    points = data.get("points") if isinstance(data.get("points"), dict) else {}
    return _("Round %(number)s: %(points)s") % {
        "number": number,
        "points": ", ".join(f"{names.get(side, side)} {value}" for side, value in points.items())}


def category_rows(layout: Layout, rounds: Rounds, sides: list[Side]) -> list[dict[str, Any]]:
    """A sheet by categories on the board: a row per category with each side's points in it
    (added up over the rounds where the categories come in each round; None while blank)."""
    rows = []
    for column, category in enumerate(layout.categories):
        entered = [row for number, row in enumerate(rounds)
                   if number % len(layout.categories) == column]
        rows.append({"label": category["name"], "minus": category["minus"], "cells": [
            sum(row[side.key] for row in entered if side.key in row)
            if any(side.key in row for row in entered) else None for side in sides]})
    return rows


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
                                    members=[p], colour=p.look[0], marker=p.look[1])
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
    layout = Layout.of(play)
    return {
        "sides": sides,
        "category_rows": category_rows(layout, rounds, sides),
        "round_rows": [] if layout.by_categories else rows[-BOARD_ROUNDS:],
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
