"""The Kniffel coach: optimal play of one sheet, worked out by backward induction.

The coach plays solitaire: it maximises the expected final score of one
player's sheet and pays no attention to the other players. It knows the games
only through the rules engine: what a roll scores in each field
(``roll_points``), which fields a roll may be written into (``options``, with
the joker for further Kniffels), and whether an entry earns the further-Kniffel
bonus (``further_kniffel``). So every house rule the engine knows is played as
the engine scores it.

A turn: roll all five dice, keep any of them and roll the rest, keep and roll
once more, then write the roll into one open field the rules allow. Between
turns the coach knows the *state* of a sheet:

* which fields are filled;
* the upper sum, counted up to the bonus threshold (63 in Kniffel), because
  beyond it only whether the bonus was reached matters; a game without an
  upper bonus (Weltraum-Kniffel) does not track it;
* whether the Kniffel field holds 50, tracked only where further Kniffels earn
  a bonus.

The value of a state is the expected number of points still to come under
optimal play: the fields' points, the upper bonus in the turn that reaches the
threshold, and further-Kniffel bonuses in the turn they are rolled. A full
sheet is worth 0; every other state is worth the expected best turn from it,
so the values are computed from full sheets back to the empty one. Under the
official Yahtzee rules (thirteen fields, 35 at 63, 100 for every further
Yahtzee, a joker) the empty sheet is worth 254.5896 (Verhoeff 1999; Glenn
2006); which joker that is, is said below.

Within a turn the five dice are handled as multisets: 252 rolls, 462 ways to
keep some of them (including none and all five). The value of keeping some
dice is the mean, over the six faces, of the value of keeping one die more,
because the rerolled dice are independent; the best keep from a roll is the
better of keeping it whole and the best keep of each roll with one die fewer.

The loops over states, rolls and keeps are compiled (``games.coach_kernels``, with Numba);
they see the rules only as the arrays this module reads from the engine. Answering a question
from a table needs numpy only, not the compiler.

Questions the coach answers for a sheet, a roll and the rolls left: which
field to write the roll into, and what each allowed field is worth; with rolls
left, which dice to keep and what each keep is worth. A worth is the expected
points still to come, this turn's points included.

Tables of the state values are computed once per game and house rules and
stored as ``.npz`` files named after the game and a digest of the house rules
that change play and of the engine's code, so a changed rule never reads an old
table. House rules that play alike (Schmidt's joker and the forced joker) share
one computation. States whose upper bonus is out of reach are worth the same
whatever their upper sum: one of them is computed and its value copied.

The published 254.5896 is for Verhoeff's reading of the official rules: a
further Yahtzee may go into any open field, and Full House and the straights
take their full value only once the matching upper field is filled (the joker
house rule ``free_after_upper``). With the forced joker of Hasbro's rule sheet
(``forced_upper``: the matching upper field first, then the lower part) the
optimum is 254.5877. ``python -m games.coach_tables`` computes every table and prints
the value of the empty sheet under each set of house rules.
"""

from __future__ import annotations

import hashlib
import inspect
import io
import itertools
import json
import math
import os
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from games.dice_sheet import DICE, DiceSheetRules
from games.kniffel import KNIFFEL, UPPER_BONUS, UPPER_BONUS_THRESHOLD, Kniffel

#: Rolls in one turn: the first and up to two rerolls.
ROLLS_PER_TURN = 3
FACES = 6
#: Raised whenever the computation changes, so tables stored by an older coach are not read.
TABLE_VERSION = 2
NOT_ALLOWED = -1


# The dice of one turn ------------------------------------------------------------------------

def _multisets(size: int) -> list[tuple[int, ...]]:
    """Every multiset of ``size`` dice, as counts per face."""
    return [tuple(Counter(faces).get(face, 0) for face in range(FACES))
            for faces in itertools.combinations_with_replacement(range(FACES), size)]


KEPT: tuple[tuple[int, ...], ...] = tuple(
    counts for size in range(DICE + 1) for counts in _multisets(size))
KEPT_INDEX = {counts: index for index, counts in enumerate(KEPT)}
#: Indices of the kept multisets of each size: consecutive, smallest first, five dice last.
BY_SIZE = tuple(np.array([index for index, counts in enumerate(KEPT) if sum(counts) == size])
                for size in range(DICE + 1))
