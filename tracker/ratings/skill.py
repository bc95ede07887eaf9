"""Family ratings: how well each player plays, game by game and over all games together.

The Weng-Lin model of openskill, with Plackett-Luce for several players: a play's finishing
order moves each side's skill estimate (``mu``) by how surprising it was, and its uncertainty
(``sigma``) shrinks with every play. A 2nd place among five counts for more than a loss.

- Teams rate as teams: the members share the team's place, each moved as the model weighs a
  member of a team.
- Co-operative plays rate nobody (the table plays against the game); unfinished, abandoned
  and plays left out of the statistics do not count; a play needs two sides with a place.
- The rating shown is the conservative one, ``mu - 3 sigma``: the skill the results have
  shown beyond doubt. Everyone starts at 0 (25 less three times 8.3); good results raise
  it, and poor ones can take it below 0 while the model is still unsure of a player. A win
  chance weighs the skill itself (``mu``) with its doubt: a newcomer counts as an average
  player, so their chance can be above that of a settled player whose rating is higher.
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
    rater.add_all(plays)
    return rater.ratings()


def month_label(month: int) -> str:
    """A month counted as ``year * 12 + month - 1``, as the charts name it: "2026-03"."""
    return f"{month // 12:04}-{month % 12 + 1:02}"


class Rater:
    """Ratings built up play by play, oldest first (see :func:`rate_history`), and carried
    on later with the plays that come after.

    Per game (and ``OVERALL``), each player's entry holds the model's rating, their count of
    rated plays and the last month a play moved it. A month's ratings are noted when the
    next month's first play comes; :meth:`ratings` notes the month under way without
    closing it, so plays added after it still count in that month.
    """

    #: Counted up when what a Rater keeps changes shape: it is part of the cache's key.
    FORMAT = 1

    def __init__(self) -> None:
        self.games: dict[str, dict[int, list[Any]]] = {}
        self.months: dict[tuple[str, int], dict[str, float]] = {}
        self.month = -1
        self.moved: list[tuple[str, int]] = []

    def add_all(self, plays: Iterable[RatedPlay]) -> None:
        for play in plays:
            self.add(play)

    def add(self, play: RatedPlay) -> None:
        """Move the ratings of ``play``'s game and the overall ones by its result."""
        sides = play.sides
        if len(sides) < 2:
            return
        month = play.day.year * 12 + play.day.month - 1
        if month != self.month:
            self.note_month()
            self.moved = []
            self.month = month
        for game in (play.game, OVERALL):
            entries = self.games.get(game)
            if entries is None:
                entries = self.games[game] = {}
            teams = []
            for side in sides:
                team = []
                for player in side:
                    entry = entries.get(player)
                    if entry is None:
                        entry = entries[player] = [MODEL.rating(), 0, -1]
                    entry[1] += 1
                    if entry[2] != month:
                        entry[2] = month
                        self.moved.append((game, player))
                    team.append(entry[0])
                teams.append(team)
            rate_in_place(teams, play.places)

    def note_month(self) -> None:
        """Note the month's latest rating of every entry its plays moved."""
        label = month_label(self.month)
        for game, player in self.moved:
            rated = self.games[game][player][0]
            self.months.setdefault((game, player), {})[label] = rated.mu - 3 * rated.sigma

    def skill(self, game: str, player: int) -> Skill:
        """The player's skill in ``game`` so far; a newcomer's before their first play."""
        entry = self.games.get(game, {}).get(player)
        return Skill(entry[0].mu, entry[0].sigma, entry[1]) if entry else new_skill()

    def ratings(self) -> Ratings:
        """The ratings so far."""
        self.note_month()
        return Ratings({(game, player): Skill(rated.mu, rated.sigma, count)
                        for game, entries in self.games.items()
                        for player, (rated, count, _month) in entries.items()},
                       self.months)

    def __getstate__(self) -> dict[str, Any]:
        # The model's ratings cannot be pickled: the cache keeps their numbers.
        return {**self.__dict__, "games": {
            game: {player: (rated.mu, rated.sigma, count, month)
                   for player, (rated, count, month) in entries.items()}
            for game, entries in self.games.items()}}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.games = {game: {player: [MODEL.rating(mu=mu, sigma=sigma), count, month]
                             for player, (mu, sigma, count, month) in entries.items()}
                      for game, entries in state["games"].items()}


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
