"""The contract every game's rules fulfil, and the pieces they share.

A *result* is a JSON-compatible dict. It always names its players, in seat
order, as ``result["players"]``: a list of distinct, non-empty strings. It may
carry ``result["house_rules"]``: the choices the family made for this game,
checked against the game's :attr:`Rules.house_rules`. Everything else is the
game's own and documented in its module.

Two kinds of error are kept apart. A result a person entered that the rules do
not allow is described by :class:`Problem` objects and, from :meth:`Rules.score`,
raised as :class:`InvalidResult`. A mistake in the calling code (a game asked
for by a key it does not have, a house rule that does not exist) raises an
ordinary Python exception and is never shown as if it were the person's fault.

Null means absent: an optional key given as ``null`` (or a player's entry in
an optional map given as ``null``) is read as if it were left out. A key the
game does not know is a problem, so that a misspelt key is never silently
ignored.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Generic, TypeVar

from games.i18n import Text

Parsed = TypeVar("Parsed")


@dataclass(frozen=True)
class Problem:
    """Something in a result that the rules do not allow, said for a person.

    ``code`` is stable and meant for programs (tests, the web app's field
    mapping); ``player`` and ``field`` say where the problem is, so that the
    message can be shown next to the input that caused it. ``field`` is a key
    of the result such as ``full_house`` or ``elephants.2`` (0-based index).
    """

    code: str
    message: Text
    player: str | None = None
    field: str | None = None

    def __str__(self) -> str:
        return str(self.message)

    @property
    def params(self) -> Mapping[str, Any]:
        return self.message.params

    def in_language(self, language: str | None, names: Mapping[str, str] | None = None) -> str:
        """The message in ``language``, players shown by their ``names`` when given."""
        return self.message.in_language(language, names)


class InvalidResult(ValueError):
    """A result the rules do not allow; ``problems`` says what and where."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(str(problem) for problem in self.problems))


class UnknownGame(LookupError):
    """No game is registered under this key."""


@dataclass
class Outcome:
    """What a result comes to: points and places per player.

    ``places`` start at 1 for the best; tied players share a place and the
    next place is skipped (1, 1, 3). The one exception is a co-operative game the
    table lost: the game itself took place 1, and every player shares place 2.
    ``scored_by_points`` is False for games whose rules give no points of their
    own (finishing-order games): their points are all 0 and only the places
    count. ``lower_is_better`` is True
    where fewer points win (penalty points). A player the family recorded no score for
    (an own game's ``unscored``) has None as points.
    """

    game: str
    points: dict[str, int | None]
    places: dict[str, int]
    details: dict[str, dict[str, Any]] = field(default_factory=dict)
    finished: bool = True
    scored_by_points: bool = True
    lower_is_better: bool = False

    @property
    def winners(self) -> list[str]:
        return [player for player, place in self.places.items() if place == 1]


