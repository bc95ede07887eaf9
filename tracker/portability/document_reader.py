"""Reading a document's parts, trusting nothing: each lookup checks what it finds and
refuses what is amiss, naming the series, tournament or play as people know them."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from datetime import date, datetime
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.formats import date_format
from django.utils.translation import gettext as _

import games
from games import Problem, UnknownGame, generic
from games.base import Problems
from tracker.common.engine_text import say
from tracker.households.models import tidy_name
from tracker.portability.document import SMALL_INT, ImportRefused
from tracker.table.models import OwnGame, PlayChange
from tracker.table.story import LONGEST_MINUTES, NOTE_LENGTH, SHORTEST_MINUTES

PAD_MOVES = [value for value, _label in OwnGame._meta.get_field("pad_moves").choices]


class DocumentReader:
    """The lookups of an :class:`~tracker.portability.importer.Importer`: ``document`` is
    the document read, ``names`` the players' names by their key in it."""

    document: Mapping[str, Any]
    names: dict[str, str]

    # Naming things as people know them

    def label(self, item: Mapping[str, Any], kind: str, index: int) -> str:
        """How a message names the series, tournament or player ``item``: by its name, or
        by its place in the file when the name is unreadable."""
        name = item.get("name")
        if isinstance(name, str) and name.strip():
            name = tidy_name(name)[:100]
            if kind == "series":
                return _("Series “%(name)s”") % {"name": name}
            if kind == "tournaments":
                return _("Tournament “%(name)s”") % {"name": name}
            if kind == "own_games":
                return _("Own game “%(name)s”") % {"name": name}
            return name
        return {"series": _("Series no. %(number)s"),
                "tournaments": _("Tournament no. %(number)s"),
                "own_games": _("Own game no. %(number)s"),
                "players": _("Player no. %(number)s")}[kind] % {"number": index}

    def play_label(self, item: Mapping[str, Any], index: int) -> str:
        """A play named by its game and date ("Kniffel of 25 November 2026")."""
        rules = games.GAMES.get(item.get("game")) if isinstance(item.get("game"), str) else None
        night = self.nights.get(item["night"]) if isinstance(item.get("night"), str) else None
        try:
            day = night.date if night else (parse_date(item["played_on"]) if isinstance(
                item.get("played_on"), str) else None)
        except ValueError:
            day = None
        if rules is None or day is None:
            return _("Play no. %(number)s") % {"number": index}
        own = (self.own_games.get(item["own_game"]) if rules.key == "generic"
               and isinstance(item.get("own_game"), str) else None)
        return _("%(game)s of %(date)s") % {"game": own.name if own else say(rules.name),
                                           "date": date_format(day, "DATE_FORMAT")}

    def problems_text(self, problems: Iterable[Problem]) -> str:
        return " ".join(say(problem, self.names) for problem in problems)

    # Reading values

    def wrong(self, where: str, field: str) -> ImportRefused:
        return ImportRefused(_("%(where)s: “%(field)s” is missing or not what it should be.")
                             % {"where": where, "field": field})

    def items(self, key: str) -> list[dict[str, Any]]:
        items = self.document.get(key, [])
        if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
            raise self.wrong(_("the file"), key)
        return items

    def record(self, obj: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
        value = obj.get(key)
        if not isinstance(value, dict):
            raise self.wrong(where, key)
        return value

    def text(self, obj: Mapping[str, Any], key: str, where: str, length: int,
             *, blank: bool = False) -> str:
        value = obj.get(key, "" if blank else None)
        if not isinstance(value, str) or len(value) > length or not (blank or value.strip()):
            raise self.wrong(where, key)
        return value

    def number(self, obj: Mapping[str, Any], key: str, where: str, *, low: int = 0,
               high: int = SMALL_INT, optional: bool = False) -> int | None:
        value = obj.get(key)
        if value is None and optional:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self.wrong(where, key)
        return value

    def boolean(self, obj: Mapping[str, Any], key: str, where: str) -> bool:
        value = obj.get(key)
        if not isinstance(value, bool):
            raise self.wrong(where, key)
        return value

    def json(self, obj: Mapping[str, Any], key: str, where: str, kind: type,
             *, optional: bool = False) -> Any:
        value = obj.get(key, None if optional else kind())
        if not (isinstance(value, kind) or (optional and value is None)):
            raise self.wrong(where, key)
        return value

    def elsewhere(self, obj: Mapping[str, Any], where: str) -> dict[str, Any]:
        """What other apps know of the object, by app: an object per app; none in files from
        before it was kept."""
        value = obj.get("elsewhere", {})
        if not isinstance(value, dict) or not all(
                isinstance(app, str) and isinstance(kept, dict) for app, kept in value.items()):
            raise self.wrong(where, "elsewhere")
        return value

    def choice(self, obj: Mapping[str, Any], key: str, where: str, choices: list[str]) -> str:
        value = obj.get(key)
        if value not in choices:
            raise self.wrong(where, key)
        return value

    def moment(self, obj: Mapping[str, Any], key: str, where: str) -> datetime:
        value = obj.get(key)
        try:
            parsed = parse_datetime(value) if isinstance(value, str) else None
        except ValueError:
            parsed = None
        if parsed is None:
            raise self.wrong(where, key)
        return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed)

    def day(self, obj: Mapping[str, Any], key: str, where: str) -> date:
        value = obj.get(key)
        try:
            parsed = parse_date(value) if isinstance(value, str) else None
        except ValueError:
            parsed = None
        if parsed is None:
            raise self.wrong(where, key)
        return parsed

    def game(self, obj: Mapping[str, Any], where: str) -> games.Rules:
        try:
            return games.get(obj.get("game"))
        except UnknownGame:
            raise self.wrong(where, "game") from None

    def new_id(self, obj: Mapping[str, Any], seen: Mapping[str, Any], where: str) -> str:
        local = obj.get("id")
        if not isinstance(local, str) or not local or local in seen:
            raise self.wrong(where, "id")
        return local

    def ref(self, known: Mapping[str, Any], value: Any, where: str, field: str) -> Any:
        """The object ``value`` names in ``known``; a dangling reference refuses the file."""
        if not isinstance(value, str) or value not in known:
            raise ImportRefused(_("%(where)s: “%(field)s” names %(value)s, which is not in "
                                  "the file.") % {"where": where, "field": field,
                                                  "value": json.dumps(value)[:40]})
        return known[value]

    def refs(self, known: Mapping[str, Any], obj: Mapping[str, Any], key: str,
             where: str) -> list[Any]:
        values = self.json(obj, key, where, list)
        if len(set(map(json.dumps, values))) != len(values):
            raise self.wrong(where, key)
        return [self.ref(known, value, where, key) for value in values]

    # The parts

    def sheet_definition(self, item: Mapping[str, Any], where: str) -> dict[str, Any]:
        """How an own game's points are written down, read as the engine reads an own game's
        definition; a file from before sheets by categories has them round by round."""
        problems = Problems()
        options = {option.key: option for option in generic.Generic.house_rules}
        definition = {key: options[key].read(item.get(key, options[key].default), problems)
                      for key in ("sheet", "categories", "tiebreak", "tiebreak_count")}
        if problems or definition["categories"] != item.get("categories", []):
            raise self.wrong(where, problems[0].field.removeprefix("house_rules.")
                             if problems and problems[0].field else "categories")
        pad_moves = item.get("pad_moves", "next_player")
        if pad_moves not in PAD_MOVES:
            raise self.wrong(where, "pad_moves")
        return definition | {"pad_moves": pad_moves}

    def story(self, item: Mapping[str, Any], where: str) -> dict[str, Any]:
        """A play's note and length; a file from before them has none."""
        return {"note": self.text(item, "note", where, NOTE_LENGTH, blank=True),
                "length_minutes": self.number(item, "length_minutes", where,
                                              low=SHORTEST_MINUTES, high=LONGEST_MINUTES,
                                              optional=True)}


