"""Recording an own game on the score pad, round by round or category by category.

A game kept round by round stores ``{"rounds": [{side: points, ...}, ...], "finished":
bool}`` (see :mod:`games.generic`); sides are player keys, or team names in a team game.
Each function here changes that result through :func:`tracker.table.recording._store`, so the
engine checks every round, and writes one history entry: points entered or corrected, a
round undone, the game finished.

A sheet by categories keeps its rows in the same ``rounds`` (see :mod:`games.generic`): a
row per category, at the end or in each round, so one code path serves both; a cell typed
as a short sum keeps the sum in ``sums``, a list parallel to the rows.

Every write names the play's version it saw. A round has no identity but its number, so a
write on an older version is refused (:class:`EditConflict`) rather than merged: after an
undo on another tablet, round 5 may no longer be the round this tablet saw. A write that
finds exactly what it would store (a retried request, a double tap) changes nothing and
is no conflict, so a round is never added twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from tracker.table.models import Play, PlayChange
from tracker.table.recording import EditConflict, _store, check_changeable, full_result, lock_sheet

Rounds = list[dict[str, int]]


def stored_rounds(play: Play) -> Rounds:
    """The play's rounds as stored, copied so that changing them changes nothing stored."""
    return [dict(round_) for round_ in play.result.get("rounds") or []]


def stored_sums(play: Play) -> list[dict[str, str]]:
    """The short sums kept with the play's cells, row by row, copied as :func:`stored_rounds`."""
    return [dict(row) for row in play.result.get("sums") or []]


