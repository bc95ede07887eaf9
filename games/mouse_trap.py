"""Mouse Trap, 2 to 4 players.

Players move their mice around the board, build the trap part by part and
collect cheese (52 pieces in all). On the loop, a player on the Turn Crank
space springs the finished trap on mice on the Cheese Wheel space; a captured
mouse is out, and its cheese goes to the player who captured it. The last
uncaptured mouse wins; earlier captures place lower (the first mouse captured
is last). The rules give no points: places only.

Several mice can be on the Cheese Wheel space when the trap falls. The rule
text: "If more than one mouse is on the Cheese Wheel space, they may all be
captured (or missed) together." So one capture takes one or more mice, and the
mice caught together share their place. The crank is turned by a free mouse,
so one mouse is always left.

Result::

    {"players": ["anna", "ben", "carl", "dora"],
     "captures": [{"mice": ["carl", "dora"], "by": "anna"}, {"mice": ["ben"], "by": "anna"}],
     "cheese": {"anna": 31, "ben": 0, "carl": 0, "dora": 0}}

``captures`` lists the captures in the order they happened, at least one (a
result without a capture says nothing of the game); a player captured earlier
cannot capture later, and nobody captures their own mouse. With fewer than
all-but-one captured, the game is still in progress: the uncaptured mice share
first place. ``cheese`` (cheese held at the end) is
optional (null means absent, for the map and for a player); a captured player
holds none, and together the players hold at most 52. Details per player:
``captured_by``, ``captured_as`` (1 for the mice of the first capture),
``captures`` (mice captured) and ``cheese``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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

CHEESE_PIECES = 52
BUILD_SPACES = {2: "2, 2-3, 2-3-4", 3: "2-3, 2-3-4", 4: "2-3-4"}


@dataclass(frozen=True)
class Capture:
    """One fall of the trap: the mice caught together and who turned the crank."""

    mice: tuple[str, ...]
    by: str


class MouseTrap(Rules[tuple[list[Capture], dict[str, int]]]):
    key = "mouse_trap"
    name = Text("Mouse Trap")
    description = Text("Build the trap together; the last mouse not captured wins.")
    min_players = 2
    max_players = 4
    scored_by_points = False
    result_keys = frozenset({"captures", "cheese"})

    def hint(self, n_players: int, house_rules: dict[str, Any]) -> Text:
        return Text("All mice start on START; the 52 cheese pieces go in a pile. With {count} "
                    "players, build on the spaces marked {spaces}.",
                    count=n_players, spaces=BUILD_SPACES[n_players])

    def read(self, result, players, house_rules, problems):
        raw_captures = optional(result, "captures")
        if raw_captures is None:
            raw_captures = []
        elif not isinstance(raw_captures, list):
            problems.add("captures.invalid", Text("The captures are unreadable."),
                         field="captures")
            raw_captures = []
        if not raw_captures:
            problems.add("captures.missing",
                         Text("Enter the captures: tap the mice the trap caught and who turned "
                              "the crank."), field="captures")
        captures: list[Capture] = []
        captured: set[str] = set()
        for index, raw in enumerate(raw_captures):
            capture = self._read_capture(index, raw, players, captured, problems)
            if capture is not None:
                captures.append(capture)
                captured.update(capture.mice)
        cheese = {
            player: read_count(count, 0, CHEESE_PIECES, problems, player=player,
                               field="cheese", label=Text("Cheese"))
            for player, count in read_player_map(result, "cheese", players, problems,
                                                 required=False).items()
        }
        for player in sorted(captured, key=players.index):
            if cheese.get(player):
                problems.add("cheese.captured",
                             Text("{player}: a captured mouse hands its cheese to whoever "
                                  "captured it.", player=player), player=player, field="cheese")
        if sum(cheese.values()) > CHEESE_PIECES:
            problems.add("cheese.too_much",
                         Text("There are only 52 cheese pieces, not {count}.",
                              count=sum(cheese.values())), field="cheese")
        return captures, cheese

    @staticmethod
    def _read_capture(index: int, raw: Any, players: list[str], captured: set[str],
                      problems: Problems) -> Capture | None:
        """One capture, checked against the mice captured before it; None when refused."""
        field = f"captures.{index}"
        mice = raw.get("mice") if isinstance(raw, Mapping) else None
        captor = raw.get("by") if isinstance(raw, Mapping) else None
        if (not isinstance(mice, list) or not mice or captor not in players
                or not all(isinstance(mouse, str) and mouse in players for mouse in mice)):
            problems.add("captures.unknown_player",
                         Text("Capture {number}: name the captured mice and who captured "
                              "them.", number=index + 1), field=field)
            return None
        found = len(problems)
        for mouse in sorted(set(mice), key=players.index):
            if mouse in captured or mice.count(mouse) > 1:
                problems.add("captures.twice",
                             Text("{player}: a mouse can be captured only once.", player=mouse),
                             player=mouse, field=field)
        if captor in mice:
            problems.add("captures.self",
                         Text("{player}: nobody captures their own mouse.", player=captor),
                         player=captor, field=field)
        elif captor in captured:
            problems.add("captures.captor_out",
                         Text("{player} was already captured and cannot capture {other}.",
                              player=captor, other=mice[0]),
                         player=captor, field=field)
        if len(problems) > found:
            return None
        return Capture(tuple(mice), captor)

    def outcome(self, table: Table[tuple[list[Capture], dict[str, int]]]):
        captures, cheese = table.data
        captured_as = {mouse: number for number, capture in enumerate(captures, start=1)
                       for mouse in capture.mice}
        captured_by = {mouse: capture.by for capture in captures for mouse in capture.mice}
        free = [player for player in table.players if player not in captured_as]
        # Uncaptured mice rank first; of the captured, the later capture ranks higher.
        places = shared_places(table.players,
                               lambda p: -captured_as.get(p, len(captures) + 1))
        details = {
            player: {
                "captured_by": captured_by.get(player),
                "captured_as": captured_as.get(player),
                "captures": sum(len(c.mice) for c in captures if c.by == player),
                "cheese": cheese.get(player),
            }
            for player in table.players
        }
        points = {player: 0 for player in table.players}
        return self.make_outcome(table, points, places, details, finished=len(free) <= 1)
