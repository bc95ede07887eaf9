"""Tournament figures: seating 64 players over 10 rounds, and standings after 10 rounds.

Run: python bench/tournament.py [--quick]

Prints each figure on its own line as `name: value` (times are the best of several
runs), and how many times two players met again, for the seating's quality.
"""

from __future__ import annotations

import random
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games  # noqa: E402
from games.seating import repeated_meetings  # noqa: E402

PLAYERS = [f"player{n}" for n in range(64)]
ROUNDS = 10
#: `--quick`: a short run that checks the bench still works (CI); not figures to quote.
QUICK = "--quick" in sys.argv[1:]
REPEATS = 1 if QUICK else 5


def table_outcomes(seating: list[list[list[str]]]) -> list[games.Outcome]:
    """One scored Die Maus im Nacken race per table and round, with random elephants."""
    rng = random.Random(0)
    rules = games.get("maus_im_nacken")
    outcomes = []
    for tables in seating:
        for table in tables:
            fates = {player: [rng.choice(["caught", "pyramid", "seat:5", "seat:8"])
                              for _ in range(4)] for player in table}
            fates[table[0]][0] = "home:1"
            outcomes.append(rules.score({"players": table, "elephants": fates}))
    return outcomes


def main() -> None:
    seating = games.seat_rounds(PLAYERS, ROUNDS, (2, 4), seed=0)
    outcomes = table_outcomes(seating)
    seat_time = min(timeit.repeat(lambda: games.seat_rounds(PLAYERS, ROUNDS, (2, 4), seed=0),
                                  number=1, repeat=REPEATS))
    standings_time = min(timeit.repeat(
        lambda: games.series_standings(outcomes, players=PLAYERS), number=1, repeat=REPEATS * 4))
    print(f"seating_repeated_meetings: {repeated_meetings(seating)}")
    print(f"seat_64_players_10_rounds_ms: {seat_time * 1000:.1f}")
    print(f"standings_64_players_10_rounds_ms: {standings_time * 1000:.2f}")


if __name__ == "__main__":
    main()
