"""Charts drawn on the server as SVG, readable on a tablet and printed in black and white.

Hand-written SVG: two chart shapes are all the pages need, and a template keeps
every text translatable and the output free of scripts and external files. Values
are written next to their markers and bars, so no colour legend is needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tracker.stats import percent

WIDTH, HEIGHT = 640, 280
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 24, 56


def plot_box() -> dict[str, int]:
    return {"width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT,
            "top": TOP, "bottom": HEIGHT - BOTTOM, "middle": (LEFT + WIDTH - RIGHT) // 2,
            "centre_y": (TOP + HEIGHT - BOTTOM) // 2}


def y_at(value: float, top_value: float) -> float:
    return HEIGHT - BOTTOM - (HEIGHT - BOTTOM - TOP) * (value / top_value if top_value else 0)


def every_nth_label(count: int, room: int = 12) -> int:
    """Show every n-th label along the x axis so that at most ``room`` fit."""
    return max(1, -(-count // room))


def rate_line(points: Sequence[dict[str, Any]], x_title: str, y_title: str) -> dict[str, Any]:
    """Win rate per period as a line with round markers and a percentage at each marker.

    ``points`` have ``label``, ``plays`` and ``wins``.
    """
    step = (WIDTH - LEFT - RIGHT) / max(len(points), 1)
    nth = every_nth_label(len(points))
    drawn = []
    for index, point in enumerate(points):
        value = point["wins"] / point["plays"] if point["plays"] else 0
        drawn.append({"x": round(LEFT + step * (index + 0.5), 1),
                      "y": round(y_at(value, 1), 1), "value": percent(value),
                      "label": point["label"] if index % nth == 0 else "",
                      "title": f"{point['label']}: {point['wins']}/{point['plays']}"})
    return {"box": plot_box(), "points": drawn, "x_title": x_title, "y_title": y_title,
            "polyline": " ".join(f"{p['x']},{p['y']}" for p in drawn),
            "grid": [{"y": round(y_at(share, 1), 1), "label": percent(share)}
                     for share in (0, 0.5, 1)]}


def count_bars(bars: Sequence[dict[str, Any]], x_title: str, y_title: str) -> dict[str, Any]:
    """Counts as bars with the count written on each; ``bars`` have ``label`` and ``count``."""
    top = max((bar["count"] for bar in bars), default=0) or 1
    step = (WIDTH - LEFT - RIGHT) / max(len(bars), 1)
    nth = every_nth_label(len(bars))
    drawn = []
    for index, bar in enumerate(bars):
        y = y_at(bar["count"], top)
        drawn.append({"x": round(LEFT + step * index + step * 0.1, 1),
                      "width": round(step * 0.8, 1), "y": round(y, 1),
                      "height": round(HEIGHT - BOTTOM - y, 1),
                      "centre": round(LEFT + step * (index + 0.5), 1),
                      "count": bar["count"], "label": bar["label"] if index % nth == 0 else "",
                      "title": f"{bar['label']}: {bar['count']}"})
    return {"box": plot_box(), "bars": drawn, "x_title": x_title, "y_title": y_title,
            "grid": [{"y": round(y_at(value, top), 1), "label": value} for value in (0, top)]}
