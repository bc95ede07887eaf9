"""The coach's inner loops, compiled with Numba: the worth of each final roll in its best field,
and the value of a turn from those worths, for every state of one sheet at once.

They know no game: every rule reaches them as arrays that ``games.coach.Model`` read from the
engine (points per field and roll, the points and bonuses of five alike on each sheet, the upper
bonus, which field flags a Kniffel of 50). The states of one sheet (its upper sums and Kniffel
flags, up to 128) are the innermost loop, so the compiler works on several at once; the
temporaries stay about half a megabyte. The kernels release the GIL and start no threads of
their own, so server threads may run them side by side.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Indices of the 462 kept multisets: smaller keeps first, the 252 rolls of five dice last.
KEEPS = 462
ROLLS = 252
FIRST_ROLL = KEEPS - ROLLS
FACES = 6


@njit(cache=True, nogil=True, error_model="numpy")
def _final_values(filled, uppers, flags, values, plain, upper_field, threshold, upper_bonus,
                  kniffel_field, kniffel_points, five_points, five_bonus, five_alike, is_five,
                  forbidden, rest, by_points, final):
    """Fill the last 252 rows of ``final`` (rolls x states) with the worth of each final roll
    written into its best open field from each state (``uppers``, ``flags``): the points, the
    bonuses they earn and the value of the sheet after. Five alike (``is_five``) score as
    ``five_points`` places them; ``forbidden``: for each field and roll, whether the rules keep
    the roll out. ``rest`` and ``by_points`` are room for the states' values after a field."""
    states = uppers.size
    final[FIRST_ROLL:, :states] = -np.inf
    for field in range(plain.shape[0]):
        if filled >> field & 1:
            continue
        following = filled | (1 << field)
        if upper_field[field]:
            # An upper field's points take a few values: each is worked out once per state.
            top = 0
            for roll in range(ROLLS):
                top = max(top, plain[field, roll])
            for points in range(top + 1):
                for state in range(states):
                    upper = uppers[state]
                    reached = upper + points
                    bonus = upper_bonus if upper < threshold <= reached else 0
                    by_points[points, state] = float(points + bonus) + values[
                        following, min(reached, threshold), flags[state]]
            for roll in range(ROLLS):
                if is_five[roll] or forbidden[field, roll]:
                    continue
                worth = by_points[plain[field, roll]]
                for state in range(states):
                    final[FIRST_ROLL + roll, state] = max(final[FIRST_ROLL + roll, state],
                                                          worth[state])
        else:
            for state in range(states):
                rest[state] = values[following, uppers[state], flags[state]]
            for roll in range(ROLLS):
                if is_five[roll] or forbidden[field, roll]:
                    continue
                points = float(plain[field, roll])
                for state in range(states):
                    worth = points + rest[state]
                    final[FIRST_ROLL + roll, state] = max(final[FIRST_ROLL + roll, state], worth)
        for face in range(FACES):
            roll = five_alike[face]
            points = five_points[filled, face, field]
            if points < 0 or forbidden[field, roll]:
                continue
            for state in range(states):
                upper = uppers[state]
                flag = flags[state]
                after_flag = flag
                if field == kniffel_field:
                    after_flag = 1 if points == kniffel_points else 0
                extra = float(five_bonus[filled, face, field]) if flag == 1 else 0.0
                if upper_field[field]:
                    reached = upper + points
                    bonus = upper_bonus if upper < threshold <= reached else 0
                    worth = float(points + bonus) + values[
                        following, min(reached, threshold), after_flag] + extra
                else:
                    worth = float(points) + values[following, upper, after_flag] + extra
                final[FIRST_ROLL + roll, state] = max(final[FIRST_ROLL + roll, state], worth)


@njit(cache=True, nogil=True, error_model="numpy")
def _forbidden(filled, plain, must_score_most, out):
    """Fill ``out`` (fields x 252 rolls): whether the rules keep a roll out of a field, which
    with ``must_score_most`` is when it scores more in another open field."""
    out[:] = False
    if not must_score_most:
        return
    for roll in range(ROLLS):
        most = -1
        for field in range(plain.shape[0]):
            if not filled >> field & 1 and plain[field, roll] > most:
                most = plain[field, roll]
        for field in range(plain.shape[0]):
            out[field, roll] = plain[field, roll] < most


