"""How long the Kniffel coach takes to compute its table, how big it is, and how fast it answers.

Run: python bench/coach.py [--quick]

Computes the table for the default Kniffel house rules from scratch into a temporary
directory (a few seconds), then measures loading it and the three kinds of lookup the web app
makes. The baseline for the lookups is the engine's own ``options()`` for the same roll,
measured in the same run, so the ratios say what the coach costs on top of the dice pads'
list of fields. The baseline for the table is a plain numpy solver of the official Yahtzee
rules (``bench/yahtzee_numpy.py``, written apart from the coach), timed in the same run against
the coach's table for the same rules; it must reproduce the published 254.5896. Then every
variant's table from scratch (``python -m games.coach_tables``), and what the coach adds to a server
process's memory, measured in a fresh process that gets its table as the web app does (computed
in a process of its own, whose peak is reported too). ``--quick`` solves only the last turns
with the numpy solver and skips the variants. Prints one `name: value` line per figure.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
import yahtzee_numpy  # noqa: E402

import games  # noqa: E402
from games import coach, coach_tables  # noqa: E402

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


#: Run in a fresh process, as a server process uses the coach: the table computed in a process
#: of its own, then advice answered from it.
WORKER = """
import re, resource, sys
sys.path.insert(0, {root!r})

def megabytes(key):
    with open("/proc/self/status") as status:
        return int(re.search(key + r":\\s+(\\d+)", status.read()).group(1)) / 1024

before = megabytes("VmRSS")
import games
from games import coach
found = coach.compute_apart(games.get("kniffel"), {{}})
for rolls_left in range(3):
    found.advise({{"ones": 3, "chance": 22}}, [6, 6, 5, 2, 1], rolls_left)
child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(megabytes("VmHWM") - before, megabytes("VmRSS") - before, child)
"""


def worker_megabytes() -> tuple[float, float, float]:
    """What getting the default table and answering advice adds to a fresh process, at the
    peak and after; and the peak of the process that computed the table."""
    script = WORKER.format(root=str(Path(__file__).resolve().parent.parent))
    peak, after, child = subprocess.run([sys.executable, "-c", script], check=True,
                                        capture_output=True, text=True).stdout.split()
    return float(peak), float(after), float(child)


def against_numpy() -> tuple[float, float]:
    """Seconds of the numpy solver and of the coach for the official Yahtzee rules; with
    ``--quick`` only for the last three turns."""
    open_at_most = 3 if QUICK else None
    started = time.perf_counter()
    baseline = yahtzee_numpy.solve(open_at_most)
    numpy_seconds = time.perf_counter() - started
    model = coach.Model(KNIFFEL, coach.YAHTZEE)
    started = time.perf_counter()
    values = coach.solve(model, open_at_most)
    coach_seconds = time.perf_counter() - started
    reachable = np.isfinite(values)
    if not np.allclose(baseline[reachable], values[reachable], rtol=0, atol=1e-9):
        raise SystemExit("the numpy solver and the coach disagree")
    if not QUICK and round(float(baseline[0, 0, 0]), 4) != 254.5896:
        raise SystemExit(f"the numpy solver finds {baseline[0, 0, 0]:.4f}, not 254.5896")
    return numpy_seconds, coach_seconds


def main() -> None:
    started = time.perf_counter()
    coach.solve(coach.Model(games.get("weltraum_kniffel"), {}), open_at_most=1)
    kernels = time.perf_counter() - started
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
    numpy_seconds, yahtzee_seconds = against_numpy()
    if not QUICK:
        started = time.perf_counter()
        for _ in coach_tables.compute_all():
            pass
        all_tables = time.perf_counter() - started
    peak, after, child = worker_megabytes()
    print(f"kernels_ready_seconds: {kernels:.1f}")
    print(f"engine_reading_seconds: {read_engine:.1f}")
    print(f"table_seconds: {solve:.1f}")
    print(f"yahtzee_table_seconds: {yahtzee_seconds:.2f}")
    print(f"numpy_solver_seconds: {numpy_seconds:.2f}")
    print(f"table_vs_numpy_solver: {yahtzee_seconds / numpy_seconds:.3f}")
    if not QUICK:
        print(f"all_tables_seconds: {all_tables:.1f}")
    print(f"coach_worker_rss_mb: {peak:.0f}")
    print(f"coach_worker_rss_after_mb: {after:.0f}")
    print(f"table_process_peak_rss_mb: {child:.0f}")
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
