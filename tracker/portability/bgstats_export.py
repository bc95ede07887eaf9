"""A household written in BG Stats' format (read back by :mod:`tracker.portability.bgstats`):
the players, every own game and every game by rules the household played (by its name),
and every finished play with each player's score, place (``rank``), winner, team, seat and
start player, its note and the series race or tournament table it was in its ``comments``,
its length (``durationMin``, 0 where unknown) and its night's place as its location (none
at home)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

import games
from tracker.common.engine_text import say
from tracker.households.models import Household
from tracker.portability.bgstats import COMPETITION_MARK, NAMESPACE
from tracker.table.models import PlayStatus


def competition_of(play: Any) -> str:
    """The series race or tournament table a play was, in words, for BG Stats' comments:
    BG Stats has no series or tournaments, and its comments keep what it was."""
    if play.series_id is not None:
        return _("%(series)s · race %(number)s") % {"series": play.series.name,
                                                     "number": play.race_number}
    if play.tournament_id is not None:
        return _("%(tournament)s · round %(round)s, table %(table)s") % {
            "tournament": play.tournament.name, "round": play.round_number,
            "table": play.table_number}
    return ""


def comments_of(play: Any) -> str:
    """The play's note, and the series race or tournament table it was in a last paragraph
    of its own, which reading the file back tells from the note."""
    competition = competition_of(play)
    return "\n\n".join(part for part in (
        play.note, competition and f"{COMPETITION_MARK}{competition}") if part)


def located(play: Any, place_refs: Mapping[str, int]) -> dict[str, Any]:
    """Where the play took place, for BG Stats: its night's place; nothing at home."""
    place = play.game_night.place if play.game_night is not None else ""
    return {"locationRefId": place_refs[place]} if place else {}


def to_bgstats(household: Household) -> dict[str, Any]:
    """The household in BG Stats' format: players, games and every finished play."""
    players = list(household.players.order_by("id"))
    player_refs = {player.pk: number for number, player in enumerate(players, start=1)}
    plays = list(household.plays.filter(status=PlayStatus.FINISHED)
                 .select_related("series", "tournament", "game_night")
                 .prefetch_related("participants").order_by("played_on", "created_at", "id"))
    own_games = list(household.own_games.order_by("id"))
    own_refs = {own.pk: number for number, own in enumerate(own_games, start=1)}
    played = sorted(({play.game for play in plays}
                     | set(household.series.values_list("game", flat=True))
                     | set(household.tournaments.values_list("game", flat=True)))
                    - {"generic"})
    rules_refs = {key: len(own_games) + number for number, key in enumerate(played, start=1)}
    lower = {play.game for play in plays if play.lower_is_better}
    places = sorted({play.game_night.place for play in plays
                     if play.game_night is not None and play.game_night.place})
    place_refs = {place: number for number, place in enumerate(places, start=1)}

    def ident(kind: str, pk: int) -> str:
        return str(uuid.uuid5(NAMESPACE, f"{household.pk}/{kind}/{pk}")).upper()

    games_out = [{
        "id": own_refs[own.pk], "uuid": ident("own_game", own.pk), "name": own.name,
        "cooperative": own.scoring == "cooperative",
        "highestWins": own.scoring != "fewest_points", "noPoints": own.scoring == "places",
        "usesTeams": own.teams, "minPlayerCount": own.min_players or 0,
        "maxPlayerCount": own.max_players or 0, "isBaseGame": True, "isExpansion": False,
    } for own in own_games]
    for key in played:
        rules = games.get(key)
        games_out.append({
            "id": rules_refs[key], "uuid": str(uuid.uuid5(NAMESPACE, key)).upper(),
            "name": say(rules.name), "cooperative": False, "highestWins": key not in lower,
            "noPoints": not rules.scores_points(rules.default_house_rules()),
            "usesTeams": False, "minPlayerCount": rules.min_players,
            "maxPlayerCount": rules.max_players, "isBaseGame": True, "isExpansion": False})
    return {
        "about": _("Exported from the family scorekeeper: %(household)s")
        % {"household": household.name},
        "players": [{"id": player_refs[player.pk], "uuid": ident("player", player.pk),
                     "name": player.name, "isAnonymous": False} for player in players],
        "games": games_out,
        "plays": [exported_play(play, player_refs, own_refs, rules_refs, ident("play", play.pk))
                  | located(play, place_refs) for play in plays],
        "locations": [{"id": number, "uuid": str(uuid.uuid5(
            NAMESPACE, f"{household.pk}/location/{place}")).upper(), "name": place}
            for place, number in place_refs.items()],
    }


def exported_play(play: Any, player_refs: Mapping[int, int], own_refs: Mapping[int, int],
                  rules_refs: Mapping[str, int], ident: str) -> dict[str, Any]:
    participants = sorted(play.participants.all(), key=lambda p: p.seat)
    scoring = play.house_rules.get("scoring") if play.game == "generic" else None
    teams = any((p.details or {}).get("team") for p in participants)
    moment = timezone.localtime(play.created_at)

    def score(participant: Any) -> str:
        details = participant.details or {}
        if scoring == "cooperative":
            return "" if details.get("score") is None else str(details["score"])
        if play.scored_by_points and participant.points is not None:
            return str(participant.points)
        return ""

    return {
        "uuid": ident, "gameRefId": (own_refs[play.own_game_id] if play.own_game_id
                                     else rules_refs[play.game]),
        "playDate": f"{play.played_on.isoformat()} {moment:%H:%M:%S}",
        "entryDate": f"{moment:%Y-%m-%d %H:%M:%S}", "durationMin": play.length_minutes or 0,
        "ignored": not play.in_statistics, "comments": comments_of(play),
        # In a game without points the winners are the result; only against points are they
        # a decision of the family's.
        "manualWinner": play.scored_by_points and "winners" in (play.result or {}),
        "usesTeams": teams,
        "rounds": len((play.result or {}).get("rounds") or []), "scoringSetting": 0,
        "playerScores": [{
            "playerRefId": player_refs[p.player_id], "score": score(p),
            "winner": p.place == 1, "rank": p.place or 0, "seatOrder": p.seat + 1,
            "startPlayer": p.seat == play.start_seat, "newPlayer": False,
            "team": (p.details or {}).get("team") or "", "role": "",
        } for p in participants],
        "expansionPlays": [],
    }