@dataclass(frozen=True)
class Option:
    """A house rule: a choice a family makes before playing.

    ``choices`` maps each allowed value to its label. A ``None`` choices with
    ``kind`` ``"int_list"`` accepts a list of whole numbers between
    ``minimum`` and ``maximum`` (board data such as seat values), with ``kind``
    ``"int"`` one whole number between them, with ``kind`` ``"text"`` a name of up to
    ``maximum`` characters (or none), and with ``kind`` ``"categories"`` the rows of a score
    sheet: up to ``maximum`` distinct names of up to 40 characters, each taken off the total
    where ``minus`` is true (``[{"name": "Birds", "minus": false}]``).
    """

    key: str
    label: Text
    default: Any
    choices: Mapping[Any, Text] | None = None
    kind: str = "choice"
    minimum: int = 0
    maximum: int = 0

    def read(self, value: Any, problems: Problems) -> Any:
        """``value`` when it is allowed; otherwise note a problem and return the default."""
        if self.kind == "int":
            if is_int(value) and self.minimum <= value <= self.maximum:
                return value
            problems.add(
                "house_rules.invalid_number",
                Text("{rule}: give a whole number from {low} to {high}.",
                     rule=self.label, low=self.minimum, high=self.maximum),
                field=f"house_rules.{self.key}",
            )
            return self.default
        if self.kind == "int_list":
            if (
                isinstance(value, list)
                and value
                and all(is_int(item) and self.minimum <= item <= self.maximum for item in value)
                and len(set(value)) == len(value)
            ):
                return sorted(value)
            problems.add(
                "house_rules.invalid_list",
                Text(
                    "{rule}: give distinct whole numbers from {low} to {high}.",
                    rule=self.label, low=self.minimum, high=self.maximum,
                ),
                field=f"house_rules.{self.key}",
            )
            return self.default
        if self.kind == "text":
            if isinstance(value, str) and len(value) <= self.maximum and (
                    value == "" or value == canonical_name(value)):
                return value
            problems.add("house_rules.invalid_text",
                         Text("{rule}: give a name of up to {high} characters.",
                              rule=self.label, high=self.maximum),
                         field=f"house_rules.{self.key}")
            return self.default
        if self.kind == "categories":
            return read_categories(value, self, problems)
        assert self.choices is not None
        if isinstance(value, Hashable) and type(value) in {type(c) for c in self.choices}:
            if value in self.choices:
                return value
        problems.add(
            "house_rules.invalid_choice",
            Text("{rule}: choose one of the listed options.", rule=self.label),
            field=f"house_rules.{self.key}",
        )
        return self.default


CATEGORY_NAME_LENGTH = 40


def read_categories(value: Any, option: Option, problems: Problems) -> list[dict[str, Any]]:
    """The categories of a score sheet (see :class:`Option`), or a problem and none."""
    field = f"house_rules.{option.key}"
    if not isinstance(value, list) or len(value) > option.maximum:
        problems.add("house_rules.categories_invalid",
                     Text("{rule}: list up to {high} categories.", rule=option.label,
                          high=option.maximum), field=field)
        return []
    categories: list[dict[str, Any]] = []
    for item in value:
        name = item.get("name") if isinstance(item, Mapping) else None
        minus = item.get("minus", False) if isinstance(item, Mapping) else None
        if (not isinstance(name, str) or not canonical_name(name)
                or name != canonical_name(name) or len(name) > CATEGORY_NAME_LENGTH
                or not isinstance(minus, bool) or set(item) - {"name", "minus"}):
            problems.add("house_rules.category_invalid",
                         Text("Give each category a name of up to {length} characters.",
                              length=CATEGORY_NAME_LENGTH), field=field)
            return []
        if name.casefold() in {known["name"].casefold() for known in categories}:
            problems.add("house_rules.category_twice",
                         Text("The category {name} is listed twice.", name=name), field=field)
            return []
        categories.append({"name": name, "minus": minus})
    return categories


class Problems(list[Problem]):
    """The problems found so far while reading one result."""

    def add(self, code: str, message: Text, *, player: str | None = None,
            field: str | None = None) -> None:
        self.append(Problem(code, message, player, field))


@dataclass(frozen=True)
class Table(Generic[Parsed]):
    """A result after reading: its players, house rules and the game's own data."""

    players: list[str]
    house_rules: dict[str, Any]
    data: Parsed


def is_int(value: Any) -> bool:
    """A JSON whole number (``True`` is not one, although Python says it is an int)."""
    return isinstance(value, int) and not isinstance(value, bool)


@lru_cache(maxsize=4096)
def canonical_name(name: str) -> str:
    """A name as it looks: composed (NFC), without invisible characters, single spaces, trimmed.

    "José" typed with a combining accent, "José " and "Jo\u200bsé" all look like
    "José" and come out as it. Remembered, as every score reads every player's name.
    """
    composed = unicodedata.normalize("NFC", name)
    visible = "".join(char for char in composed if unicodedata.category(char) not in INVISIBLE)
    return re.sub(r"\s+", " ", visible).strip()


#: Unicode categories that show nothing: control, format (zero-width), unassigned, private use.
INVISIBLE = frozenset({"Cc", "Cf", "Cn", "Co", "Cs"})


def optional(result: Mapping[str, Any], key: str) -> Any:
    """``result[key]``, or None when it is left out or null: null means absent."""
    return result.get(key)


