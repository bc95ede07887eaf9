"""Result entry at the table: each game's form, built from taps.

The form carries the result being entered as JSON in a hidden ``draft`` field.
Every button in it is a submit button named ``tap``; the server applies the
tap to the draft and answers with the form again, live points included. htmx
makes that instant; without JavaScript the same buttons submit the page. Plain
inputs (numbers, a winner) are merged into the draft on every request. Saving
sends the draft through the rules engine, which has the last word.

Adding a game: an :class:`Entry` subclass (or an existing one) in ``ENTRIES``
and its template ``templates/plays/entry_<key>.html``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from games.maus_im_nacken import ELEPHANTS_PER_PLAYER, elephant_points, parse_elephant
from tracker.common.parsing import UnreadableInput, parse_whole_number, read_json, small_int

MICE_PER_PLAYER = 4
# Drafts are small: a few keys per player. The bounds keep a forged draft from costing
# more than a real one to read, and its form from growing without end.
DRAFT_CHARS = 1_000
DRAFT_CHARS_PER_PLAYER = 300
DRAFT_DEPTH = 4
MAX_HANDS = 40


def whole_number(value: str) -> int | str:
    """A typed number as an int; anything else is kept as typed, for the engine to refuse."""
    number = parse_whole_number(value)
    return value.strip() if number is None else number


def merged_numbers(stored: Any, data: QueryDict, prefix: str, keys: list[str]
                   ) -> dict[str, int | str]:
    """Each player's number from the input ``<prefix>_<key>`` where the form sent it, else
    as ``stored`` has it; an emptied input takes the player's number out."""
    numbers = {key: value for key, value in (stored or {}).items() if key in keys} if (
        isinstance(stored, dict)) else {}
    for key in keys:
        if f"{prefix}_{key}" in data:
            numbers[key] = whole_number(data[f"{prefix}_{key}"])
    return {key: value for key, value in numbers.items() if value != ""}


