"""How long the Kniffel coach takes to compute its table, how big it is, and how fast it answers.

Run: python bench/coach.py [--quick]

Computes the table for the default Kniffel house rules from scratch into a temporary
directory (a minute or two on a small machine), then measures loading it and the three kinds
of lookup the web app makes. The baseline is the engine's own ``options()`` for the same roll,
measured in the same run, so the ratios say what the coach costs on top of the dice pads'
list of fields. Prints one `name: value` line per figure.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

import games  # noqa: E402
from games import coach  # noqa: E402

KNIFFEL = games.get("kniffel")
#: `--quick`: a short run that checks the bench still works (CI); not figures to quote.
QUICK = "--quick" in sys.argv[1:]
LOOKUPS = 20 if QUICK else 200


def random_situations(count: int) -> list[tuple[dict[str, int], list[int], int]]:
    """Sheets part filled with plausible points, a roll, and the rolls left."""
    rng = random.Random(17)
    situations = []
    for _ in range(count):
        sheet: dict[str, int] = {}
        for field in rng.sample(KNIFFEL.field_keys, rng.randint(0, 12)):
            sheet[field] = rng.choice(sorted(KNIFFEL.allowed_points[field]))
        situations.append((sheet, [rng.randint(1, 6) for _ in range(5)], rng.randint(0, 2)))
    return situations


def milliseconds(call, situations) -> list[float]:
    times = []
    for situation in situations:
        started = time.perf_counter()
        call(*situation)
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        started = time.perf_counter()
        model = coach.Model(KNIFFEL, {})
        read_engine = time.perf_counter() - started
        started = time.perf_counter()
        computed = coach.compute(model, Path(directory))
        solve = time.perf_counter() - started
        path = coach.table_path(model, Path(directory))
        size = path.stat().st_size
        loads = timeit.repeat(lambda: coach.load(KNIFFEL, {}, Path(directory)), number=1,
                              repeat=5)
    found = computed
    situations = random_situations(LOOKUPS)
    advise = milliseconds(lambda sheet, dice, left: found.advise(sheet, dice, left), situations)
    final = milliseconds(lambda sheet, dice, left: found.advise(sheet, dice, 0), situations)
    engine = milliseconds(lambda sheet, dice, left: KNIFFEL.options(dice, sheet), situations)
    game = [(field, points, None) for field, points in {
        "ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
        "three_of_a_kind": 22, "four_of_a_kind": 0, "full_house": 25, "small_straight": 30,
        "large_straight": 40, "kniffel": 50, "chance": 24}.items()]
    game = [(field, points, dice) for (field, points, _), dice in zip(game, [
        [1, 1, 1, 2, 3], [2, 2, 2, 5, 6], [3, 3, 3, 1, 1], [4, 4, 4, 6, 6], [5, 5, 5, 2, 2],
        [6, 6, 6, 1, 2], [4, 4, 4, 5, 5], [1, 2, 3, 5, 6], [2, 2, 3, 3, 3], [1, 2, 3, 4, 6],
        [2, 3, 4, 5, 6], [6, 6, 6, 6, 6], [4, 5, 5, 5, 5]], strict=True)]
    review = timeit.repeat(lambda: found.review(game), number=1, repeat=5)
    states = int(np.isfinite(found.values).sum())
    baseline = statistics.median(engine)
    print(f"engine_reading_seconds: {read_engine:.1f}")
    print(f"table_seconds: {solve:.1f}")
    print(f"table_states_reachable: {states}")
    print(f"table_states_stored: {found.values.size}")
    print(f"table_file_megabytes: {size / 1e6:.1f}")
    print(f"table_load_ms: {min(loads) * 1000:.0f}")
    print(f"expected_score_default_rules: {found.expected({}):.4f}")
    print(f"engine_options_ms_median: {baseline:.3f}")
    print(f"field_advice_ms_median: {statistics.median(final):.2f}")
    print(f"field_advice_ms_p95: {sorted(final)[int(0.95 * LOOKUPS)]:.2f}")
    print(f"keep_advice_ms_median: {statistics.median(advise):.2f}")
    print(f"keep_advice_ms_p95: {sorted(advise)[int(0.95 * LOOKUPS)]:.2f}")
    print(f"field_advice_vs_engine_options_ratio: {statistics.median(final) / baseline:.0f}")
    print(f"game_review_ms: {min(review) * 1000:.1f}")


if __name__ == "__main__":
    main()
