"""Any other game: each player's final score, 1 to 20 players.

For games the tracker has no rules for. The host enters one whole number per
player (negative scores are allowed); the most points win, or the fewest with
the ``lower_wins`` house rule (golf-like games). Equal scores share a place.

Result::

    {"players": ["anna", "ben"], "scores": {"anna": 120, "ben": 95},
     "house_rules": {"lower_wins": false}}
"""

from __future__ import annotations

from typing import Any

from games.base import Option, Rules, Table, places_by_points, read_count, read_player_map
from games.i18n import Text

SCORE_LIMIT = 1_000_000


class Generic(Rules[dict[str, int]]):
    key = "generic"
    name = Text("Any other game")
    description = Text("Enter each player's final score; highest or lowest wins.")
    min_players = 1
    max_players = 20
    result_keys = frozenset({"scores"})
    house_rules = (
        Option("lower_wins", Text("Fewest points win"), False,
               {False: Text("No"), True: Text("Yes")}),
    )

    def hint(self, n_players: int, house_rules: dict[str, Any]) -> Text:
        if house_rules["lower_wins"]:
            return Text("Enter each player's score at the end; the fewest points win.")
        return Text("Enter each player's score at the end; the most points win.")

    def read(self, result, players, house_rules, problems):
        return {
            player: read_count(score, -SCORE_LIMIT, SCORE_LIMIT, problems, player=player,
                               field="scores", label=Text("Score"))
            for player, score in read_player_map(result, "scores", players, problems).items()
        }

    def outcome(self, table: Table[dict[str, int]]):
        lower = table.house_rules["lower_wins"]
        points = dict(table.data)
        details = {player: {"score": points[player]} for player in table.players}
        return self.make_outcome(table, points, places_by_points(points, lower), details,
                                 lower_is_better=lower)
