"""Charts drawn on the server as SVG, readable on a tablet and printed in black and white.

Hand-written SVG: two chart shapes are all the pages need, and a template keeps
every text translatable and the output free of scripts and external files. Values
are written next to their markers and bars, so no colour legend is needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tracker.looking_back.stats import percent

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


#: Rows of the horizontal bar chart: room for a game's name on the left of its bar.
ROW_HEIGHT, LABEL_WIDTH, LABEL_LENGTH = 30, 236, 30


def count_rows(rows: Sequence[dict[str, Any]], x_title: str) -> dict[str, Any]:
    """Counts as horizontal bars, one row each with its label on the left and its count at the
    end of the bar: long labels such as games' names never run into each other, however many
    rows there are. ``rows`` have ``label`` and ``count``."""
    top = max((row["count"] for row in rows), default=0) or 1
    right = WIDTH - RIGHT - 24  # room for the count after the longest bar
    height = TOP + ROW_HEIGHT * len(rows) + 40
    drawn = []
    for index, row in enumerate(rows):
        y = TOP + ROW_HEIGHT * index
        label = row["label"]
        drawn.append({"y": y + 4, "height": ROW_HEIGHT - 8, "middle": y + ROW_HEIGHT / 2,
                      "width": round((right - LABEL_WIDTH) * row["count"] / top, 1),
                      "end": round(LABEL_WIDTH + (right - LABEL_WIDTH) * row["count"] / top, 1),
                      "count": row["count"], "title": f"{label}: {row['count']}",
                      "label": label if len(label) <= LABEL_LENGTH
                      else label[:LABEL_LENGTH - 1] + "…"})
    return {"width": WIDTH, "height": height, "left": LABEL_WIDTH, "right": right,
            "top": TOP, "bottom": TOP + ROW_HEIGHT * len(rows), "rows": drawn,
            "middle": (LABEL_WIDTH + right) // 2, "x_title": x_title}
