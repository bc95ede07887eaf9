"""What a scoreboard on the room's TV shows: a game's sheet or places with its leaders and
whose turn it is, an evening's latest games and standings, a series' or a tournament's
standings."""

from __future__ import annotations

from typing import Any

from tracker.evenings.models import GameNight, Series, Tournament
from tracker.evenings.pages import night_context, series_context, tournament_context
from tracker.ratings.pages import play_chances
from tracker.room.models import ShareLink
from tracker.table.models import Play, PlayStatus
from tracker.table.queries import participants_in_seat_order
from tracker.table.score_pad import board_context as own_game_board
from tracker.table.sheet import sheet_context, sheet_leaders

#: The latest games of an evening that the night's board lists; earlier ones are counted.
NIGHT_BOARD_PLAYS = 6


def board_context(link: ShareLink) -> dict[str, Any]:
    """What the board shows, with who leads, whose turn it is and what changed last."""
    if link.play_id:
        return {"link": link} | play_board(link.play_id)
    if link.game_night_id:
        return {"link": link, "kind": "night"} | night_board(link.game_night)
    if link.tournament_id:
        return {"link": link, "kind": "tournament"} | tournament_board(link.tournament)
    return {"link": link, "kind": "series"} | series_board(link.series)


def play_board(play_id: int) -> dict[str, Any]:
    """A Kniffel sheet with its leaders and whose turn it is, or a game's places."""
    # No cells prefetched: a sheet's table comes from the cache unless it changed.
    play = Play.objects.select_related("own_game", "household").prefetch_related(
        participants_in_seat_order()).get(pk=play_id)
    # An abandoned game has no leader: the board says that it was abandoned.
    abandoned = play.status == PlayStatus.ABANDONED
    if play.is_dice_sheet:
        context = sheet_context(play)
        return {"kind": "sheet", "abandoned": abandoned,
                "chances": play_chances(play)} | context | {
            "leaders": [] if abandoned else [
                {"player": p.player, "look": p, "score": p.details.get("total", 0)}
                for p in sheet_leaders(context["participants"])],
            "turn": None if abandoned else context["next_player"],
            "turn_look": next((p for p in context["participants"]
                               if p.player_key == context["next_key"]), None)}
    ranked = sorted(play.participants.all(), key=lambda p: (p.place or 99, p.seat))
    finished = play.status == PlayStatus.FINISHED
    if play.own_game_id is not None:
        return {"kind": "play", "play": play, "finished": finished, "abandoned": abandoned,
                "own": True, "chances": play_chances(play)} | own_game_board(play)
    return {"kind": "play", "play": play, "ranked": ranked, "finished": finished,
            "chances": play_chances(play),
            "abandoned": abandoned,
            "leaders": [{"player": p.player, "look": p,
                         "score": p.points if play.scored_by_points else None}
                        for p in ranked if finished and p.place == 1]}


def night_board(night: GameNight) -> dict[str, Any]:
    """The evening's standings and its latest games, the game changed last lit up."""
    context = night_context(night)
    plays = context["plays"]
    latest = max(plays, key=lambda play: play.updated_at, default=None)
    return context | {
        "board_plays": plays[::-1][:NIGHT_BOARD_PLAYS],
        "earlier_plays": max(0, len(plays) - NIGHT_BOARD_PLAYS),
        "fresh_play": latest.pk if latest else None,
        "leaders": [{"player": row, "score": None, "wins": row.wins}
                    for row in context["standings"] if row.rank == 1 and row.wins]}


def tournament_board(tournament: Tournament) -> dict[str, Any]:
    """Standings and the current round's tables, the table changed last lit up."""
    context = tournament_context(tournament)
    latest = max(context["tables"], key=lambda play: play.updated_at, default=None)
    started = any(points is not None for item in context["standings"]
                  for points in item["rounds"])
    return context | {
        "fresh_play": latest.pk if latest else None,
        "leaders": [{"player": item["entry"].player, "score": item["row"].total}
                    for item in context["standings"] if item["rank"] == 1 and started]}


def series_board(series: Series) -> dict[str, Any]:
    """Standings race by race, the race finished last lit up."""
    context = series_context(series)
    finished_races = context["finished_races"]
    latest = max(finished_races, key=lambda race: race.updated_at, default=None)
    return context | {
        "fresh_column": finished_races.index(latest) if latest else None,
        "finished": bool(context["winners"]),
        "leaders": [{"player": item["player"], "score": item["row"].total}
                    for item in context["rows"] if item["row"].rank == 1 and finished_races]}

