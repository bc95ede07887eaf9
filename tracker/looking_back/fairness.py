"""Is the game fair? Each seat's wins, and the start player's, against the share a fair game
gives each of its players, with an interval that says how sure the figures are."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, Count, F, OuterRef, Q, Subquery, TextField, When
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils.translation import gettext as _

from tracker.households.models import Household
from tracker.looking_back.stats import counted_participations, game_name, percent, rate
from tracker.table.models import Participant

WILSON_Z = 1.96


def wilson(successes: int, trials: int, z: float = WILSON_Z) -> tuple[float, float]:
    """The Wilson score interval of a proportion: (low, high), both between 0 and 1."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - spread), min(1.0, centre + spread)


@dataclass
class FairnessRow:
    """Wins of one seat (or of the start player) against the share a fair game would give."""

    label: str
    plays: int = 0
    wins: int = 0
    fair: float = 0.0

    @property
    def win_rate(self) -> float | None:
        return rate(self.wins, self.plays)

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.plays)

    @property
    def verdict(self) -> str:
        """"advantage", "disadvantage" or "none": where the fair share lies from the interval."""
        low, high = self.interval
        if not self.plays or low <= self.fair / self.plays <= high:
            return "none"
        return "advantage" if self.fair / self.plays < low else "disadvantage"

    @property
    def fair_rate(self) -> float | None:
        return rate(self.fair, self.plays)


def fairness(household: Household, key: str, name: str | None = None) -> dict[str, Any]:
    """Win rate by seat and of the start player, with Wilson intervals and one sentence
    that names the game (``name``, or its name read for ``key``).

    A fair game gives each of n sides a 1/n chance (n players, or n teams: in two teams of
    two, each seat's fair share is a half), so the fair share of a seat is summed over its
    plays; plays with different numbers of sides can then be pooled.
    """
    # A seat's side: its team, else the seat itself (JSON null reads as 'null' on SQLite).
    side = Case(When(Q(details__team=None) | Q(details__team__isnull=True),
                     then=Cast("id", TextField())),
                default=KT("details__team"), output_field=TextField())
    table_size = (Participant.objects.filter(play=OuterRef("play")).order_by()
                  .values("play").annotate(n=Count(side, distinct=True)).values("n"))
    rows = (counted_participations(household).filter(play__game_key=key)
            .annotate(size=Subquery(table_size),
                      starts=Q(seat=F("play__start_seat")))
            .values("seat", "size", "starts")
            .annotate(plays=Count("id"), wins=Count("id", filter=Q(place=1))))
    seats: dict[int, FairnessRow] = {}
    start = FairnessRow(_("Start player"))
    for row in rows:
        groups = [seats.setdefault(row["seat"], FairnessRow(
            _("Seat %(number)s") % {"number": row["seat"] + 1}))]
        if row["starts"]:
            groups.append(start)
        for group in groups:
            group.plays += row["plays"]
            group.wins += row["wins"]
            group.fair += row["plays"] / row["size"]
    return {"seats": [seats[seat] for seat in sorted(seats)], "start": start,
            "sentence": fairness_sentence(start, name or game_name(key))}


def fairness_sentence(start: FairnessRow, game: str) -> str:
    """One plain sentence on whether the start player has an advantage.

    The game's name leads, before a colon, so that the sentence reads well whatever the
    name is ("Any other game", "Mau Mau") and needs no article or plural of it.
    """
    if not start.plays:
        return _("%(game)s: no finished game yet, so nothing can be said about fairness.") % {
            "game": game}
    low, high = start.interval
    figures = {"wins": start.wins, "plays": start.plays, "game": game,
               "rate": percent(start.win_rate), "low": round(low * 100),
               "high": percent(high), "fair": percent(start.fair_rate)}
    verdict = {
        "none": _("%(game)s: the start player won %(wins)s of %(plays)s games (%(rate)s, "
                  "%(low)s–%(high)s): no clear advantage (a fair share is %(fair)s)."),
        "advantage": _("%(game)s: the start player won %(wins)s of %(plays)s games "
                       "(%(rate)s, %(low)s–%(high)s): starting is an advantage (a fair share "
                       "is %(fair)s)."),
        "disadvantage": _("%(game)s: the start player won %(wins)s of %(plays)s games "
                          "(%(rate)s, %(low)s–%(high)s): starting is a disadvantage (a fair "
                          "share is %(fair)s)."),
    }[start.verdict]
    return verdict % figures
