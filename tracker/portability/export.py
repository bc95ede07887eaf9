"""A household written out: the whole of it as our JSON document (see
:mod:`tracker.portability.document`), and its plays as a CSV table for a spreadsheet."""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TextIO

from django.utils import timezone
from django.utils.translation import gettext as _

from tracker.common.downloads import spreadsheet_text
from tracker.evenings.models import (
    GameNight,
    Series,
    SeriesChange,
    TournamentEntry,
)
from tracker.households.models import Household
from tracker.portability.document import FORMAT, VERSION
from tracker.table.models import (
    KniffelCell,
    Participant,
    PlayChange,
)

# Export


def export_household(household: Household) -> dict[str, Any]:
    """The household's data as a document; the same number of queries however much there is."""
    players = list(household.players.order_by("id"))
    player_ids = {player.pk: f"p{number}" for number, player in enumerate(players, start=1)}
    nights = list(household.game_nights.order_by("id"))
    night_ids = local_ids("n", nights)
    present = grouped(GameNight.players.through.objects.filter(gamenight__household=household)
                      .order_by("id"), "gamenight_id")
    series = list(household.series.order_by("id"))
    series_ids = local_ids("s", series)
    series_players = grouped(Series.players.through.objects.filter(series__household=household)
                             .order_by("id"), "series_id")
    series_changes = grouped(SeriesChange.objects.filter(series__household=household)
                             .order_by("id"), "series_id")
    tournaments = list(household.tournaments.order_by("id"))
    tournament_ids = local_ids("t", tournaments)
    entries = grouped(TournamentEntry.objects.filter(tournament__household=household)
                      .order_by("id"), "tournament_id")
    plays = list(household.plays.order_by("id"))
    participants = grouped(Participant.objects.filter(play__household=household)
                           .order_by("seat"), "play_id")
    cells = grouped(KniffelCell.objects.filter(play__household=household).order_by("id"),
                    "play_id")
    changes = grouped(PlayChange.objects.filter(play__household=household).order_by("id"),
                      "play_id")
    own_games = list(household.own_games.order_by("id"))
    own_game_ids = local_ids("o", own_games)
    keys = {str(pk): local for pk, local in player_ids.items()}
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "household": {"name": household.name, **from_elsewhere(household)},
        "players": [{"id": player_ids[player.pk], "name": player.name, "colour": player.colour,
                     "created_at": player.created_at.isoformat(),
                     **from_elsewhere(player)} for player in players],
        "own_games": [{"id": own_game_ids[own.pk], "name": own.name, "scoring": own.scoring,
                       "teams": own.teams, "end": own.end, "end_at": own.end_at,
                       "min_players": own.min_players, "max_players": own.max_players,
                       "note": own.note, "sheet": own.sheet, "categories": own.categories,
                       "tiebreak": own.tiebreak, "tiebreak_count": own.tiebreak_count,
                       "pad_moves": own.pad_moves,
                       "created_at": own.created_at.isoformat(), **from_elsewhere(own)}
                      for own in own_games],
        "nights": [{"id": night_ids[night.pk], "date": night.date.isoformat(),
                    "notes": night.notes, "place": night.place,
                    "players": [player_ids[row.player_id] for row in present[night.pk]],
                    "created_at": night.created_at.isoformat()} for night in nights],
        "series": [{
            "id": series_ids[one.pk], "name": one.name, "game": one.game,
            "own_game": own_game_ids.get(one.own_game_id),
            "players": [player_ids[row.player_id] for row in series_players[one.pk]],
            "races_planned": one.races_planned, "tiebreaks": one.tiebreaks,
            "place_points": one.place_points, "house_rules": one.house_rules,
            "status": one.status, "created_at": one.created_at.isoformat(),
            "changes": [{"action": change.action, "races_before": change.races_before,
                         "races_after": change.races_after,
                         "at": change.changed_at.isoformat()}
                        for change in series_changes[one.pk]],
        } for one in series],
        "tournaments": [{
            "id": tournament_ids[one.pk], "name": one.name, "game": one.game,
            "own_game": own_game_ids.get(one.own_game_id),
            "rounds_planned": one.rounds_planned, "final_table": one.final_table,
            "seed": one.seed, "house_rules": one.house_rules, "status": one.status,
            "created_at": one.created_at.isoformat(),
            "entries": [{"player": player_ids[entry.player_id],
                         "dropped_after_round": entry.dropped_after_round}
                        for entry in entries[one.pk]],
        } for one in tournaments],
        "plays": [{
            "id": f"g{number}", "game": play.game, "own_game": own_game_ids.get(play.own_game_id),
            "night": night_ids.get(play.game_night_id),
            "series": series_ids.get(play.series_id), "race_number": play.race_number,
            "tournament": tournament_ids.get(play.tournament_id),
            "round_number": play.round_number, "table_number": play.table_number,
            "played_on": play.played_on.isoformat(), "house_rules": play.house_rules,
            "result": rekey(play.result, keys), "status": play.status,
            "in_statistics": play.in_statistics,
            "start_seat": play.start_seat, "created_at": play.created_at.isoformat(),
            "note": play.note, "length_minutes": play.length_minutes,
            **from_elsewhere(play),
            "participants": [{"player": player_ids[p.player_id], "seat": p.seat,
                              "points": p.points, "place": p.place,
                              "details": rekey(p.details, keys)}
                             for p in participants[play.pk]],
            "cells": [{"player": player_ids[cell.player_id], "field": cell.field,
                       "points": cell.points, "dice": cell.dice,
                       "entered_at": cell.entered_at.isoformat()} for cell in cells[play.pk]],
            "changes": [{"action": change.action, "data": rekey(change.data, keys),
                         "at": change.changed_at.isoformat()} for change in changes[play.pk]],
        } for number, play in enumerate(plays, start=1)],
    }


