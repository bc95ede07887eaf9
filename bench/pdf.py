"""How long printed pads take: a 1-sheet pad, a 100-sheet pad, and WeasyPrint's baseline.

Run: python bench/pdf.py [--quick]

The baseline is WeasyPrint turning a minimal one-page document into PDF, measured
in the same run. A pad lays its page out once and repeats it, so 100 sheets should
cost little more than one. Prints each figure on its own line as `name: value`.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")

import django  # noqa: E402

django.setup()

from weasyprint import HTML  # noqa: E402

from tracker.paper.printing import Pad, render_pad  # noqa: E402

#: `--quick`: a short run that checks the bench still works (CI); not figures to quote.
QUICK = "--quick" in sys.argv[1:]
REPEATS = 1 if QUICK else 5


def best_of(call) -> float:
    call()  # fonts and templates load on the first call
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    one = Pad("classic", 1, ("Anna",), "a4", "de", 6)
    hundred = Pad("classic", 100, ("Anna",), "a4", "de", 6)
    baseline = best_of(lambda: HTML(string="<p>Hallo</p>").write_pdf())
    one_sheet = best_of(lambda: render_pad(one))
    hundred_sheets = best_of(lambda: render_pad(hundred))
    print(f"weasyprint_minimal_ms: {baseline * 1000:.1f}")
    print(f"pad_1_sheet_ms: {one_sheet * 1000:.1f}")
    print(f"pad_100_sheets_ms: {hundred_sheets * 1000:.1f}")
    print(f"pad_1_sheet_vs_minimal: {one_sheet / baseline:.2f}")
    print(f"pad_100_vs_1_sheet: {hundred_sheets / one_sheet:.2f}")


if __name__ == "__main__":
    main()
