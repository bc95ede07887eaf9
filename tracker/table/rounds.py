"""Recording an own game on the score pad, round by round.

A game kept round by round stores ``{"rounds": [{side: points, ...}, ...], "finished":
bool}`` (see :mod:`games.generic`); sides are player keys, or team names in a team game.
Each function here changes that result through :func:`tracker.table.recording._store`, so the
engine checks every round, and writes one history entry: points entered or corrected, a
round undone, the game finished.

Every write names the play's version it saw. A round has no identity but its number, so a
write on an older version is refused (:class:`EditConflict`) rather than merged: after an
undo on another tablet, round 5 may no longer be the round this tablet saw. A write that
finds exactly what it would store (a retried request, a double tap) changes nothing and
is no conflict, so a round is never added twice.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from tracker.table.models import Play, PlayChange
from tracker.table.recording import EditConflict, _store, check_changeable, full_result, lock_sheet

Rounds = list[dict[str, int]]


def stored_rounds(play: Play) -> Rounds:
    """The play's rounds as stored, copied so that changing them changes nothing stored."""
    return [dict(round_) for round_ in play.result.get("rounds") or []]


def kept_round_by_round(play: Play) -> bool:
    """Whether the play is kept on the score pad: an own game with points whose result is
    not final scores only. A team game is entered on the final-scores form, where its teams
    are formed, unless its result has its teams already."""
    return (play.own_game_id is not None and play.rules.scores_points(play.house_rules)
            and "scores" not in play.result
            and (not play.house_rules.get("teams") or "teams" in play.result))


def set_round_points(play: Play, number: int, side: str, points: int, *,
                     expected_version: int, user: AbstractBaseUser | None = None
                     ) -> PlayChange | None:
    """:func:`set_locked_round_points` for ``play``, read and locked here."""
    with transaction.atomic():
        locked = lock_sheet(play.pk)
        change = set_locked_round_points(locked, number, side, points,
                                         expected_version=expected_version, user=user)
    play.refresh_from_db()
    return change


def set_locked_round_points(play: Play, number: int, side: str, points: int, *,
                            expected_version: int, user: AbstractBaseUser | None = None
                            ) -> PlayChange | None:
    """Give ``side`` ``points`` in round ``number`` (from 1; one more than the rounds
    played starts a new round), for a play from :func:`lock_sheet`, inside the caller's
    transaction. The history entry written, or None when the round already held exactly
    these points. InvalidResult, EditConflict or PlayAbandoned change nothing.

    Points for a cell that is still blank overwrite nothing: they are kept even when the
    pad changed since ``expected_version`` (another tablet's round, or the entries a device
    kept while its connection was down). Points for a filled cell need the version seen.
    """
    check_changeable(play)
    rounds = stored_rounds(play)
    if not 1 <= number <= len(rounds) + 1:
        raise EditConflict
    if number <= len(rounds) and rounds[number - 1].get(side) == points:
        return None
    if number > len(rounds):
        rounds.append({})
    previous = rounds[number - 1].get(side)
    if previous is not None and play.version != expected_version:
        raise EditConflict
    rounds[number - 1][side] = points
    data: dict[str, Any] = {"round": number, "side": side, "points": points}
    action = PlayChange.Action.ROUND_POINTS
    if previous is not None:
        data["previous"] = previous
        action = PlayChange.Action.ROUND_CORRECTED
    # The play is locked: the version read with it is the one stored.
    return _store_rounds(play, rounds, action, data, play.version, user)


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
        removed = rounds.pop()
        change = _store_rounds(locked, rounds, PlayChange.Action.ROUND_UNDONE,
                               {"round": len(rounds) + 1, "points": removed},
                               expected_version, user)
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


def _store_rounds(play: Play, rounds: Rounds, action: str, data: dict[str, Any],
                  expected_version: int, user: AbstractBaseUser | None, *,
                  finished: bool | None = None) -> PlayChange:
    """Score the play with ``rounds`` and store it with its history entry."""
    stored = {key: value for key, value in play.result.items() if key != "scores"}
    result = full_result(play, {**stored, "rounds": rounds,
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
