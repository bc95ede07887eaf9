"""Recording what happens at the table, through the rules engine.

Every change to a result goes through here: the engine validates and scores,
and only an accepted result is stored, together with the points and places it
gave. Writes name the version they saw; a write based on an older version than
the stored one raises :class:`EditConflict` and changes nothing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F, Model, Prefetch
from django.utils import timezone

import games
from games import InvalidResult, Outcome
from tracker.households.models import Household, Player, household_changed
from tracker.table import tallies
from tracker.table.models import KniffelCell, OwnGame, Participant, Play, PlayChange
from tracker.table.story import measured_length


class EditConflict(Exception):
    """Someone changed this on another tablet since it was loaded here.

    ``current`` is the stored cell as it is now, where a cell was in conflict.
    """

    def __init__(self, current: KniffelCell | None = None):
        super().__init__("changed on another tablet")
        self.current = current


class PlayAbandoned(EditConflict):
    """The play was abandoned (perhaps on another tablet): it changes no more."""


# The statuses a play may take next. A finished play may be corrected, and its status
# follows the corrected result; an abandoned play changes no more.
NEXT_STATUS: dict[str, frozenset[str]] = {
    Play.Status.IN_PROGRESS: frozenset(Play.Status.values),
    Play.Status.FINISHED: frozenset(Play.Status.values),
    Play.Status.ABANDONED: frozenset(),
}


def may_become(status: str) -> list[str]:
    """The statuses from which a play may change to ``status``."""
    return [before for before, after in NEXT_STATUS.items() if status in after]


def changeable(play: Play) -> bool:
    """Whether ``play``, as read, may change at all."""
    return bool(NEXT_STATUS[play.status])


def check_changeable(play: Play) -> None:
    """PlayAbandoned when ``play``, as read, changes no more."""
    if not changeable(play):
        raise PlayAbandoned


def set_status(play: Play, status: str, expected_version: int | None, **fields: Any
               ) -> datetime:
    """The one place a play's status is written, with ``fields``, if the play is still at
    ``expected_version`` (None: at any) and may change to ``status``; otherwise
    PlayAbandoned or EditConflict, and nothing changes. The time of the change."""
    now = timezone.now()
    found: dict[str, Any] = {"pk": play.pk, "status__in": may_become(status)}
    if expected_version is not None:
        found["version"] = expected_version
    if Play.objects.filter(**found).update(status=status, updated_at=now,
                                           version=F("version") + 1, **fields):
        household_changed(play.household_id)
        return now
    if Play.objects.filter(pk=play.pk, status=Play.Status.ABANDONED).exists():
        raise PlayAbandoned
    raise EditConflict


def start_play(
    *,
    household: Household,
    game: str,
    players: Sequence[Player],
    house_rules: dict[str, Any] | None = None,
    game_night: Model | None = None,
    series: Model | None = None,
    race_number: int | None = None,
    tournament: Model | None = None,
    round_number: int | None = None,
    table_number: int | None = None,
    start_seat: int = 0,
    own_game: OwnGame | None = None,
    start_key: str = "",
    user: AbstractBaseUser | None = None,
) -> Play:
    """A new play of ``game`` with ``players`` in seat order; InvalidResult for a bad setup.

    ``start_seat`` is the seat (from 0) of the player who starts. A play of the household's
    ``own_game`` is one of the engine's ``generic`` game under the own game's definition.
    A ``start_key`` starts one play only: the play it started already is returned again.
    The play belongs to ``game_night``, and to ``series`` or ``tournament`` when it is one
    of their games (:mod:`tracker.evenings.recording` starts those).
    """
    if start_key:
        started = Play.objects.filter(household=household, start_key=start_key).first()
        if started is not None:
            return started
    if not 0 <= start_seat < max(1, len(players)):
        raise ValueError(f"start seat {start_seat} for {len(players)} players")
    if (own_game is not None) != (game == "generic"):
        raise ValueError("a play of the generic game needs its own game, and only it")
    rules = games.get(game)
    house_rules = rules.default_house_rules() | dict(house_rules or {})
    if own_game is not None:
        house_rules |= own_game.house_rules
    problems = rules.validate_setup([player.key for player in players], house_rules)
    if problems:
        raise InvalidResult(problems)
    try:
        with transaction.atomic():
            play = Play.objects.create(
                household=household, game=game, own_game=own_game, house_rules=house_rules,
                start_key=start_key, game_night=game_night,
                series=series, race_number=race_number, tournament=tournament,
                round_number=round_number, table_number=table_number, created_by=user,
                scored_by_points=rules.scores_points(house_rules), start_seat=start_seat,
                played_on=game_night.date if game_night else timezone.localdate(),
            )
            Participant.objects.bulk_create(
                Participant(play=play, player=player, seat=seat)
                for seat, player in enumerate(players)
            )
            PlayChange.objects.create(play=play, action=PlayChange.Action.STARTED, changed_by=user,
                                      data={"house_rules": house_rules})
            household_changed(household.pk)
    except IntegrityError:
        # The same form's other tap started it a moment ago.
        started = (Play.objects.filter(household=household, start_key=start_key).first()
                   if start_key else None)
        if started is None:
            raise
        return started
    return play


def change_draft(play: Play, change: Callable[[Play], tuple[dict[str, Any], str | None]]
                 ) -> tuple[dict[str, Any], str | None]:
    """Apply ``change`` to the draft kept for a play under way, so that a reload or another
    tablet shows it: ``change`` is given the play as stored, locked, and returns the new
    draft and why it refuses the change (None: it does not). The draft belongs to the
    result version it was entered on. Taps of two tablets, or several sent one after the
    other from a device's outbox, all count: each applies to the draft as stored."""
    with transaction.atomic():
        stored = Play.objects.select_for_update().only(
            "household_id", "draft", "draft_of_version", "version", "status").get(pk=play.pk)
        draft, refused = change(stored)
        if not refused and stored.status != Play.Status.ABANDONED:
            Play.objects.filter(pk=play.pk).update(
                draft=draft, draft_of_version=stored.version,
                draft_revision=F("draft_revision") + 1)
            household_changed(stored.household_id)
    return draft, refused