def shared_places(players: Iterable[str], sort_key: Callable[[str], Any]) -> dict[str, int]:
    """Places 1, 2, ... by ``sort_key`` ascending; equal keys share a place (1, 1, 3)."""
    ordered = sorted(players, key=sort_key)
    places: dict[str, int] = {}
    previous: Any = object()
    for position, player in enumerate(ordered, start=1):
        key = sort_key(player)
        if key != previous:
            place, previous = position, key
        places[player] = place
    return places


def places_by_points(points: Mapping[str, int], lower_is_better: bool = False) -> dict[str, int]:
    """Places from points: most points first, or fewest where ``lower_is_better``."""
    sign = 1 if lower_is_better else -1
    return shared_places(points, lambda player: sign * points[player])


def places_by_order(players: Sequence[str], order: Sequence[str]) -> dict[str, int]:
    """Places from a finishing order; players not in it share the place after it."""
    places = {player: position for position, player in enumerate(order, start=1)}
    rest = len(order) + 1
    return {player: places.get(player, rest) for player in players}


class Rules(Generic[Parsed]):
    """The rules of one game: what a result must look like and what it scores.

    Subclasses set the class attributes below and implement :meth:`read` and
    :meth:`outcome`. :meth:`validate` and :meth:`score` are the public API and
    are not overridden.
    """

    #: Registry key, stable: it is stored with every play.
    key: ClassVar[str]
    #: The game's name (English; ``name.in_language("de")`` for German).
    name: ClassVar[Text]
    #: One line for the game picker.
    description: ClassVar[Text]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: House rules a family can choose, in display order.
    house_rules: ClassVar[tuple[Option, ...]] = ()
    #: Whether the rules give points (True) or only a finishing order (False).
    scored_by_points: ClassVar[bool] = True
    #: The keys of a result this game reads, besides ``players`` and ``house_rules``.
    result_keys: ClassVar[frozenset[str]] = frozenset()
    #: Series tie-breaks, most important first (metric keys of ``games.series``).
    series_tiebreaks: ClassVar[tuple[str, ...]] = ("points", "wins")
    #: Who starts by the rules; None where the rules do not say.
    start_rule: ClassVar[Text | None] = None

    def __repr__(self) -> str:
        return f"<Rules {self.key}>"

    # Public API ---------------------------------------------------------

    def validate(self, result: Any) -> list[Problem]:
        """Every problem in ``result``; an empty list when the rules allow it."""
        return list(self._read_table(result)[1])

    def score(self, result: Any) -> Outcome:
        """Points and places for ``result``; :class:`InvalidResult` when the rules forbid it."""
        table, problems = self._read_table(result)
        if problems or table is None:
            raise InvalidResult(problems)
        return self.outcome(table)

    def validate_setup(self, players: Any, house_rules: Any = None) -> list[Problem]:
        """Problems with the players and house rules chosen before a game starts."""
        problems = Problems()
        self._read_players(players, problems)
        self._read_house_rules({} if house_rules is None else house_rules, problems)
        return list(problems)

    def validate_house_rules(self, house_rules: Any) -> list[Problem]:
        """Problems with house rules alone, such as an own game's definition."""
        problems = Problems()
        self._read_house_rules(house_rules, problems)
        return list(problems)

    def setup_hint(self, n_players: int, house_rules: Mapping[str, Any] | None = None) -> Text:
        """A short text for the table host before the game starts.

        Raises :class:`InvalidResult` when ``n_players`` is not a whole number.
        """
        if not is_int(n_players):
            problems = Problems()
            problems.add("players.count", Text("Give the number of players as a whole number."),
                         field="players")
            raise InvalidResult(problems)
        if not self.min_players <= n_players <= self.max_players:
            return self.player_range_text()
        return self.hint(n_players, self.default_house_rules() | dict(house_rules or {}))

    def who_starts(self, house_rules: Mapping[str, Any]) -> Text | None:
        """Who starts by the rules under these house rules, as a reminder for the host, who
        picks that player: a rule such as "the youngest starts" needs what only the table
        knows. None where the rules do not say."""
        return self.start_rule

    def default_house_rules(self) -> dict[str, Any]:
        return {option.key: option.default for option in self.house_rules}

    def player_range_text(self) -> Text:
        if self.min_players == self.max_players:
            return Text("{game} is for {count} players.", game=self.name, count=self.min_players)
        return Text(
            "{game} is for {low} to {high} players.",
            game=self.name, low=self.min_players, high=self.max_players,
        )

    # For subclasses -----------------------------------------------------

    def check_house_rules(self, house_rules: dict[str, Any], problems: Problems) -> None:
        """Note house rules that do not go together; both the setup and a result are checked."""

    def hint(self, n_players: int, house_rules: dict[str, Any]) -> Text:
        """The setup hint for a valid number of players."""
        raise NotImplementedError

    def read(self, result: Mapping[str, Any], players: list[str],
             house_rules: dict[str, Any], problems: Problems) -> Parsed:
        """The game's own part of ``result``, noting in ``problems`` what is wrong with it.

        Must not raise on any JSON-like input: whatever cannot be read is a problem.
        """
        raise NotImplementedError

    def outcome(self, table: Table[Parsed]) -> Outcome:
        """Points and places of a result that :meth:`read` found no problem in."""
        raise NotImplementedError

    def make_outcome(self, table: Table[Any], points: dict[str, int], places: dict[str, int],
                     details: dict[str, dict[str, Any]], *, finished: bool = True,
                     lower_is_better: bool = False) -> Outcome:
        return Outcome(
            game=self.key, points=points, places=places, details=details, finished=finished,
            scored_by_points=self.scores_points(table.house_rules),
            lower_is_better=lower_is_better,
        )

    def scores_points(self, house_rules: Mapping[str, Any]) -> bool:
        """Whether results under these house rules have points of their own."""
        return self.scored_by_points

    def fewer_points_win(self, house_rules: Mapping[str, Any]) -> bool:
        """Whether the fewest points win under these house rules (penalty points)."""
        return False

    # Reading ------------------------------------------------------------

    def _read_table(self, result: Any) -> tuple[Table[Parsed] | None, Problems]:
        problems = Problems()
        if not isinstance(result, Mapping):
            problems.add("result.not_an_object", Text("The result is missing or unreadable."))
            return None, problems
        players = self._read_players(result.get("players"), problems)
        house_rules = self._read_house_rules(optional(result, "house_rules") or {}, problems)
        for key in result:
            if key not in ("players", "house_rules") and key not in self.result_keys:
                problems.add("result.unknown_key",
                             Text("{game} results have no “{key}”.", game=self.name,
                                  key=str(key)),
                             field=str(key))
        if problems:
            return None, problems
        data = self.read(result, players, house_rules, problems)
        return Table(players, house_rules, data), problems

    def _read_players(self, value: Any, problems: Problems) -> list[str]:
        if not isinstance(value, list) or not all(
                isinstance(p, str) and canonical_name(p) for p in value):
            problems.add("players.invalid", Text("List the players by name."), field="players")
            return []
        for player in value:
            if player != canonical_name(player):
                problems.add(
                    "players.unclear_name",
                    Text("“{shown}” has invisible characters, extra spaces or an accent written "
                         "as two characters: write it as “{player}”.",
                         shown=player, player=canonical_name(player)),
                    player=player, field="players",
                )
        looks = [canonical_name(p) for p in value]
        for player in sorted({p for p in looks if looks.count(p) > 1}):
            problems.add(
                "players.duplicate",
                Text("{player} is listed twice.", player=player),
                player=player, field="players",
            )
        if not self.min_players <= len(value) <= self.max_players:
            problems.add(
                "players.count",
                Text("{range} This result has {count}.", range=self.player_range_text(),
                     count=len(value)),
                field="players",
            )
        return list(value)

    def _read_house_rules(self, value: Any, problems: Problems) -> dict[str, Any]:
        chosen = self.default_house_rules()
        found = len(problems)
        if not isinstance(value, Mapping):
            problems.add("house_rules.invalid", Text("The house rules are unreadable."),
                         field="house_rules")
            return chosen
        options = {option.key: option for option in self.house_rules}
        for key, item in value.items():
            option = options.get(key) if isinstance(key, str) else None
            if option is None:
                problems.add(
                    "house_rules.unknown",
                    Text("{game} has no house rule called “{rule}”.", game=self.name,
                         rule=str(key)),
                    field="house_rules",
                )
            else:
                chosen[key] = option.read(item, problems)
        if len(problems) == found:
            self.check_house_rules(chosen, problems)
        return chosen