ROLLS = BY_SIZE[DICE]
ROLL_COUNTS = np.array([KEPT[index] for index in ROLLS])
ROLL_INDEX = {KEPT[index]: position for position, index in enumerate(ROLLS)}
#: For each multiset of fewer than five dice (the first 210 of ``KEPT``): the multiset with one
#: die more of each face.
ONE_MORE = np.array([[KEPT_INDEX[tuple(c + (face == f) for f, c in enumerate(counts))]
                      for face in range(FACES)] for counts in KEPT if sum(counts) < DICE])


def _one_fewer(counts: tuple[int, ...]) -> list[int]:
    """The multisets with one die fewer, one for each face ``counts`` shows, the first
    repeated up to five (the empty multiset: itself)."""
    fewer = [KEPT_INDEX[tuple(c - (f == face) for f, c in enumerate(counts))]
             for face in range(FACES) if counts[face]] or [KEPT_INDEX[counts]]
    return fewer + fewer[:1] * (DICE - len(fewer))


#: For each multiset: the multisets with one die fewer (repeated where it shows fewer faces).
FEWER = np.array([_one_fewer(counts) for counts in KEPT])
ROLL_PROBABILITY = np.array([
    math.factorial(DICE) / math.prod(math.factorial(c) for c in counts) / FACES ** DICE
    for counts in ROLL_COUNTS])
FIVE_ALIKE = np.array([ROLL_INDEX[tuple(DICE * (f == face) for f in range(FACES))]
                       for face in range(FACES)])


def with_rolls_left(final_values: np.ndarray, rolls_left: int) -> np.ndarray:
    """The value of each of the 462 keeps (the 252 rolls last), the other dice rolled once and
    ``rolls_left`` rerolls allowed after that, from the values of the 252 rolls as the final
    roll of the turn. The compiled solver does the same for every state; this one serves a
    single question."""
    values = np.empty(len(KEPT))
    values[ROLLS] = final_values
    for rerolls in range(rolls_left + 1):
        for size in range(DICE - 1, -1, -1):
            values[BY_SIZE[size]] = values[ONE_MORE[BY_SIZE[size]]].sum(axis=1) / FACES
        if rerolls == rolls_left:
            break
        for size in range(1, DICE + 1):
            values[BY_SIZE[size]] = np.maximum(values[BY_SIZE[size]],
                                               values[FEWER[BY_SIZE[size]]].max(axis=1))
    return values


# What the coach reads from the engine --------------------------------------------------------

@dataclass(frozen=True)
class State:
    """A sheet as the coach sees it between turns."""

    filled: int  # one bit per field, in the order of the sheet
    upper: int  # the upper sum, capped at the bonus threshold; 0 without a bonus
    kniffel_fifty: int  # 1 when the Kniffel field holds 50 and further Kniffels earn a bonus