@dataclass(frozen=True)
class Layout:
    """How the rows of a play's pad are named: rounds, or the categories of its sheet (at
    the end, or in each round)."""

    categories: tuple[dict[str, Any], ...] = ()
    in_each_round: bool = False

    @classmethod
    def of(cls, play: Play) -> Layout:
        return cls.of_rules(play.house_rules)

    @classmethod
    def of_rules(cls, rules: dict[str, Any]) -> Layout:
        """The layout of a game with these house rules (a play's, or an own game's)."""
        if rules.get("sheet", "rounds") == "rounds" or not rules.get("categories"):
            return cls()
        return cls(tuple(rules["categories"]), rules["sheet"] == "category_rounds")

    @property
    def by_categories(self) -> bool:
        return bool(self.categories)

    def category(self, number: int) -> dict[str, Any] | None:
        """The category of row ``number`` (from 1), None on a pad of rounds."""
        if not self.categories:
            return None
        return self.categories[(number - 1) % len(self.categories)]

    def round_of(self, number: int) -> int:
        """The round row ``number`` belongs to."""
        return (number - 1) // len(self.categories) + 1 if self.categories else number

    def rows_shown(self, stored: int, under_way: bool) -> int:
        """The rows the pad offers: the rows stored and, while the game is under way, the
        next round's (a row, or a row per category); a sheet by categories at the end has
        its categories' rows from the start."""
        if not self.categories:
            return stored + (1 if under_way else 0)
        size = len(self.categories)
        if not self.in_each_round:
            return size
        return -(-stored // size) * size + (size if under_way or not stored else 0)

    def rows_of_rounds(self, rounds: int) -> int:
        """The rows ``rounds`` rounds take: a row per category of each, or one."""
        return rounds * len(self.categories) if self.in_each_round else rounds

    def last_round_rows(self, stored: int) -> range:
        """The rows (numbers from 1) of the last round stored, which an undo takes back."""
        if not self.categories or not self.in_each_round:
            return range(stored, stored + 1)
        size = len(self.categories)
        first = (stored - 1) // size * size + 1
        return range(first, stored + 1)


def kept_round_by_round(play: Play) -> bool:
    """Whether the play is kept on the score pad: an own game with points whose result is
    not final scores only. A team game is entered on the final-scores form, where its teams
    are formed, unless its result has its teams already."""
    return (play.own_game_id is not None and play.rules.scores_points(play.house_rules)
            and "scores" not in play.result
            and (not play.house_rules.get("teams") or "teams" in play.result))


#: The pad of a game kept round by round.
ROUNDS = Layout()


def set_round_points(play: Play, number: int, side: str, points: int, *,
                     expected_version: int, user: AbstractBaseUser | None = None,
                     typed_sum: str = "") -> PlayChange | None:
    """:func:`set_locked_round_points` for ``play``, read and locked here."""
    with transaction.atomic():
        locked = lock_sheet(play.pk)
        change = set_locked_round_points(locked, number, side, points,
                                         expected_version=expected_version, user=user,
                                         typed_sum=typed_sum)
    play.refresh_from_db()
    return change


def set_locked_round_points(play: Play, number: int, side: str, points: int, *,
                            expected_version: int, user: AbstractBaseUser | None = None,
                            typed_sum: str = "") -> PlayChange | None:
    """Give ``side`` ``points`` in row ``number`` (from 1: a round, or a category; the rows
    of the next round start it), for a play from :func:`lock_sheet`, inside the caller's
    transaction; ``typed_sum`` is the short sum the points were typed as ("3+6+2"), kept
    with the cell. The history entry written, or None when the row already held exactly
    these points so typed. InvalidResult, EditConflict or PlayAbandoned change nothing.

    Points for a cell that is still blank overwrite nothing: they are kept even when the
    pad changed since ``expected_version`` (another tablet's round, or the entries a device
    kept while its connection was down). Points for a filled cell need the version seen.
    """
    check_changeable(play)
    rounds, sums = stored_rounds(play), stored_sums(play)
    if not 1 <= number <= Layout.of(play).rows_shown(len(rounds), under_way=True):
        raise EditConflict
    if number <= len(rounds) and rounds[number - 1].get(side) == points and (
            number > len(sums) or sums[number - 1].get(side, "") == typed_sum):
        return None
    while len(rounds) < number:
        rounds.append({})
    previous = rounds[number - 1].get(side)
    if previous is not None and play.version != expected_version:
        raise EditConflict
    rounds[number - 1][side] = points
    sums = with_sum(sums, number, side, typed_sum)
    data: dict[str, Any] = {"round": number, "side": side, "points": points}
    if typed_sum:
        data["sum"] = typed_sum
    action = PlayChange.Action.ROUND_POINTS
    if previous is not None:
        data["previous"] = previous
        action = PlayChange.Action.ROUND_CORRECTED
    # The play is locked: the version read with it is the one stored.
    return _store_rounds(play, rounds, action, data, play.version, user, sums=sums)


def with_sum(sums: list[dict[str, str]], number: int, side: str, typed_sum: str
             ) -> list[dict[str, str]]:
    """``sums`` with the cell's short sum kept (or dropped, when it was typed as one
    number), and no empty rows at the end."""
    while len(sums) < number:
        sums.append({})
    if typed_sum:
        sums[number - 1][side] = typed_sum
    else:
        sums[number - 1].pop(side, None)
    while sums and not sums[-1]:
        sums.pop()
    return sums


def add_round(play: Play, number: int, points: dict[str, int], *, expected_version: int,
              user: AbstractBaseUser | None = None) -> PlayChange | None:
    """Round ``number`` (one more than the rounds played) at once, ``points`` by side. The
    history entry, or None when that round already holds exactly these points (the same
    round sent again)."""
    with transaction.atomic():
        locked = lock_sheet(play.pk)
        check_changeable(locked)
        rounds = stored_rounds(locked)
        if number <= len(rounds) and rounds[number - 1] == points:
            return None
        if number != len(rounds) + 1 or locked.version != expected_version:
            raise EditConflict
        rounds.append(dict(points))
        change = _store_rounds(locked, rounds, PlayChange.Action.ROUND_POINTS,
                               {"round": number, "points": dict(points)},
                               expected_version, user)
    play.refresh_from_db()
    return change


def undo_round(play: Play, *, expected_version: int, user: AbstractBaseUser | None = None
               ) -> PlayChange:
    """Take back the last round with all its points; the history keeps them. A conflict
    when the play changed since it was seen or has no round."""
    with transaction.atomic():
        locked = lock_sheet(play.pk)
        check_changeable(locked)
        rounds = stored_rounds(locked)
        if not rounds or locked.version != expected_version:
            raise EditConflict
        taken = Layout.of(locked).last_round_rows(len(rounds))
        removed: dict[str, int] = {}
        for row in rounds[taken[0] - 1:]:
            for side, points in row.items():
                removed[side] = removed.get(side, 0) + points
        del rounds[taken[0] - 1:]
        sums = stored_sums(locked)[:taken[0] - 1]
        change = _store_rounds(locked, rounds, PlayChange.Action.ROUND_UNDONE,
                               {"round": Layout.of(locked).round_of(taken[0]),
                                "points": removed}, expected_version, user, sums=sums)
    play.refresh_from_db()
    return change


def finish_own_game(play: Play, *, expected_version: int,
                    user: AbstractBaseUser | None = None) -> PlayChange | None:
    """End a game kept round by round: the places follow from the totals, ties shared.
    None when it was finished already (a second tap)."""
    with transaction.atomic():
        locked = lock_sheet(play.pk)
        check_changeable(locked)
        if locked.result.get("finished"):
            return None
        if locked.version != expected_version:
            raise EditConflict
        change = _store_rounds(locked, stored_rounds(locked), PlayChange.Action.FINISHED,
                               {"rounds": len(stored_rounds(locked))}, expected_version, user,
                               finished=True)
    play.refresh_from_db()
    return change


def record_tie_counts(play: Play, counts: dict[str, int | None], *, expected_version: int,
                      user: AbstractBaseUser | None = None) -> PlayChange | None:
    """Keep the count that breaks a tie of a finished game's totals (Wingspan: food tokens
    left), for the tied sides given (None: no count, taking back one kept); the places
    follow. None when nothing changes (a retried request). A count the engine cannot take
    is refused (InvalidResult)."""
    with transaction.atomic():
        locked = lock_sheet(play.pk)
        check_changeable(locked)
        kept = dict(locked.result.get("tie_counts") or {})
        if all(kept.get(side) == count for side, count in counts.items()):
            return None
        if locked.version != expected_version or not locked.result.get("finished"):
            raise EditConflict
        kept = {side: count for side, count in (kept | counts).items() if count is not None}
        stored = {key: value for key, value in locked.result.items() if key != "tie_counts"}
        result = full_result(locked, stored | ({"tie_counts": kept} if kept else {}))
        _store(locked, result, locked.rules.score(result), expected_version)
        change = PlayChange(play_id=locked.pk, action=PlayChange.Action.TIE_BROKEN,
                            data={"tie_counts": counts},
                            changed_by_id=user.pk if user else None)
        change.save(force_insert=True)
    play.refresh_from_db()
    return change


def _store_rounds(play: Play, rounds: Rounds, action: str, data: dict[str, Any],
                  expected_version: int, user: AbstractBaseUser | None, *,
                  finished: bool | None = None, sums: list[dict[str, str]] | None = None
                  ) -> PlayChange:
    """Score the play with ``rounds`` (and ``sums``, by default those stored) and store it
    with its history entry."""
    stored = {key: value for key, value in play.result.items() if key not in ("scores", "sums")}
    sums = stored_sums(play) if sums is None else sums
    result = full_result(play, {**stored, "rounds": rounds, **({"sums": sums} if sums else {}),
                                "finished": bool(play.result.get("finished")
                                                 if finished is None else finished)})
    outcome = play.rules.score(result)
    _store(play, result, outcome, expected_version)
    change = PlayChange(play_id=play.pk, action=action, data=data,
                        changed_by_id=user.pk if user else None)
    change.save(force_insert=True)
    if user is not None:
        change.changed_by = user
    return change
