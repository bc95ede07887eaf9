"""La souricière / Mausefalle (Ingeborg Ahrenkiel; Bookmark and Ravensburger), 2 to 6 players.

Each player moves one mouse towards the cheese; holes drop a mouse into rooms
it must roll its way out of. The first mouse on the cheese wins. The rules give
no points: a result is the finishing order, or only the winner when the family
stops there (the others then share second place).

Editions and variants change play, not scoring, but a record of a game says
which were used (house rules):

``edition``
    ``ravensburger`` (default) or ``bookmark``. Only the Ravensburger edition
    has the trap square (rule 4): a mouse stopping on it loses two turns.
``exact_roll``
    True (default, rule 5): the cheese needs the exact number, a larger roll
    bounces back. False: the faster variant, any roll that reaches it.
``occupied``
    ``stop_before`` (default, rule 2): a mouse that would land on an occupied
    square stops on the square before. ``next_free``: the variant, it moves on
    to the next free square after the other mouse.
``trap_square``
    True (default) when rule 4 is played; only with the Ravensburger edition.
    The translator's note to rule 4: "cette règle 4 est spécifique à la version
    Ravensburger. Dans la version Bookmark, la souricière est une case comme les
    autres et on ne tient pas compte de cette règle 4." So the Bookmark edition
    with the trap square is refused, alike when the game is set up and when its
    result is entered.

Result::

    {"players": ["anna", "ben", "carl"], "order": ["ben", "anna", "carl"],
     "house_rules": {"edition": "bookmark", "trap_square": false}}
"""

from __future__ import annotations

from typing import Any

from games.base import FinishingOrderRules, Option
from games.i18n import Text

YES_NO = {True: Text("Yes"), False: Text("No")}


class Souriciere(FinishingOrderRules):
    key = "souriciere"
    name = Text("La souricière / Mausefalle")
    description = Text("Race your mouse to the cheese without falling through the holes.")
    min_players = 2
    max_players = 6
    house_rules = (
        Option("edition", Text("Edition"), "ravensburger", {
            "ravensburger": Text("Ravensburger"),
            "bookmark": Text("Bookmark"),
        }),
        Option("exact_roll", Text("Exact roll needed for the cheese"), True, YES_NO),
        Option("occupied", Text("Landing on an occupied square"), "stop_before", {
            "stop_before": Text("Stop on the square before"),
            "next_free": Text("Move on to the next free square"),
        }),
        Option("trap_square", Text("Trap square (Ravensburger only)"), True, YES_NO),
    )

    start_rule = Text("The youngest player starts.")

    def hint(self, n_players: int, house_rules: dict[str, Any]) -> Text:
        return Text("Each mouse starts on its square in the start house; the youngest player "
                    "starts.")

    def check_house_rules(self, house_rules, problems):
        if house_rules["edition"] == "bookmark" and house_rules["trap_square"]:
            problems.add("house_rules.trap_square",
                         Text("The Bookmark edition has no trap square: switch it off."),
                         field="house_rules.trap_square")
