"""Mouse Trap, 2 to 4 players.

Players move their mice around the board, build the trap part by part and
collect cheese (52 pieces in all). On the loop, a player on the Turn Crank
space springs the finished trap on mice on the Cheese Wheel space; a captured
mouse is out, and its cheese goes to the player who captured it. The last
uncaptured mouse wins; earlier captures place lower (the first mouse captured
is last). The rules give no points: places only.

Result::

    {"players": ["anna", "ben", "carl"],
     "captures": [{"mouse": "carl", "by": "anna"}, {"mouse": "ben", "by": "anna"}],
     "cheese": {"anna": 31, "ben": 0, "carl": 0}}

``captures`` lists the captures in the order they happened; a player captured
earlier cannot capture later. With fewer than all-but-one captured, the game
is still in progress: the uncaptured mice share first place. ``cheese`` (cheese
held at the end) is optional; a captured player holds none, and together the
players hold at most 52. Details per player: ``captured_by``, ``captured_as``
(1 for the first mouse captured), ``captures`` made and ``cheese``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Rules, Table, read_count, read_player_map, shared_places
from games.i18n import Text

CHEESE_PIECES = 52
BUILD_SPACES = {2: "2, 2-3, 2-3-4", 3: "2-3, 2-3-4", 4: "2-3-4"}


class MouseTrap(Rules[tuple[list[tuple[str, str]], dict[str, int]]]):
    key = "mouse_trap"
    name = Text("Mouse Trap")
    description = Text("Build the trap together; the last mouse not captured wins.")
    min_players = 2
    max_players = 4
    scored_by_points = False

    def hint(self, n_players: int, house_rules: dict[str, Any]) -> Text:
        return Text("All mice start on START; the 52 cheese pieces go in a pile. With {count} "
                    "players, build on the spaces marked {spaces}.",
                    count=n_players, spaces=BUILD_SPACES[n_players])

    def read(self, result, players, house_rules, problems):
        raw_captures = result.get("captures", [])
        captures: list[tuple[str, str]] = []
        captured: set[str] = set()
        if not isinstance(raw_captures, list):
            problems.add("captures.invalid", Text("The captures are unreadable."),
                         field="captures")
            raw_captures = []
        for number, capture in enumerate(raw_captures, start=1):
            mouse = capture.get("mouse") if isinstance(capture, Mapping) else None
            captor = capture.get("by") if isinstance(capture, Mapping) else None
            if mouse not in players or captor not in players:
                problems.add("captures.unknown_player",
                             Text("Capture {number}: name the captured mouse and who captured "
                                  "it.", number=number), field=f"captures.{number - 1}")
            elif mouse in captured:
                problems.add("captures.twice",
                             Text("{player}: a mouse can be captured only once.", player=mouse),
                             player=mouse, field=f"captures.{number - 1}")
            elif captor == mouse:
                problems.add("captures.self",
                             Text("{player}: nobody captures their own mouse.", player=mouse),
                             player=mouse, field=f"captures.{number - 1}")
            elif captor in captured:
                problems.add("captures.captor_out",
                             Text("{player} was already captured and cannot capture {other}.",
                                  player=captor, other=mouse),
                             player=captor, field=f"captures.{number - 1}")
            else:
                captures.append((mouse, captor))
                captured.add(mouse)
        cheese = {
            player: read_count(count, 0, CHEESE_PIECES, problems, player=player,
                               field="cheese", label=Text("Cheese"))
            for player, count in read_player_map(result, "cheese", players, problems,
                                                 required=False).items()
        }
        for player in captured:
            if cheese.get(player):
                problems.add("cheese.captured",
                             Text("{player}: a captured mouse hands its cheese to whoever "
                                  "captured it.", player=player), player=player, field="cheese")
        if sum(cheese.values()) > CHEESE_PIECES:
            problems.add("cheese.too_much",
                         Text("There are only 52 cheese pieces, not {count}.",
                              count=sum(cheese.values())), field="cheese")
        return captures, cheese

    def outcome(self, table: Table[tuple[list[tuple[str, str]], dict[str, int]]]):
        captures, cheese = table.data
        captured_as = {mouse: number for number, (mouse, _) in enumerate(captures, start=1)}
        captured_by = dict(captures)
        # Uncaptured mice rank first; of the captured, the later capture ranks higher.
        places = shared_places(table.players, lambda p: -captured_as.get(p, len(captures) + 1))
        details = {
            player: {
                "captured_by": captured_by.get(player),
                "captured_as": captured_as.get(player),
                "captures": sum(1 for _, captor in captures if captor == player),
                "cheese": cheese.get(player),
            }
            for player in table.players
        }
        points = {player: 0 for player in table.players}
        return self.make_outcome(table, points, places, details,
                                 finished=len(captures) == len(table.players) - 1)
