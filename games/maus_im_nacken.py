"""Die Maus im Nacken (Goldsieber, 1996, Manfred Ludwig), 2 to 4 players.

Each player races four elephants of one colour from the start pyramid around
the track, with the mouse chasing them. A race ends when no elephant is left on
the track; each elephant then ends in one of four ways:

* **home** in the pool: the first elephant home over all players scores 13,
  the second 12, the third 11, every later one 10;
* on a **seat** beside the track (stool, chair, sofa, armchair; "couch" in the
  English translation): it scores the seat's value. Seats are board data, 3 to
  8 by default; a family with another board sets the ``seat_values`` house rule;
* **caught** by the mouse, or run into it: 0;
* still on the **pyramid** when the mouse passed the start arrow: 0.

The player whose elephants scored most wins the race; a tie is shared, as the
rules name no tie-break. The rules recommend a series of races agreed in
advance: series standings add the races' points, then count race wins, then
elephants home (``series_tiebreaks``).

Result::

    {"players": ["anna", "ben"],
     "elephants": {"anna": ["home:1", "seat:5", "caught", "pyramid"],
                   "ben": ["home:2", "home:3", "seat:8", "caught"]}}

Home ranks are counted over all players and must run 1, 2, 3, ... without a
gap or a repeat. Details per player: ``home``, ``seated``, ``caught``,
``pyramid`` (elephants in each state), ``home_points``, ``seat_points`` and
``first_home`` (True for the owner of the elephant home first).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.base import Option, Outcome, Problems, Rules, Table, places_by_points, read_player_map
from games.i18n import Text, one_of

ELEPHANTS_PER_PLAYER = 4
DEFAULT_SEAT_VALUES = [3, 4, 5, 6, 7, 8]
HOME_POINTS = (13, 12, 11)
LATER_HOME_POINTS = 10
#: The mouse's start square for 2, 3 and 4 players.
MOUSE_START_SQUARE = {2: 2, 3: 3, 4: 4}

HOME, SEAT, CAUGHT, PYRAMID = "home", "seat", "caught", "pyramid"


@dataclass(frozen=True)
class Elephant:
    """Where one elephant ended: its state and, for home and seat, the rank or seat value."""

    state: str
    value: int = 0

    def __str__(self) -> str:
        return f"{self.state}:{self.value}" if self.state in (HOME, SEAT) else self.state


def home_points(rank: int) -> int:
    """Points for the elephant home in ``rank``-th place over all players (13, 12, 11, then 10)."""
    return HOME_POINTS[rank - 1] if rank <= len(HOME_POINTS) else LATER_HOME_POINTS


def elephant_points(elephant: Elephant) -> int:
    if elephant.state == HOME:
        return home_points(elephant.value)
    if elephant.state == SEAT:
        return elephant.value
    return 0


def parse_elephant(value: Any) -> Elephant | None:
    """``"home:1"``, ``"seat:5"``, ``"caught"`` or ``"pyramid"``; None for anything else."""
    if not isinstance(value, str):
        return None
    if value in (CAUGHT, PYRAMID):
        return Elephant(value)
    state, _, number = value.partition(":")
    # Ranks and seat values have at most two digits; a longer number is no elephant.
    if state in (HOME, SEAT) and number.isdigit() and number.isascii() and len(number) <= 4:
        return Elephant(state, int(number))
    return None


class MausImNacken(Rules[dict[str, list[Elephant]]]):
    key = "maus_im_nacken"
    name = Text("Die Maus im Nacken")
    description = Text("Race your elephants home before the mouse catches them.")
    min_players = 2
    max_players = 4
    house_rules = (
        Option("seat_values", Text("Seat values on the board"), DEFAULT_SEAT_VALUES,
               kind="int_list", minimum=1, maximum=20),
    )
    result_keys = frozenset({"elephants"})
    series_tiebreaks = ("points", "wins", "elephants_home")

    def hint(self, n_players: int, house_rules: dict[str, Any]) -> Text:
        return Text(
            "The mouse starts on square {square}. Each player puts four elephants of one "
            "colour on the pyramid.",
            square=MOUSE_START_SQUARE[n_players],
        )

    def read(self, result, players, house_rules, problems):
        seat_values = set(house_rules["seat_values"])
        raw = read_player_map(result, "elephants", players, problems)
        elephants: dict[str, list[Elephant]] = {}
        for player, entries in raw.items():
            if not isinstance(entries, list) or len(entries) != ELEPHANTS_PER_PLAYER:
                count = len(entries) if isinstance(entries, list) else 0
                problems.add(
                    "elephants.count",
                    Text("{player}: enter all four elephants, not {count}.",
                         player=player, count=count),
                    player=player, field="elephants",
                )
                continue
            elephants[player] = []
            for index, entry in enumerate(entries):
                elephant = parse_elephant(entry)
                field = f"elephants.{index}"
                if elephant is None:
                    problems.add(
                        "elephants.unknown",
                        Text("{player}: elephant {number} must be home, on a seat, caught or "
                             "on the pyramid.", player=player, number=index + 1),
                        player=player, field=field,
                    )
                    continue
                if elephant.state == SEAT and elephant.value not in seat_values:
                    problems.add(
                        "elephants.seat_value",
                        Text("{player}: elephant {number} is on a seat worth {value}, but the "
                             "seats are worth {allowed}.", player=player, number=index + 1,
                             value=elephant.value, allowed=one_of(seat_values)),
                        player=player, field=field,
                    )
                if elephant.state == HOME and elephant.value < 1:
                    problems.add(
                        "elephants.home_rank",
                        Text("{player}: elephant {number} came home in place 0; home places "
                             "start at 1.", player=player, number=index + 1),
                        player=player, field=field,
                    )
                elephants[player].append(elephant)
        if not problems:
            self._check_home_ranks(elephants, problems)
        return elephants

    @staticmethod
    def _check_home_ranks(elephants: dict[str, list[Elephant]], problems: Problems) -> None:
        """Home ranks over all players are unique and run 1, 2, 3, ... without gaps."""
        owners: dict[int, list[tuple[str, int]]] = {}
        for player, herd in elephants.items():
            for index, elephant in enumerate(herd):
                if elephant.state == HOME and elephant.value >= 1:
                    owners.setdefault(elephant.value, []).append((player, index))
        for rank, holders in sorted(owners.items()):
            if len(holders) > 1:
                for player, index in holders[1:]:
                    problems.add(
                        "elephants.home_rank_taken",
                        Text("{player}: elephant {number} cannot come home in place {rank}: "
                             "another elephant is already there.",
                             player=player, number=index + 1, rank=rank),
                        player=player, field=f"elephants.{index}",
                    )
        missing = [rank for rank in range(1, len(owners) + 1) if rank not in owners]
        if missing:
            highest = max(owners)
            player, index = owners[highest][0]
            problems.add(
                "elephants.home_rank_gap",
                Text("{player}: elephant {number} came home in place {rank}, but no elephant "
                     "came home in place {missing}.", player=player, number=index + 1,
                     rank=highest, missing=missing[0]),
                player=player, field=f"elephants.{index}",
            )

    def outcome(self, table: Table[dict[str, list[Elephant]]]) -> Outcome:
        points: dict[str, int] = {}
        details: dict[str, dict[str, Any]] = {}
        for player in table.players:
            herd = table.data[player]
            states = [elephant.state for elephant in herd]
            home = sum(elephant_points(e) for e in herd if e.state == HOME)
            seats = sum(elephant_points(e) for e in herd if e.state == SEAT)
            points[player] = home + seats
            details[player] = {
                "home": states.count(HOME),
                "seated": states.count(SEAT),
                "caught": states.count(CAUGHT),
                "pyramid": states.count(PYRAMID),
                "home_points": home,
                "seat_points": seats,
                "first_home": any(e.state == HOME and e.value == 1 for e in herd),
                "elephants": [str(e) for e in herd],
            }
        return self.make_outcome(table, points, places_by_points(points), details)