def list_of_keys(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


class Entry:
    """How one game's result is entered. Subclasses set ``template`` and may override the rest."""

    template: str
    chars_per_player = DRAFT_CHARS_PER_PLAYER

    def blank(self, keys: list[str], house_rules: Mapping[str, Any]) -> dict[str, Any]:
        """The draft before anything is entered."""
        return {}

    def read(self, data: QueryDict, keys: list[str], house_rules: Mapping[str, Any]
             ) -> dict[str, Any]:
        """The draft from a submitted form; UnreadableInput when its hidden part is too
        large, too deep or not of the shape this form writes."""
        draft = read_json(data.get("draft", "{}"),
                          max_chars=DRAFT_CHARS + self.chars_per_player * len(keys),
                          max_depth=DRAFT_DEPTH)
        if not (isinstance(draft, dict) and self.well_formed(draft)):
            raise UnreadableInput(_("The form was damaged."))
        self.merge_inputs(draft, data, keys)
        return draft

    def well_formed(self, draft: dict[str, Any]) -> bool:
        """Whether the draft's parts have the types this form gives them."""
        return True

    def merge_inputs(self, draft: dict[str, Any], data: QueryDict, keys: list[str]) -> None:
        """Copy the form's plain inputs into the draft. An input the form did not send is
        left as the draft has it: a tablet sends only what it changed, so that it never
        blanks what another tablet typed meanwhile."""

    def tap(self, draft: dict[str, Any], action: str, keys: list[str]) -> str | None:
        """Apply one tap to the draft; unknown taps change nothing. A message when the tap
        is refused."""
        return None

    def preview(self, draft: dict[str, Any], keys: list[str]) -> dict[str, Any]:
        """Anything the form shows live while entering (points so far, order numbers)."""
        return {}

    @staticmethod
    def result(draft: dict[str, Any]) -> dict[str, Any]:
        """The draft as a result for the engine: without the form's own notes (``_`` keys)."""
        return {key: value for key, value in draft.items() if not key.startswith("_")}


def split_tap(action: str) -> tuple[str, list[str]]:
    name, *args = action.split(":")
    return name, args


class MausEntry(Entry):
    """Four big buttons per player; "home" takes the next arrival rank by itself."""

    template = "plays/entry_maus_im_nacken.html"

    def blank(self, keys, house_rules):
        return {"elephants": {key: [""] * ELEPHANTS_PER_PLAYER for key in keys}}

    def well_formed(self, draft):
        return isinstance(draft.get("elephants"), dict)

    def read(self, data, keys, house_rules):
        draft = super().read(data, keys, house_rules)
        draft["elephants"] = {key: self._herd(draft["elephants"].get(key)) for key in keys}
        return draft

    @staticmethod
    def _herd(value: Any) -> list[str]:
        """Four entries, "" where an elephant is not entered yet."""
        entries = value[:ELEPHANTS_PER_PLAYER] if isinstance(value, list) else []
        herd = [entry if isinstance(entry, str) else "" for entry in entries]
        return herd + [""] * (ELEPHANTS_PER_PLAYER - len(herd))

    def tap(self, draft, action, keys):
        name, args = split_tap(action)
        if name not in ("home", "seat", "seatvalue", "caught", "pyramid") or len(args) < 2:
            return
        key, index = args[0], small_int(args[1])
        if key not in keys or index is None or index >= ELEPHANTS_PER_PLAYER:
            return
        seat = small_int(args[2]) if len(args) == 3 else None
        if name == "seatvalue" and seat is None:
            return
        herds = draft["elephants"]
        draft.pop("_choosing", None)
        if name == "seat":
            draft["_choosing"] = f"{key}:{index}"
            return
        self._clear(herds, key, index)
        if name == "home":
            ranks = [e.value for e in self._parsed(herds) if e.state == "home"]
            herds[key][index] = f"home:{max(ranks, default=0) + 1}"
        elif name == "seatvalue":
            herds[key][index] = f"seat:{seat}"
        else:
            herds[key][index] = name

    @staticmethod
    def _parsed(herds):
        return [e for herd in herds.values() for e in map(parse_elephant, herd) if e]

    @staticmethod
    def _clear(herds: dict[str, list[str]], key: str, index: int) -> None:
        """Empty one elephant; later arrivals move up a place so home ranks stay 1, 2, 3..."""
        cleared = parse_elephant(herds[key][index])
        herds[key][index] = ""
        if cleared is None or cleared.state != "home":
            return
        for herd in herds.values():
            for position, entry in enumerate(herd):
                elephant = parse_elephant(entry)
                if elephant and elephant.state == "home" and elephant.value > cleared.value:
                    herd[position] = f"home:{elephant.value - 1}"

    def preview(self, draft, keys):
        herds = draft["elephants"]
        return {
            "points": {
                key: sum(elephant_points(e) for e in map(parse_elephant, herds[key]) if e)
                for key in keys
            },
            "herds": {
                key: [{"index": index, "field": f"elephants.{index}", "entry": entry,
                       "elephant": parse_elephant(entry),
                       "choosing": draft.get("_choosing") == f"{key}:{index}"}
                      for index, entry in enumerate(herds[key])]
                for key in keys
            },
        }


class OrderEntry(Entry):
    """Tap the players in the order they finished; tap again to take one out."""

    template = "plays/entry_order.html"

    def blank(self, keys, house_rules):
        return {"order": []}

    def well_formed(self, draft):
        return list_of_keys(draft.get("order", []))

    def tap(self, draft, action, keys):
        name, args = split_tap(action)
        order = [key for key in draft.get("order", []) if key in keys]
        if name == "order" and args and args[0] in keys:
            if args[0] in order:
                order.remove(args[0])
            else:
                order.append(args[0])
        draft["order"] = order

    def preview(self, draft, keys):
        order = draft.get("order", [])
        return {"positions": {key: order.index(key) + 1 for key in keys if key in order}}


class WinnerEntry(Entry):
    """Choose the winner; optionally a number for each other player (``extra_input``)."""

    extra_input: str | None = None

    def merge_inputs(self, draft, data, keys):
        if data.get("winner") in keys:
            draft["winner"] = data["winner"]
        if self.extra_input:
            name = f"{self.extra_input}s"
            draft[name] = merged_numbers(draft.get(name), data, self.extra_input, keys)


class EntenspielEntry(WinnerEntry):
    template = "plays/entry_entenspiel.html"
    extra_input = "square"


class MauMauEntry(WinnerEntry):
    """One hand: the winner. Penalty points: a row of numbers per hand."""

    template = "plays/entry_mau_mau.html"
    chars_per_player = DRAFT_CHARS_PER_PLAYER + 12 * MAX_HANDS

    def well_formed(self, draft):
        hands = draft.get("hands", [])
        return (isinstance(hands, list) and len(hands) <= MAX_HANDS
                and all(isinstance(hand, dict) for hand in hands))

    def blank(self, keys, house_rules):
        if house_rules.get("scoring") == "penalty_points":
            return {"hands": [{key: "" for key in keys}]}
        return {}

    def merge_inputs(self, draft, data, keys):
        super().merge_inputs(draft, data, keys)
        hands = draft.get("hands")
        if isinstance(hands, list):
            draft["hands"] = [
                {key: whole_number(data[f"hand_{number}_{key}"])
                 if f"hand_{number}_{key}" in data
                 else (hand.get(key, "") if isinstance(hand, dict) else "") for key in keys}
                for number, hand in enumerate(hands)
            ]

    def tap(self, draft, action, keys):
        hands = draft.get("hands")
        if not isinstance(hands, list):
            return
        if action == "addhand" and len(hands) >= MAX_HANDS:
            return _("At most %(count)s hands can be entered.") % {"count": MAX_HANDS}
        if action == "addhand":
            hands.append({key: "" for key in keys})
        elif action == "removehand" and len(hands) > 1:
            hands.pop()
        return None

    def preview(self, draft, keys):
        hands = draft.get("hands") or []
        return {"totals": {key: sum(hand.get(key) for hand in hands
                                    if isinstance(hand.get(key), int)) for key in keys}}


class MouseTrapEntry(Entry):
    """Captures in the order they happened, then the cheese each player holds.

    A capture is two kinds of tap: the mice caught together (each tap marks or
    unmarks one), then who turned the crank, which adds the capture.
    """

    template = "plays/entry_mouse_trap.html"

    def blank(self, keys, house_rules):
        return {"captures": [], "cheese": {}}

    def well_formed(self, draft):
        captures = draft.get("captures", [])
        return (isinstance(captures, list) and list_of_keys(draft.get("_picked", []))
                and all(isinstance(capture, dict) and list_of_keys(capture.get("mice"))
                        and isinstance(capture.get("by"), str) for capture in captures))

    def merge_inputs(self, draft, data, keys):
        draft["cheese"] = merged_numbers(draft.get("cheese"), data, "cheese", keys)

    def tap(self, draft, action, keys):
        name, args = split_tap(action)
        captures = draft.get("captures")
        if not isinstance(captures, list):
            captures = draft["captures"] = []
        picked = [key for key in draft.get("_picked", []) if key in self.free(draft, keys)]
        if name == "pick" and args and args[0] in self.free(draft, keys):
            picked = [key for key in picked if key != args[0]] if args[0] in picked else [
                *picked, args[0]]
        elif name == "capture" and args and args[0] in keys and picked:
            captures.append({"mice": picked, "by": args[0]})
            picked = []
        elif name == "uncapture" and captures:
            captures.pop()
        draft["_picked"] = picked

    @staticmethod
    def free(draft: dict[str, Any], keys: list[str]) -> list[str]:
        """The players whose mouse is not captured in the draft, in seat order."""
        caught = {mouse for capture in draft.get("captures", []) for mouse in capture["mice"]}
        return [key for key in keys if key not in caught]

    def preview(self, draft, keys):
        picked = draft.get("_picked", [])
        free = self.free(draft, keys)
        return {"free": free, "picked": picked,
                "captors": [key for key in free if key not in picked] if picked else []}


class KatzEntry(Entry):
    """Mice home as a stepper (the rest are trapped), and the order of first mice home.

    Tapping a player's "first mouse home" button puts them next in that order;
    tapping it again takes them out. A player left with no mouse home drops out
    of the order by themselves.
    """

    template = "plays/entry_alles_fuer_die_katz.html"

    def blank(self, keys, house_rules):
        return {"mice": {key: {"home": 0, "trapped": MICE_PER_PLAYER} for key in keys},
                "first_home": []}

    def well_formed(self, draft):
        mice = draft.get("mice", {})
        return (isinstance(mice, dict) and all(isinstance(entry, dict) for entry in mice.values())
                and list_of_keys(draft.get("first_home", [])))

    def tap(self, draft, action, keys):
        name, args = split_tap(action)
        mice = draft.get("mice")
        if not isinstance(mice, dict) or not args or args[0] not in keys:
            return
        order = draft.get("first_home")
        order = [key for key in order if key in keys] if isinstance(order, list) else []
        if name == "first":
            order = [key for key in order if key != args[0]] if args[0] in order else [
                *order, args[0]]
        elif name in ("more", "fewer"):
            entry = mice.get(args[0])
            home = entry.get("home") if isinstance(entry, dict) else 0
            home = home if isinstance(home, int) else 0
            home = min(MICE_PER_PLAYER, home + 1) if name == "more" else max(0, home - 1)
            mice[args[0]] = {"home": home, "trapped": MICE_PER_PLAYER - home}
            if home == 0:
                order = [key for key in order if key != args[0]]
        draft["first_home"] = order

    def preview(self, draft, keys):
        order = draft.get("first_home")
        order = order if isinstance(order, list) else []
        return {"positions": {key: order.index(key) + 1 for key in keys if key in order}}


def team_name(number: int) -> str:
    return _("Team %(number)s") % {"number": number}


def sides_of(draft: dict[str, Any], keys: list[str]) -> list[str]:
    """Who scores: the teams where the draft has them, else the players."""
    teams = draft.get("teams")
    return list(teams) if isinstance(teams, dict) else list(keys)


class GenericEntry(Entry):
    """A family's own game, entered at its end: each player's or team's final score, the
    order they finished in, or whether the table won. Players join teams by taps: a tap moves
    a player on to the next team."""

    template = "plays/entry_generic.html"

    def blank(self, keys, house_rules):
        draft: dict[str, Any] = {}
        if house_rules.get("teams"):
            draft["teams"] = {team_name(1): keys[0::2], team_name(2): keys[1::2]}
        scoring = house_rules.get("scoring", "most_points")
        if scoring == "places":
            draft["order"] = []
        elif scoring != "cooperative":
            draft["scores"] = {}
        return draft

    def well_formed(self, draft):
        teams = draft.get("teams", {})
        return (isinstance(teams, dict) and all(list_of_keys(v) for v in teams.values())
                and list_of_keys(draft.get("order", []))
                and isinstance(draft.get("scores", {}), dict))

    def merge_inputs(self, draft, data, keys):
        if "scores" in draft or any(key.startswith("score_") for key in data):
            scores = dict(draft.get("scores") or {})
            for index, side in enumerate(sides_of(draft, keys)):
                if f"score_{index}" in data:
                    scores[side] = whole_number(data[f"score_{index}"])
            draft["scores"] = {side: value for side, value in scores.items() if value != ""}
        if data.get("won") in ("yes", "no"):
            draft["won"] = data["won"] == "yes"
        if "score" in data:
            score = whole_number(data["score"])
            if score == "":
                draft.pop("score", None)
            else:
                draft["score"] = score

    def tap(self, draft, action, keys):
        name, args = split_tap(action)
        teams = draft.get("teams")
        if name == "team" and isinstance(teams, dict) and teams and args and args[0] in keys:
            names = list(teams)
            current = next((team for team in names if args[0] in teams[team]), names[-1])
            following = names[(names.index(current) + 1) % len(names)]
            for team in names:
                teams[team] = [key for key in teams[team] if key != args[0]]
            teams[following] = sorted([*teams[following], args[0]], key=keys.index)
        elif name == "addteam" and isinstance(teams, dict) and len(teams) < len(keys):
            teams[team_name(len(teams) + 1)] = []
        elif name == "order":
            sides = sides_of(draft, keys)
            order = [side for side in draft.get("order", []) if side in sides]
            if args and args[0] in order:
                order.remove(args[0])
            elif args and args[0] in sides:
                order.append(args[0])
            draft["order"] = order

    def preview(self, draft, keys):
        order = draft.get("order", [])
        teams = draft.get("teams") if isinstance(draft.get("teams"), dict) else None
        return {"sides": [{"key": side, "index": index,
                           "members": teams[side] if teams else [side],
                           "score": (draft.get("scores") or {}).get(side, ""),
                           "position": order.index(side) + 1 if side in order else None}
                          for index, side in enumerate(sides_of(draft, keys))],
                "team_of": {key: team for team, members in (teams or {}).items()
                            for key in members}}


ENTRIES: dict[str, Entry] = {
    "maus_im_nacken": MausEntry(),
    "mouse_trap": MouseTrapEntry(),
    "alles_fuer_die_katz": KatzEntry(),
    "souriciere": OrderEntry(),
    "mensch_aergere_dich_nicht": OrderEntry(),
    "entenspiel": EntenspielEntry(),
    "mau_mau": MauMauEntry(),
    "generic": GenericEntry(),
}
