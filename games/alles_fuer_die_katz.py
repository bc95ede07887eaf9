"""Alles für die Katz, 2 to 4 players with 4 mice each.

The mice run from the pantry to the mouse hole past cat-food cans that trap a
mouse landing exactly in them. At the end every mouse is home or trapped. Most
mice home wins; among players with as many mice home, whoever got a mouse home
first wins the tie. A player whose four mice are all trapped is out and places
last. Other ties are shared. Points are the mice home.

Result::

    {"players": ["anna", "ben", "carl"],
     "mice": {"anna": {"home": 2, "trapped": 2},
              "ben": {"home": 2, "trapped": 2},
              "carl": {"home": 0, "trapped": 4}},
     "first_home": "ben"}

``first_home`` is the player whose mouse reached the hole first; it is needed
whenever any mouse got home. Details per player: ``home``, ``trapped``,
``out`` and ``first_home``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Rules, Table, read_count, read_player_map, shared_places
from games.i18n import Text

MICE_PER_PLAYER = 4


class AllesFuerDieKatz(Rules[tuple[dict[str, tuple[int, int]], str | None]]):
    key = "alles_fuer_die_katz"
    name = Text("Alles für die Katz")
    description = Text("Bring your mice home past the cat-food traps.")
    min_players = 2
    max_players = 4
    series_tiebreaks = ("points", "wins", "best_place")

    def hint(self, n_players: int, house_rules: dict[str, Any]) -> Text:
        return Text("Each player stacks four mice on the start field of their colour in the "
                    "pantry; whoever likes cheese most starts.")

    def read(self, result, players, house_rules, problems):
        mice: dict[str, tuple[int, int]] = {}
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
        first_home = result.get("first_home")
        anyone_home = any(home for home, _ in mice.values())
        if first_home is None and not anyone_home:
            return mice, None
        if first_home not in players:
            problems.add("first_home.missing", Text("Choose who got a mouse home first."),
                         field="first_home")
            return mice, None
        if first_home in mice and mice[first_home][0] == 0:
            problems.add("first_home.none_home",
                         Text("{player} got no mouse home, so cannot have been first.",
                              player=first_home), player=first_home, field="first_home")
        return mice, first_home

    def outcome(self, table: Table[tuple[dict[str, tuple[int, int]], str | None]]):
        mice, first_home = table.data
        points = {player: mice[player][0] for player in table.players}
        places = shared_places(table.players,
                               lambda p: (-points[p], 0 if p == first_home else 1))
        details = {
            player: {"home": home, "trapped": trapped, "out": trapped == MICE_PER_PLAYER,
                     "first_home": player == first_home}
            for player, (home, trapped) in mice.items()
        }
        return self.make_outcome(table, points, places, details)