def definition_key(value_of: Callable[[str], Any]) -> str:
    """An own game's definition (each house rule's value, some of them lists) as one text:
    what an older file's plays of "Any other game" of one definition move into."""
    return json.dumps([value_of(option.key) for option in generic.Generic.house_rules])


def history_entry_fits(action: str, data: Mapping[str, Any], players: set[str]) -> bool:
    """Whether ``data`` has the shape recording gives a history entry of ``action``, with
    only the play's ``players`` in it."""
    Action = PlayChange.Action

    def count(value: Any, *, empty: bool = False) -> bool:
        return (value is None and empty) or (type(value) is int and abs(value) <= 10**9)

    def by_player(value: Any) -> bool:
        return isinstance(value, dict) and set(value) <= players and all(
            count(item, empty=True) for item in value.values())

    def standing(value: Any) -> bool:
        return (isinstance(value, dict) and isinstance(value.get("result"), dict)
                and by_player(value.get("points")) and by_player(value.get("places")))

    def player(value: Any) -> bool:
        return isinstance(value, str) and value in players

    def dice(value: Any) -> bool:
        return value is None or (isinstance(value, list) and all(count(d) for d in value))

    def cell(value: Mapping[str, Any]) -> bool:
        return (player(value.get("player")) and isinstance(value.get("field"), str)
                and count(value.get("points")) and dice(value.get("dice")))

    if action in (Action.RESULT, Action.EDITED) or (action == Action.UNDONE
                                                     and "field" not in data):
        return (by_player(data.get("points")) and by_player(data.get("places"))
                and ("previous" not in data or standing(data["previous"]))
                and (action != Action.EDITED or "previous" in data))
    if action in (Action.CELL, Action.CELL_CORRECTED):
        previous = data.get("previous")
        return cell(data) and (previous is None or (
            isinstance(previous, dict) and count(previous.get("points"))
            and dice(previous.get("dice"))))
    if action == Action.UNDONE:
        restored = data.get("restored")
        return cell({**data, "dice": None}) and (restored is None or (
            isinstance(restored, dict) and count(restored.get("points"))))
    if action == Action.EXTRA_KNIFFEL:
        return player(data.get("player")) and count(data.get("count"))
    if action == Action.STARTED:
        return isinstance(data.get("house_rules", {}), dict)
    return True
