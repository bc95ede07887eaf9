"""A household written in BG Stats' format (read back by :mod:`tracker.portability.bgstats`).

What came from BG Stats goes back as it came: each player, game, location and play that
was imported is written from the object BG Stats wrote (``elsewhere["bgstats"]``), with its
``uuid`` and ``id`` and everything the app has no place for (BGG's id, name and year,
``bggUsername``, ``isAnonymous``, ``isExpansion``, a play's ``board``, ``rating`` and
expansions, ``seatOrder`` as written, a co-operative play's ``rank`` 0...), and the file's
``tags``, ``groups``, ``challenges`` and ``userInfo`` are written back too. Only what the
family changed here is put in: a player or game renamed, a play's result, day, note, length,
place or statistics corrected; so BG Stats recognises every object by its uuid and makes no
duplicates.

What was made here gets a ``uuid`` derived from the household and its id, the same in every
export, and an ``id`` after the highest one kept: every player, own game and game by rules
the household played (by its name), and every finished play with each player's score,
place (``rank``; 0 in a co-operative game, as BG Stats writes it), winner, team, seat (in
the base the household's imported plays count seats from; from 0 without any) and start
player, its note and the series race or tournament table it was in its ``comments``, its
length (``durationMin``, 0 where unknown), the rounds its sheet has, and its night's place
as its location (none at home). An imported play BG Stats had no result for goes back
too, as it came, unless the family changed it.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

import games
from tracker.common.engine_text import say
from tracker.households.models import Household, Player
from tracker.portability.bgstats import COMPETITION_MARK, NAMESPACE, is_ref
from tracker.table.models import OwnGame, Participant, Play, PlayStatus

Ident = Callable[[str, Any], str]


def competition_of(play: Play) -> str:
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


def comments_of(play: Play) -> str:
    """The play's note, and the series race or tournament table it was in a last paragraph
    of its own, which reading the file back tells from the note."""
    competition = competition_of(play)
    return "\n\n".join(part for part in (
        play.note, competition and f"{COMPETITION_MARK}{competition}") if part)


def numbered(kept: Iterable[Any]) -> list[Any]:
    """The ids of objects in the export: the id each came with, where another has not taken
    it; the others counted on from the highest."""
    given: list[Any] = []
    taken: set[Any] = set()
    for ref in kept:
        fits = is_ref(ref) and ref not in taken
        given.append(ref if fits else None)
        taken.update([ref] if fits else [])
    following = max((ref for ref in taken if isinstance(ref, int)), default=0) + 1
    for index, ref in enumerate(given):
        if ref is None:
            given[index] = following
            following += 1
    return given


def kept_of(obj: Player | OwnGame | Play | Household) -> dict[str, Any]:
    kept = obj.elsewhere.get("bgstats") if isinstance(obj.elsewhere, dict) else None
    return kept if isinstance(kept, dict) else {}


def raw_of(kept: Mapping[str, Any], key: str) -> dict[str, Any]:
    raw = kept.get(key)
    return dict(raw) if isinstance(raw, dict) else {}


def to_bgstats(household: Household) -> dict[str, Any]:
    """The household in BG Stats' format: players, games, locations and plays."""
    kept = kept_of(household)

    def ident(kind: str, key: Any) -> str:
        return str(uuid.uuid5(NAMESPACE, f"{household.pk}/{kind}/{key}")).upper()

    players = list(household.players.order_by("id"))
    player_refs = dict(zip((player.pk for player in players), numbered(
        raw_of(kept_of(player), "player").get("id") for player in players), strict=True))
    plays = list(household.plays.filter(
        Q(status=PlayStatus.FINISHED) | Q(elsewhere__has_key="bgstats"))
        .select_related("series", "tournament", "game_night")
        .prefetch_related("participants").order_by("played_on", "created_at", "id"))
    plays = [play for play in plays if play.status == PlayStatus.FINISHED
             or kept_of(play).get("as_imported", {}).get("status") == play.status]
    own_games = list(household.own_games.order_by("id"))
    played = sorted(({play.game for play in plays}
                     | set(household.series.values_list("game", flat=True))
                     | set(household.tournaments.values_list("game", flat=True)))
                    - {"generic"})
    game_ids = numbered([*(raw_of(kept_of(own), "game").get("id") for own in own_games),
                         *(None for _key in played)])
    own_refs = dict(zip((own.pk for own in own_games), game_ids, strict=False))
    rules_refs = dict(zip(played, game_ids[len(own_games):], strict=True))
    locations = Locations(kept, ident)
    for play in plays:
        locations.ref(night_place(play))
    seat_base = kept.get("seat_base", 0) if kept.get("seat_base") in (0, 1) else 0
    lower = {play.game for play in plays if play.lower_is_better}
    bgstats_ids = {player.pk: raw_of(kept_of(player), "player").get("id")
                   for player in players}
    exporter = PlayExporter(player_refs, bgstats_ids, locations, seat_base)
    return {
        **{key: value for key, value in raw_of(kept, "extras").items()},
        "about": _("Exported from the family scorekeeper: %(household)s")
        % {"household": household.name},
        "players": [exported_player(player, player_refs[player.pk], ident("player", player.pk))
                    for player in players],
        "games": [*(exported_game(own, own_refs[own.pk], ident("own_game", own.pk))
                    for own in own_games),
                  *(rules_game(key, rules_refs[key], key in lower) for key in played)],
        "plays": [exporter.play(play, own_refs[play.own_game_id] if play.own_game_id
                                else rules_refs[play.game], ident("play", play.pk))
                  for play in plays],
        "locations": locations.written(),
    }