class Model:
    """A dice-sheet game under its house rules, as arrays the coach computes with."""

    def __init__(self, rules: DiceSheetRules, house_rules: Mapping[str, Any] | None = None,
                 five_alike: tuple[np.ndarray, np.ndarray] | None = None):
        """``five_alike``: the arrays :meth:`_five_alike` reads from the engine, when they were
        stored with a table (reading them takes the engine about a second)."""
        self.rules = rules
        self.house_rules = rules.default_house_rules() | dict(house_rules or {})
        self.fields = rules.field_keys
        self.upper_fields = tuple(index for index, field in enumerate(rules.fields)
                                  if field.upper)
        kniffel = isinstance(rules, Kniffel)
        self.bonus_threshold = UPPER_BONUS_THRESHOLD if kniffel else 0
        self.upper_bonus = UPPER_BONUS if kniffel else 0
        self.further_bonus = self.house_rules["extra_kniffel_bonus"] if kniffel else 0
        self.kniffel_field = (self.fields.index("kniffel")
                              if kniffel and self.further_bonus else None)
        self.dice = [tuple(face for face, count in zip(rules.faces, counts, strict=True)
                           for _ in range(count)) for counts in ROLL_COUNTS]
        self.plain = np.array([[rules.roll_points(field, Counter(dice), self.house_rules)
                                for dice in self.dice] for field in self.fields])
        self.must_score_most = rules.must_score_most(self.house_rules)
        self.five_alike_points, self.five_alike_bonus = five_alike or self._five_alike()
        if self.five_alike_points.shape != (1 << len(self.fields), FACES, len(self.fields)):
            raise ValueError("five-alike arrays of another game")

    @property
    def uppers(self) -> int:
        return self.bonus_threshold + 1

    @property
    def flags(self) -> int:
        return 2 if self.kniffel_field is not None else 1

    @property
    def shape(self) -> tuple[int, int, int]:
        return (1 << len(self.fields), self.uppers, self.flags)

    def _five_alike(self) -> tuple[np.ndarray, np.ndarray]:
        """For every set of filled fields and every five alike: the points each field takes
        from the engine's options (NOT_ALLOWED where the joker rule forbids it), and the
        further-Kniffel bonus the entry earns while the Kniffel field holds 50."""
        count = len(self.fields)
        points = np.full((1 << count, FACES, count), NOT_ALLOWED, dtype=np.int16)
        bonus = np.zeros((1 << count, FACES, count), dtype=np.int16)
        fifty = {"kniffel": KNIFFEL}
        position = {key: index for index, key in enumerate(self.fields)}
        # The bonus depends on the field, the dice and the points, not on the rest of the sheet:
        # asked once for each, not for each of the 8,192 sheets.
        further: dict[tuple[str, int, int], int] = {}
        for filled in range(1 << count):
            sheet = {key: 0 for index, key in enumerate(self.fields) if filled >> index & 1}
            for face, roll in enumerate(FIVE_ALIKE):
                dice = self.dice[roll]
                for key, got in self.rules.options(dice, sheet, self.house_rules).items():
                    index = position[key]
                    points[filled, face, index] = got
                    if self.further_bonus:
                        entry = (key, face, got)
                        if entry not in further:
                            earns = self.rules.further_kniffel(key, dice, got, fifty,
                                                               self.house_rules)
                            further[entry] = self.further_bonus if earns else 0
                        bonus[filled, face, index] = further[entry]
        return points, bonus

    @property
    def table_name(self) -> str:
        return table_name(self.rules, self.house_rules)

    def plays_like(self, other: Model) -> bool:
        """Whether ``other`` scores and places every roll as this model does (so one table
        serves both)."""
        return (self.rules.key == other.rules.key
                and (self.bonus_threshold, self.upper_bonus, self.further_bonus,
                     self.kniffel_field) == (other.bonus_threshold, other.upper_bonus,
                                             other.further_bonus, other.kniffel_field)
                and all(np.array_equal(mine, theirs) for mine, theirs in (
                    (self.plain, other.plain),
                    (self.five_alike_points, other.five_alike_points),
                    (self.five_alike_bonus, other.five_alike_bonus))))

    @cached_property
    def reachable_uppers(self) -> np.ndarray:
        """For every set of filled upper fields (bits in sheet order): the upper sums they
        can hold, capped at the threshold."""
        upper_bits = [1 << index for index in self.upper_fields]
        reachable = np.zeros((1 << len(self.fields), self.uppers), dtype=bool)
        reachable[0, 0] = True
        field_points = {
            bit: sorted(set(self.plain[index]) | {int(p) for p in np.unique(
                self.five_alike_points[:, :, index]) if p != NOT_ALLOWED})
            for index, bit in zip(self.upper_fields, upper_bits, strict=True)}
        for subset in range(1, 1 << len(upper_bits)):
            filled = sum(bit for position, bit in enumerate(upper_bits) if subset >> position & 1)
            lowest = filled & -filled
            for before in np.flatnonzero(reachable[filled ^ lowest]):
                for got in field_points[lowest]:
                    reachable[filled, min(self.bonus_threshold, before + got)] = True
        return reachable

    def upper_mask(self) -> int:
        return sum(1 << index for index in self.upper_fields)

    def states_of(self, filled: int) -> tuple[np.ndarray, np.ndarray]:
        """The upper sums and Kniffel flags a sheet with these filled fields can have."""
        uppers = np.flatnonzero(self.reachable_uppers[filled & self.upper_mask()])
        kniffel_filled = self.kniffel_field is not None and filled >> self.kniffel_field & 1
        return uppers, np.arange(2 if kniffel_filled else 1)

    def bonus_within_reach_from(self, filled: int) -> int:
        """The lowest upper sum from which the open upper fields can still reach the bonus.
        Below it the upper sum no longer matters: those states are worth the same."""
        if not self.bonus_threshold:
            return 0
        still = sum(int(self.upper_points[index].max()) for index in self.upper_fields
                    if not filled >> index & 1)
        return self.bonus_threshold - still

    def state(self, sheet: Mapping[str, Any]) -> State:
        """The state of a sheet (field key to points; missing or None: open)."""
        filled = sum(1 << index for index, key in enumerate(self.fields)
                     if sheet.get(key) is not None)
        upper = min(self.bonus_threshold,
                    sum(sheet.get(self.fields[index]) or 0 for index in self.upper_fields))
        fifty = int(self.kniffel_field is not None and sheet.get("kniffel") == KNIFFEL)
        return State(filled, upper, fifty)

    def roll(self, dice: Sequence[Any]) -> int:
        """The position among the 252 rolls of five dice given as the game's faces."""
        read = self.rules.read_dice(dice)
        return ROLL_INDEX[tuple(read.count(face) for face in self.rules.faces)]

    @cached_property
    def upper_points(self) -> dict[int, np.ndarray]:
        """For each upper field: the points of none to five dice of its face there."""
        points = {}
        for index in self.upper_fields:
            by_count = np.zeros(DICE + 1, dtype=self.plain.dtype)
            by_count[ROLL_COUNTS[:, index]] = self.plain[index]
            if not np.array_equal(by_count[ROLL_COUNTS[:, index]], self.plain[index]):
                raise ValueError(f"{self.fields[index]} does not score by its own face")
            points[index] = by_count
        return points

    def not_scoring_most(self, filled: int) -> np.ndarray | None:
        """Where a roll may not go under the engine's ``must_score_most``: for each field and
        each of the 252 rolls, whether another open field scores more (shape (fields, 252));
        None when the house rules allow any open field."""
        if not self.must_score_most:
            return None
        open_fields = [index for index in range(len(self.fields)) if not filled >> index & 1]
        return self.plain < self.plain[open_fields].max(axis=0)

    @cached_property
    def within_reach(self) -> np.ndarray:
        """For every set of filled fields: :meth:`bonus_within_reach_from`."""
        return np.array([self.bonus_within_reach_from(filled)
                         for filled in range(1 << len(self.fields))])

    @cached_property
    def kernel_rules(self) -> tuple[Any, ...]:
        """The rules as the compiled loops of ``coach_kernels`` read them."""
        upper_field = np.zeros(len(self.fields), dtype=np.bool_)
        if self.bonus_threshold:
            upper_field[list(self.upper_fields)] = True
        return (self.plain.astype(np.int64), upper_field, self.bonus_threshold,
                self.upper_bonus, -1 if self.kniffel_field is None else self.kniffel_field,
                KNIFFEL, self.five_alike_points, self.five_alike_bonus, FIVE_ALIKE,
                self.must_score_most)

    def worths(self, values: np.ndarray, state: State) -> np.ndarray:
        """For each field (rows): the worth of writing each of the 252 final rolls there from
        ``state``: its points, the bonuses they earn, and the value of the sheet after; -inf
        for filled fields and where the rules forbid it. The compiled solver works out the
        same for every state (``coach_kernels._final_values``); this one answers a single
        question without loading the compiler."""
        worth = np.full((len(self.fields), len(ROLLS)), -np.inf)
        forbidden = self.not_scoring_most(state.filled)
        for index in range(len(self.fields)):
            if state.filled >> index & 1:
                continue
            following = values[state.filled | 1 << index]
            five = self.five_alike_points[state.filled, :, index]
            points = self.plain[index].copy()
            points[FIVE_ALIKE] = np.where(five == NOT_ALLOWED, 0, five)
            flag = np.full(len(ROLLS), state.kniffel_fifty)
            if index == self.kniffel_field:
                flag[FIVE_ALIKE] = five == KNIFFEL
            extra = np.zeros(len(ROLLS))
            if state.kniffel_fifty:
                extra[FIVE_ALIKE] = self.five_alike_bonus[state.filled, :, index]
            if self.bonus_threshold and index in self.upper_fields:
                reached = state.upper + points
                bonus = np.where(state.upper < self.bonus_threshold <= reached,
                                 self.upper_bonus, 0)
                rest = following[np.minimum(reached, self.bonus_threshold), flag]
                worth[index] = (points + bonus) + rest + extra
            else:
                worth[index] = points + following[state.upper, flag] + extra
            worth[index, FIVE_ALIKE[five == NOT_ALLOWED]] = -np.inf
            if forbidden is not None:
                worth[index, forbidden[index]] = -np.inf
        return worth


