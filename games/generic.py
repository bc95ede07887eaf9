"""A family's own game: any game the tracker has no rules for, 1 to 20 players.

A family names its own games (Uno, Skyjo, Carcassonne) in its library; each
says how it is scored and how it ends, and every play of it carries that as
its house rules, so a play is scored as the game was defined when it was
played.

How it is scored (``scoring``):

``most_points`` (default)
    Each player (or team) scores points; the most points win.
``fewest_points``
    Penalty points: the fewest win (Skyjo, golf-like games).
``places``
    Win or lose only, no points: the players (or teams) in the order they
    finished, at least the winner; those not listed share the place after.
``cooperative``
    The table wins or loses together (``won``), with an optional ``score``:
    every player has place 1 when the table won; when it lost, the game itself
    took place 1 and every player shares place 2, so nobody counts as a winner.

``teams`` (default no): the players sit in teams (``teams`` maps each team's
name to its players, at least two teams, every player in exactly one). A team
has one score or one place, and every member of a team shares it: every
member of a winning team wins. Teams are ranked as teams: with two teams of
two, the members of the second team share place 2 (three teams: 1, 2, 3),
however many players each team has. Co-operative games have no teams.

How it ends (``end`` and ``end_at``): ``host`` (the host says so), ``rounds``
(after ``end_at`` rounds) or ``target`` (when a player or team reaches
``end_at`` points: first to 500, or in a fewest-points game, when someone
reaches 100). The end is watched, not enforced: :meth:`Generic.end_reached`
says when it is reached, and the host finishes the game.

Points are entered either round by round (``rounds``: a list of rounds, each
mapping players, or teams, to the points of that round; a round may be entered
player by player, so a round may lack someone) or as final scores only
(``scores``). A game kept round by round is finished when ``finished`` is
true; final scores are a finished game.

How points are written down (``sheet``): ``rounds`` (default), round by round as above;
``categories``, a row per category at the end (Wingspan: birds, bonus cards, eggs ...);
``category_rounds``, the categories again in each round. ``categories`` names the rows,
``[{"name": "Birds", "minus": false}, ...]``; a ``minus`` category is taken off the total,
so its points are stored as zero or less. A sheet by categories keeps its rows in
``rounds``: row ``i`` is category ``i % len(categories)`` of round ``i // len(categories)
+ 1``, so a sheet by categories at the end has at most one row per category. Only games
with points have one. ``tiebreak`` (optional) names the category whose most points break
a tie of the totals ("most food wins a tie"); sides tied there too share the place.

``tiebreak_count`` (optional, any game with points) names a count that is no part of the
score and is asked for only when totals are tied (Wingspan: "food tokens left"). The result
keeps it in ``tie_counts``, mapping the tied sides to their count: of sides still level
after the tie-break category, the most takes the better place; sides not all counted, or
level on the count too, share the place.

``sums`` (optional, rows kept in ``rounds``) keeps a cell's short sum as typed ("3+6+2"),
a list parallel to ``rounds`` mapping sides to the sum, which must add up to the cell's
points (the points of a ``minus`` category are the sum taken off).

``winners`` (optional) names the players, or teams, the family recorded as
winners where it decided otherwise than the scores say (an import keeps them):
they take place 1, the others keep their order behind them.

``unscored`` (optional, final scores only) names the players, or teams, for whom the family
recorded no score (an import keeps them: "Henrik had to leave early"): they have no
points and share the place after everyone with a score, unless recorded as winners.

``places`` (optional) maps every side to the place the family recorded, kept where the
players it was measured against are no longer all in the play (an import leaves out a
player its file does not list): the places stand as recorded, so nobody wins what they did
not win (no place 1 when the winner was left out). They take precedence over the scores,
the tie-break and ``winners``. Co-operative games have none.

Equal totals share a place.

Result (a team game kept round by round)::

    {"players": ["anna", "ben", "carl", "dora"],
     "teams": {"Red": ["anna", "carl"], "Blue": ["ben", "dora"]},
     "rounds": [{"Red": 120, "Blue": 80}, {"Red": -20, "Blue": 140}],
     "finished": true,
     "house_rules": {"scoring": "most_points", "teams": true, "end": "target",
                     "end_at": 500}}

Details per player: ``score`` (the total; None without points), ``team``,
``rounds`` (rounds played), ``won`` (co-operative).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.base import (
    CATEGORY_NAME_LENGTH,
    Option,
    Outcome,
    Problems,
    Rules,
    Table,
    canonical_name,
    optional,
    places_by_order,
    places_by_points,
    read_count,
)
from games.i18n import Text
from games.sums import MAX_LENGTH as SUM_LENGTH
from games.sums import read_short_sum

SCORE_LIMIT = 1_000_000
MAX_ROUNDS = 500
#: The lowest place a recorded place may be: a play of 20 with players left out.
MAX_PLACE = 100
TEAM_NAME_LENGTH = 40
YES_NO = {False: Text("No"), True: Text("Yes")}
SCORINGS = {
    "most_points": Text("Most points win"),
    "fewest_points": Text("Fewest points win"),
    "places": Text("Win or lose only, no points"),
    "cooperative": Text("Co-operative: the table wins or loses together"),
}
SHEETS = {
    "rounds": Text("Round by round"),
    "categories": Text("By categories, at the end"),
    "category_rounds": Text("By categories, in each round"),
}
MAX_CATEGORIES = 30
ENDINGS = {
    "host": Text("When the host says so"),
    "rounds": Text("After a number of rounds"),
    "target": Text("When someone reaches a score"),
}


@dataclass(frozen=True)
class Played:
    """A result after reading: the sides (players, or teams) and what they scored."""

    sides: dict[str, list[str]]
    rounds: list[dict[str, int]] | None = None
    scores: dict[str, int] | None = None
    order: list[str] = field(default_factory=list)
    won: bool | None = None
    score: int | None = None
    winners: list[str] = field(default_factory=list)
    unscored: list[str] = field(default_factory=list)
    places: dict[str, int] = field(default_factory=dict)
    tie_counts: dict[str, int] = field(default_factory=dict)
    finished: bool = True

    def totals(self) -> dict[str, int]:
        """Each side's points: the sum of its rounds, or its final score."""
        if self.rounds is not None:
            return {side: sum(round_.get(side, 0) for round_ in self.rounds)
                    for side in self.sides}
        return dict(self.scores or {})


