"""Read-only scoreboards for the room, opened through an unguessable share link.

An open board asks about twice a second whether anything changed, naming the state it
shows in ``If-None-Match``. The answer is worked out from one small query: 304 Not
Modified, with no body, while nothing changed; the board's new content when something did.
Ten TVs left on all evening cost twenty such queries a second, and no server process is
held open for them (a stream of server-sent events would tie up one of gunicorn's few
synchronous workers per TV).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_POST, require_safe

from tracker.models import (
    GameNight,
    Play,
    Player,
    PlayStatus,
    Series,
    ShareLink,
    Tournament,
    TournamentEntry,
)
from tracker.score_pad import board_context as own_game_board
from tracker.sharing import board_address
from tracker.views.common import (
    get_for_household,
    household_required,
    participants_in_seat_order,
    render_page,
)
from tracker.views.nights import night_context
from tracker.views.printing import print_language, sheet_response
from tracker.views.series import series_context
from tracker.views.sheets import sheet_context
from tracker.views.tournaments import tournament_context

#: How often an open board asks whether anything changed: an entry shows within about this
#: long, plus the time to draw the board once.
POLL_MILLISECONDS = 500

#: The latest games of an evening that the night's board lists; earlier ones are counted.
NIGHT_BOARD_PLAYS = 6


#: Everything a board's state depends on, in one query that the database answers from
#: indexes. Written out in SQL: the ORM took ten times longer to build it than the
#: database took to answer, and a board asks twice a second.
STATE_SQL = """
SELECT link.id, link.play_id, link.game_night_id, link.series_id, link.tournament_id,
       (SELECT play.version FROM {play} play WHERE play.id = link.play_id),
       (SELECT COUNT(*) FROM {play} play WHERE {plays_shown}),
       (SELECT SUM(play.version) FROM {play} play WHERE {plays_shown}),
       series.status, series.races_planned,
       tournament.status,
       (SELECT COUNT(*) FROM {entry} entry WHERE entry.tournament_id = link.tournament_id
                                             AND entry.dropped_after_round IS NOT NULL),
       (SELECT MAX(player.updated_at) FROM {player} player
         WHERE player.household_id = link.household_id)