def _masks_by_filled_count(count: int) -> list[list[int]]:
    by_count: list[list[int]] = [[] for _ in range(count + 1)]
    for filled in range(1 << count):
        by_count[filled.bit_count()].append(filled)
    return by_count


def solve(model: Model, open_at_most: int | None = None) -> np.ndarray:
    """The value of every state, shape (2**fields, uppers, flags); NaN for states no sheet
    can reach, and with ``open_at_most``, for sheets with more fields open than that."""
    values = np.full(model.shape, np.nan)
    count = len(model.fields)
    by_count = _masks_by_filled_count(count)
    fewest_filled = 0 if open_at_most is None else max(0, count - open_at_most)
    masks = np.array([filled for filled_count in range(count, fewest_filled - 1, -1)
                      for filled in by_count[filled_count]])
    from games import coach_kernels  # the compiler is loaded where tables are computed only

    coach_kernels.solve_masks(values, masks, ROLLS_PER_TURN - 1, *model.kernel_rules,
                              model.reachable_uppers, model.upper_mask(), model.within_reach,
                              ONE_MORE, FEWER, ROLL_PROBABILITY)
    return values


# Advice ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FieldOption:
    """Writing the roll into ``field``: its points, bonuses earned with it, and the expected
    points still to come from this turn on."""

    field: str
    points: int
    bonus: int
    worth: float