def exported_player(player: Player, ref: Any, ident: str) -> dict[str, Any]:
    """A player as BG Stats had it, renamed where the family renamed it here."""
    kept = kept_of(player)
    raw = raw_of(kept, "player")
    if not raw:
        return {"id": ref, "uuid": ident, "name": player.name, "isAnonymous": False}
    out = {**raw, "id": ref}
    if player.name != kept.get("named"):
        out["name"] = player.name
    return out


def game_flags(scoring: str, teams: bool) -> dict[str, Any]:
    return {"cooperative": scoring == "cooperative", "highestWins": scoring != "fewest_points",
            "noPoints": scoring == "places", "usesTeams": teams}


def exported_game(own: OwnGame, ref: Any, ident: str) -> dict[str, Any]:
    """An own game as BG Stats had it, with what the family changed here put in."""
    kept = kept_of(own)
    raw = raw_of(kept, "game")
    before = kept.get("as_imported") if isinstance(kept.get("as_imported"), dict) else {}
    made = {"uuid": ident, "name": own.name, **game_flags(own.scoring, own.teams),
            "minPlayerCount": own.min_players or 0, "maxPlayerCount": own.max_players or 0,
            "isBaseGame": True, "isExpansion": False}
    if not raw:
        return {**made, "id": ref}
    out = {**raw, "id": ref}
    if own.name != before.get("name"):
        out["name"] = own.name
    if (own.scoring, own.teams) != (before.get("scoring"), before.get("teams")):
        out |= game_flags(own.scoring, own.teams)
    if (own.min_players, own.max_players) != (before.get("min_players"),
                                              before.get("max_players")):
        out |= {"minPlayerCount": own.min_players or 0, "maxPlayerCount": own.max_players or 0}
    return out


def rules_game(key: str, ref: int, lower: bool) -> dict[str, Any]:
    rules = games.get(key)
    return {"id": ref, "uuid": str(uuid.uuid5(NAMESPACE, key)).upper(),
            "name": say(rules.name), "cooperative": False, "highestWins": not lower,
            "noPoints": not rules.scores_points(rules.default_house_rules()),
            "usesTeams": False, "minPlayerCount": rules.min_players,
            "maxPlayerCount": rules.max_players, "isBaseGame": True, "isExpansion": False}


def night_place(play: Play) -> str:
    return play.game_night.place if play.game_night is not None else ""


class Locations:
    """The file's locations as they came, and a new one for each place made here."""

    def __init__(self, kept: Mapping[str, Any], ident: Ident):
        listed = kept.get("locations")
        self.kept = [dict(item) for item in (listed if isinstance(listed, list) else [])
                     if isinstance(item, dict)]
        self.ident = ident
        self.ids = numbered(item.get("id") for item in self.kept)
        self.by_name = {}
        for item, ref in zip(self.kept, self.ids, strict=True):
            item["id"] = ref
            if isinstance(item.get("name"), str):
                self.by_name.setdefault(item["name"], ref)
        self.made: list[dict[str, Any]] = []

    def ref(self, place: str) -> Any:
        """The id of the location named ``place``; None at home."""
        if not place:
            return None
        if place not in self.by_name:
            ref = numbered([*self.ids, None])[-1]
            self.ids.append(ref)
            self.by_name[place] = ref
            self.made.append({"id": ref, "uuid": self.ident("location", place), "name": place})
        return self.by_name[place]

    def written(self) -> list[dict[str, Any]]:
        return [*self.kept, *self.made]