def full_result(play: Play, result: dict[str, Any]) -> dict[str, Any]:
    """``result`` with the play's players (seat order) and house rules, as the engine reads it."""
    players = [p.player_key for p in play.participants.all()]
    return {**result, "players": players, "house_rules": play.house_rules}


def record_result(play: Play, result: dict[str, Any], *, expected_version: int,
                  user: AbstractBaseUser | None = None) -> Outcome:
    """Score ``result`` and store it; InvalidResult, EditConflict or PlayAbandoned change
    nothing. A correction keeps the whole previous result in the play's history; saving the
    result already stored records nothing."""
    check_changeable(play)
    result = full_result(play, result)
    outcome = play.rules.score(result)
    if play.result and stored_part(result) == play.result:
        return outcome
    action = PlayChange.Action.RESULT if not play.result else PlayChange.Action.EDITED
    with transaction.atomic():
        previous = standing(play)
        _store(play, result, outcome, expected_version)
        data = {"points": outcome.points, "places": outcome.places}
        if action == PlayChange.Action.EDITED:
            data["previous"] = previous
        PlayChange.objects.create(play=play, action=action, changed_by=user, data=data)
    return outcome


def standing(play: Play) -> dict[str, Any]:
    """The play's stored result with each player's points and place, as the history keeps it."""
    participants = play.participants.all()
    return {"result": play.result, "points": {p.player_key: p.points for p in participants},
            "places": {p.player_key: p.place for p in participants}}


def stored_part(result: dict[str, Any]) -> dict[str, Any]:
    """What of a full result is stored with the play: the players and house rules are the
    play's own."""
    return {key: value for key, value in result.items() if key not in ("players", "house_rules")}


def last_correction(play: Play) -> PlayChange | None:
    """The play's latest correction not undone yet, while the play can change; else None.

    Undoing the corrections one after the other leads back to the first result: each
    keeps the result from just before it, and an undone one is marked so.
    """
    if not changeable(play):
        return None
    return (play.changes.filter(action=PlayChange.Action.EDITED, data__has_key="previous")
            .exclude(data__has_key="undone").order_by("-changed_at", "-id").first())