@dataclass(frozen=True)
class KeepOption:
    """Keeping ``dice`` and rolling the rest: the expected points still to come."""

    dice: tuple[Any, ...]
    worth: float


@dataclass(frozen=True)
class Advice:
    """The coach's view of one roll: field options and (with rolls left) keeps, best first."""

    fields: list[FieldOption]
    keeps: list[KeepOption]
    rolls_left: int

    @property
    def best_field(self) -> FieldOption:
        return self.fields[0]

    @property
    def best_keep(self) -> KeepOption | None:
        return self.keeps[0] if self.keeps else None

    @property
    def reroll(self) -> bool:
        """Whether the coach would roll again rather than write the roll now."""
        return bool(self.keeps) and len(self.keeps[0].dice) < DICE


@dataclass(frozen=True)
class TurnReview:
    """One turn of a finished sheet weighed: the field chosen for the final dice against the
    coach's field for them. ``expected_before`` is the value of the sheet before the turn;
    ``luck`` how much the final dice were worth above it; ``lost`` what the choice gave away."""

    field: str
    points: int
    dice: tuple[Any, ...] | None
    expected_before: float
    chosen_worth: float
    best: FieldOption | None
    allowed: bool

    @property
    def luck(self) -> float | None:
        return None if self.best is None else self.best.worth - self.expected_before

    @property
    def lost(self) -> float | None:
        return None if self.best is None else max(0.0, self.best.worth - self.chosen_worth)

    @property
    def change(self) -> float:
        """How the turn moved the expected final score."""
        return self.chosen_worth - self.expected_before


