"""What the two Kniffel games share: five dice, a score sheet, one field per turn.

A sheet is a dict from field key to the points written there; a field that is
missing (or ``None``) is still open. Typed points are checked against what some
roll of five dice can score in that field, so "24" in Full House is refused
while "25" and "0" (a struck field) are accepted. A cell entered with the dice
keeps them in the optional ``dice`` map (player, then field, then the five
dice); they must score the cell's points. The games themselves are in
``kniffel`` and ``weltraum_kniffel``.

Both games share the house rule ``coach_hint`` (default no): with it, the dice
pads show the field the coach would choose for the roll, what each field is
worth, and with rolls left which dice to keep. It does not change the scoring.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import cached_property, lru_cache
from itertools import combinations_with_replacement
from typing import Any, ClassVar

from games.base import (
    InvalidResult,
    Option,
    Outcome,
    Problems,
    Rules,
    Table,
    is_int,
    optional,
    places_by_points,
)
from games.i18n import Text, any_of, compose, one_of

DICE = 5
Sheet = dict[str, int]
Dice = tuple[Any, ...]
YES_NO = {True: Text("Yes"), False: Text("No")}
#: Whether the coach (``games.coach``) shows on the dice pads which field it would choose and
#: which dice it would keep. Off by default: a family allows it per play.
COACH_HINT = Option("coach_hint", Text("The coach's hint on the dice pads"), False, YES_NO)


@dataclass(frozen=True)
class Field:
    """One row of the score sheet."""

    key: str
    label: Text
    upper: bool


@dataclass(frozen=True)
class Sheets:
    """The filled-in fields of every player, and anything a game notes beside them."""

    sheets: dict[str, Sheet]
    extras: dict[str, int]
    dice: dict[str, dict[str, Dice]] = dataclass_field(default_factory=dict)


@lru_cache(maxsize=256)
def _roll_table(rules: DiceSheetRules, sheet: tuple[tuple[str, Any], ...],
                house_rules: tuple[tuple[str, Any], ...]
                ) -> tuple[tuple[str, tuple[int | None, ...]], ...]:
    # Kept per sheet: a device opens the same player's editor several times a turn, and the
    # 252 rolls take some 10 ms to score.
    filled, rule_values = dict(sheet), dict(house_rules)
    offered = [rules.options(roll, filled, rule_values) for roll in rules.rolls]
    return tuple((key, tuple(options.get(key) for options in offered))
                 for key in rules.field_keys if filled.get(key) is None)


def best_fields(scores: Mapping[str, int]) -> dict[str, int]:
    """The fields of ``scores`` where the roll scores the most; every field when it scores
    nowhere (it is struck with 0 in any of them)."""
    most = max(scores.values(), default=0)
    return {key: points for key, points in scores.items() if points == most}


class DiceSheetRules(Rules[Sheets]):
    """A dice game scored on a sheet of fields, each filled once, in any order."""

    fields: ClassVar[tuple[Field, ...]]
    #: The faces of one die, in the order of the upper rows.
    faces: ClassVar[tuple[Any, ...]]
    result_keys = frozenset({"sheets", "dice"})
    #: The house rules that change what a roll scores or which fields it may be written into.
    scoring_house_rules: ClassVar[tuple[str, ...]] = ()

    # Scoring a roll ------------------------------------------------------

    def field(self, key: str) -> Field:
        for field in self.fields:
            if field.key == key:
                return field
        raise KeyError(key)

    @cached_property
    def field_keys(self) -> tuple[str, ...]:
        return tuple(field.key for field in self.fields)

    def points(self, field: str, dice: Sequence[Any], house_rules: Mapping[str, Any] | None = None
               ) -> int:
        """Points the five ``dice`` score in ``field`` (0 when they do not fit it)."""
        counts = Counter(self.read_dice(dice))
        return self.roll_points(field, counts, self.default_house_rules() | dict(house_rules or {}))

    def roll_points(self, field: str, counts: Counter, house_rules: Mapping[str, Any]) -> int:
        """Points of a roll, given as counts per face, in ``field``."""
        raise NotImplementedError

    def joker_points(self, field: str, dice: Dice) -> int | None:
        """Points five alike score in ``field`` as a joker, where the game has one; else None."""
        return None

    def further_kniffel(self, field: str, dice: Sequence[Any] | None, points: int,
                        sheet: Mapping[str, Any], house_rules: Mapping[str, Any]) -> bool:
        """Whether this entry earns a bonus beside the sheet; never in the plain game."""
        return False

    def options(self, dice: Sequence[Any], sheet: Mapping[str, Any],
                house_rules: Mapping[str, Any] | None = None) -> dict[str, int]:
        """What each open field of ``sheet`` would score with these ``dice`` now."""
        counts = Counter(self.read_dice(dice))
        rules = self.default_house_rules() | dict(house_rules or {})
        open_fields = [key for key in self.field_keys if sheet.get(key) is None]
        scores = {key: self.roll_points(key, counts, rules) for key in open_fields}
        return best_fields(scores) if self.must_score_most(rules) else scores

    @cached_property
    def rolls(self) -> tuple[Dice, ...]:
        """Every roll of five dice once, as a sorted tuple of faces (in the order of
        :attr:`faces`): 252 rolls, in the order ``combinations_with_replacement`` makes them,
        (1, 1, 1, 1, 1), (1, 1, 1, 1, 2), … (6, 6, 6, 6, 6) for the classic dice."""
        return tuple(combinations_with_replacement(self.faces, DICE))

    def roll_table(self, sheet: Mapping[str, Any], house_rules: Mapping[str, Any] | None = None
                   ) -> dict[str, tuple[int | None, ...]]:
        """What every roll of :attr:`rolls` scores in each open field of ``sheet``, so that
        a device can answer dice without asking again: ``table[field][i]`` is what
        :meth:`options` offers for ``rolls[i]`` in ``field``, or None where the rules do not
        let that roll go into that field (a further Kniffel's joker, or a roll that must go
        where it scores the most). Filled fields are left out; the house rules are honoured.
        """
        rules = self.default_house_rules() | dict(house_rules or {})
        return dict(_roll_table(self, tuple(sorted(sheet.items())),
                                tuple(sorted(rules.items(), key=lambda item: item[0]))))

    def must_score_most(self, house_rules: Mapping[str, Any]) -> bool:
        """Whether a roll must go into an open field where it scores the most (a roll that
        scores nowhere is then written as 0 into any open field); False: any open field."""
        return False

    def read_dice(self, dice: Sequence[Any]) -> tuple[Any, ...]:
        """The dice as a tuple, or :class:`InvalidResult` when they are not five known faces."""
        if (
            not isinstance(dice, list | tuple)
            or len(dice) != DICE
            or not all(type(die) is type(self.faces[0]) and die in self.faces for die in dice)
        ):
            problems = Problems()
            problems.add("dice.invalid",
                         Text("Enter five dice: {faces}.", faces=", ".join(map(str, self.faces))),
                         field="dice")
            raise InvalidResult(problems)
        return tuple(dice)

    @cached_property
    def allowed_points(self) -> dict[str, frozenset[int]]:
        """For every field, every number of points some roll can score there.

        0 is among them for every field some roll does not fit (it is struck
        then), so not for Chance, which every roll fits.
        """
        allowed: dict[str, set[int]] = {key: set() for key in self.field_keys}
        rules = self.default_house_rules()
        for roll in combinations_with_replacement(self.faces, DICE):
            counts = Counter(roll)
            for key in self.field_keys:
                allowed[key].add(self.roll_points(key, counts, rules))
        return {key: frozenset(values) for key, values in allowed.items()}

    def playable_then(self, key: str, dice: Sequence[Any], sheet: Mapping[str, Any],
                      house_rules: Mapping[str, Any]) -> dict[str, int]:
        """Where ``dice`` kept with the filled cell ``key`` could have been written when it
        was filled, and for how much: fields are never emptied, so every field open now was
        open then, and ``key`` was too."""
        return self.options(dice, {field: points for field, points in sheet.items()
                                   if field != key}, house_rules)

    # Reading a result ----------------------------------------------------

    def read(self, result, players, house_rules, problems):
        raw = optional(result, "sheets")
        raw = {} if raw is None else raw
        if not isinstance(raw, Mapping):
            problems.add("sheets.invalid", Text("The score sheet is unreadable."), field="sheets")
            raw = {}
        for other in raw:
            if other not in players:
                problems.add("players.unknown", Text("{other} is not playing in this game.",
                                                     other=str(other)), field="sheets")
        sheets = {player: self.read_sheet(player, raw.get(player) or {}, problems)
                  for player in players}
        dice = self.read_cell_dice(result, players, sheets, house_rules, problems)
        extras = self.read_extras(result, players, sheets, dice, house_rules, problems)
        return Sheets(sheets, extras, dice)

    def read_cell_dice(self, result: Mapping[str, Any], players: list[str],
                       sheets: dict[str, Sheet], house_rules: dict[str, Any],
                       problems: Problems) -> dict[str, dict[str, Dice]]:
        """The dice kept with filled cells; each set must score its cell's points."""
        raw = optional(result, "dice")
        raw = {} if raw is None else raw
        if not isinstance(raw, Mapping) or not all(
                isinstance(cells, Mapping) or cells is None for cells in raw.values()):
            problems.add("dice.invalid", Text("The dice kept with the cells are unreadable."),
                         field="dice")
            return {}
        kept: dict[str, dict[str, Dice]] = {}
        for player, cells in raw.items():
            if player not in players:
                problems.add("players.unknown", Text("{other} is not playing in this game.",
                                                     other=str(player)), field="dice")
                continue
            for key, dice in (cells or {}).items():
                if dice is None:
                    continue
                checked = self._check_cell_dice(player, key, dice, sheets[player], house_rules,
                                                problems)
                if checked is not None:
                    kept.setdefault(player, {})[key] = checked
        return kept

    def _check_cell_dice(self, player: str, key: Any, dice: Any, sheet: Sheet,
                         house_rules: Mapping[str, Any], problems: Problems) -> Dice | None:
        if key not in sheet:
            problems.add("dice.open_field",
                         Text("{player}: dice are kept for {field}, but it is not filled.",
                              player=player, field=str(key)), player=player, field="dice")
            return None
        try:
            roll = self.read_dice(dice)
        except InvalidResult:
            problems.add("dice.invalid",
                         Text("{player}: the dice kept for {field} are not five known faces.",
                              player=player, field=self.field(key).label),
                         player=player, field=key)
            return None
        playable = self.playable_then(key, roll, sheet, house_rules)
        if key not in playable:
            problems.add("dice.not_playable",
                         Text("{player}: the dice {dice} could not go into {field}: {where}.",
                              player=player, dice=" ".join(map(str, roll)),
                              field=self.field(key).label,
                              where=self.where_instead(playable)),
                         player=player, field=key)
            return None
        if sheet[key] != playable[key]:
            problems.add("dice.points",
                         Text("{player}: {field} holds {points}, but its dice {dice} score "
                              "{allowed}.", player=player, field=self.field(key).label,
                              points=sheet[key], dice=" ".join(map(str, roll)),
                              allowed=playable[key]),
                         player=player, field=key)
            return None
        return roll

    def where_instead(self, playable: Mapping[str, int]) -> Text:
        """Where a roll had to go instead, for a message: the allowed fields with their points."""
        return Text("the rules put them into {fields}", fields=any_of(
            compose("{field} ({points})", field=self.field(key).label, points=points)
            for key, points in playable.items()))

    def read_sheet(self, player: str, raw: Any, problems: Problems) -> Sheet:
        if not isinstance(raw, Mapping):
            problems.add("sheets.invalid", Text("{player}: the score sheet is unreadable.",
                                                player=player), player=player, field="sheets")
            return {}
        sheet: Sheet = {}
        for key, value in raw.items():
            if key not in self.field_keys:
                problems.add("sheets.unknown_field",
                             Text("{player}: the sheet has no field “{field}”.",
                                  player=player, field=str(key)),
                             player=player, field=str(key))
            elif value is None:
                continue
            elif not is_int(value) or value not in self.allowed_points[key]:
                problems.add(
                    "sheets.impossible_value",
                    Text("{player}: {field} scores {allowed}, not {value}.", player=player,
                         field=self.field(key).label, allowed=one_of(self.allowed_points[key]),
                         value=value if is_int(value) else str(value)),
                    player=player, field=key,
                )
            else:
                sheet[key] = value
        return sheet

    def read_extras(self, result: Mapping[str, Any], players: list[str],
                    sheets: dict[str, Sheet], dice: dict[str, dict[str, Dice]],
                    house_rules: dict[str, Any], problems: Problems) -> dict[str, int]:
        """Anything noted beside the sheet; none in the plain game."""
        return {}

    # Scoring a result ----------------------------------------------------

    def totals(self, sheet: Sheet, extra: int, house_rules: Mapping[str, Any]) -> dict[str, int]:
        """The sheet's sums; must contain ``total``."""
        raise NotImplementedError

    def outcome(self, table: Table[Sheets]) -> Outcome:
        details = {
            player: self.totals(sheet, table.data.extras.get(player, 0), table.house_rules)
            | {"filled": len(sheet), "open": len(self.fields) - len(sheet)}
            for player, sheet in table.data.sheets.items()
        }
        points = {player: details[player]["total"] for player in table.players}
        finished = all(detail["open"] == 0 for detail in details.values())
        return self.make_outcome(table, points, places_by_points(points), details,
                                 finished=finished)

    def next_player(self, players: Sequence[str], sheets: Mapping[str, Mapping[str, Any]]
                    ) -> str | None:
        """Whose turn it is, from the sheets; see :meth:`next_in_turn`."""
        return self.next_in_turn({
            player: sum(sheets.get(player, {}).get(key) is not None for key in self.field_keys)
            for player in players
        })

    def next_in_turn(self, filled: Mapping[str, int]) -> str | None:
        """Whose turn it is: the first player in seat order with the fewest filled fields.

        ``filled`` maps the players, in seat order, to how many fields they have
        filled. None when every sheet is full.
        """
        open_players = [player for player, count in filled.items() if count < len(self.fields)]
        return min(open_players, key=lambda player: filled[player], default=None)
