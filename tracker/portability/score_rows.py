"""A play's score rows as another app writes them (BG Stats' ``playerScores``, BGG's
``<player>``), made into sides and a result the rules engine scores.

A side is a player, or a team: its members' scores, ranks and winner flags. The result
follows the own game's scoring (:mod:`games.generic`): co-operative, the table won when any
player is a winner, its score kept when every player has the same one; win or lose only,
the order of the ranks where every side has a different one, else the winners; points, each
side's score (a team's added up where its members' differ), the sides without one
``unscored``, and the recorded winners where they are not the ones the scores make. A game
with points in which nobody has a score is kept as win or lose only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games import generic
from tracker.households.models import tidy_name
from tracker.portability.report import Report


def flag(value: Any) -> bool | None:
    """BG Stats writes its yes and no as true/false or 1/0; None for anything else."""
    if value in (True, 1) and not isinstance(value, float):
        return True
    if value in (False, 0, None) and not isinstance(value, float):
        return False
    return None


def finite(value: Any, limit: float) -> float | None:
    """``value`` (a number, or a text holding one with a point or a comma) as a number within
    ``limit`` either side of 0; None for anything else, a 400-digit number among them."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = float(value.strip().replace(",", "."))
        except ValueError:
            return None
    if isinstance(value, int):
        return value if abs(value) <= limit else None
    if isinstance(value, float) and math.isfinite(value) and abs(value) <= limit:
        return value
    return None


def clean_name(value: Any, length: int) -> str:
    """A name as it looks (see :func:`tidy_name`), at most ``length`` long; "" for a value
    that is no text."""
    return tidy_name(value)[:length].strip() if isinstance(value, str) else ""


@dataclass
class Side:
    name: str
    members: list[str]
    scores: list[int | None]
    winner: bool
    ranks: list[int]


def result_of(entries: list[dict[str, Any]], house_rules: dict[str, Any], *,
              named_teams: bool, where: str, names: Mapping[str, str], report: Report
              ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The result of ``entries`` (each a player, the row and the score read), and the house
    rules it is scored by: a game with points without any score is win or lose only. None
    where nothing says who won."""
    sides = sides_of(entries, house_rules["teams"], named_teams)
    scoring = house_rules["scoring"]
    result: dict[str, Any] | None
    if scoring == "cooperative":
        result = cooperative(sides, where, report)
    elif scoring == "places":
        result = placed(sides)
    else:
        result = points(sides, scoring, where, report, names)
        if result is None:
            house_rules = {**house_rules, "scoring": "places"}
            result = placed(sides)
            if result is not None:
                report.add("no_scores", where)
    if result is None:
        report.add("unscorable", where)
    elif house_rules["teams"]:
        result["teams"] = {side.name: side.members for side in sides}
    return result, house_rules


def sides_of(entries: list[dict[str, Any]], teams: bool, named_teams: bool) -> list[Side]:
    """Each player, or each team, with its members' scores, ranks and winner flags."""
    sides: dict[str, Side] = {}
    for entry in entries:
        row, player = entry["row"], entry["player"]
        team = row.get("team") if named_teams else None
        name = (clean_name(team, generic.TEAM_NAME_LENGTH) if isinstance(team, str)
                else "") or player["name"][:generic.TEAM_NAME_LENGTH]
        key = name if teams else player["id"]
        side = sides.setdefault(key, Side(key, [], [], False, []))
        side.members.append(player["id"])
        side.scores.append(entry["score"])
        side.winner = side.winner or bool(flag(row.get("winner")))
        rank = row.get("rank")
        if type(rank) is int and rank > 0:
            side.ranks.append(rank)
    return list(sides.values())


def cooperative(sides: list[Side], where: str, report: Report) -> dict[str, Any]:
    scores = {score for side in sides for score in side.scores}
    result: dict[str, Any] = {"won": any(side.winner for side in sides)}
    if len(scores) == 1 and None not in scores:
        result["score"] = scores.pop()
    elif scores - {None}:
        report.add("coop_scores", where)
    return result


def placed(sides: list[Side]) -> dict[str, Any] | None:
    winners = [side.name for side in sides if side.winner]
    ranks = [min(side.ranks) if side.ranks else None for side in sides]
    order = []
    if None not in ranks and len(set(ranks)) == len(ranks):
        order = [side.name for _rank, side in sorted(zip(ranks, sides, strict=True),
                                                     key=lambda pair: pair[0])]
    if not order and not winners:
        return None
    result: dict[str, Any] = {"order": order} if order else {}
    if winners and (not order or order[:len(winners)] != winners):
        result["winners"] = winners
    return result


def points(sides: list[Side], scoring: str, where: str, report: Report,
           names: Mapping[str, str]) -> dict[str, Any] | None:
    given = [score for side in sides for score in side.scores if score is not None]
    if not given:
        return None
    scores, unscored = {}, []
    for side in sides:
        known_as = side.name if len(side.members) > 1 else names.get(side.name, side.name)
        if all(score is None for score in side.scores):
            unscored.append(side.name)
            report.add("unscored", f"{where}: {known_as}")
            continue
        if None in side.scores:
            report.add("unscored", f"{where}: {known_as}")
            side.scores = [score for score in side.scores if score is not None]
        if len(set(side.scores)) > 1:
            report.add("team_sum", where)
            scores[side.name] = sum(side.scores)
        else:
            scores[side.name] = side.scores[0]
    result: dict[str, Any] = {"scores": scores}
    if unscored:
        result["unscored"] = unscored
    best = (min if scoring == "fewest_points" else max)(scores.values())
    by_score = {name for name, score in scores.items() if score == best}
    winners = [side.name for side in sides if side.winner]
    if winners and set(winners) != by_score:
        result["winners"] = winners
    return result


def side_places(result: Mapping[str, Any], places: Mapping[str, int], ids: list[str]
                ) -> dict[str, int]:
    """Each side's place from its players': a team's is its members'."""
    teams = result.get("teams")
    if teams:
        return {team: places[members[0]] for team, members in teams.items()}
    return {player: places[player] for player in ids}
