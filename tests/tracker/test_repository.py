"""Only the project's own files are committed: no stray folders at the top."""

import subprocess
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
