"""Mensch ärgere dich nicht, as in the Maus game collection: 2 to 4 players, 3 pieces each.

A six brings a piece out; throwing a piece out sends it back to its start.
Whoever brings all their pieces home first wins, and the others play on for
the later places. The rules give no points: a result is the finishing order.
A game stopped once the winner is home records only the winner; the others
then share second place. When all but one player are placed, the last one is
placed too.

House rule ``pieces``: 3 as in the collection (default) or 4 as on the classic
board; it changes play, not scoring, and is kept with the record.

Result::

    {"players": ["anna", "ben", "carl", "dora"], "order": ["carl", "anna"]}
"""

from __future__ import annotations

from typing import Any

from games.base import FinishingOrderRules, Option
from games.i18n import Text


class MenschAergereDichNicht(FinishingOrderRules):
    key = "mensch_aergere_dich_nicht"
    name = Text("Mensch ärgere dich nicht")
    description = Text("Bring all your pieces home; a six brings a new one out.")
    min_players = 2
    max_players = 4
    house_rules = (
        Option("pieces", Text("Pieces per player"), 3, {3: Text("3 pieces"), 4: Text("4 pieces")}),
    )

    start_rule = Text("The highest roll starts.")

    def hint(self, n_players: int, house_rules: dict[str, Any]) -> Text:
        return Text("Each player puts {pieces} pieces on the start fields of their colour; the "
                    "highest roll starts.", pieces=house_rules["pieces"])