class Coach:
    """Advice for one game under its house rules, from a table of state values."""

    def __init__(self, model: Model, values: np.ndarray):
        if values.shape != model.shape:
            raise ValueError(f"a table of shape {values.shape} for a model of {model.shape}")
        self.model = model
        self.values = values

    def expected(self, sheet: Mapping[str, Any]) -> float:
        """The expected points still to come on ``sheet`` with optimal play."""
        state = self.model.state(sheet)
        return float(self.values[state.filled, state.upper, state.kniffel_fifty])

    def advise(self, sheet: Mapping[str, Any], dice: Sequence[Any], rolls_left: int = 0
               ) -> Advice:
        """What to do with ``dice`` on ``sheet``: the fields it may be written into and their
        worth, and with ``rolls_left`` (0 to 2) the dice worth keeping. A ValueError when the
        sheet is full or ``rolls_left`` is out of range; InvalidResult for unreadable dice."""
        if not 0 <= rolls_left < ROLLS_PER_TURN:
            raise ValueError(f"{rolls_left} rolls left")
        state = self.model.state(sheet)
        roll = self.model.roll(dice)
        if state.filled == (1 << len(self.model.fields)) - 1:
            raise ValueError("the sheet is full")
        worth = self.model.worths(self.values, state)
        options = [self._field_option(index, roll, worth[index], state)
                   for index in range(len(self.model.fields)) if np.isfinite(worth[index, roll])]
        options.sort(key=lambda option: (-option.worth, self.model.fields.index(option.field)))
        keeps: list[KeepOption] = []
        if rolls_left:
            kept = with_rolls_left(worth.max(axis=0), rolls_left - 1)
            keeps = [KeepOption(self._faces(KEPT[index]), float(kept[index]))
                     for index in _parts(ROLL_COUNTS[roll])]
            keeps.sort(key=lambda keep: (-keep.worth, -len(keep.dice)))
        return Advice(options, keeps, rolls_left)

    def _field_option(self, index: int, roll: int, worth: np.ndarray, state: State
                      ) -> FieldOption:
        points = int(self.model.plain[index, roll])
        face = np.flatnonzero(FIVE_ALIKE == roll)
        if face.size:
            points = int(self.model.five_alike_points[state.filled, face[0], index])
        following = self._after(state, index, points)
        rest = float(self.values[following.filled, following.upper, following.kniffel_fifty])
        return FieldOption(self.model.fields[index], points,
                           round(float(worth[roll]) - points - rest), float(worth[roll]))

    def _after(self, state: State, index: int, points: int) -> State:
        """The state after ``points`` are written into field ``index``."""
        model = self.model
        upper = state.upper
        if model.bonus_threshold and index in model.upper_fields:
            upper = min(model.bonus_threshold, upper + points)
        fifty = state.kniffel_fifty or int(index == model.kniffel_field and points == KNIFFEL)
        return State(state.filled | 1 << index, upper, fifty)

    def _faces(self, counts: Sequence[int]) -> tuple[Any, ...]:
        return tuple(face for face, count in zip(self.model.rules.faces, counts, strict=True)
                     for _ in range(count))

    def review(self, turns: Sequence[tuple[str, int, Sequence[Any] | None]]) -> list[TurnReview]:
        """Each turn of a sheet, in the order the fields were filled: ``(field, points, dice)``,
        dice None for a cell typed in. A turn with dice is weighed against the coach's choice
        for those dice as the final roll; the points entered are taken as they stand."""
        sheet: dict[str, int] = {}
        reviews = []
        for field, points, dice in turns:
            state = self.model.state(sheet)
            before = float(self.values[state.filled, state.upper, state.kniffel_fifty])
            index = self.model.fields.index(field)
            best, allowed = None, True
            bonus = self._bonus(state, index, points, dice)
            following = self._after(state, index, points)
            chosen = points + bonus + float(
                self.values[following.filled, following.upper, following.kniffel_fifty])
            if dice is not None:
                advice = self.advise(sheet, dice)
                best = advice.best_field
                allowed = any(option.field == field for option in advice.fields)
            reviews.append(TurnReview(field, points, None if dice is None else tuple(dice),
                                      before, chosen, best, allowed))
            sheet[field] = points
        return reviews

    def _bonus(self, state: State, index: int, points: int, dice: Sequence[Any] | None) -> int:
        """Bonuses an entry earns in its turn: the upper bonus when it reaches the threshold,
        the further-Kniffel bonus when its dice are one (typed points earn none here: the
        host notes those by hand)."""
        model = self.model
        bonus = 0
        if model.bonus_threshold and index in model.upper_fields:
            if state.upper < model.bonus_threshold <= state.upper + points:
                bonus += model.upper_bonus
        if (state.kniffel_fifty and dice is not None and model.rules.further_kniffel(
                model.fields[index], dice, points, {"kniffel": KNIFFEL}, model.house_rules)):
            bonus += model.further_bonus
        return bonus


def _parts(counts: Sequence[int]) -> Iterator[int]:
    """The indices of every multiset inside ``counts`` (all its keeps)."""
    for part in itertools.product(*(range(count + 1) for count in counts)):
        yield KEPT_INDEX[part]


# Tables on disk --------------------------------------------------------------------------------

