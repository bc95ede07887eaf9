"""A plain numpy solver of solitaire Yahtzee, the yardstick for the coach's speed.

Written apart from ``games/coach.py`` and the rules engine: the official rules as Verhoeff
(1999) reads them, whose empty sheet is worth 254.5896. Thirteen boxes, 35 for 63 in the upper
section, 100 for each further Yahtzee while the Yahtzee box holds 50; a further Yahtzee may go
into any open box, and Full House and the straights take 25, 30 and 40 for it only once the
matching upper box is filled.

It is what a careful numpy programmer writes: the states of one level (sheets with the same
number of boxes filled) in batches, every operation over the whole batch; the reachable upper
sums and Yahtzee flags only, and one state for all upper sums from which the bonus is
out of reach. The final-roll values gather the following states' values box by
box; a keep's value is the mean over the six faces of keeping one die more; the best keep of a
roll the better of itself and the best keeps with one die fewer.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np

BOXES = 13
UPPER = 6
THREE_KIND, FOUR_KIND, FULL_HOUSE, SMALL, LARGE, YAHTZEE, CHANCE = range(6, 13)
THRESHOLD, UPPER_BONUS, YAHTZEE_BONUS = 63, 35, 100
JOKER = {FULL_HOUSE: 25, SMALL: 30, LARGE: 40}
#: States whose values are worked out together.
BATCH = 4096

KEEPS = [keep for size in range(6) for keep in itertools.combinations_with_replacement(
    range(1, 7), size)]
INDEX = {keep: index for index, keep in enumerate(KEEPS)}
ROLLS = np.array([INDEX[roll] for roll in itertools.combinations_with_replacement(range(1, 7), 5)])
DICE = [KEEPS[index] for index in ROLLS]
SIZES = [np.array([INDEX[keep] for keep in KEEPS if len(keep) == size]) for size in range(6)]
#: Per size below five: for each keep, the keep with one more die of each face.
MORE = [np.array([[INDEX[tuple(sorted(KEEPS[index] + (face,)))] for face in range(1, 7)]
                  for index in SIZES[size]]) for size in range(5)]


def _fewer(keep: tuple[int, ...]) -> list[int]:
    parts = [INDEX[keep[:position] + keep[position + 1:]] for position in range(len(keep))]
    return parts + [INDEX[keep]] * (5 - len(parts))


#: Per size from one: for each keep, the keeps with one die fewer (padded with itself).
FEWER = [None, *(np.array([_fewer(KEEPS[index]) for index in SIZES[size]])
                 for size in range(1, 6))]
PROBABILITY = np.array([math.factorial(5) / math.prod(map(math.factorial, Counter(d).values()))
                        / 6 ** 5 for d in DICE])
FIVE_ALIKE = np.array([DICE.index((face,) * 5) for face in range(1, 7)])


def score(box: int, dice: tuple[int, ...]) -> int:
    counts = sorted(Counter(dice).values())
    faces = set(dice)
    if box < UPPER:
        return (box + 1) * dice.count(box + 1)
    if box == THREE_KIND:
        return sum(dice) if counts[-1] >= 3 else 0
    if box == FOUR_KIND:
        return sum(dice) if counts[-1] >= 4 else 0
    if box == FULL_HOUSE:
        return 25 if counts == [2, 3] else 0
    if box == SMALL:
        return 30 if any({s, s + 1, s + 2, s + 3} <= faces for s in (1, 2, 3)) else 0
    if box == LARGE:
        return 40 if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    if box == YAHTZEE:
        return 50 if counts == [5] else 0
    return sum(dice)


SCORES = np.array([[score(box, dice) for dice in DICE] for box in range(BOXES)])


def reachable_uppers() -> np.ndarray:
    """For each set of filled upper boxes: which capped upper sums it can hold."""
    reachable = np.zeros((1 << UPPER, THRESHOLD + 1), dtype=bool)
    reachable[0, 0] = True
    for filled in range(1, 1 << UPPER):
        box = filled.bit_length() - 1
        for before in np.flatnonzero(reachable[filled ^ 1 << box]):
            for count in range(6):
                reachable[filled, min(THRESHOLD, before + count * (box + 1))] = True
    return reachable


def final_values(values: np.ndarray, masks: np.ndarray, uppers: np.ndarray, flags: np.ndarray
                 ) -> np.ndarray:
    """The best worth of each final roll for each state: shape (252, states)."""
    best = np.full((len(masks), len(DICE)), -np.inf)
    yahtzee_filled = (masks >> YAHTZEE & 1).astype(bool)
    for box in range(BOXES):
        is_open = ~(masks >> box & 1).astype(bool)
        if not is_open.any():
            continue
        points = np.broadcast_to(SCORES[box], best.shape).copy()
        if box in JOKER:
            for face, roll in enumerate(FIVE_ALIKE):
                joker = yahtzee_filled & (masks >> face & 1).astype(bool)
                points[joker, roll] = JOKER[box]
        after = (masks | 1 << box)[:, None]
        extra = np.zeros(best.shape)
        extra[:, FIVE_ALIKE] = np.where(flags == 1, YAHTZEE_BONUS, 0)[:, None]
        if box < UPPER:
            reached = uppers[:, None] + points
            bonus = np.where((uppers[:, None] < THRESHOLD) & (reached >= THRESHOLD),
                             UPPER_BONUS, 0)
            worth = points + bonus + values[after, np.minimum(reached, THRESHOLD),
                                            flags[:, None]]
        elif box == YAHTZEE:
            worth = points + values[after, uppers[:, None], (points == 50).astype(int)]
        else:
            worth = points + values[after, uppers[:, None], flags[:, None]]
        np.maximum(best, np.where(is_open[:, None], worth + extra, -np.inf), out=best)
    return best.T


def turn_values(finals: np.ndarray) -> np.ndarray:
    """From the final-roll values (252, states): the expected value of the whole turn."""
    rolls = finals
    for _ in range(2):
        keeps = np.empty((len(KEEPS), rolls.shape[1]))
        keeps[ROLLS] = rolls
        for size in range(4, -1, -1):
            keeps[SIZES[size]] = keeps[MORE[size]].mean(axis=1)
        for size in range(1, 6):
            keeps[SIZES[size]] = np.maximum(keeps[SIZES[size]],
                                            keeps[FEWER[size]].max(axis=1))
        rolls = keeps[ROLLS]
    return PROBABILITY @ rolls


def solve(open_at_most: int | None = None) -> np.ndarray:
    """The value of every reachable state with at most ``open_at_most`` boxes open: shape
    (2**13, 64, 2), NaN elsewhere."""
    open_at_most = BOXES if open_at_most is None else open_at_most
    values = np.full((1 << BOXES, THRESHOLD + 1, 2), np.nan)
    reachable = reachable_uppers()
    values[(1 << BOXES) - 1] = 0.0
    for filled_count in range(BOXES - 1, BOXES - open_at_most - 1, -1):
        masks, uppers, flags, copies = [], [], [], []
        for mask in range(1 << BOXES):
            if mask.bit_count() != filled_count:
                continue
            sums = np.flatnonzero(reachable[mask & (1 << UPPER) - 1])
            # Below this sum the bonus is out of reach and the sum no longer matters.
            hopeless = sums[sums < THRESHOLD - sum(5 * (box + 1) for box in range(UPPER)
                                                   if not mask >> box & 1)]
            if len(hopeless) > 1:
                copies.append((mask, hopeless))
                sums = sums[len(hopeless) - 1:]
            for flag in range(2 if mask >> YAHTZEE & 1 else 1):
                masks.append(np.full(len(sums), mask))
                uppers.append(sums)
                flags.append(np.full(len(sums), flag))
        masks, uppers, flags = map(np.concatenate, (masks, uppers, flags))
        for start in range(0, len(masks), BATCH):
            part = slice(start, start + BATCH)
            turns = turn_values(final_values(values, masks[part], uppers[part], flags[part]))
            values[masks[part], uppers[part], flags[part]] = turns
        for mask, hopeless in copies:
            values[mask, hopeless[:-1]] = values[mask, hopeless[-1]]
    return values
