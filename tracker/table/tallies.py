"""Running totals behind the player pages, kept in step with the results as they are stored.

A player's page compares each Kniffel field with the household's average and lists
head-to-head records; added up from the cells and seats of ten years of evenings, those
two alone cost more than the rest of the page. So the recording layer adds a play's share
to two small tables when the play is finished and takes it away again when a finished
play is corrected, taken back or abandoned; a cell saved in a game under way costs
nothing here. :func:`rebuild` recomputes both tables from the stored cells and places
(the ``rebuild_tallies`` command; after a change made past the recording layer, such as
in the admin).

Only finished plays count, as everywhere in the statistics; equal places are a draw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps as installed_apps
from django.apps.registry import Apps
from django.db.models import Count, F, Q, Sum

FINISHED = "finished"
DICE_GAMES = ("kniffel", "weltraum_kniffel")

#: (player pk, game, field) -> cells, points, cells with more than 0 points
FieldKey = tuple[int, str, str]
#: (player pk, opponent pk, game) -> plays together, placed higher, placed lower
MeetingKey = tuple[int, int, str]


@dataclass
class Share:
    """What one play adds to the tallies, or with :meth:`minus`, what a change adds."""

    fields: dict[FieldKey, Counter[str]] = field(default_factory=dict)
    meetings: dict[MeetingKey, Counter[str]] = field(default_factory=dict)

    def minus(self, other: Share) -> Share:
        """The change from ``other`` to this share, without the rows it leaves alone."""
        return Share(_difference(self.fields, other.fields),
                     _difference(self.meetings, other.meetings))

    def __bool__(self) -> bool:
        return bool(self.fields or self.meetings)


def _difference(after: Mapping[Any, Counter[str]], before: Mapping[Any, Counter[str]]
                ) -> dict[Any, Counter[str]]:
    changes = {}
    for key in after.keys() | before.keys():
        change = Counter(after.get(key, Counter()))
        change.subtract(before.get(key, Counter()))
        if any(change.values()):
            changes[key] = change
    return changes


def play_share(status: str, game: str, seats: Iterable[tuple[int, int | None]],
               sheets: Mapping[str, Mapping[str, int]]) -> Share:
    """The share of a play in ``status``: ``seats`` are (player pk, place), ``sheets`` the
    Kniffel cells of the stored result by player key and field."""
    share = Share()
    if status != FINISHED:
        return share
    seats = list(seats)
    for player, place in seats:
        for opponent, other in seats:
            if opponent != player:
                share.meetings[(player, opponent, game)] = Counter(
                    together=1,
                    ahead=int(place is not None and other is not None and place < other),
                    behind=int(place is not None and other is not None and place > other))
    if game in DICE_GAMES:
        for key, cells in sheets.items():
            for name, points in cells.items():
                share.fields[(int(key), game, name)] = Counter(
                    cells=1, points=points, scored=int(points > 0))
    return share


def apply(change: Share) -> None:
    """Add ``change`` to the stored tallies, inside the caller's transaction.

    Rows are created empty first (ignoring those that exist), then locked and updated,
    so that two plays finished at once on PostgreSQL neither collide nor lose a count.
    """
    from tracker.table.models import HeadToHeadTally, KniffelFieldTally

    _add(KniffelFieldTally, ("player_id", "game", "field"), ("cells", "points", "scored"),
         change.fields)
    _add(HeadToHeadTally, ("player_id", "opponent_id", "game"), ("together", "ahead", "behind"),
         change.meetings)


def _add(model: Any, key_names: tuple[str, ...], counts: tuple[str, ...],
         changes: Mapping[tuple[Any, ...], Counter[str]]) -> None:
    if not changes:
        return
    model.objects.bulk_create([model(**dict(zip(key_names, key, strict=True)))
                               for key in changes], ignore_conflicts=True)
    # Each key part's values narrow the rows enough: a play has at most a few players.
    within = {f"{name}__in": {key[index] for key in changes}
              for index, name in enumerate(key_names)}
    rows = [row for row in model.objects.select_for_update().filter(**within).order_by()
            if tuple(getattr(row, name) for name in key_names) in changes]
    for row in rows:
        change = changes[tuple(getattr(row, name) for name in key_names)]
        for name in counts:
            setattr(row, name, getattr(row, name) + change[name])
    model.objects.bulk_update(rows, counts)


def rebuild(registry: Apps = installed_apps, game: str = "game_key",
            counted_only: bool = True) -> None:
    """Both tallies recomputed from every stored cell and place of the plays the statistics
    count (``registry`` lets a data migration pass its historical models, ``game`` the
    play's field that named the game then: before own games were counted apart, ``game``;
    ``counted_only`` False for the migrations from before plays could be left out)."""
    cell = registry.get_model("tracker", "KniffelCell")
    seat = registry.get_model("tracker", "Participant")
    field_tally = registry.get_model("tracker", "KniffelFieldTally")
    meeting_tally = registry.get_model("tracker", "HeadToHeadTally")
    field_tally.objects.all().delete()
    meeting_tally.objects.all().delete()
    counted = Q(play__status=FINISHED) & (Q(play__in_statistics=True) if counted_only else Q())
    fields = (cell.objects.filter(counted, play__game__in=DICE_GAMES).order_by()
              .values("player_id", "field", game=F(f"play__{game}"))
              .annotate(cells=Count("id"), total=Sum("points"),
                        scored=Count("id", filter=Q(points__gt=0))))
    field_tally.objects.bulk_create(
        (field_tally(player_id=row["player_id"], game=row["game"], field=row["field"],
                     cells=row["cells"], points=row["total"], scored=row["scored"])
         for row in fields), batch_size=1000)
    other = "play__participants__"
    meetings = (seat.objects.filter(counted).order_by()
        .values("player_id", opponent=F(f"{other}player"), game=F(f"play__{game}"))
        .annotate(together=Count("id"),
                  ahead=Count("id", filter=Q(place__lt=F(f"{other}place"))),
                  behind=Count("id", filter=Q(place__gt=F(f"{other}place")))))
    meeting_tally.objects.bulk_create(
        (meeting_tally(player_id=row["player_id"], opponent_id=row["opponent"],
                       game=row["game"], together=row["together"], ahead=row["ahead"],
                       behind=row["behind"])
         for row in meetings if row["opponent"] != row["player_id"]), batch_size=1000)
