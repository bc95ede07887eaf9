"""Seating for tournaments with more players than one table holds.

``seat_rounds(players, rounds, table_sizes=(2, 4), seed=0)`` returns a list of
rounds; each round is a list of tables, each table a list of players in seat
order (the first seat plays first).

How it seats:

* **Table sizes.** The fewest tables that the largest size allows, filled as
  evenly as possible: 10 players at tables of 2 to 4 sit 4 + 3 + 3, never 4 + 4
  + 2, and nobody sits alone. Larger tables come first.
* **Opponents.** Round by round, players are placed greedily, each at the table
  whose players they have met least so far (the cost of a table is the sum of
  the squared meeting counts it would add, so a third meeting weighs more than
  two second ones); then players are swapped between tables while a swap
  lowers the cost. This is repeated with the players in several seeded random
  orders and the cheapest round is kept; small tournaments get more repeats
  than large ones, so 64 players over 10 rounds stay well under a tenth of a
  second.
* **Seats.** At each table, the player who has sat first least often sits
  first, then by the lowest sum of earlier seat numbers, which rotates the
  first-player advantage and the seat order.
* **Determinism.** The same players, rounds, sizes and seed give the same
  seating. ``history`` (rounds already played, as returned earlier) lets a
  tournament re-seat the coming rounds after someone drops out: meetings and
  seats so far still count.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Hashable, Sequence
from itertools import combinations
from typing import TypeVar

P = TypeVar("P", bound=Hashable)
#: Greedy passes per round are spread over this many placements in all.
PLACEMENT_BUDGET = 1500


def table_sizes_for(count: int, table_sizes: tuple[int, int]) -> list[int]:
    """The table sizes for ``count`` players: fewest tables, sizes as even as possible."""
    smallest, largest = table_sizes
    if smallest < 1 or largest < smallest:
        raise ValueError(f"table sizes must be 1 <= smallest <= largest, not {table_sizes}")
    for tables in range(max(1, math.ceil(count / largest)), count // smallest + 1):
        base, extra = divmod(count, tables)
        if smallest <= base and base + (1 if extra else 0) <= largest:
            return [base + 1] * extra + [base] * (tables - extra)
    raise ValueError(f"{count} players cannot sit at tables of {smallest} to {largest}")


def seat_rounds(players: Sequence[P], rounds: int, table_sizes: tuple[int, int] = (2, 4),
                seed: int = 0, history: Sequence[Sequence[Sequence[P]]] = ()
                ) -> list[list[list[P]]]:
    """Seat ``players`` for ``rounds`` rounds; see the module docstring for how."""
    if len(set(players)) != len(players):
        raise ValueError("every player can be seated only once")
    if rounds < 0:
        raise ValueError("rounds must be 0 or more")
    sizes = table_sizes_for(len(players), table_sizes)
    rng = random.Random(seed)
    met: dict[P, dict[P, int]] = defaultdict(lambda: defaultdict(int))
    first: dict[P, int] = defaultdict(int)
    seat_sum: dict[P, int] = defaultdict(int)
    for played in history:
        _remember(played, met, first, seat_sum)
    passes = max(1, PLACEMENT_BUDGET // max(1, len(players) * len(sizes)))
    seated: list[list[list[P]]] = []
    for _ in range(rounds):
        tables = _best_round(list(players), sizes, met, rng, passes)
        ordered = [sorted(table, key=lambda p: (first[p], seat_sum[p], rng.random()))
                   for table in tables]
        _remember(ordered, met, first, seat_sum)
        seated.append(ordered)
    return seated


def _best_round(players: list[P], sizes: list[int], met, rng: random.Random, passes: int
                ) -> list[list[P]]:
    best: list[list[P]] | None = None
    best_cost = math.inf
    lowest = sum(size * (size - 1) // 2 for size in sizes)  # when nobody meets anybody again
    for _ in range(passes):
        rng.shuffle(players)
        tables: list[list[P]] = [[] for _ in sizes]
        cost = 0
        for player in players:
            seen = met[player]
            choice, choice_cost = -1, math.inf
            for index, table in enumerate(tables):
                if len(table) < sizes[index]:
                    added = sum((seen[other] + 1) ** 2 - seen[other] ** 2 for other in table)
                    if added < choice_cost:
                        choice, choice_cost = index, added
            tables[choice].append(player)
            cost += choice_cost
        if cost > lowest:
            cost -= _improve_by_swaps(tables, met)
        if cost < best_cost:
            best, best_cost = tables, cost
            if cost == lowest:
                break
    assert best is not None
    return best


def _improve_by_swaps(tables: list[list[P]], met) -> int:
    """Swap players between tables while a swap lowers the cost; returns the saving."""
    def cost_at(player: P, table: list[P], without: P | None = None) -> int:
        seen = met[player]
        return sum((seen[o] + 1) ** 2 - seen[o] ** 2 for o in table if o != without)

    saved, improved = 0, True
    while improved:
        improved = False
        for i, j in combinations(range(len(tables)), 2):
            for a_index, a in enumerate(tables[i]):
                for b_index, b in enumerate(tables[j]):
                    before = cost_at(a, tables[i], a) + cost_at(b, tables[j], b)
                    after = cost_at(a, tables[j], b) + cost_at(b, tables[i], a)
                    if after < before:
                        tables[i][a_index], tables[j][b_index] = b, a
                        saved += before - after
                        improved = True
                        a = b
    return saved


def _remember(tables: Sequence[Sequence[P]], met, first, seat_sum) -> None:
    for table in tables:
        for a, b in combinations(table, 2):
            met[a][b] += 1
            met[b][a] += 1
        for position, player in enumerate(table):
            seat_sum[player] += position
        if table:
            first[table[0]] += 1


def repeated_meetings(rounds: Sequence[Sequence[Sequence[P]]]) -> int:
    """How many times two players met again after their first meeting, over all rounds."""
    meetings: dict[frozenset, int] = defaultdict(int)
    for tables in rounds:
        for table in tables:
            for a, b in combinations(table, 2):
                meetings[frozenset((a, b))] += 1
    return sum(count - 1 for count in meetings.values())