@njit(cache=True, nogil=True, error_model="numpy")
def _keep_values(keeps, states, one_more):
    """Fill the first 210 rows of ``keeps`` (the keeps of fewer than five dice) with the mean
    over the six faces of keeping one die more; the rolls (the last 252 rows) are given."""
    for keep in range(FIRST_ROLL - 1, -1, -1):
        row = keeps[keep]
        row[:states] = 0.0
        for face in range(FACES):
            more = keeps[one_more[keep, face]]
            for state in range(states):
                row[state] += more[state]
        for state in range(states):
            row[state] /= FACES


@njit(cache=True, nogil=True, error_model="numpy")
def _best_keeps(keeps, states, fewer):
    """Turn keep values into the best value of keeping any part of each multiset, in place:
    the keeps come smallest first, so every part is settled before the whole."""
    for keep in range(1, KEEPS):
        row = keeps[keep]
        for position in range(fewer.shape[1]):
            part = keeps[fewer[keep, position]]
            for state in range(states):
                row[state] = max(row[state], part[state])


@njit(cache=True, nogil=True, error_model="numpy")
def solve_masks(values, masks, rerolls, plain, upper_field, threshold, upper_bonus,
                kniffel_field, kniffel_points, five_points, five_bonus, five_alike,
                must_score_most, reachable, upper_mask, within_reach, one_more, fewer,
                probability):
    """Compute ``values`` for the sheets ``masks``, in that order (every sheet after those it
    leads to). Each sheet's states are its reachable upper sums (``reachable``, by its filled
    upper fields) and Kniffel flags; the states whose bonus is out of reach (an upper sum below
    ``within_reach``) are worth the same, so the first of them is computed and copied."""
    most_states = values.shape[1] * values.shape[2]
    keeps = np.empty((KEEPS, most_states))
    rest = np.empty(most_states)
    by_points = np.empty((plain.max() + 1, most_states))
    uppers = np.empty(most_states, dtype=np.int64)
    flags = np.empty(most_states, dtype=np.int64)
    forbidden = np.empty((plain.shape[0], ROLLS), dtype=np.bool_)
    is_five = np.zeros(ROLLS, dtype=np.bool_)
    is_five[five_alike] = True
    full = (1 << plain.shape[0]) - 1
    for filled in masks:
        kinds = 2 if kniffel_field >= 0 and filled >> kniffel_field & 1 else 1
        sums = reachable[filled & upper_mask]
        if filled == full:
            for upper in range(sums.size):
                if sums[upper]:
                    values[filled, upper, :kinds] = 0.0
            continue
        states = 0
        hopeless = -1
        for upper in range(sums.size):
            if not sums[upper] or (upper < within_reach[filled] and hopeless >= 0):
                continue
            if upper < within_reach[filled]:
                hopeless = upper
            for flag in range(kinds):
                uppers[states] = upper
                flags[states] = flag
                states += 1
        _forbidden(filled, plain, must_score_most, forbidden)
        _final_values(filled, uppers[:states], flags[:states], values, plain, upper_field,
                      threshold, upper_bonus, kniffel_field, kniffel_points, five_points,
                      five_bonus, five_alike, is_five, forbidden, rest, by_points, keeps)
        for _ in range(rerolls):
            _keep_values(keeps, states, one_more)
            _best_keeps(keeps, states, fewer)
        for state in range(states):
            turn = 0.0
            for roll in range(ROLLS):
                turn += probability[roll] * keeps[FIRST_ROLL + roll, state]
            values[filled, uppers[state], flags[state]] = turn
        if hopeless >= 0:
            for upper in range(hopeless + 1, within_reach[filled]):
                if sums[upper]:
                    values[filled, upper, :kinds] = values[filled, hopeless, :kinds]
