"""Standings as pages, boards and printed sheets show them: the tie-breaks that ordered
players level on points, and who sits at a tournament's final table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import games
from tracker.evenings.models import Tournament
from tracker.table.models import Play


def names_of(keys: Sequence[str], names: Mapping[str, str]) -> str:
    return ", ".join(names.get(key, key) for key in keys)


def tournament_place_points(tournament: Tournament) -> list[tuple[int, int]]:
    """(place, points) for each place at a table, in games where places earn the points."""
    if tournament.scored_by_points:
        return []
    places = games.DEFAULT_PLACE_POINTS[:tournament.table_sizes[1]]
    return list(enumerate(places, start=1))


def tiebreak_line(used: games.TieBreak, tiebreaks: Sequence[str], names: Mapping[str, str]
                  ) -> dict[str, Any]:
    """One tie-break for a template: who is ahead of whom, level on what, decided on what."""
    return {"ahead": names_of(used.ahead, names), "behind": names_of(used.behind, names),
            "level": games.METRICS[tiebreaks[0]].label, "metric": games.METRICS[used.metric].label}


def tiebreak_lines(rows: Sequence[games.StandingRow], tiebreaks: Sequence[str],
                   names: Mapping[str, str]) -> list[dict[str, Any]]:
    """Every place where a later metric ordered players level on the first, best first."""
    return [tiebreak_line(used, tiebreaks, names)
            for used in games.tiebreaks_used(rows, tiebreaks)]


def cut_for_page(cut: games.Cut, tiebreaks: Sequence[str], names: Mapping[str, str],
                    seated: Sequence[str] = ()) -> dict[str, Any]:
    """The final table's cut for a template.

    ``seated`` are the players at the final table once it is seated: then the tied
    players the organiser chose are named, and no choice is asked for.
    """
    return {
        "seated": [{"key": key, "name": names.get(key, key)} for key in cut.seated],
        "tied": [{"key": key, "name": names.get(key, key)} for key in cut.tied],
        "tied_names": names_of(cut.tied, names),
        "chosen": names_of([key for key in cut.tied if key in seated], names),
        "open_seats": cut.open_seats,
        "decided": tiebreak_line(cut.decided, tiebreaks, names) if cut.decided else None,
        "metrics": [games.METRICS[key].label for key in tiebreaks],
    }


def final_table_seated(tournament: Tournament, plays: Sequence[Play], names: Mapping[str, str]
                       ) -> dict[str, Any] | None:
    """How the final table's players were found, once it is seated; None before."""
    seated = [p.player_key for play in plays if play.round_number == tournament.final_round
              for p in play.participants.all()]
    if not seated:
        return None
    return cut_for_page(tournament.final_cut(list(plays)), tournament.tiebreaks, names, seated)
