"""Every variant's table of the Kniffel coach (:mod:`games.coach`) at once.

``python -m games.coach_tables [DIRECTORY]`` computes every table and prints the value of the
empty sheet under each set of house rules that changes play; ``manage.py coach_tables``
does the same into the app's directory of tables. ``--table GAME HOUSE_RULES_JSON`` computes
one table and writes it to standard output: how :func:`games.coach.compute_apart` computes a
table in a process of its own.
"""

from __future__ import annotations

import itertools
import json
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

import games
from games.coach import (
    YAHTZEE,
    YAHTZEE_FORCED_JOKER,
    Coach,
    Model,
    load,
    solve,
    store,
    table_name,
    to_bytes,
)
from games.dice_sheet import DiceSheetRules


def variants() -> Iterator[tuple[str, DiceSheetRules, dict[str, Any]]]:
    """Every combination of the house rules that can change play, named for people."""
    yield "yahtzee", games.get("kniffel"), YAHTZEE
    yield "yahtzee forced joker", games.get("kniffel"), YAHTZEE_FORCED_JOKER
    for key in ("kniffel", "weltraum_kniffel"):
        rules = games.get(key)
        options = [option for option in rules.house_rules
                   if option.key in rules.scoring_house_rules]
        for values in itertools.product(*(option.choices for option in options)):
            chosen = dict(zip((option.key for option in options), values, strict=True))
            name = " ".join([key, *(f"{option}={value}" for option, value in chosen.items())])
            yield name, rules, chosen


def compute_all(directory: Path | None = None) -> Iterator[tuple[str, Coach, bool]]:
    """The coach for every variant, and whether its table was computed now: house rules that
    play alike share one computation, and with ``directory`` the tables stored there are
    read and the others stored. Each table is solved in a second thread while this one reads
    the engine for the next variant (the solver releases the GIL), so two cores share the
    work."""
    models: dict[str, Model] = {}
    tables: list[tuple[Model, Future[np.ndarray]]] = []
    #: Variants not yet handed out: name, model, table, computed now, read from ``directory``.
    waiting: list[tuple[str, Model, Future[np.ndarray], bool, bool]] = []
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="coach-solve") as solver:
        for name, rules, house_rules in variants():
            found = load(rules, house_rules, directory) if directory is not None else None
            if found is not None:
                model, table, fresh = found.model, _done(found.values), False
            else:
                key = table_name(rules, house_rules)
                model = models.get(key) or Model(rules, house_rules)
                table = next((done for other, done in tables if other.plays_like(model)), None)
                fresh = table is None
                if table is None:
                    table = solver.submit(solve, model)
            models.setdefault(model.table_name, model)
            tables.append((model, table))
            waiting.append((name, model, table, fresh, found is not None))
            while waiting and waiting[0][2].done():
                yield _settled(waiting.pop(0), directory)
        while waiting:
            yield _settled(waiting.pop(0), directory)


def _done(values: np.ndarray) -> Future[np.ndarray]:
    future: Future[np.ndarray] = Future()
    future.set_result(values)
    return future


def _settled(variant: tuple[str, Model, Future[np.ndarray], bool, bool],
             directory: Path | None) -> tuple[str, Coach, bool]:
    """A variant whose table is ready, stored in ``directory`` unless it was read from there."""
    name, model, table, fresh, read = variant
    found = Coach(model, table.result())
    if directory is not None and not read:
        store(found, directory)
    return name, found, fresh


def main(argv: Sequence[str]) -> None:
    """Print the value of the empty sheet under every variant, how many tables were computed
    and the seconds it took; with a directory argument, the tables are stored there (and
    those stored already are read). With ``--table GAME HOUSE_RULES_JSON``: compute that one
    table and write it to standard output (:func:`to_bytes`)."""
    if argv[:1] == ["--table"]:
        model = Model(games.get(argv[1]), json.loads(argv[2]))
        sys.stdout.buffer.write(to_bytes(Coach(model, solve(model))))
        return
    started = time.perf_counter()
    fresh_tables = 0
    for name, found, fresh in compute_all(Path(argv[0]) if argv else None):
        fresh_tables += fresh
        print(f"{name}: {found.expected({}):.4f}", flush=True)
    print(f"tables computed: {fresh_tables}")
    print(f"seconds: {time.perf_counter() - started:.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
