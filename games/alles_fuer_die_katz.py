"""Alles für die Katz, 2 to 4 players with 4 mice each.

The mice run from the pantry to the mouse hole past cat-food cans that trap a
mouse landing exactly in them. At the end every mouse is home or trapped. Most
mice home wins. The rule text on a tie: "Bei Gleichstand gewinnt derjenige,
der als erster mit einer Maus im Mauseloch war." Among players with as many
mice home, the one whose first mouse reached the hole earlier places higher,
so the result records the order in which the players first got a mouse home,
not only who was first overall. A player whose four mice are all trapped is
out and places last; such players share that place. Points are the mice home.

Result::

    {"players": ["anna", "ben", "carl"],
     "mice": {"anna": {"home": 2, "trapped": 2},
              "ben": {"home": 2, "trapped": 2},
              "carl": {"home": 0, "trapped": 4}},
     "first_home": ["ben", "anna"]}

``first_home`` lists every player who got a mouse home, each once, in the
order their first mouse reached the hole; players without a mouse home are not
in it. Details per player: ``home``, ``trapped``, ``out``, ``first_home``
(True for the player home first overall) and ``home_order`` (1 for that
player, None for a player without a mouse home).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import (
    Problems,
    Rules,
    Table,
    optional,
    read_count,
    read_player_map,
    shared_places,
)
from games.i18n import Text

MICE_PER_PLAYER = 4
Mice = dict[str, tuple[int, int]]


class AllesFuerDieKatz(Rules[tuple[Mice, list[str]]]):
    key = "alles_fuer_die_katz"
    name = Text("Alles für die Katz")
    description = Text("Bring your mice home past the cat-food traps.")
    min_players = 2
    max_players = 4
    result_keys = frozenset({"mice", "first_home"})
    series_tiebreaks = ("points", "wins", "best_place")

    start_rule = Text("Whoever likes cheese most starts.")

    def hint(self, n_players: int, house_rules: dict[str, Any]) -> Text:
        return Text("Each player stacks four mice on the start field of their colour in the "
                    "pantry; whoever likes cheese most starts.")

    def read(self, result, players, house_rules, problems):
        mice: Mice = {}
        for player, entry in read_player_map(result, "mice", players, problems).items():
            entry = entry if isinstance(entry, Mapping) else {}
            found = len(problems)
            home = read_count(entry.get("home"), 0, MICE_PER_PLAYER, problems, player=player,
                              field="mice.home", label=Text("Mice home"))
            trapped = read_count(entry.get("trapped"), 0, MICE_PER_PLAYER, problems,
                                 player=player, field="mice.trapped", label=Text("Mice trapped"))
            if len(problems) > found:
                continue
            if home + trapped != MICE_PER_PLAYER:
                problems.add("mice.count",
                             Text("{player}: each of the four mice ends home or trapped; "
                                  "{home} home and {trapped} trapped make {total}.",
                                  player=player, home=home, trapped=trapped,
                                  total=home + trapped),
                             player=player, field="mice")
            mice[player] = (home, trapped)
        return mice, self._read_first_home(result, players, mice, problems)

    @staticmethod
    def _read_first_home(result: Mapping[str, Any], players: list[str], mice: Mice,
                         problems: Problems) -> list[str]:
        """The order of first mice home: exactly the players with a mouse home, each once."""
        value = optional(result, "first_home")
        value = [] if value is None else value
        if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
            problems.add("first_home.invalid",
                         Text("Tap the players in the order their first mouse got home."),
                         field="first_home")
            return []
        order: list[str] = []
        for player in value:
            if player not in players:
                problems.add("players.unknown", Text("{other} is not playing in this game.",
                                                     other=player), field="first_home")
            elif player in order:
                problems.add("first_home.twice",
                             Text("{player} is in the order of first mice home twice.",
                                  player=player), player=player, field="first_home")
            elif player in mice and mice[player][0] == 0:
                problems.add("first_home.none_home",
                             Text("{player} got no mouse home, so has no place in the order "
                                  "of first mice home.", player=player),
                             player=player, field="first_home")
            else:
                order.append(player)
        for player in players:
            if player in mice and mice[player][0] and player not in value:
                problems.add("first_home.missing",
                             Text("{player} got a mouse home: tap when their first one got "
                                  "there.", player=player), player=player, field="first_home")
        return order

    def outcome(self, table: Table[tuple[Mice, list[str]]]):
        mice, order = table.data
        points = {player: mice[player][0] for player in table.players}
        home_order = {player: position for position, player in enumerate(order, start=1)}
        places = shared_places(
            table.players, lambda p: (-points[p], home_order.get(p, len(order) + 1)))
        details = {
            player: {"home": home, "trapped": trapped, "out": trapped == MICE_PER_PLAYER,
                     "first_home": home_order.get(player) == 1,
                     "home_order": home_order.get(player)}
            for player, (home, trapped) in mice.items()
        }
        return self.make_outcome(table, points, places, details)
