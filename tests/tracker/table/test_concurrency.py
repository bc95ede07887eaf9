"""Eight tablets saving Kniffel cells at once through gunicorn, as in bench/concurrency.py.

Runs on a fresh SQLite file (the default a household runs on) and, when DATABASE_URL names
PostgreSQL, on a fresh PostgreSQL database beside it: no answer may be a 500, and every
cell the server confirmed is stored once, with the points it confirmed.
"""

import importlib.util
import os
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest

BENCH = Path(__file__).resolve().parents[3] / "bench" / "concurrency.py"
SECONDS = 4.0
CLIENTS = 8


def load_bench():
    if str(BENCH.parent) not in sys.path:
        sys.path.insert(0, str(BENCH.parent))  # the bench scripts import their neighbours
    spec = importlib.util.spec_from_file_location("bench_concurrency", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def databases(bench, workdir: Path) -> dict[str, str]:
    found = {"sqlite": f"sqlite:///{workdir}/concurrency.sqlite3"}
    copy = bench.postgres_copy(os.environ.get("DATABASE_URL", ""))
    if copy:
        found["postgres"] = copy[0]
    return found


def test_eight_tablets_at_once_get_no_error_and_lose_no_cell(tmp_path):
    bench = load_bench()
    for label, url in databases(bench, tmp_path).items():
        copy = bench.postgres_copy(url)
        if copy:
            bench.recreate_postgres_database(copy[1], urlparse(url).path.lstrip("/"))
        try:
            # Its own static files: collectstatic rewrites each hashed file, and another
            # test's app reads the project's folder meanwhile.
            env = bench.production_environment(url) | {
                "DJANGO_STATIC_ROOT": str(tmp_path / "static")}
            figures = bench.run(env, SECONDS, CLIENTS)
        finally:
            if copy:
                bench.recreate_postgres_database(copy[1], urlparse(url).path.lstrip("/"),
                                                 drop_only=True)
        assert figures["errors_5xx"] == 0, (label, figures)
        assert figures["other_answers"] == 0, (label, figures)
        assert figures["conflicts_409"] > 0, (label, figures)
        assert figures["saves_per_s"] > 0, (label, figures)
        assert (figures["cells_lost"], figures["cells_doubled"],
                figures["cells_not_as_confirmed"]) == (0, 0, 0), (label, figures)


pytestmark = pytest.mark.skipif(os.name != "posix", reason="gunicorn runs on POSIX only")
