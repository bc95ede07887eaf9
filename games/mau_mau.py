"""Mau Mau(s), the card game of the Maus collection: 32 cards, 2 to 6 players.

Each player gets five cards; a card may be laid on one of the same number or
colour; special cards make the next player pause, draw one, or follow a wished
colour. Whoever lays their last card first calls "Mau Mau(s)" and wins.

House rule ``scoring``:

``single_hand`` (default, the printed rule)
    One hand: the result names the ``winner``; everyone else shares second
    place. No points.
``penalty_points`` (a common family rule)
    A sequence of hands. After each hand every player notes penalty points for
    the cards left in their hand, counted as the family agrees; each card left
    counts at least one point, so exactly the player who went out notes 0.
    Fewest penalty points over all hands wins; ties are shared.

Results::

    {"players": ["anna", "ben"], "winner": "ben"}

    {"players": ["anna", "ben", "carl"],
     "hands": [{"anna": 0, "ben": 7, "carl": 3}, {"anna": 12, "ben": 0, "carl": 4}],
     "house_rules": {"scoring": "penalty_points"}}

Details per player: ``hands_won`` and, with penalty points, ``penalties`` (a
list, one entry per hand).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Option, Rules, Table, is_int, places_by_order, places_by_points, read_player
from games.i18n import Text

CARDS_PER_PLAYER = 5
MAX_PENALTY_PER_HAND = 999
SINGLE_HAND, PENALTY_POINTS = "single_hand", "penalty_points"


class MauMau(Rules[Any]):
    key = "mau_mau"
    name = Text("Mau Mau(s)")
    description = Text("The card game: whoever lays their last card first wins.")
    min_players = 2
    max_players = 6
    result_keys = frozenset({"winner", "hands"})
    house_rules = (
        Option("scoring", Text("Scoring"), SINGLE_HAND, {
            SINGLE_HAND: Text("One hand: the first out wins"),
            PENALTY_POINTS: Text("Several hands with penalty points for cards left"),
        }),
    )

    def scores_points(self, house_rules: Mapping[str, Any]) -> bool:
        return house_rules["scoring"] == PENALTY_POINTS

    def fewer_points_win(self, house_rules: Mapping[str, Any]) -> bool:
        return house_rules.get("scoring") == PENALTY_POINTS

    start_rule = Text("Whoever had the most recent birthday starts.")

    def hint(self, n_players: int, house_rules: dict[str, Any]) -> Text:
        return Text("Deal five cards to each player and turn up the top card of the pile; "
                    "whoever had the most recent birthday starts.")

    def read(self, result, players, house_rules, problems):
        if house_rules["scoring"] == SINGLE_HAND:
            return read_player(result, "winner", players, problems,
                               Text("Choose who laid their last card first."))
        hands = result.get("hands")
        if not isinstance(hands, list) or not hands:
            problems.add("hands.missing", Text("Enter the penalty points of at least one hand."),
                         field="hands")
            return []
        return [self._read_hand(number, hand, players, problems)
                for number, hand in enumerate(hands, start=1)]

    @staticmethod
    def _read_hand(number: int, hand: Any, players: list[str], problems) -> dict[str, int]:
        field = f"hands.{number - 1}"
        if not isinstance(hand, Mapping) or set(hand) != set(players):
            problems.add("hands.players",
                         Text("Hand {number}: enter penalty points for every player.",
                              number=number), field=field)
            return {}
        penalties: dict[str, int] = {}
        for player in players:
            value = hand[player]
            if not is_int(value) or not 0 <= value <= MAX_PENALTY_PER_HAND:
                problems.add("hands.value",
                             Text("{player}: hand {number} needs penalty points from 0 to "
                                  "{high}.", player=player, number=number,
                                  high=MAX_PENALTY_PER_HAND),
                             player=player, field=field)
            else:
                penalties[player] = value
        if len(penalties) == len(players) and list(penalties.values()).count(0) != 1:
            problems.add("hands.one_out",
                         Text("Hand {number}: exactly one player went out and notes 0.",
                              number=number), field=field)
        return penalties

    def outcome(self, table: Table[Any]):
        if table.house_rules["scoring"] == SINGLE_HAND:
            winner = table.data
            points = {player: 0 for player in table.players}
            details = {player: {"hands_won": int(player == winner)} for player in table.players}
            return self.make_outcome(table, points, places_by_order(table.players, [winner]),
                                     details)
        hands: list[dict[str, int]] = table.data
        points = {player: sum(hand[player] for hand in hands) for player in table.players}
        details = {
            player: {"penalties": [hand[player] for hand in hands],
                     "hands_won": sum(1 for hand in hands if hand[player] == 0)}
            for player in table.players
        }
        return self.make_outcome(table, points, places_by_points(points, lower_is_better=True),
                                 details, lower_is_better=True)
