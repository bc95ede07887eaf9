"""Entenspiel, the duck's version of the goose game, 2 to 4 players, 63 squares.

Players roll once a turn and move their duck; duck squares repeat the move,
event squares send it on or back. Whoever first reaches or passes square 63
wins. The rules give no points. A result names the winner and, optionally,
the square each other player had reached when the game ended: those squares
give the later places (further is better, equal squares share a place);
players without a square share the place after them.

No duck ends a move on an event square that sends it on or back, so a losing
duck cannot be recorded there. The German rule text:

* 15: "Dein Bus fährt in die entgegengesetzte Richtung. Du musst auf Feld 10 zurück."
* 39: "Du hast dich verirrt und musst zurück auf Feld 33."
* 58: "Du hast deinen Koffer am Bahnhof vergessen und musst noch mal zurück auf
  Feld 42. Das dortige Ereignis tritt aber nicht in Kraft."

Squares 3 and 6 are offers a player may decline, so a duck may rest on them:

* 3: "Du darfst auf das Feld vor dem nächsten Spieler vorrücken."
* 6: "Du kannst mit dem Schiff übersetzen. Rücke bis Feld 12 vor."

``squares`` is optional; null means absent, for the map and for a player.

Result::

    {"players": ["anna", "ben", "carl"], "winner": "ben",
     "squares": {"anna": 42, "carl": 30}}
"""

from __future__ import annotations

from typing import Any

from games.base import Rules, Table, read_count, read_player, read_player_map, shared_places
from games.i18n import Text

FINISH_SQUARE = 63
#: Squares no duck stays on, and where their event sends it.
MOVED_ON = {15: 10, 39: 33, 58: 42}


class Entenspiel(Rules[tuple[str | None, dict[str, int]]]):
    key = "entenspiel"
    name = Text("Entenspiel")
    description = Text("The duck's goose game: first to square 63 wins.")
    min_players = 2
    max_players = 4
    scored_by_points = False
    result_keys = frozenset({"winner", "squares"})

    start_rule = Text("The highest roll starts.")

    def hint(self, n_players: int, house_rules: dict[str, Any]) -> Text:
        return Text("Ducks start in front of the board; the highest roll starts. First to reach "
                    "or pass square 63 wins.")

    def read(self, result, players, house_rules, problems):
        winner = read_player(result, "winner", players, problems,
                             Text("Choose who reached square 63 first."))
        squares = read_player_map(result, "squares", players, problems, required=False)
        reached: dict[str, int] = {}
        for player, square in squares.items():
            if player == winner:
                if square != FINISH_SQUARE:
                    problems.add("squares.winner",
                                 Text("{player} won and so reached square 63.", player=player),
                                 player=player, field="squares")
                continue
            reached[player] = read_count(square, 0, FINISH_SQUARE - 1, problems, player=player,
                                         field="squares", label=Text("Square reached"))
            if reached[player] in MOVED_ON:
                problems.add("squares.moved_on",
                             Text("{player}: no duck stays on square {square}; its event moves "
                                  "the duck on to square {target}.", player=player,
                                  square=reached[player], target=MOVED_ON[reached[player]]),
                             player=player, field="squares")
        return winner, reached

    def outcome(self, table: Table[tuple[str | None, dict[str, int]]]):
        winner, reached = table.data

        def standing(player: str) -> tuple[int, int]:
            if player == winner:
                return (0, 0)
            return (1, -reached[player]) if player in reached else (2, 0)

        places = shared_places(table.players, standing)
        details = {player: {"square": FINISH_SQUARE if player == winner else reached.get(player)}
                   for player in table.players}
        return self.make_outcome(table, {p: 0 for p in table.players}, places, details)