class Generic(Rules[Played]):
    key = "generic"
    name = Text("Own game")
    description = Text("A game of your own: round by round or final scores, in teams or "
                       "together.")
    min_players = 1
    max_players = 20
    result_keys = frozenset({"scores", "rounds", "sums", "teams", "order", "won", "score",
                             "winners", "unscored", "places", "finished", "tie_counts"})
    house_rules = (
        Option("scoring", Text("How it is scored"), "most_points", SCORINGS),
        Option("teams", Text("Players sit in teams"), False, YES_NO),
        Option("end", Text("How it ends"), "host", ENDINGS),
        Option("end_at", Text("Rounds, or the score that ends it"), 0, kind="int",
               minimum=0, maximum=SCORE_LIMIT),
        Option("sheet", Text("How points are written down"), "rounds", SHEETS),
        Option("categories", Text("Categories"), [], kind="categories",
               maximum=MAX_CATEGORIES),
        Option("tiebreak", Text("Category that breaks a tie"), "", kind="text",
               maximum=CATEGORY_NAME_LENGTH),
        Option("tiebreak_count", Text("Count that breaks a tie, asked only then"), "",
               kind="text", maximum=CATEGORY_NAME_LENGTH),
    )

    def check_house_rules(self, house_rules: dict[str, Any], problems: Problems) -> None:
        if house_rules["teams"] and house_rules["scoring"] == "cooperative":
            problems.add("house_rules.cooperative_teams",
                         Text("A co-operative game is played by the whole table: it has no "
                              "teams."), field="house_rules.teams")
        if house_rules["end"] != "host" and house_rules["end_at"] < 1:
            problems.add("house_rules.end_at",
                         Text("Say after how many rounds, or at which score, the game ends."),
                         field="house_rules.end_at")
        if house_rules["end"] == "target" and house_rules["scoring"] not in (
                "most_points", "fewest_points"):
            problems.add("house_rules.end_target",
                         Text("Only a game with points can end at a score."),
                         field="house_rules.end")
        if house_rules["tiebreak_count"] and house_rules["scoring"] not in (
                "most_points", "fewest_points"):
            problems.add("house_rules.tiebreak_count_points",
                         Text("Only a game with points has totals to be tied."),
                         field="house_rules.tiebreak_count")
        self._check_sheet(house_rules, problems)

    @staticmethod
    def _check_sheet(house_rules: dict[str, Any], problems: Problems) -> None:
        """A sheet by categories: a game with points, categories named, a tie-break among them."""
        if house_rules["sheet"] == "rounds":
            return
        if house_rules["scoring"] not in ("most_points", "fewest_points"):
            problems.add("house_rules.sheet_points",
                         Text("Only a game with points is written down by categories."),
                         field="house_rules.sheet")
        if not house_rules["categories"]:
            problems.add("house_rules.categories_missing",
                         Text("Name the categories the game is scored by, one per line."),
                         field="house_rules.categories")
        if house_rules["sheet"] == "categories" and house_rules["end"] == "rounds":
            problems.add("house_rules.sheet_rounds",
                         Text("A game scored by categories at the end has no rounds to end "
                              "after."), field="house_rules.end")
        names = [category["name"] for category in house_rules["categories"]]
        if house_rules["tiebreak"] and house_rules["tiebreak"] not in names:
            problems.add("house_rules.tiebreak_unknown",
                         Text("The category that breaks a tie must be one of the categories."),
                         field="house_rules.tiebreak")
    def scores_points(self, house_rules: Mapping[str, Any]) -> bool:
        return house_rules.get("scoring", "most_points") in ("most_points", "fewest_points")

    def fewer_points_win(self, house_rules: Mapping[str, Any]) -> bool:
        return house_rules.get("scoring") == "fewest_points"

    def hint(self, n_players: int, house_rules: dict[str, Any]) -> Text:
        scoring = house_rules["scoring"]
        if scoring == "cooperative":
            return Text("Everyone plays together: at the end, say whether the table won.")
        if scoring == "places":
            return Text("No points: at the end, tap the players in the order they finished.")
        if house_rules["end"] == "rounds":
            return Text("Enter the points of each round; the game ends after {rounds} rounds.",
                        rounds=house_rules["end_at"])
        if house_rules["end"] == "target":
            return Text("Enter the points of each round; the game ends when someone reaches "
                        "{score}.", score=house_rules["end_at"])
        return Text("Enter the points of each round, or only the final scores.")

    # Reading ------------------------------------------------------------

    def read(self, result, players, house_rules, problems):
        played = self._read_played(result, players, house_rules, problems)
        places = self._read_places(optional(result, "places"), played.sides,
                                   house_rules["scoring"], problems)
        tie_counts = self._read_tie_counts(optional(result, "tie_counts"), played.sides,
                                           house_rules, problems)
        return replace(played, places=places, tie_counts=tie_counts)

    @staticmethod
    def _read_tie_counts(value: Any, sides: Mapping[str, Any], house_rules: Mapping[str, Any],
                         problems: Problems) -> dict[str, int]:
        """The counts that break a tie: a count of 0 or more for sides of the play."""
        if value is None:
            return {}
        if not house_rules["tiebreak_count"]:
            problems.add("tie_counts.no_count",
                         Text("This game has no count that breaks a tie."), field="tie_counts")
            return {}
        if not isinstance(value, Mapping):
            problems.add("tie_counts.invalid", Text("The tie-break counts are unreadable."),
                         field="tie_counts")
            return {}
        counts: dict[str, int] = {}
        for side, count in value.items():
            if side not in sides:
                problems.add("players.unknown", Text("{other} is not playing in this game.",
                                                     other=str(side)), field="tie_counts")
            elif count is not None:
                counts[side] = read_count(count, 0, SCORE_LIMIT, problems, player=side,
                                          field="tie_counts",
                                          label=Text("The count that breaks the tie"))
        return counts

    def _read_played(self, result, players, house_rules, problems) -> Played:
        found = len(problems)
        sides = self._read_teams(result, players, house_rules, problems)
        if len(problems) > found:
            # The points are given per team: with the teams unclear, nothing more can be read.
            return Played(sides)
        winners = self._read_sides(result, "winners", sides, problems)
        scoring = house_rules["scoring"]
        finished = optional(result, "finished")
        if finished is not None and not isinstance(finished, bool):
            problems.add("finished.invalid", Text("Say whether the game is finished."),
                         field="finished")
            finished = None
        if scoring == "cooperative":
            return self._read_cooperative(result, sides, winners, finished, problems)
        if scoring == "places":
            order = self._read_sides(result, "order", sides, problems)
            if not order and not winners:
                problems.add("order.missing", Text("Tap the players in the order they "
                                                   "finished, at least the winner."),
                             field="order")
            if len(order) == len(sides) - 1:
                order += [side for side in sides if side not in order]
            return Played(sides, order=order, winners=winners, finished=finished is not False)
        rounds_given, scores_given = (optional(result, "rounds") is not None,
                                      optional(result, "scores") is not None)
        if rounds_given and scores_given:
            problems.add("scores.both", Text("Enter the points round by round or as final "
                                             "scores, not both."), field="scores")
        if rounds_given:
            rounds = self._read_rounds(result["rounds"], sides, problems)
            self._check_rows(rounds, house_rules, problems)
            self._check_sums(optional(result, "sums"), rounds, house_rules, problems)
            return Played(sides, rounds=rounds, winners=winners, finished=bool(finished))
        if optional(result, "sums") is not None:
            problems.add("sums.without_rows", Text("Only a sheet kept row by row has sums."),
                         field="sums")
        if house_rules["sheet"] != "rounds" and scores_given:
            problems.add("scores.by_categories",
                         Text("This game is written down by categories: enter each category's "
                              "points."), field="scores")
        unscored = self._read_sides(result, "unscored", sides, problems)
        scores = self._read_scores(result, sides, problems, unscored)
        return Played(sides, scores=scores, winners=winners, unscored=unscored,
                      finished=finished is not False)

    @staticmethod
    def _read_places(value: Any, sides: Mapping[str, Any], scoring: str, problems: Problems
                     ) -> dict[str, int]:
        """The recorded places: one for every side, from 1 to ``MAX_PLACE``."""
        if value is None:
            return {}
        if scoring == "cooperative":
            problems.add("places.cooperative",
                         Text("In a co-operative game the whole table wins or loses."),
                         field="places")
            return {}
        if not isinstance(value, Mapping) or set(value) != set(sides) or not all(
                type(place) is int and 1 <= place <= MAX_PLACE for place in value.values()):
            problems.add("places.invalid",
                         Text("Give every player a place from 1 to {lowest}.",
                              lowest=MAX_PLACE), field="places")
            return {}
        return dict(value)

    def _read_teams(self, result: Mapping[str, Any], players: list[str],
                    house_rules: dict[str, Any], problems: Problems) -> dict[str, list[str]]:
        """Each side with its players: one side per player, or the teams."""
        raw = optional(result, "teams")
        if not house_rules["teams"]:
            if raw is not None:
                problems.add("teams.not_a_team_game",
                             Text("This game is not played in teams."), field="teams")
            return {player: [player] for player in players}
        if not isinstance(raw, Mapping) or len(raw) < 2:
            problems.add("teams.missing", Text("Put the players into at least two teams."),
                         field="teams")
            return {player: [player] for player in players}
        teams: dict[str, list[str]] = {}
        seated: list[str] = []
        for name, members in raw.items():
            if (not isinstance(name, str) or not canonical_name(name)
                    or name != canonical_name(name) or len(name) > TEAM_NAME_LENGTH):
                problems.add("teams.name", Text("Give each team a name of up to {length} "
                                                "characters.", length=TEAM_NAME_LENGTH),
                             field="teams")
                continue
            if not isinstance(members, list) or not members:
                problems.add("teams.empty", Text("Team {team} has no players.", team=name),
                             field="teams")
                continue
            for member in members:
                if member not in players:
                    problems.add("players.unknown", Text("{other} is not playing in this game.",
                                                         other=str(member)), field="teams")
                elif member in seated:
                    problems.add("teams.twice", Text("{player} is in two teams.",
                                                     player=member),
                                 player=member, field="teams")
                else:
                    seated.append(member)
            teams[name] = [member for member in members if member in players]
        for player in players:
            if player not in seated:
                problems.add("teams.player_missing",
                             Text("{player} is in no team.", player=player),
                             player=player, field="teams")
        return teams

    def _read_sides(self, result: Mapping[str, Any], key: str, sides: Mapping[str, Any],
                    problems: Problems) -> list[str]:
        """A list of distinct sides (players, or teams), or an empty list when left out."""
        value = optional(result, key)
        if value is None:
            return []
        if not isinstance(value, list):
            problems.add(f"{key}.invalid", Text("List the players without a score.")
                         if key == "unscored" else
                         Text("Tap the players in the order they finished, at least the "
                              "winner."), field=key)
            return []
        listed: list[str] = []
        for side in value:
            if not isinstance(side, str) or side not in sides:
                problems.add("players.unknown", Text("{other} is not playing in this game.",
                                                     other=str(side)), field=key)
            elif side in listed:
                problems.add(f"{key}.duplicate", Text("{player} is listed twice.",
                                                      player=side), field=key)
            else:
                listed.append(side)
        return listed

    def _read_scores(self, result: Mapping[str, Any], sides: Mapping[str, Any],
                     problems: Problems, unscored: Sequence[str] = ()) -> dict[str, int]:
        value = optional(result, "scores")
        if not isinstance(value, Mapping):
            problems.add("scores.missing", Text("Enter the result for every player."),
                         field="scores")
            return {}
        self._unknown_sides(value, sides, "scores", problems)
        scores: dict[str, int] = {}
        if unscored and len(unscored) == len(sides):
            problems.add("scores.missing", Text("Enter the result for every player."),
                         field="scores")
        for side in sides:
            if side in unscored:
                if value.get(side) is not None:
                    problems.add("unscored.scored",
                                 Text("{player} has a score and is listed without one.",
                                      player=side), field="scores")
            elif value.get(side) is None:
                problems.add("scores.player_missing",
                             Text("{player}: the result is missing.", player=side),
                             player=side, field="scores")
            else:
                scores[side] = read_count(value[side], -SCORE_LIMIT, SCORE_LIMIT, problems,
                                          player=side, field="scores", label=Text("Score"))
        return scores

    def _read_rounds(self, value: Any, sides: Mapping[str, Any], problems: Problems
                     ) -> list[dict[str, int]]:
        if not isinstance(value, list) or len(value) > MAX_ROUNDS:
            problems.add("rounds.invalid", Text("The rounds are unreadable (at most {count}).",
                                                count=MAX_ROUNDS), field="rounds")
            return []
        rounds: list[dict[str, int]] = []
        for number, raw in enumerate(value, start=1):
            if not isinstance(raw, Mapping):
                problems.add("rounds.invalid", Text("Round {number} is unreadable.",
                                                    number=number), field=f"rounds.{number - 1}")
                continue
            self._unknown_sides(raw, sides, f"rounds.{number - 1}", problems)
            rounds.append({
                side: read_count(points, -SCORE_LIMIT, SCORE_LIMIT, problems, player=side,
                                 field=f"rounds.{number - 1}",
                                 label=Text("Round {number}", number=number))
                for side, points in raw.items() if side in sides and points is not None})
        return rounds

    @staticmethod
    def _check_rows(rounds: list[dict[str, int]], house_rules: dict[str, Any],
                    problems: Problems) -> None:
        """A sheet by categories: no more rows than categories when they are written down at
        the end, and nothing added in a category that is taken off."""
        categories = house_rules["categories"]
        if house_rules["sheet"] == "rounds" or not categories:
            return
        if house_rules["sheet"] == "categories" and len(rounds) > len(categories):
            problems.add("rounds.too_many_rows",
                         Text("The sheet has {count} categories, not more.",
                              count=len(categories)), field="rounds")
        for index, row in enumerate(rounds):
            category = categories[index % len(categories)]
            for side, points in row.items():
                if category["minus"] and points > 0:
                    problems.add("rounds.minus_added",
                                 Text("{player}: {category} is taken off the total; it "
                                      "cannot add to it.", player=side,
                                      category=category["name"]),
                                 player=side, field=f"rounds.{index}")

    @staticmethod
    def _check_sums(value: Any, rounds: list[dict[str, int]], house_rules: dict[str, Any],
                    problems: Problems) -> None:
        """The short sums kept with cells add up to the cells' points."""
        if value is None:
            return
        if not isinstance(value, list) or len(value) > len(rounds) or not all(
                isinstance(row, Mapping) for row in value):
            problems.add("sums.invalid", Text("The sums are unreadable."), field="sums")
            return
        categories = house_rules["categories"]
        for index, row in enumerate(value):
            minus = bool(categories) and categories[index % len(categories)]["minus"]
            for side, typed in row.items():
                total = read_short_sum(typed) if isinstance(typed, str) else None
                if total is None or len(typed) > SUM_LENGTH or rounds[index].get(side) != (
                        -total if minus else total):
                    problems.add("sums.mismatch",
                                 Text("{player}: the sum {sum} does not give the points "
                                      "stored.", player=str(side), sum=str(typed)[:SUM_LENGTH]),
                                 field=f"sums.{index}")

    def _read_cooperative(self, result: Mapping[str, Any], sides: Mapping[str, Any],
                          winners: list[str], finished: bool | None, problems: Problems
                          ) -> Played:
        won = optional(result, "won")
        if not isinstance(won, bool):
            problems.add("won.missing", Text("Say whether the table won or lost."), field="won")
            won = False
        if winners:
            problems.add("winners.cooperative",
                         Text("In a co-operative game the whole table wins or loses."),
                         field="winners")
        score = optional(result, "score")
        if score is not None:
            score = read_count(score, -SCORE_LIMIT, SCORE_LIMIT, problems, player=None,
                               field="score", label=Text("Score"))
        return Played(dict(sides), won=won, score=score, finished=finished is not False)

    @staticmethod
    def _unknown_sides(value: Mapping[str, Any], sides: Mapping[str, Any], field: str,
                       problems: Problems) -> None:
        for side in value:
            if side not in sides:
                problems.add("players.unknown", Text("{other} is not playing in this game.",
                                                     other=str(side)), field=field)

    # Scoring ------------------------------------------------------------

    def outcome(self, table: Table[Played]) -> Outcome:
        played, rules = table.data, table.house_rules
        scoring = rules["scoring"]
        if scoring == "cooperative":
            place = 1 if played.won else 2
            return self.make_outcome(
                table, {p: played.score or 0 for p in table.players},
                {p: place for p in table.players},
                {p: {"score": played.score, "won": played.won, "team": None}
                 for p in table.players}, finished=played.finished)
        totals = played.totals() if scoring != "places" else {}
        lower = scoring == "fewest_points"
        if scoring == "places":
            side_places = places_by_order(list(played.sides), played.order)
        else:
            side_places = places_by_points(totals, lower)
            side_places = self._with_tiebreak(side_places, played, rules)
            side_places = self._with_tie_counts(side_places, played.tie_counts)
            side_places |= {side: len(totals) + 1 for side in played.unscored}
        side_places = played.places or self._with_recorded_winners(side_places,
                                                                    played.winners)
        team_of = {member: side for side, members in played.sides.items() for member in members}
        unscored = set(played.unscored)
        points = {p: None if team_of[p] in unscored else totals.get(team_of[p], 0)
                  for p in table.players}
        places = {p: side_places[team_of[p]] for p in table.players}
        details = {p: {"score": totals.get(team_of[p]) if scoring != "places" else None,
                       "team": team_of[p] if rules["teams"] else None,
                       "rounds": self._rounds_played(played, rules)}
                   for p in table.players}
        return self.make_outcome(table, points, places, details, finished=played.finished,
                                 lower_is_better=lower)

    @staticmethod
    def _rounds_played(played: Played, rules: Mapping[str, Any]) -> int | None:
        """The rounds a sheet shows: its rows, or for categories in each round the rounds
        begun; None for final scores and a sheet by categories at the end."""
        if played.rounds is None or rules["sheet"] == "categories":
            return None
        if rules["sheet"] == "category_rounds":
            return -(-len(played.rounds) // len(rules["categories"]))
        return len(played.rounds)

    @staticmethod
    def _with_tiebreak(places: dict[str, int], played: Played, rules: Mapping[str, Any]
                       ) -> dict[str, int]:
        """Ties of the totals broken by the most points in the tie-break category; sides
        still level share the place."""
        names = [category["name"] for category in rules["categories"]]
        if not rules["tiebreak"] or played.rounds is None or rules["tiebreak"] not in names:
            return places
        column = names.index(rules["tiebreak"])
        decider = {side: sum(row.get(side, 0) for index, row in enumerate(played.rounds)
                             if index % len(names) == column) for side in places}
        broken: dict[str, int] = {}
        for place in sorted(set(places.values())):
            tied = [side for side in places if places[side] == place]
            broken |= {side: place + rank - 1 for side, rank in
                       places_by_points({side: decider[side] for side in tied}).items()}
        return broken

    @staticmethod
    def _with_tie_counts(places: dict[str, int], counts: Mapping[str, int]) -> dict[str, int]:
        """Sides still sharing a place, all counted, ordered by the most of the count; sides
        level there too, or not all counted, share the place."""
        if not counts:
            return places
        broken = dict(places)
        for place in set(places.values()):
            tied = [side for side in places if places[side] == place]
            if len(tied) > 1 and all(side in counts for side in tied):
                broken |= {side: place + rank - 1 for side, rank in
                           places_by_points({side: counts[side] for side in tied}).items()}
        return broken

    @staticmethod
    def _with_recorded_winners(places: dict[str, int], winners: Sequence[str]
                               ) -> dict[str, int]:
        """The places with the recorded ``winners`` first; the others keep their order behind
        them, ties shared."""
        if not winners:
            return places
        rest = sorted((side for side in places if side not in winners), key=places.get)
        ordered: dict[str, int] = {side: 1 for side in winners}
        previous, place = None, 0
        for position, side in enumerate(rest, start=len(winners) + 1):
            if places[side] != previous:
                place, previous = position, places[side]
            ordered[side] = place
        return ordered

    def end_reached(self, result: Any) -> Text | None:
        """What ends a game kept round by round, once it is reached ("Anna reached 512");
        None before, and for a result the rules refuse."""
        table, problems = self._read_table(result)
        if table is None or problems or table.data.rounds is None:
            return None
        rules, played = table.house_rules, table.data
        rows = played.rounds or []
        if rules["sheet"] == "categories":
            if len(rows) == len(rules["categories"]) and all(
                    side in row for row in rows for side in played.sides):
                return Text("Every category is entered.")
            return None
        rounds = self._rounds_played(played, rules) or 0
        if rules["end"] == "rounds" and rounds >= rules["end_at"]:
            return Text("{count} rounds are played.", count=rounds)
        if rules["end"] == "target":
            totals = played.totals()
            reached = [side for side, total in totals.items() if total >= rules["end_at"]]
            if reached:
                best = max(reached, key=totals.get)
                return Text("{player} reached {score}.", player=best, score=totals[best])
        return None