class FinishingOrderRules(Rules[list[str]]):
    """A game whose result is the order the players finished in, best first.

    The rules give no points. Players not in the order (a game stopped after
    the winner) share the place after the last one listed.
    """

    scored_by_points = False
    result_keys = frozenset({"order"})

    def read(self, result, players, house_rules, problems):
        return read_order(result, players, problems)

    def outcome(self, table: Table[list[str]]) -> Outcome:
        places = places_by_order(table.players, table.data)
        details = {player: {"finished_as": places[player] if player in table.data else None}
                   for player in table.players}
        return self.make_outcome(table, {p: 0 for p in table.players}, places, details)


# Readers shared by several games ---------------------------------------


def read_player_map(result: Mapping[str, Any], key: str, players: list[str],
                    problems: Problems, *, required: bool = True) -> dict[str, Any]:
    """``result[key]`` as a dict keyed by the result's players.

    Notes a problem for a missing map, for each player it lacks (when
    ``required``) and for each key that is not a player of this result. An
    optional map left out or null is empty, and a player's null entry in it is
    left out: null means absent.
    """
    value = optional(result, key)
    if value is None and not required:
        value = {}
    if not isinstance(value, Mapping):
        problems.add(f"{key}.missing", Text("Enter the result for every player."), field=key)
        return {}
    for other in value:
        if other not in players:
            problems.add(
                "players.unknown",
                Text("{other} is not playing in this game.", other=str(other)),
                field=key,
            )
    if required:
        for player in players:
            if player not in value:
                problems.add(f"{key}.player_missing",
                             Text("{player}: the result is missing.", player=player),
                             player=player, field=key)
    return {player: value[player] for player in players
            if player in value and (required or value[player] is not None)}


