"""Only the project's own files are committed: no stray folders at the top."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOP_FILES = {"manage.py", "pyproject.toml", "README.md", "CONTRIBUTING.md", "Makefile",
             ".gitignore"}
TOP_FOLDERS = {".ci", "bench", "docs", "games", "locale", "static", "templates", "tests",
               "tracker"}


def test_every_committed_file_is_in_the_known_layout():
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode().split("\0")
    strays = [path for path in filter(None, listed)
              if ("/" in path and path.split("/")[0] not in TOP_FOLDERS)
              or ("/" not in path and path not in TOP_FILES)]
    assert len(listed) > 100 and strays == []


def test_every_bench_script_loads():
    """A bench whose imports broke would be found only by CI's quick benches, 200 seconds
    in: each script is loaded here (without running it), as `python bench/NAME.py` would."""
    scripts = sorted(path.stem for path in (ROOT / "bench").glob("*.py"))
    loaded = subprocess.run(
        [sys.executable, "-c", "import importlib, sys\n"
         "for name in sys.argv[1:]: importlib.import_module(name)", *scripts],
        cwd=ROOT / "bench", capture_output=True, text=True)
    assert loaded.returncode == 0, loaded.stderr
    assert len(scripts) >= 10
