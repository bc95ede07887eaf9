"""Kniffel, the classic: five dice, thirteen fields, 1 to 10 players.

Each turn a player rolls up to three times and writes the roll into one open
field, or strikes a field with 0 when the roll fits nowhere it is wanted.

Upper part: ones to sixes score the sum of the dice showing that number. When
the upper part reaches 63 or more, a bonus of 35 is added. Until then the
bonus is within reach while the open upper fields could still bring the missing
points, each at most five times its face (``upper_bonus_missing``).

Lower part: Dreierpasch and Viererpasch (three / four alike at least) score the
sum of all five dice; Full House (three alike and two alike of another value)
25; kleine Straße (four in a row) 30; große Straße (five in a row) 40; Kniffel
(five alike) 50; Chance the sum of the dice, so 5 to 30.

Further Kniffels differ between rule books, so they are house rules:

``joker``
    What a further Kniffel may be written as once the Kniffel field is filled.
    ``schmidt`` (Schmidt's printed rules, the default) and ``forced_upper``
    (Yahtzee's forced joker) place it the same way: into the matching upper
    field while that is open; otherwise into any open lower field at full value
    (25, 30 and 40 for Full House and the straights); when the lower part is
    full, an upper field must be struck with 0. The two names stay apart
    because families know their rule by one of them. ``free``: into any open
    field, lower fields at full value. ``free_after_upper`` (Verhoeff's reading
    of the official Yahtzee rules, the one behind the published optimal score
    254.5896): into any open field; Full House and the straights take their full
    value only once the matching upper field is filled, before that they score
    what the dice show there (0).
``extra_kniffel_bonus``
    When a further Kniffel earns a bonus, and how much. In every variant a
    further Kniffel is five alike rolled while the Kniffel field holds 50; a
    Kniffel field struck with 0 or still open earns nothing.

    * ``50`` (default, Schmidt's rule sheet): "Hat der Spieler bereits einen
      Kniffel eingetragen und ist das passende Feld im oberen Teil noch frei,
      so muss er den Wurf dort eintragen und erhält 50 Punkte extra." The
      bonus is earned only when the five alike are written into their still
      open upper field (five threes into Threes, 15 points there).
    * ``100`` (Yahtzee-style): "100 points for each additional Yahtzee, as long
      as the Yahtzee box holds 50", played with the joker above: the further
      Kniffel earns 100 wherever it is written, in its upper field, as a joker
      in a lower field at full value, or struck in an upper field when the
      lower part is full.
    * ``0``: further Kniffels earn nothing.

    So the number of further Kniffels is checked against the cells: never
    more than the filled cells (other than Kniffel) that can hold five alike
    under the variant. Under ``50`` that is an upper field holding five times
    its face; under ``100`` also 0 in an upper field, 5 to 30 in a multiple of
    five in Three or Four of a kind and Chance, and 25, 30 and 40 in Full
    House and the straights (with ``free_after_upper`` also 0 there).
``start_player``
    Who starts: ``youngest`` (default) or ``highest_roll`` (Schmidt's rule
    sheet: "Wer die höchste Augenzahl würfelt, beginnt.").
``coach_hint``
    Whether the dice pads show the coach's hint (default no); see ``dice_sheet``.

Cells entered with the dice keep them (``dice``, optional, per player and
field). Dice must score the points of their cell, plainly or as a joker (five
alike in Full House score 25); a cell whose dice are not five alike holds no
further Kniffel, and under ``50`` only five alike of the field's own face do.

Result::

    {"players": ["anna", "ben"],
     "sheets": {"anna": {"ones": 3, "full_house": 25, "chance": 22},
                "ben": {"sixes": 30, "kniffel": 50}},
     "dice": {"ben": {"sixes": [6, 6, 6, 6, 6]}},
     "extra_kniffels": {"ben": 1},
     "house_rules": {"joker": "schmidt", "extra_kniffel_bonus": 50,
                     "start_player": "youngest"}}

A sheet with open fields is a game in progress (``finished`` is False).
Details per player: ``upper_sum``, ``bonus``, ``upper_total``, ``lower_sum``,
``extra_kniffel_bonus``, ``lower_total``, ``total``, ``filled``, ``open``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.base import Option, Problems, is_int, optional
from games.dice_sheet import COACH_HINT, Dice, DiceSheetRules, Field, Sheet
from games.i18n import Text

UPPER_BONUS = 35
UPPER_BONUS_THRESHOLD = 63
FULL_HOUSE, SMALL_STRAIGHT, LARGE_STRAIGHT, KNIFFEL = 25, 30, 40, 50
FACES = (1, 2, 3, 4, 5, 6)
UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
LOWER = ("three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
         "large_straight", "kniffel", "chance")
SMALL_STRAIGHTS = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
LARGE_STRAIGHTS = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})
SCHMIDT_BONUS, YAHTZEE_BONUS = 50, 100
MAX_PLAYERS = 10

FIELDS = (
    Field("ones", Text("Ones"), True),
    Field("twos", Text("Twos"), True),
    Field("threes", Text("Threes"), True),
    Field("fours", Text("Fours"), True),
    Field("fives", Text("Fives"), True),
    Field("sixes", Text("Sixes"), True),
    Field("three_of_a_kind", Text("Three of a kind"), False),
    Field("four_of_a_kind", Text("Four of a kind"), False),
    Field("full_house", Text("Full House"), False),
    Field("small_straight", Text("Small straight"), False),
    Field("large_straight", Text("Large straight"), False),
    Field("kniffel", Text("Kniffel"), False),
    Field("chance", Text("Chance"), False),
)

#: Points a further Kniffel scores in a lower field when it is played as a joker.
JOKER_POINTS = {"full_house": FULL_HOUSE, "small_straight": SMALL_STRAIGHT,
                "large_straight": LARGE_STRAIGHT}
#: Points five alike can leave in each field other than Kniffel, played plainly or as a joker.
FIVE_ALIKE_POINTS: dict[str, frozenset[int]] = {
    **{key: frozenset({0, 5 * face}) for face, key in enumerate(UPPER, start=1)},
    **{key: frozenset(5 * face for face in FACES)
       for key in ("three_of_a_kind", "four_of_a_kind", "chance")},
    **{key: frozenset({points}) for key, points in JOKER_POINTS.items()},
}


def holds_further_kniffel(field: str, points: int, dice: Sequence[int] | None, bonus: int,
                          joker: str = "schmidt") -> bool:
    """Whether a filled cell can hold a further Kniffel that earns ``bonus``.

    Under the 50 bonus (Schmidt) only an upper field holding five of its own
    face can; under 100 any field but Kniffel holding what five alike leave
    there (with the ``free_after_upper`` joker also 0 in Full House or a
    straight, written while the matching upper field was open). Known ``dice``
    must be five alike, of the field's face under 50.
    """
    if bonus == 0 or field == "kniffel":
        return False
    if dice is not None and len(set(dice)) != 1:
        return False
    if bonus == SCHMIDT_BONUS:
        if field not in UPPER:
            return False
        face = UPPER.index(field) + 1
        return points == 5 * face and (dice is None or dice[0] == face)
    struck = joker == "free_after_upper" and field in JOKER_POINTS and points == 0
    return points in FIVE_ALIKE_POINTS[field] or struck


def natural_points(field: str, counts: Counter) -> int:
    """Points of a roll (counts per face) in ``field`` by the plain rules, no joker."""
    total = sum(face * count for face, count in counts.items())
    most = max(counts.values())
    faces = set(counts)
    if field in UPPER:
        face = UPPER.index(field) + 1
        return face * counts[face]
    if field == "three_of_a_kind":
        return total if most >= 3 else 0
    if field == "four_of_a_kind":
        return total if most >= 4 else 0
    if field == "full_house":
        return FULL_HOUSE if sorted(counts.values()) == [2, 3] else 0
    if field == "small_straight":
        return SMALL_STRAIGHT if any(s <= faces for s in SMALL_STRAIGHTS) else 0
    if field == "large_straight":
        return LARGE_STRAIGHT if faces in LARGE_STRAIGHTS else 0
    if field == "kniffel":
        return KNIFFEL if most == 5 else 0
    if field == "chance":
        return total
    raise KeyError(field)


class Kniffel(DiceSheetRules):
    key = "kniffel"
    name = Text("Kniffel")
    description = Text("The classic dice game: thirteen fields, bonus at 63.")
    min_players = 1
    max_players = MAX_PLAYERS
    fields = FIELDS
    faces = FACES
    house_rules = (
        Option("joker", Text("Further Kniffels as a joker"), "schmidt", {
            "schmidt": Text("Schmidt's rules: matching upper field first"),
            "forced_upper": Text("Forced joker: matching upper field first"),
            "free": Text("Free choice of any open field"),
            "free_after_upper": Text("Free choice; full value in Full House and the straights "
                                     "only once the matching upper field is filled (Verhoeff)"),
        }),
        Option("extra_kniffel_bonus", Text("Bonus for each further Kniffel"), SCHMIDT_BONUS, {
            0: Text("No bonus"),
            SCHMIDT_BONUS: Text("50 points, only when written into its still open upper field "
                                "(Schmidt)"),
            YAHTZEE_BONUS: Text("100 points for each while the Kniffel field holds 50, "
                                "with joker"),
        }),
        Option("start_player", Text("Who starts"), "youngest", {
            "youngest": Text("The youngest player"),
            "highest_roll": Text("The highest roll (Schmidt)"),
        }),
        COACH_HINT,
    )
    result_keys = frozenset({"sheets", "dice", "extra_kniffels"})
    scoring_house_rules = ("joker", "extra_kniffel_bonus")

    def hint(self, n_players: int, house_rules: dict[str, Any]) -> Text:
        if house_rules["start_player"] == "highest_roll":
            return Text("Each player gets a column on the pad. Thirteen turns each, up to three "
                        "rolls a turn; everyone rolls all five dice once and the highest total "
                        "starts.")
        return Text("Each player gets a column on the pad. Thirteen turns each, up to three "
                    "rolls a turn; the youngest starts.")

    def who_starts(self, house_rules: Mapping[str, Any]) -> Text | None:
        if house_rules.get("start_player") == "highest_roll":
            return Text("Everyone rolls all five dice once; the highest total starts.")
        return Text("The youngest player starts.")

    def roll_points(self, field: str, counts: Counter, house_rules: Mapping[str, Any]) -> int:
        return natural_points(field, counts)

    def joker_points(self, field: str, dice: Dice) -> int | None:
        if len(set(dice)) != 1 or field in UPPER or field == "kniffel":
            return None
        return JOKER_POINTS.get(field, sum(dice))

    def further_kniffel(self, field: str, dice: Sequence[Any] | None, points: int,
                        sheet: Mapping[str, Any], house_rules: Mapping[str, Any]) -> bool:
        """Whether writing ``points`` (from ``dice`` when given) into ``field`` of ``sheet``
        could be a further Kniffel that earns the house rules' bonus.

        With the dice known it is one exactly when they are five alike that the
        variant rewards here; typed points only say that it could be one.
        """
        rules = self.default_house_rules() | dict(house_rules)
        return sheet.get("kniffel") == KNIFFEL and holds_further_kniffel(
            field, points, None if dice is None else tuple(dice), rules["extra_kniffel_bonus"],
            rules["joker"])

    def options(self, dice: Sequence[Any], sheet: Mapping[str, Any],
                house_rules: Mapping[str, Any] | None = None) -> dict[str, int]:
        """What each open field would score now, with the joker rule for a further Kniffel."""
        plain = super().options(dice, sheet, house_rules)
        if len(set(dice)) != 1 or sheet.get("kniffel") is None:
            return plain
        rules = self.default_house_rules() | dict(house_rules or {})
        face = dice[0]
        total = face * len(dice)
        matching = UPPER[face - 1]
        joker_lower = {key: JOKER_POINTS.get(key, total) for key in LOWER if key in plain}
        if rules["joker"] == "free":
            return plain | joker_lower
        if rules["joker"] == "free_after_upper":
            return plain if matching in plain else plain | joker_lower
        if matching in plain:
            return {matching: plain[matching]}
        if joker_lower:
            return joker_lower
        return {key: 0 for key in UPPER if key in plain}

    def read_extras(self, result, players, sheets, dice, house_rules, problems) -> dict[str, int]:
        raw = optional(result, "extra_kniffels")
        raw = {} if raw is None else raw
        if not isinstance(raw, Mapping):
            problems.add("extra_kniffels.invalid",
                         Text("The further Kniffels are unreadable."), field="extra_kniffels")
            return {}
        extras: dict[str, int] = {}
        for player, count in raw.items():
            if player not in players:
                problems.add("players.unknown", Text("{other} is not playing in this game.",
                                                     other=str(player)), field="extra_kniffels")
            elif count is not None and (count != 0 or not is_int(count)):
                checked = self._check_extra_kniffels(player, count, sheets[player],
                                                     dice.get(player, {}), house_rules, problems)
                if checked:
                    extras[player] = checked
        return extras

    @staticmethod
    def _check_extra_kniffels(player: str, count: Any, sheet: Sheet, dice: Mapping[str, Dice],
                              house_rules: Mapping[str, Any], problems: Problems) -> int:
        """Further Kniffels need a bonus rule, 50 in the Kniffel field, and a cell each that
        can hold five alike under the bonus rule."""
        bonus = house_rules["extra_kniffel_bonus"]
        holding = len([key for key, points in sheet.items()
                       if holds_further_kniffel(key, points, dice.get(key), bonus,
                                                house_rules["joker"])])

        def refuse(code: str, message: Text) -> int:
            problems.add(code, message, player=player, field="extra_kniffels")
            return 0

        if not is_int(count) or count < 0:
            return refuse("extra_kniffels.invalid", Text(
                "{player}: further Kniffels must be a whole number, 0 or more.", player=player))
        if bonus == 0:
            return refuse("extra_kniffels.no_bonus", Text(
                "{player}: this game's house rules give no bonus for further Kniffels.",
                player=player))
        if sheet.get("kniffel") != KNIFFEL:
            return refuse("extra_kniffels.needs_fifty", Text(
                "{player}: further Kniffels earn a bonus only while the Kniffel field holds 50.",
                player=player))
        if count > holding:
            message = (
                Text("{player}: {count} further Kniffels, but only {holding} upper fields hold "
                     "five of their own face, as this game's house rules require.",
                     player=player, count=count, holding=holding)
                if bonus == SCHMIDT_BONUS else
                Text("{player}: {count} further Kniffels, but only {holding} fields hold what "
                     "five alike can score there.", player=player, count=count, holding=holding))
            return refuse("extra_kniffels.too_many", message)
        return count

    def totals(self, sheet: Sheet, extra: int, house_rules: Mapping[str, Any]) -> dict[str, int]:
        upper_sum = sum(sheet.get(key, 0) for key in UPPER)
        bonus = UPPER_BONUS if upper_sum >= UPPER_BONUS_THRESHOLD else 0
        lower_sum = sum(sheet.get(key, 0) for key in LOWER)
        extra_bonus = extra * house_rules["extra_kniffel_bonus"]
        upper_total = upper_sum + bonus
        lower_total = lower_sum + extra_bonus
        return {
            "upper_sum": upper_sum,
            "bonus": bonus,
            "upper_total": upper_total,
            "lower_sum": lower_sum,
            "extra_kniffels": extra,
            "extra_kniffel_bonus": extra_bonus,
            "lower_total": lower_total,
            "total": upper_total + lower_total,
        }


def upper_bonus_missing(sheet: Mapping[str, int | None]) -> int | None:
    """Points the upper part of ``sheet`` still needs for the bonus.

    0 once the bonus is reached; None once it is out of reach, because even
    five of a kind in every open upper field would not bring the missing points.
    """
    missing = UPPER_BONUS_THRESHOLD - sum(sheet.get(key) or 0 for key in UPPER)
    if missing <= 0:
        return 0
    best_still_open = sum(5 * face for face, key in enumerate(UPPER, start=1)
                          if sheet.get(key) is None)
    return missing if best_still_open >= missing else None


RULES = Kniffel()


def points(field: str, dice: Sequence[int]) -> int:
    """Points five dice (ints 1 to 6) score in ``field`` by the plain rules."""
    return RULES.points(field, dice)


def options(dice: Sequence[int], sheet: Mapping[str, Any],
            house_rules: Mapping[str, Any] | None = None) -> dict[str, int]:
    """What each open field of ``sheet`` would score with these dice, joker included."""
    return RULES.options(dice, sheet, house_rules)