def undo_correction(play: Play, *, expected_version: int, user: AbstractBaseUser | None = None
                    ) -> Outcome:
    """Bring back the result as it was before the latest correction not undone yet, scored
    again; that correction is marked undone, so the next undo reaches the one before.

    EditConflict when the play changed since it was seen or has no correction left to
    undo; PlayAbandoned when it was abandoned.
    """
    with transaction.atomic():
        locked = lock_sheet(play.pk)
        check_changeable(locked)
        correction = last_correction(locked)
        if correction is None or locked.version != expected_version:
            raise EditConflict
        result = full_result(locked, correction.data["previous"]["result"])
        outcome = locked.rules.score(result)
        previous = standing(locked)
        _store(locked, result, outcome, expected_version)
        correction.data = {**correction.data, "undone": True}
        correction.save(update_fields=["data"])
        PlayChange.objects.create(play=locked, action=PlayChange.Action.UNDONE, changed_by=user,
                                  data={"points": outcome.points, "places": outcome.places,
                                        "previous": previous, "undid": correction.pk})
    play.refresh_from_db()
    return outcome


def abandon_play(play: Play, *, expected_version: int, user: AbstractBaseUser | None = None
                 ) -> None:
    """Mark a play abandoned: it stays in the history but counts in no standings."""
    with transaction.atomic():
        locked = lock_sheet(play.pk)
        set_status(locked, Play.Status.ABANDONED, expected_version)
        tallies.apply(tallies.Share().minus(share_of(locked)))
        PlayChange.objects.create(play=play, action=PlayChange.Action.ABANDONED, changed_by=user)
        settle(play)
    play.refresh_from_db()


def lock_sheet(play_id: int, *, member: AbstractBaseUser | None = None) -> Play:
    """The play with its own game, participants and their players, locked until the
    transaction ends.

    With ``member``, only a play of one of that user's households is found; otherwise
    ``Play.DoesNotExist``. PostgreSQL locks the play's row; SQLite took the whole
    database's write lock when the transaction began.
    """
    seated = Participant.objects.select_related("player").order_by("seat")
    plays = (Play.objects.select_for_update(of=("self",)).select_related("own_game")
             .prefetch_related(Prefetch("participants", queryset=seated)))
    if member is not None:
        plays = plays.filter(household__members=member)
    return plays.get(pk=play_id)


def write_cell(play: Play, player: Player, field: str, points: int, *,
               expected_version: int | None, dice: list[Any] | None = None,
               user: AbstractBaseUser | None = None) -> KniffelCell:
    """Write one Kniffel sheet cell.

    ``expected_version`` is the cell's version as the tablet saw it, or None
    for a cell it saw empty. The whole sheet is checked by the rules engine
    before anything is stored.
    """
    with transaction.atomic():
        locked = lock_sheet(play.pk)
        cell = write_locked_cell(locked, player, field, points,
                                 expected_version=expected_version, dice=dice, user=user)
    play.refresh_from_db()
    return cell


def write_locked_cell(play: Play, player: Player, field: str, points: int, *,
                      expected_version: int | None, dice: list[Any] | None = None,
                      user: AbstractBaseUser | None = None) -> KniffelCell:
    """:func:`write_cell` for a play from :func:`lock_sheet`, inside the caller's transaction.

    The stored result holds every cell's points, so the sheet is checked without reading
    the cells: the write itself names the version it expects. ``play`` and its
    participants are left as stored.
    """
    check_changeable(play)
    sheets = {key: dict(cells) for key, cells in play.result.get("sheets", {}).items()}
    filled = field in sheets.get(player.key, {})
    if filled != (expected_version is not None):
        raise EditConflict(stored_cell(play, player, field))
    sheets.setdefault(player.key, {})[field] = points
    result = full_result(play, {**play.result, "sheets": sheets})
    result = count_further_kniffel(play, play.result.get("dice") or {}, result, player.key,
                                   field, points, dice)
    outcome = play.rules.score(result)
    # Ids rather than objects: assigning related objects asks the database router about
    # each, which costs more than the rest of building the cell.
    user_id = user.pk if user else None
    cell = KniffelCell(play_id=play.pk, player_id=player.pk, field=field, points=points,
                       dice=dice, entered_by_id=user_id)
    if expected_version is None:
        cell.save(force_insert=True)
        action = PlayChange.Action.CELL
    else:
        updated = KniffelCell.objects.filter(
            play=play.pk, player=player.pk, field=field, version=expected_version,
        ).update(points=points, dice=dice, entered_by=user_id, entered_at=timezone.now(),
                 version=F("version") + 1)
        if not updated:
            raise EditConflict(stored_cell(play, player, field))
        cell.version = expected_version + 1
        action = PlayChange.Action.CELL_CORRECTED
    data = {"player": player.key, "field": field, "points": points, "dice": dice}
    if filled:
        data["previous"] = {"points": play.result["sheets"][player.key][field],
                            "dice": (play.result.get("dice") or {}).get(player.key, {}).get(field)}
    _store(play, result, outcome, play.version)
    PlayChange.objects.create(play_id=play.pk, action=action, changed_by_id=user_id, data=data)
    return cell


