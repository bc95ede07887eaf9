"""The objects behind a page of the history: its nights, plays, series and tournaments, each
with what the page shows of it."""

from __future__ import annotations

from typing import Any

from tracker.evenings.models import GameNight, Series, Tournament
from tracker.table.models import Play
from tracker.table.queries import participants_in_seat_order


def history_objects(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of :func:`tracker.looking_back.stats.history_entries` with their objects: at
    most seven queries, two for each kind of entry on the page (one for tournaments)."""
    wanted: dict[str, list[int]] = {}
    for row in rows:
        wanted.setdefault(row["kind"], []).append(row["pk"])
    loaded: dict[str, dict[int, Any]] = {
        "night": GameNight.objects.prefetch_related("players").in_bulk(wanted.get("night", [])),
        "play": Play.objects.select_related("game_night", "series", "tournament", "own_game")
        .prefetch_related(participants_in_seat_order()).in_bulk(wanted.get("play", [])),
        "series": Series.objects.prefetch_related("players").in_bulk(wanted.get("series", [])),
        "tournament": Tournament.objects.in_bulk(wanted.get("tournament", [])),
    }
    return [{"kind": row["kind"], "day": row["day"], "object": loaded[row["kind"]][row["pk"]]}
            for row in rows]