FROM {link} link
LEFT JOIN {series} series ON series.id = link.series_id
LEFT JOIN {tournament} tournament ON tournament.id = link.tournament_id
WHERE link.token = %s AND link.revoked_at IS NULL
""".format_map({
    "play": Play._meta.db_table, "entry": TournamentEntry._meta.db_table,
    "link": ShareLink._meta.db_table, "series": Series._meta.db_table,
    "player": Player._meta.db_table,
    "tournament": Tournament._meta.db_table,
    # A link shows one of these; the others are NULL and match no play.
    "plays_shown": "play.game_night_id = link.game_night_id OR play.series_id = link.series_id"
                   " OR play.tournament_id = link.tournament_id",
})


def shown_state(token: str) -> tuple[int, str]:
    """The id of the link that ``token`` opens, unless revoked (else 404), and its board's
    state: a short text that changes whenever anything the board shows changes, a player's name
    or colour included."""
    with connection.cursor() as cursor:
        cursor.execute(STATE_SQL, [token])
        row = cursor.fetchone()
    if row is None:
        raise Http404("no such scoreboard")
    (link_id, play_id, night_id, series_id, tournament_id, play_version, count, versions,
     series_status, races_planned, tournament_status, dropped, players_changed) = row
    # When a player was last renamed or recoloured; text or a datetime: its digits.
    players = "".join(filter(str.isdigit, str(players_changed)))
    if play_id:
        return link_id, f"p{play_version}-{players}"
    plays = f"{count or 0}-{versions or 0}-{players}"
    if night_id:
        return link_id, f"n{plays}"
    if series_id:
        return link_id, f"s{plays}-{series_status}-{races_planned}"
    return link_id, f"t{plays}-{tournament_status}-{dropped}"


def board_etag(state: str) -> str:
    """The board's entity tag: its state in the visitor's language."""
    return f'"{state}-{get_language()}"'


@require_safe
def board(request: HttpRequest, token: str) -> HttpResponse:
    """The scoreboard page; asked again by the open board (an htmx-style request naming the
    state it shows in ``If-None-Match``), only its changed content, or 304."""
    link_id, state = shown_state(token)
    etag = board_etag(state)
    if request.htmx:
        unchanged = get_conditional_response(request, etag=etag)
        if unchanged is not None:
            unchanged["ETag"] = etag
            patch_vary_headers(unchanged, ["HX-Request", "Accept-Language", "Cookie"])
            return unchanged
    # Revoked a moment ago, between the two queries: gone as well.
    link = get_object_or_404(ShareLink.objects.select_related(
        "household", "game_night", "series", "tournament"), pk=link_id, revoked_at__isnull=True)
    response = render_page(request, "boards/board.html", board_context(link) | {
        "etag": etag, "poll_milliseconds": POLL_MILLISECONDS, "board": True,
        "board_url": board_address(request, link)}, partial="board")
    response["ETag"] = etag
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


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
    play = Play.objects.select_related("own_game").prefetch_related(
        participants_in_seat_order()).get(pk=play_id)
    if play.is_dice_sheet:
        context = sheet_context(play)
        return {"kind": "sheet"} | context | {
            "leaders": sheet_leaders(context), "turn": context["next_player"]}
    ranked = sorted(play.participants.all(), key=lambda p: (p.place or 99, p.seat))
    finished = play.status == PlayStatus.FINISHED
    if play.own_game_id is not None:
        return {"kind": "play", "play": play, "finished": finished,
                "own": True} | own_game_board(play)
    return {"kind": "play", "play": play, "ranked": ranked, "finished": finished,
            "leaders": [{"player": p.player,
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


def sheet_leaders(context: dict[str, Any]) -> list[dict[str, Any]]:
    """The players with the highest total on the sheet, once anything is entered."""
    if not context["anything_entered"]:
        return []
    totals = {p.player_key: p.details.get("total", 0) for p in context["participants"]}
    best = max(totals.values())
    return [{"player": p.player, "score": best} for p in context["participants"]
            if totals[p.player_key] == best]


SHAREABLE = {"play": Play, "night": GameNight, "series": Series, "tournament": Tournament}


@login_required
@require_POST
def share_create(request: HttpRequest, kind: str, object_id: int) -> HttpResponse:
    """Make (or reuse) the share link of a play, night or series, and go back to its page."""
    model = SHAREABLE.get(kind)
    if model is None:
        raise Http404("nothing to share")
    target = get_for_household(request, model.objects.all(), pk=object_id)
    field = {"play": "play", "night": "game_night", "series": "series",
             "tournament": "tournament"}[kind]
    ShareLink.objects.get_or_create(household=target.household, revoked_at__isnull=True,
                                    **{field: target},
                                    defaults={"created_by": request.user})
    return redirect(target)


@login_required
@require_POST
def share_revoke(request: HttpRequest, token: str) -> HttpResponse:
    link = get_object_or_404(ShareLink, token=token, household=household_required(request))
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    return redirect(link.target)


@login_required
@require_safe
@xframe_options_sameorigin
def share_card(request: HttpRequest, token: str) -> HttpResponse:
    """A card to print and put up in the room: the board's QR code, big, and its address."""
    link = get_object_or_404(
        ShareLink.objects.select_related("household", "play", "game_night", "series",
                                         "tournament"),
        token=token, household=household_required(request), revoked_at__isnull=True)
    language = print_language(request)
    context = {"link": link, "address": board_address(request, link), "numbered": False,
               "title": link.household.name}
    return sheet_response(request, "print/share_card.html", context, language,
                          f"scoreboard-{link.token[:6]}.pdf")