class PlayExporter:
    """Plays in BG Stats' format: as they came, with what the family changed put in."""

    def __init__(self, player_refs: Mapping[int, Any], bgstats_ids: Mapping[int, Any],
                 locations: Locations, seat_base: int):
        self.player_refs = player_refs
        self.bgstats_ids = bgstats_ids
        #: A player's id as the kept plays name them -> the id in this export.
        self.by_kept_id = {kept: player_refs[pk] for pk, kept in bgstats_ids.items()
                           if is_ref(kept)}
        self.locations = locations
        self.seat_base = seat_base

    def play(self, play: Play, game_ref: Any, ident: str) -> dict[str, Any]:
        kept = kept_of(play)
        raw = raw_of(kept, "play")
        before = kept.get("as_imported") if isinstance(kept.get("as_imported"), dict) else {}
        participants = sorted(play.participants.all(), key=lambda p: p.seat)
        now = self.as_now(play, participants)
        if not raw:
            return self.made(play, participants, game_ref, ident)
        out = {**raw, "gameRefId": game_ref}
        changed = {aspect for aspect, value in now.items() if before.get(aspect) != value}
        if "day" in changed:
            time = str(raw.get("playDate") or "")[11:19] or "00:00:00"
            out["playDate"] = f"{play.played_on.isoformat()} {time}"
        if "note" in changed:
            out["comments"] = comments_of(play)
        if "length" in changed:
            out["durationMin"] = play.length_minutes or 0
        if "place" in changed:
            out.pop("locationRefId", None)
            out |= self.located(play)
        if "in_statistics" in changed:
            out["ignored"] = not play.in_statistics
        rows = raw.get("playerScores") if isinstance(raw.get("playerScores"), list) else []
        if changed & {"seats", "start", "status"}:
            out |= self.scores(play, participants, rows)
        else:
            out["playerScores"] = [
                {**row, "playerRefId": self.by_kept_id[row.get("playerRefId")]}
                for row in rows if isinstance(row, dict) and is_ref(row.get("playerRefId"))
                and row["playerRefId"] in self.by_kept_id]
        return out

    def as_now(self, play: Play, participants: list[Participant]) -> dict[str, Any]:
        """The play as :meth:`tracker.portability.bgstats.Reader.play_kept` keeps it as it
        came in, to tell what the family changed since."""
        return {"day": play.played_on.isoformat(), "note": play.note,
                "length": play.length_minutes, "place": night_place(play),
                "in_statistics": play.in_statistics, "status": play.status,
                "start": play.start_seat,
                "seats": [[self.bgstats_ids.get(p.player_id), p.points, p.place]
                          for p in participants]}

    def located(self, play: Play) -> dict[str, Any]:
        """Where the play took place, for BG Stats: its night's place; nothing at home."""
        ref = self.locations.ref(night_place(play))
        return {"locationRefId": ref} if ref is not None else {}

    def made(self, play: Play, participants: list[Participant], game_ref: Any, ident: str
             ) -> dict[str, Any]:
        """A play made here."""
        moment = timezone.localtime(play.created_at)
        return {
            "uuid": ident, "gameRefId": game_ref,
            "playDate": f"{play.played_on.isoformat()} {moment:%H:%M:%S}",
            "entryDate": f"{moment:%Y-%m-%d %H:%M:%S}",
            "durationMin": play.length_minutes or 0,
            "ignored": not play.in_statistics, "comments": comments_of(play),
            "rounds": rounds_of(play), "scoringSetting": 0,
            **self.scores(play, participants, []), "expansionPlays": [],
            **self.located(play),
        }

    def scores(self, play: Play, participants: list[Participant],
               rows: list[Any]) -> dict[str, Any]:
        """The play's ``playerScores`` as the app has them, each player's row as BG Stats
        wrote it where there was one (its role, team role, first play kept)."""
        scoring = play.house_rules.get("scoring") if play.game == "generic" else None
        cooperative = scoring == "cooperative"
        kept_rows = {row.get("playerRefId"): row for row in rows
                     if isinstance(row, dict) and is_ref(row.get("playerRefId"))}

        def score(participant: Participant) -> str:
            details = participant.details or {}
            if cooperative:
                return "" if details.get("score") is None else str(details["score"])
            if play.scored_by_points and participant.points is not None:
                return str(participant.points)
            return ""

        def row_of(participant: Participant) -> dict[str, Any]:
            kept_row = kept_rows.get(self.bgstats_ids.get(participant.player_id), {})
            team = (participant.details or {}).get("team") or ""
            return {"newPlayer": False, "role": "", **kept_row,
                    "playerRefId": self.player_refs[participant.player_id],
                    "score": score(participant),
                    "winner": participant.place == 1,
                    "rank": 0 if cooperative else participant.place or 0,
                    "seatOrder": participant.seat + self.seat_base,
                    "startPlayer": participant.seat == play.start_seat, "team": team}

        return {
            # In a game without points the winners are the result; only against points are
            # they a decision of the family's.
            "manualWinner": play.scored_by_points and bool(
                {"winners", "places"} & set(play.result or {})),
            "usesTeams": any((p.details or {}).get("team") for p in participants),
            "playerScores": [row_of(participant) for participant in participants],
        }


def rounds_of(play: Play) -> int:
    """The rounds a play's sheet has, as BG Stats counts them: none for final scores or a
    sheet by categories at the end (its rows are categories, not rounds)."""
    rows = len((play.result or {}).get("rounds") or [])
    sheet = play.house_rules.get("sheet", "rounds") if play.game == "generic" else "rounds"
    categories = play.house_rules.get("categories") or []
    if sheet == "categories":
        return 0
    if sheet == "category_rounds" and categories:
        return -(-rows // len(categories))
    return rows
