"""How fast the rules engine scores: calls per second, and series standings time.

Run: python bench/engine.py [--quick]

Prints one `name: value` line per figure, last. The baseline is a call that
only builds an Outcome from finished numbers, measured in the same run, so the
ratios say how much the rules themselves cost on this machine.
"""

from __future__ import annotations

import random
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games  # noqa: E402
from games.base import Outcome  # noqa: E402

#: `--quick`: a short run that checks the bench still works (CI); not figures to quote.
QUICK = "--quick" in sys.argv[1:]
REPEATS = 1 if QUICK else 5

FULL_SHEET = {
    "ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
    "three_of_a_kind": 22, "four_of_a_kind": 0, "full_house": 25, "small_straight": 30,
    "large_straight": 0, "kniffel": 50, "chance": 24,
}


def kniffel_result() -> dict:
    players = [f"player{n}" for n in range(6)]
    return {"players": players, "sheets": {player: dict(FULL_SHEET) for player in players}}


def maus_result() -> dict:
    return {"players": ["anna", "ben", "carl", "dora"], "elephants": {
        "anna": ["home:1", "seat:8", "caught", "pyramid"],
        "ben": ["home:2", "home:5", "seat:3", "caught"],
        "carl": ["home:3", "seat:6", "seat:6", "caught"],
        "dora": ["home:4", "caught", "caught", "pyramid"],
    }}


def series_outcomes(players: int = 64, races: int = 30) -> list[Outcome]:
    rng = random.Random(0)
    names = [f"player{n}" for n in range(players)]
    outcomes = []
    for _ in range(races):
        points = {name: rng.randint(0, 50) for name in names}
        places = games.base.places_by_points(points)
        details = {name: {"home": rng.randint(0, 4)} for name in names}
        outcomes.append(Outcome("maus_im_nacken", points, places, details))
    return outcomes


def per_second(call) -> float:
    count = max(1, timeit.Timer(call).autorange()[0])
    best = min(timeit.repeat(call, number=count, repeat=REPEATS))
    return count / best


def main() -> None:
    kniffel, maus = games.get("kniffel"), games.get("maus_im_nacken")
    kniffel_game, maus_race = kniffel_result(), maus_result()
    outcomes = series_outcomes()
    baseline = per_second(lambda: Outcome("generic", {"a": 1}, {"a": 1}))
    kniffel_rate = per_second(lambda: kniffel.score(kniffel_game))
    maus_rate = per_second(lambda: maus.score(maus_race))
    series_time = min(timeit.repeat(lambda: games.series_standings(outcomes), number=1,
                                    repeat=REPEATS * 4))
    print(f"baseline_outcome_per_s: {baseline:.0f}")
    print(f"kniffel_6_players_score_per_s: {kniffel_rate:.0f}")
    print(f"kniffel_cost_vs_baseline: {baseline / kniffel_rate:.1f}x")
    print(f"maus_4_players_score_per_s: {maus_rate:.0f}")
    print(f"maus_cost_vs_baseline: {baseline / maus_rate:.1f}x")
    print(f"series_64x30_standings_per_s: {1 / series_time:.0f}")
    print(f"series_64x30_standings_ms: {series_time * 1000:.2f}")


if __name__ == "__main__":
    main()
