"""What the ratings show: the ratings page (over all games and per game), a player's
ratings, and each side's chance to win a game about to be played."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tracker.common.downloads import spreadsheet_text
from tracker.households.models import Household, Player
from tracker.ratings.history import household_ratings
from tracker.ratings.skill import OVERALL, Ratings, Skill, win_chances
from tracker.table.library import every_game
from tracker.table.models import Play, PlayStatus

#: The months a rating's trend looks back over.
TREND_MONTHS = 6
SPARK_WIDTH, SPARK_HEIGHT = 96, 28


@dataclass(frozen=True)
class RatingRow:
    """A player's rating in one game, as a table row: their place among the rated (None
    while provisional), the rating shown, and how it moved over the last months."""

    player: Player
    game: str
    skill: Skill
    rank: int | None
    trend: list[float]
    spark: str

    #: The trend line's box, in pixels.
    SPARK_WIDTH = SPARK_WIDTH
    SPARK_HEIGHT = SPARK_HEIGHT

    @property
    def moved(self) -> float:
        """How far the rating moved over the months of its trend."""
        return round(self.trend[-1] - self.trend[0], 1) if len(self.trend) > 1 else 0.0


def months_back(months: dict[str, float], count: int = TREND_MONTHS) -> list[float]:
    """The rating at the end of each of the last ``count`` months that have one."""
    return [months[month] for month in sorted(months)[-count:]]


def spark_points(values: list[float]) -> str:
    """An SVG polyline's points for ``values``, drawn on the server in a small box."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = SPARK_WIDTH / (len(values) - 1)
    heights = [SPARK_HEIGHT - 2 - (value - low) / span * (SPARK_HEIGHT - 4) for value in values]
    return " ".join(f"{index * step:.1f},{height:.1f}" for index, height in enumerate(heights))


def rows_of(ratings: Ratings, game: str, players: dict[int, Player]) -> list[RatingRow]:
    """The game's rating rows: the rated by their rating, then the provisional ones."""
    found = [(players[player], skill) for (key, player), skill in ratings.skills.items()
             if key == game and player in players]
    found.sort(key=lambda item: (item[1].provisional, -item[1].rating, item[0].name))
    rows, rank = [], 0
    for player, skill in found:
        if not skill.provisional:
            rank += 1
        trend = months_back(ratings.months.get((game, player.pk), {}))
        rows.append(RatingRow(player, game, skill, None if skill.provisional else rank,
                              trend, spark_points(trend)))
    return rows


def game_names(household: Household) -> dict[str, str]:
    return {entry.key: entry.name for entry in every_game(household)}


def ratings_context(household: Household) -> dict[str, Any]:
    """Every game's ratings, the overall first, then the games by name."""
    ratings = household_ratings(household)
    players = {player.pk: player for player in household.players.all()}
    names = game_names(household)
    games = sorted((game for game in ratings.games() if game != OVERALL),
                   key=lambda game: names.get(game, game).lower())
    return {"overall": rows_of(ratings, OVERALL, players),
            "games": [{"key": game, "name": names.get(game, game),
                       "rows": rows_of(ratings, game, players)} for game in games]}


def player_ratings(player: Player) -> list[dict[str, Any]]:
    """The player's rating in each game they have one in, the overall first."""
    household = player.household
    if not household.ratings_shown:
        return []
    ratings = household_ratings(household)
    names = game_names(household)
    players = {p.pk: p for p in household.players.all()}
    found = []
    for game in sorted(ratings.games(), key=lambda key: (key != OVERALL,
                                                          names.get(key, key).lower())):
        row = next((row for row in rows_of(ratings, game, players) if row.player == player),
                   None)
        if row is not None:
            found.append({"key": game, "name": names.get(game, game), "row": row})
    return found


def csv_rows(household: Household) -> list[list[Any]]:
    """One row per player and game: player, game (empty for the overall rating), rating,
    mu, sigma, plays, provisional."""
    ratings = household_ratings(household)
    players = {player.pk: player.name for player in household.players.all()}
    names = game_names(household)
    rows = []
    for (game, player), skill in sorted(
            ratings.skills.items(),
            key=lambda item: (item[0][0] != OVERALL, names.get(item[0][0], item[0][0]),
                              players.get(item[0][1], ""))):
        if player in players:
            rows.append([spreadsheet_text(players[player]),
                         spreadsheet_text(names.get(game, game)) if game else "",
                         f"{skill.rating:.2f}", f"{skill.mu:.4f}", f"{skill.sigma:.4f}",
                         skill.plays, "true" if skill.provisional else "false"])
    return rows


#: How many percentage points the likeliest side's chance must be ahead of the next one's
#: for it to be named the favourite: four sides at 25% each have none.
FAVOURITE_MARGIN = 10


def play_chances(play: Play, household: Household | None = None) -> list[dict[str, Any]]:
    """Each side's chance to win ``play`` (a game under way), the likeliest first, marked
    ``favourite`` where it is clearly ahead (``FAVOURITE_MARGIN``): nothing
    for a co-operative game, one side alone, or a household that switched ratings off.
    ``play`` comes with its participants and their players; ``household`` is the play's,
    when it is read already."""
    if play.status != PlayStatus.IN_PROGRESS or play.cooperative:
        return []
    household = household or play.household
    if not household.ratings_shown:
        return []
    seated = list(play.participants.all())
    teams = play.result.get("teams") if play.house_rules.get("teams") else None
    if teams:
        by_key = {p.player_key: p for p in seated}
        sides = [(name, [by_key[key] for key in keys if key in by_key])
                 for name, keys in teams.items()]
    else:
        sides = [(p.player.name, [p]) for p in seated]
    if len(sides) < 2:
        return []
    ratings = household_ratings(household)
    chances = win_chances(ratings, play.game_key,
                          [[p.player_id for p in members] for _name, members in sides])
    shown = sorted(({"name": name, "percent": round(100 * chance), "favourite": False}
                    for (name, _members), chance in zip(sides, chances, strict=True)),
                   key=lambda side: -side["percent"])
    shown[0]["favourite"] = shown[0]["percent"] >= shown[1]["percent"] + FAVOURITE_MARGIN
    return shown