def stored_cell(play: Play, player: Player, field: str) -> KniffelCell | None:
    return KniffelCell.objects.filter(play=play, player=player, field=field).first()


def undo_cell(play: Play, *, expected_version: int, user: AbstractBaseUser | None = None
              ) -> None:
    """Take back the latest cell entry not taken back yet: a new cell is emptied again, a
    corrected one gets back the points and dice it had. A conflict when the sheet changed
    since it was seen."""
    with transaction.atomic():
        locked = Play.objects.select_for_update().get(pk=play.pk)
        check_changeable(locked)
        cells = {(str(cell.player_id), cell.field): cell for cell in locked.cells.all()}
        entries = (locked.changes.filter(action__in=[PlayChange.Action.CELL,
                                                     PlayChange.Action.CELL_CORRECTED])
                   .exclude(data__has_key="undone"))
        # The newest entry that still stands on the sheet (entries taken back before they
        # were marked have no cell, or a cell with other points, any more).
        entry, undone = next(
            ((entry, cell) for entry in entries
             if (cell := cells.get((entry.data.get("player"), entry.data.get("field"))))
             and cell.points == entry.data.get("points")), (None, None))
        if undone is None or locked.version != expected_version:
            raise EditConflict
        cells = list(cells.values())
        previous = entry.data.get("previous")
        kept = [cell for cell in cells if cell is not undone]
        sheets = sheets_from_cells(kept)
        if previous:
            sheets.setdefault(str(undone.player_id), {})[undone.field] = previous["points"]
        result = full_result(locked, {**locked.result, "sheets": sheets})
        result = count_further_kniffel(
            locked, dice_from_cells(cells), result, str(undone.player_id), undone.field,
            previous["points"] if previous else None, previous.get("dice") if previous else None)
        outcome = locked.rules.score(result)
        if previous:
            KniffelCell.objects.filter(pk=undone.pk).update(
                points=previous["points"], dice=previous.get("dice"), version=F("version") + 1)
        else:
            undone.delete()
        _store(locked, result, outcome, locked.version)
        entry.data = {**entry.data, "undone": True}
        entry.save(update_fields=["data"])
        PlayChange.objects.create(play=locked, action=PlayChange.Action.UNDONE, changed_by=user,
                                  data={"player": str(undone.player_id), "field": undone.field,
                                        "points": undone.points, "restored": previous})
    play.refresh_from_db()


def set_extra_kniffels(play: Play, player: Player, count: int, *, expected_version: int,
                       user: AbstractBaseUser | None = None) -> Outcome:
    """Note how many further Kniffels ``player`` rolled (classic Kniffel's bonus)."""
    with transaction.atomic():
        locked = Play.objects.select_for_update().get(pk=play.pk)
        check_changeable(locked)
        extras = {**(locked.result.get("extra_kniffels") or {}), player.key: count}
        cells = list(locked.cells.all())
        result = full_result(locked, {**locked.result, "sheets": sheets_from_cells(cells),
                                      "dice": dice_from_cells(cells), "extra_kniffels": extras})
        outcome = locked.rules.score(result)
        _store(locked, result, outcome, expected_version)
        PlayChange.objects.create(play=locked, action=PlayChange.Action.EXTRA_KNIFFEL,
                                  changed_by=user, data={"player": player.key, "count": count})
    play.refresh_from_db()
    return outcome


def count_further_kniffel(play: Play, stored_dice: dict[str, dict[str, list[Any]]],
                          result: dict[str, Any], player_key: str, field: str,
                          points: int | None, dice: list[Any] | None) -> dict[str, Any]:
    """``result`` with the dice of every cell after one cell is written (or, with ``points``
    None, taken back), and the player's further Kniffels counted to match.

    ``play.result`` holds the sheet before the change, ``stored_dice`` the dice of its
    cells by player and field. Five alike entered with the dice are a further Kniffel by
    themselves when the house rules give that cell the bonus; the cell they replace, or the
    cell taken back, counted one when its own dice did. Typed points say nothing about the
    dice: the host is asked.
    """
    rules = play.rules
    house_rules = rules.default_house_rules() | play.house_rules
    before = play.result.get("sheets", {}).get(player_key, {})
    sheet = {key: value for key, value in before.items() if key != field}
    kept = {key: dict(fields) for key, fields in stored_dice.items()}
    before_dice = kept.get(player_key, {}).pop(field, None)
    change = int(points is not None and dice is not None
                 and rules.further_kniffel(field, dice, points, sheet, house_rules))
    if field in before and before_dice is not None:
        change -= rules.further_kniffel(field, before_dice, before[field], sheet, house_rules)
    if dice is not None and points is not None:
        kept.setdefault(player_key, {})[field] = dice
    result = {**result, "dice": {key: fields for key, fields in kept.items() if fields}}
    if change:
        extras = dict(result.get("extra_kniffels") or {})
        extras[player_key] = max(0, extras.get(player_key, 0) + change)
        result["extra_kniffels"] = extras
    return result