def from_elsewhere(obj: Any) -> dict[str, Any]:
    """What other apps know of ``obj``, where they know anything: most objects were made
    here, and their documents stay as they were."""
    return {"elsewhere": obj.elsewhere} if obj.elsewhere else {}


def local_ids(prefix: str, objects: Iterable[Any]) -> dict[int | None, str]:
    return {obj.pk: f"{prefix}{number}" for number, obj in enumerate(objects, start=1)}


def grouped(rows: Iterable[Any], attribute: str) -> defaultdict[int, list[Any]]:
    groups: defaultdict[int, list[Any]] = defaultdict(list)
    for row in rows:
        groups[getattr(row, attribute)].append(row)
    return groups


def rekey(value: Any, keys: Mapping[str, str]) -> Any:
    """``value`` with every player key in ``keys`` replaced, as a dict key or a string.

    Results name players both ways: ``{"sheets": {"17": …}}`` and ``{"order": ["17"]}``;
    a result's ``sums`` name them as keys only: a sum typed "17" stays the sum it is.
    """
    if isinstance(value, dict):
        return {keys.get(key, key): rekey_sums(item, keys) if key == "sums"
                else rekey(item, keys) for key, item in value.items()}
    if isinstance(value, list):
        return [rekey(item, keys) for item in value]
    if isinstance(value, str):
        return keys.get(value, value)
    return value


def rekey_sums(sums: Any, keys: Mapping[str, str]) -> Any:
    """A result's short sums ``[{"17": "3+6+2"}]`` with the sides' keys replaced; anything
    else as it is, for the rules engine to refuse."""
    if not isinstance(sums, list):
        return sums
    return [{keys.get(side, side): typed for side, typed in row.items()}
            if isinstance(row, dict) else row for row in sums]


CSV_COLUMNS: list[Callable[[], str]] = [
    lambda: _("Date"), lambda: _("Game"), lambda: _("Series or tournament"),
    lambda: _("Round"), lambda: _("Player"), lambda: _("Seat"), lambda: _("Points"),
    lambda: _("Place"), lambda: _("Status"), lambda: _("In the statistics"),
    lambda: _("Note"), lambda: _("Length in minutes"), lambda: _("Where"),
]


def export_csv(household: Household, out: TextIO) -> None:
    """Every play, one row per participant, oldest first; seats count from 1 as people do.
    "Where" is the place of the play's night, empty at home."""
    writer = csv.writer(out)
    writer.writerow([column() for column in CSV_COLUMNS])
    participants = (Participant.objects.filter(play__household=household)
                    .select_related("play__series", "play__tournament", "play__own_game",
                                    "play__game_night", "player")
                    .order_by("play__played_on", "play__created_at", "play_id", "seat"))
    for participant in participants:
        play = participant.play
        group = play.series or play.tournament
        writer.writerow([
            play.played_on.isoformat(), spreadsheet_text(str(play.get_game_display())),
            spreadsheet_text(group.name if group else ""),
            play.race_number or play.round_number or "",
            spreadsheet_text(participant.player.name), participant.seat + 1,
            "" if participant.points is None else participant.points,
            participant.place or "", str(play.get_status_display()),
            _("yes") if play.in_statistics else _("no"), spreadsheet_text(play.note),
            play.length_minutes or "",
            spreadsheet_text(play.game_night.place if play.game_night else ""),
        ])