def read_order(result: Mapping[str, Any], players: list[str], problems: Problems,
               *, key: str = "order") -> list[str]:
    """A finishing order: distinct players of this result, best first, at least the winner.

    When all players but one are listed, the last one is added: whoever is left
    finished last.
    """
    value = result.get(key)
    if not isinstance(value, list) or not value:
        problems.add(f"{key}.missing", Text("Tap the players in the order they finished, "
                                            "at least the winner."), field=key)
        return []
    order: list[str] = []
    for item in value:
        if not isinstance(item, str) or item not in players:
            problems.add("players.unknown", Text("{other} is not playing in this game.",
                                                 other=str(item)), field=key)
        elif item in order:
            problems.add(f"{key}.duplicate", Text("{player} is in the finishing order twice.",
                                                  player=item), player=item, field=key)
        else:
            order.append(item)
    if len(order) == len(players) - 1:
        order += [player for player in players if player not in order]
    return order


def read_player(result: Mapping[str, Any], key: str, players: list[str], problems: Problems,
                message: Text) -> str | None:
    """``result[key]`` when it names a player of this result; otherwise ``message`` as a problem."""
    value = result.get(key)
    if isinstance(value, str) and value in players:
        return value
    problems.add(f"{key}.missing", message, field=key)
    return None


def read_count(value: Any, low: int, high: int, problems: Problems, *, player: str | None,
               field: str, label: Text) -> int:
    """A whole number from ``low`` to ``high``, or a problem and 0."""
    if is_int(value) and low <= value <= high:
        return value
    problems.add(
        "value.out_of_range",
        Text("{player}: {label} must be a whole number from {low} to {high}.",
             player=player or "", label=label, low=low, high=high)
        if player else
        Text("{label} must be a whole number from {low} to {high}.", label=label, low=low,
             high=high),
        player=player, field=field,
    )
    return 0

