"""Kniffel with space symbols ("Kniffel. Clever knobeln mit der Maus"), 1 to 10 players.

Five dice show six symbols: Ufo, Rakete (rocket), Galaktischer Nebel (nebula),
Stern (star), Sonne (sun) and Planet. Each turn a player rolls up to three
times and writes the roll into one open field of eleven, in any order. After
eleven turns each, the highest total wins; a tie gives several winners.

Where a roll goes (house rule ``field_choice``):

``best`` (default, the rule text)
    "Ihr tragt eine Kombination möglichst immer dort ein, wo sie am meisten
    Punkte bringt" (the Italian and Dutch texts say "always"): the roll goes
    into an open field where it scores the most, any of them when several tie.
    "Habt ihr eine Kombination gewürfelt, die ihr in keins der Felder eintragen
    könnt, müsst ihr … in einem beliebigen noch freien Feld 0 Punkte notieren":
    only a roll that scores in no open field is written as 0, into any open
    field.
``free``
    Any open field, as older players may choose to play; 0 where the roll
    does not fit the field.

Upper six rows: one point per die showing that symbol (0 to 5).
Lower rows: Drilling (three alike) 2, Zwei Paare (two pairs) 3,
Drilling + Paar 4, fünf verschiedene Symbole (five different) 5,
Weltraum-Kniffel (five alike) 10. There is no bonus.

Where the rule text is silent:

* Four alike contain three alike and score as a Drilling; they are not two
  pairs, because the pairs must show two different symbols.
* Five alike are not a Drilling + Paar: the pair must show another symbol, as
  in the classic Full House.
* Whether five alike also count as a Drilling (house rule
  ``five_alike_is_three_alike``, default yes: they do contain three alike) and
  whether a Drilling + Paar also counts as two pairs (``full_is_two_pairs``,
  default yes: it holds a pair of each of two symbols) is up to the family.

Dice are given as symbol keys: ``ufo rocket nebula star sun planet``.

Result::

    {"players": ["mia", "leo"],
     "sheets": {"mia": {"ufo": 3, "two_pairs": 3, "space_kniffel": 10},
                "leo": {"sun": 2, "all_different": 5}},
     "house_rules": {"field_choice": "best", "five_alike_is_three_alike": true,
                     "full_is_two_pairs": true}}

Details per player: ``upper_sum``, ``lower_sum``, ``total``, ``filled``, ``open``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.base import Option
from games.dice_sheet import COACH_HINT, YES_NO, DiceSheetRules, Field, Sheet
from games.i18n import Text

SYMBOLS = ("ufo", "rocket", "nebula", "star", "sun", "planet")
#: How the symbols look on the screen and on printed pads.
SYMBOL_ICONS = {"ufo": "🛸", "rocket": "🚀", "nebula": "🌌", "star": "⭐", "sun": "☀️",
                "planet": "🪐"}
LOWER_POINTS = {"three_alike": 2, "two_pairs": 3, "three_and_pair": 4, "all_different": 5,
                "space_kniffel": 10}

FIELDS = (
    Field("ufo", Text("UFO"), True),
    Field("rocket", Text("Rocket"), True),
    Field("nebula", Text("Galactic nebula"), True),
    Field("star", Text("Star"), True),
    Field("sun", Text("Sun"), True),
    Field("planet", Text("Planet"), True),
    Field("three_alike", Text("Three alike"), False),
    Field("two_pairs", Text("Two pairs"), False),
    Field("three_and_pair", Text("Three alike and a pair"), False),
    Field("all_different", Text("Five different symbols"), False),
    Field("space_kniffel", Text("Space Kniffel"), False),
)


def fits(field: str, counts: Counter, house_rules: Mapping[str, Any]) -> bool:
    """Whether a roll (counts per symbol) fits a lower ``field``."""
    shape = sorted(counts.values(), reverse=True)
    if field == "three_alike":
        return shape[0] in (3, 4) or (shape[0] == 5 and house_rules["five_alike_is_three_alike"])
    if field == "two_pairs":
        return shape[:2] == [2, 2] or (shape == [3, 2] and house_rules["full_is_two_pairs"])
    if field == "three_and_pair":
        return shape == [3, 2]
    if field == "all_different":
        return len(shape) == 5
    if field == "space_kniffel":
        return shape == [5]
    raise KeyError(field)


class WeltraumKniffel(DiceSheetRules):
    key = "weltraum_kniffel"
    name = Text("Space Kniffel")
    description = Text("Kniffel with space symbols: eleven fields, for younger players.")
    min_players = 1
    max_players = 10
    fields = FIELDS
    faces = SYMBOLS
    house_rules = (
        Option("field_choice", Text("Where a roll goes"), "best", {
            "best": Text("Into a field where it scores the most (the rule text)"),
            "free": Text("Free choice of any open field"),
        }),
        Option("five_alike_is_three_alike", Text("Five alike also count as three alike"),
               True, YES_NO),
        Option("full_is_two_pairs", Text("Three alike and a pair also count as two pairs"),
               True, YES_NO),
        COACH_HINT,
    )

    scoring_house_rules = ("field_choice", "five_alike_is_three_alike", "full_is_two_pairs")

    start_rule = Text("Whoever last saw a shooting star starts.")

    def hint(self, n_players: int, house_rules: dict[str, Any]) -> Text:
        return Text("Each player gets a column on the pad. Eleven turns each, up to three "
                    "rolls a turn; whoever last saw a shooting star starts.")

    def must_score_most(self, house_rules: Mapping[str, Any]) -> bool:
        return house_rules["field_choice"] == "best"

    def roll_points(self, field: str, counts: Counter, house_rules: Mapping[str, Any]) -> int:
        if field in SYMBOLS:
            return counts[field]
        return LOWER_POINTS[field] if fits(field, counts, house_rules) else 0

    def totals(self, sheet: Sheet, extra: int, house_rules: Mapping[str, Any]) -> dict[str, int]:
        upper_sum = sum(sheet.get(key, 0) for key in SYMBOLS)
        lower_sum = sum(sheet.get(key, 0) for key in LOWER_POINTS)
        return {"upper_sum": upper_sum, "lower_sum": lower_sum, "total": upper_sum + lower_sum}


RULES = WeltraumKniffel()


def points(field: str, dice: Sequence[str], house_rules: Mapping[str, Any] | None = None) -> int:
    """Points five symbol dice score in ``field``."""
    return RULES.points(field, dice, house_rules)


def options(dice: Sequence[str], sheet: Mapping[str, Any],
            house_rules: Mapping[str, Any] | None = None) -> dict[str, int]:
    """The open fields of ``sheet`` these dice may be written into, and what they score."""
    return RULES.options(dice, sheet, house_rules)