def dice_from_cells(cells: Sequence[KniffelCell]) -> dict[str, dict[str, list[Any]]]:
    """The dice of the cells entered with them, by player and field."""
    kept: dict[str, dict[str, list[Any]]] = {}
    for cell in cells:
        if cell.dice is not None:
            kept.setdefault(str(cell.player_id), {})[cell.field] = cell.dice
    return kept


def sheets_from_cells(cells: Sequence[KniffelCell]) -> dict[str, dict[str, int]]:
    sheets: dict[str, dict[str, int]] = {}
    for cell in cells:
        sheets.setdefault(str(cell.player_id), {})[cell.field] = cell.points
    return sheets


def _store(play: Play, result: dict[str, Any], outcome: Outcome, expected_version: int) -> None:
    """Store an accepted result with its points and places; ``play`` is left as stored.

    Places are stored once the play is finished: until then nobody has a place yet, only
    points so far. Only participants whose points, place or details changed are written,
    and the play's series or tournament is settled only when the play's status changed.
    The statistics' tallies change only when the play was or is finished, so a cell saved
    in a game under way costs no query for them. A play's first result gives it its length,
    measured from its start, unless it has one (:mod:`tracker.table.story`).
    """
    stored = stored_part(result)
    status = Play.Status.FINISHED if outcome.finished else Play.Status.IN_PROGRESS
    measured: dict[str, int | None] = {}
    if (status == Play.Status.FINISHED and play.status != Play.Status.FINISHED
            and play.length_minutes is None):
        measured = {"length_minutes": measured_length(play.created_at, timezone.now())}
    now = set_status(play, status, expected_version, result=stored,
                     scored_by_points=outcome.scored_by_points,
                     lower_is_better=outcome.lower_is_better, **measured)
    play.length_minutes = measured.get("length_minutes", play.length_minutes)
    status_changed = status != play.status
    counted = Play.Status.FINISHED in (status, play.status)
    before = share_of(play) if counted else None
    play.result, play.status, play.version, play.updated_at = (
        stored, status, expected_version + 1, now)
    play.scored_by_points, play.lower_is_better = (
        outcome.scored_by_points, outcome.lower_is_better)
    places = outcome.places if outcome.finished else {}
    changed = []
    for participant in play.participants.all():
        key = participant.player_key
        new = (outcome.points[key], places.get(key), outcome.details.get(key, {}))
        if new != (participant.points, participant.place, participant.details):
            participant.points, participant.place, participant.details = new
            changed.append(participant)
    if len(changed) == 1:
        # A Kniffel cell changes one player's totals; a plain UPDATE costs a fraction of
        # bulk_update's CASE expressions.
        participant = changed[0]
        Participant.objects.filter(pk=participant.pk).update(
            points=participant.points, place=participant.place, details=participant.details)
    elif changed:
        Participant.objects.bulk_update(changed, ["points", "place", "details"])
    if before is not None:
        tallies.apply(share_of(play).minus(before))
    if status_changed:
        settle(play)


def share_of(play: Play) -> tallies.Share:
    """What ``play`` adds to the statistics' tallies as it is, from its loaded participants
    and stored result: nothing for a play kept out of the statistics."""
    if not play.in_statistics:
        return tallies.Share()
    return tallies.play_share(
        play.status, play.game_key,
        [(participant.player_id, participant.place) for participant in play.participants.all()],
        play.result.get("sheets") or {})


def settle(play: Play) -> None:
    """Keep the status of the play's series or tournament in step with its results."""
    if play.series_id:
        play.series.settle()
    if play.tournament_id:
        play.tournament.settle()
