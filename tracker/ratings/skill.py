"""Family ratings: how well each player plays, game by game and over all games together.

The Weng-Lin model of openskill, with Plackett-Luce for several players: a play's finishing
order moves each side's skill estimate (``mu``) by how surprising it was, and its uncertainty
(``sigma``) shrinks with every play. A 2nd place among five counts for more than a loss.

- Teams rate as teams: the members share the team's place, each moved as the model weighs a
  member of a team.
- Co-operative plays rate nobody (the table plays against the game); unfinished, abandoned
  and plays left out of the statistics do not count; a play needs two sides with a place.
- The rating shown is the conservative one, ``mu - 3 sigma``: a newcomer starts at 0 and
  rises as their games show their skill, and a loss to the family's best costs them little
  because the model is still unsure of them.
- A player with fewer than :data:`PROVISIONAL_BELOW` rated plays of a game is provisional
  there: shown, but not ranked among the others.

Everything here is plain Python over :class:`RatedPlay` tuples: the database is read in
:mod:`tracker.ratings.history`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, NamedTuple

from openskill.models import PlackettLuce

#: The game key of the rating over all games together.
OVERALL = ""
#: Fewer rated plays than this, and a rating is provisional.
PROVISIONAL_BELOW = 5

MODEL = PlackettLuce()


class RatedPlay(NamedTuple):
    """A finished play as the ratings read it: its game, its day, and its sides (a player's
    id, or a team's players) with their places, best first or in any order."""

    game: str
    day: date
    sides: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]


@dataclass
class Skill:
    """A player's estimate in one game (or over all games): mean, uncertainty, plays rated."""

    mu: float
    sigma: float
    plays: int = 0

    @property
    def rating(self) -> float:
        """The conservative rating shown: mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.plays < PROVISIONAL_BELOW

    @property
    def plays_to_go(self) -> int:
        return max(0, PROVISIONAL_BELOW - self.plays)


def new_skill() -> Skill:
    return Skill(MODEL.mu, MODEL.sigma)


@dataclass
class Ratings:
    """Every player's skill per game (keyed ``(game, player id)``, ``OVERALL`` for all games
    together) and, for the charts, the rating each reached by the end of each month."""

    skills: dict[tuple[str, int], Skill] = field(default_factory=dict)
    months: dict[tuple[str, int], dict[str, float]] = field(default_factory=dict)

    def skill(self, game: str, player: int) -> Skill:
        """The player's skill in ``game``; a newcomer's where they have no rated play."""
        return self.skills.get((game, player)) or new_skill()

    def games(self) -> set[str]:
        return {game for game, _player in self.skills}


def rate_history(plays: Iterable[RatedPlay]) -> Ratings:
    """The ratings after ``plays``, in the order given (oldest first): each play moves its
    game's ratings and the overall ones."""
    rater = Rater()
    for play in plays:
        rater.add(play)
    return rater.ratings()


class Rater:
    """Ratings built up play by play, oldest first (see :func:`rate_history`).

    Each key (game, player) holds the model's rating and its count of plays; the rating at
    the end of a month is noted when the next month's first play comes (and at the end).
    """

    def __init__(self) -> None:
        self.entries: dict[tuple[str, int], list[Any]] = {}
        self.months: dict[tuple[str, int], dict[str, float]] = {}
        self.month = ""
        self.moved: set[tuple[str, int]] = set()

    def add(self, play: RatedPlay) -> None:
        """Move the ratings of ``play``'s game and the overall ones by its result."""
        if len(play.sides) < 2:
            return
        month = f"{play.day.year:04}-{play.day.month:02}"
        if month != self.month:
            self.note_month()
            self.month = month
        entries, moved = self.entries, self.moved
        for game in (play.game, OVERALL):
            teams = []
            for side in play.sides:
                team = []
                for player in side:
                    key = (game, player)
                    entry = entries.get(key)
                    if entry is None:
                        entry = entries[key] = [MODEL.rating(), 0]
                    entry[1] += 1
                    moved.add(key)
                    team.append(entry[0])
                teams.append(team)
            rate_in_place(teams, play.places)

    def note_month(self) -> None:
        """Note the month's last rating of every key its plays moved."""
        for key in self.moved:
            rated = self.entries[key][0]
            self.months.setdefault(key, {})[self.month] = rated.mu - 3 * rated.sigma
        self.moved = set()

    def skill(self, game: str, player: int) -> Skill:
        """The player's skill in ``game`` so far; a newcomer's before their first play."""
        entry = self.entries.get((game, player))
        return Skill(entry[0].mu, entry[0].sigma, entry[1]) if entry else new_skill()

    def ratings(self) -> Ratings:
        self.note_month()
        return Ratings({key: Skill(rated.mu, rated.sigma, count)
                        for key, (rated, count) in self.entries.items()}, self.months)


def rate_in_place(teams: list[list[Any]], places: Sequence[int]) -> None:
    """What ``MODEL.rate(teams, ranks=places)`` computes, written into the ratings given.

    ``rate`` deep-copies every rating first, and a copy draws a new uuid: a 20,000-play
    history took 9.7 s that way against well under a second here (``bench/ratings.py``).
    The steps are ``rate``'s own: the dynamics ``tau`` added to each sigma, the sides in
    the order of their places, then the model's update; ``tests/tracker/ratings`` checks
    that both give the same numbers.
    """
    tau_squared = MODEL.tau * MODEL.tau
    for team in teams:
        for rating in team:
            rating.sigma = math.sqrt(rating.sigma * rating.sigma + tau_squared)
    ranks = list(places)
    if ranks != sorted(ranks):
        order = sorted(range(len(teams)), key=places.__getitem__)
        teams, ranks = [teams[index] for index in order], [places[index] for index in order]
    MODEL._compute(teams=teams, ranks=ranks)


def win_chances(ratings: Ratings | Rater, game: str, sides: Sequence[Sequence[int]]
                ) -> list[float]:
    """Each side's chance to win ``game`` against the others, as the model predicts from
    the sides' ratings in that game; together 1."""
    if len(sides) < 2:
        return [1.0] * len(sides)
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)
              for skill in (ratings.skill(game, player) for player in side)] for side in sides]
    return list(MODEL.predict_win(teams))