def table_name(rules: DiceSheetRules, house_rules: Mapping[str, Any] | None) -> str:
    """The file name of a game's table under its house rules: the game, and a digest of the
    house rules that change play, the engine's code and the coach's version."""
    chosen = rules.default_house_rules() | dict(house_rules or {})
    played = sorted((key, chosen[key]) for key in rules.scoring_house_rules)
    digest = hashlib.sha256(f"{TABLE_VERSION} {rules.key} {played}".encode())
    for module in sorted({type(rules).__module__, DiceSheetRules.__module__}):
        digest.update(Path(inspect.getfile(sys.modules[module])).read_bytes())
    return f"{rules.key}-{digest.hexdigest()[:16]}.npz"


def table_path(model: Model, directory: Path) -> Path:
    return Path(directory) / model.table_name


def load(rules: DiceSheetRules, house_rules: Mapping[str, Any] | None, directory: Path
         ) -> Coach | None:
    """The coach from the table stored for this game and house rules in ``directory``; None
    when there is none (or it is unreadable)."""
    try:
        return from_bytes(rules, house_rules,
                          (Path(directory) / table_name(rules, house_rules)).read_bytes())
    except OSError:
        return None


def to_bytes(coach: Coach) -> bytes:
    """The table, with what the model read from the engine for five alike, as a compressed
    ``.npz`` (about 2.5 MB for classic Kniffel: the states no sheet reaches are NaN)."""
    buffer = io.BytesIO()
    np.savez_compressed(buffer, values=coach.values,
                        five_alike_points=coach.model.five_alike_points,
                        five_alike_bonus=coach.model.five_alike_bonus)
    return buffer.getvalue()


def from_bytes(rules: DiceSheetRules, house_rules: Mapping[str, Any] | None, data: bytes
               ) -> Coach | None:
    """The coach from :func:`to_bytes`; None when ``data`` is no table of this game."""
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as stored:
            model = Model(rules, house_rules, (stored["five_alike_points"],
                                               stored["five_alike_bonus"]))
            return Coach(model, stored["values"])
    except (OSError, ValueError, KeyError, EOFError):
        return None


def compute(model: Model, directory: Path | None = None) -> Coach:
    """Compute the table for ``model``; stored in ``directory`` when given."""
    coach = Coach(model, solve(model))
    if directory is not None:
        store(coach, directory)
    return coach


def compute_apart(rules: DiceSheetRules, house_rules: Mapping[str, Any],
                  timeout: float = 120.0) -> Coach:
    """Compute the table in a process of its own (``python -m games.coach_tables --table``): the
    compiler and the solver's peak (about 150 MB) are given back when it ends instead of
    staying with the caller, a server process. A few seconds; RuntimeError when it fails."""
    chosen = {key: value for key, value in dict(house_rules).items()
              if key in rules.scoring_house_rules}
    root = str(Path(__file__).resolve().parent.parent)
    env = os.environ | {"PYTHONPATH": os.pathsep.join(
        filter(None, [root, os.environ.get("PYTHONPATH")]))}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "games.coach_tables", "--table", rules.key,
             json.dumps(chosen)],
            capture_output=True, timeout=timeout, check=True, env=env)
    except (OSError, subprocess.SubprocessError) as error:
        raise RuntimeError(f"the coach's table for {rules.key} failed: {error}") from error
    found = from_bytes(rules, house_rules, done.stdout)
    if found is None:
        raise RuntimeError(f"the coach's table for {rules.key} came back unreadable")
    return found


def store(coach: Coach, directory: Path, data: bytes | None = None) -> Path:
    """Store the table, or ``data`` when :func:`to_bytes` made it already (written to a
    temporary file first, so a reader never sees half a table)."""
    path = table_path(coach.model, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npz", delete=False) as handle:
        handle.write(to_bytes(coach) if data is None else data)
    os.replace(handle.name, path)
    return path


# Every variant ---------------------------------------------------------------------------------

#: The official Yahtzee rules as Verhoeff reads them (the published 254.5896), and with the
#: forced joker of Hasbro's rule sheet, in the words of the Kniffel house rules.
YAHTZEE = {"joker": "free_after_upper", "extra_kniffel_bonus": 100}
YAHTZEE_FORCED_JOKER = {"joker": "forced_upper", "extra_kniffel_bonus": 100}
