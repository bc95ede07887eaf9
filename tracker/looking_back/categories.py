"""Sheets by categories looked back on: each player's average and best per category of a
game, and which category decides that game most often.

A sheet keeps its rows in the play's ``rounds`` (see :mod:`games.generic`), row ``i`` being
category ``i % len(categories)``; a penalty row holds its points taken off (zero or less),
so adding a category's rows gives what it brought to the total.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet

from tracker.households.models import Household, Player
from tracker.looking_back.stats import counted_plays
from tracker.table.models import Participant, Play

SHEETS_BY_CATEGORIES = ("categories", "category_rounds")


def category_plays(plays: QuerySet[Play]) -> QuerySet[Play]:
    """``plays`` written down by categories."""
    return plays.filter(house_rules__sheet__in=SHEETS_BY_CATEGORIES)


def category_points(play: Play) -> dict[str, dict[str, int]]:
    """What each side (a player's key, or a team) scored in each category of ``play``; a
    category nobody entered for a side is left out of that side's points."""
    categories = [category["name"] for category in play.house_rules.get("categories") or []]
    points: dict[str, dict[str, int]] = defaultdict(dict)
    if not categories:
        return points
    for number, row in enumerate(play.result.get("rounds") or []):
        category = categories[number % len(categories)]
        for side, value in row.items():
            points[side][category] = points[side].get(category, 0) + value
    return points


def side_of(participant: Participant) -> str:
    """The side a participant scored for: their team, or themselves."""
    return (participant.details or {}).get("team") or participant.player_key


@dataclass(frozen=True)
class CategoryFigures:
    """A player's figures in one category of one game."""

    category: str
    minus: bool
    average: float
    best: int
    plays: int


def player_categories(player: Player) -> list[dict[str, Any]]:
    """For each game the player played by categories: per category, their average and best
    (the most it brought to the total; where the fewest points win, the least), over
    finished plays in the statistics. Two queries."""
    seats = (Participant.objects.filter(player=player, play__in=category_plays(
        counted_plays(player.household))).select_related("play__own_game")
        .order_by("play__own_game__name", "play_id"))
    games: dict[str, dict[str, Any]] = {}
    for seat in seats:
        play = seat.play
        game = games.setdefault(play.game_key, {
            "key": play.game_key, "game": play.get_game_display(), "values": defaultdict(list),
            "minus": {}, "best": min if play.lower_is_better else max})
        for category in play.house_rules.get("categories") or []:
            game["minus"][category["name"]] = category["minus"]
        for category, value in category_points(play).get(side_of(seat), {}).items():
            game["values"][category].append(value)
    return [{"key": game["key"], "game": game["game"], "categories": [
        CategoryFigures(category, game["minus"].get(category, False),
                        round(sum(values) / len(values), 1), game["best"](values), len(values))
        for category, values in game["values"].items()]} for game in games.values()]


def deciding_category(household: Household, key: str) -> dict[str, Any] | None:
    """The category that decides the game most often, over its finished plays with one
    winning side: the one in which the winner gained most on the best of the others (or,
    where the fewest points win, gave away least). None for a game without categories or
    without such a play. Two queries."""
    plays = category_plays(counted_plays(household).filter(game_key=key)).prefetch_related(
        Prefetch("participants", queryset=Participant.objects.order_by("seat")))
    decided: Counter[str] = Counter()
    counted = 0
    for play in plays:
        category = decider(play, play.participants.all())
        if category is not None:
            decided[category] += 1
            counted += 1
    if not decided:
        return None
    category, count = decided.most_common(1)[0]
    return {"category": category, "count": count, "plays": counted}


def decider(play: Play, participants: Iterable[Participant]) -> str | None:
    """The category in which the one winning side of ``play`` gained most on the best of
    the others; None when several sides won or the sheet is empty."""
    places = {side_of(seat): seat.place for seat in participants if seat.place}
    winners = [side for side, place in places.items() if place == 1]
    points = category_points(play)
    if len(winners) != 1 or len(places) < 2 or not points:
        return None
    lower = play.lower_is_better
    winner = winners[0]
    totals = {side: sum(points.get(side, {}).values()) for side in places}
    others = [side for side in places if side != winner]
    runner_up = (min if lower else max)(others, key=totals.__getitem__)
    categories = [category["name"] for category in play.house_rules["categories"]]

    def gain(category: str) -> int:
        margin = (points.get(winner, {}).get(category, 0)
                  - points.get(runner_up, {}).get(category, 0))
        return -margin if lower else margin

    return max(categories, key=gain)
