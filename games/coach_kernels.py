"""The coach's inner loops, compiled with Numba: the worth of each final roll in each field,
and the value of a turn from those worths.

They know no game: every rule reaches them as arrays that ``games.coach.Model`` read from the
engine (points per field and roll, the points and bonuses of five alike on each sheet, the upper
bonus, which field flags a Kniffel of 50). One state is worked through at a time, so the
temporaries stay a few kilobytes; the kernels release the GIL and start no threads of their own,
so server threads may run them side by side.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Indices of the 462 kept multisets: smaller keeps first, the 252 rolls of five dice last.
KEEPS = 462
ROLLS = 252
FIRST_ROLL = KEEPS - ROLLS
FACES = 6


@njit(cache=True, nogil=True)
def _field_worths(field, filled, upper, flag, values, plain, upper_field, threshold, upper_bonus,
                  kniffel_field, kniffel_points, five_points, five_bonus, five_alike, most,
                  row):
    """Fill ``row`` with the worth of writing each final roll into the open ``field`` from
    state (filled, upper, flag): its points, the bonuses they earn and the value of the sheet
    after; -inf where the rules forbid it. ``most``: the most each roll scores in an open field,
    or an empty array when a roll may go into any open field."""
    following = filled | (1 << field)
    if upper_field[field]:
        for roll in range(ROLLS):
            points = plain[field, roll]
            reached = upper + points
            bonus = upper_bonus if upper < threshold <= reached else 0
            row[roll] = float(points + bonus) + values[following, min(reached, threshold), flag]
    else:
        rest = values[following, upper, flag]
        for roll in range(ROLLS):
            row[roll] = float(plain[field, roll]) + rest
    for face in range(FACES):
        roll = five_alike[face]
        points = five_points[filled, face, field]
        if points < 0:
            row[roll] = -np.inf
            continue
        after_flag = flag
        if field == kniffel_field:
            after_flag = 1 if points == kniffel_points else 0
        extra = float(five_bonus[filled, face, field]) if flag == 1 else 0.0
        if upper_field[field]:
            reached = upper + points
            bonus = upper_bonus if upper < threshold <= reached else 0
            row[roll] = float(points + bonus) + values[
                following, min(reached, threshold), after_flag] + extra
        else:
            row[roll] = float(points) + values[following, upper, after_flag] + extra
    if most.size:
        for roll in range(ROLLS):
            if plain[field, roll] < most[roll]:
                row[roll] = -np.inf


@njit(cache=True, nogil=True)
def _most(filled, plain, must_score_most, out):
    """Fill ``out`` with the most each roll scores in an open field (when the rules make a roll
    go there); return ``out`` or an empty array."""
    if not must_score_most:
        return out[:0]
    out[:] = -1
    for field in range(plain.shape[0]):
        if not filled >> field & 1:
            for roll in range(ROLLS):
                if plain[field, roll] > out[roll]:
                    out[roll] = plain[field, roll]
    return out


@njit(cache=True, nogil=True)
def keep_values(keeps, one_more):
    """Fill the first 210 entries of ``keeps`` (the keeps of fewer than five dice) with the
    mean over the six faces of keeping one die more; the rolls (the last 252) are given."""
    for keep in range(FIRST_ROLL - 1, -1, -1):
        total = 0.0
        for face in range(FACES):
            total += keeps[one_more[keep, face]]
        keeps[keep] = total / FACES


@njit(cache=True, nogil=True)
def best_keeps(keeps, fewer):
    """Turn keep values into the best value of keeping any part of each multiset, in place:
    the keeps come smallest first, so every part is settled before the whole."""
    for keep in range(1, KEEPS):
        best = keeps[keep]
        for position in range(fewer.shape[1]):
            part = fewer[keep, position]
            if keeps[part] > best:
                best = keeps[part]
        keeps[keep] = best


@njit(cache=True, nogil=True)
def with_rolls_left(keeps, rolls_left, one_more, fewer):
    """``keeps[210:]`` holds the values of the final rolls; afterwards it holds their values
    with ``rolls_left`` rerolls allowed."""
    for _ in range(rolls_left):
        keep_values(keeps, one_more)
        best_keeps(keeps, fewer)


@njit(cache=True, nogil=True)
def solve_masks(values, masks, rerolls, plain, upper_field, threshold, upper_bonus,
                kniffel_field, kniffel_points, five_points, five_bonus, five_alike,
                must_score_most, reachable, upper_mask, within_reach, one_more, fewer,
                probability):
    """Compute ``values`` for the sheets ``masks``, in that order (every sheet after those it
    leads to). Each sheet's states are its reachable upper sums (``reachable``, by its filled
    upper fields) and Kniffel flags; the states whose bonus is out of reach (an upper sum below
    ``within_reach``) are worth the same, so the first of them is computed and copied."""
    keeps = np.empty(KEEPS)
    row = np.empty(ROLLS)
    most = np.empty(ROLLS, dtype=plain.dtype)
    full = (1 << plain.shape[0]) - 1
    for filled in masks:
        flags = 2 if kniffel_field >= 0 and filled >> kniffel_field & 1 else 1
        sums = reachable[filled & upper_mask]
        if filled == full:
            for upper in range(sums.size):
                if sums[upper]:
                    values[filled, upper, :flags] = 0.0
            continue
        allowed = _most(filled, plain, must_score_most, most)
        hopeless = -1
        for upper in range(sums.size):
            if not sums[upper]:
                continue
            if upper < within_reach[filled]:
                if hopeless >= 0:
                    values[filled, upper, :flags] = values[filled, hopeless, :flags]
                    continue
                hopeless = upper
            for flag in range(flags):
                final = keeps[FIRST_ROLL:]
                final[:] = -np.inf
                for field in range(plain.shape[0]):
                    if filled >> field & 1:
                        continue
                    _field_worths(field, filled, upper, flag, values, plain, upper_field,
                                  threshold, upper_bonus, kniffel_field, kniffel_points,
                                  five_points, five_bonus, five_alike, allowed, row)
                    for roll in range(ROLLS):
                        if row[roll] > final[roll]:
                            final[roll] = row[roll]
                with_rolls_left(keeps, rerolls, one_more, fewer)
                turn = 0.0
                for roll in range(ROLLS):
                    turn += probability[roll] * keeps[FIRST_ROLL + roll]
                values[filled, upper, flag] = turn
