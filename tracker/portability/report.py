"""What an import did with what it could not take as it was: every problem of a file, grouped
by kind, each kind counted with its first few examples.

A file of years from another app holds odd lines; the import takes what it can, object by
object, and tells the family all at once what it left out, what came in changed, and what
it keeps without showing it. The report is the same size whatever the file's: a million
plays without a date are one line with a count and five examples, so what an upload leaves
behind (the job's row, the page showing it) never grows with the file.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

#: Examples kept of each kind; the count says how many there were.
EXAMPLES_PER_KIND = 5
#: A longer example is cut: it names a play or a player, not a page of text.
EXAMPLE_LENGTH = 200


@dataclass(frozen=True)
class Kind:
    """A kind of problem: the part of the report it stands in, and its heading for a count."""

    part: str
    #: The heading's text for a count, its ``%(count)s`` still to fill in.
    heading: Callable[[int], str]


def heading(kind: str, count: int) -> str:
    """The heading of ``kind`` for ``count``, grouped as the language writes it (12.200)."""
    return KINDS[kind].heading(count) % {"count": number_format(count, force_grouping=True)}


#: The parts of a report, in the order shown.
PARTS = {
    "left_out": gettext_lazy("Left out"),
    "changed": gettext_lazy("Came in changed"),
    "kept": gettext_lazy("Good to know"),
}

KINDS: dict[str, Kind] = {
    # Left out
    "play_unreadable": Kind("left_out", lambda n: ngettext(
        "%(count)s play is unreadable: it is left out.",
        "%(count)s plays are unreadable: they are left out.", n)),
    "play_twice": Kind("left_out", lambda n: ngettext(
        "%(count)s play is in the log twice (the same BGG id): it comes in once.",
        "%(count)s plays are in the log twice (the same BGG id): each comes in once.", n)),
    "play_without_game": Kind("left_out", lambda n: ngettext(
        "%(count)s play is of a game the file does not hold (deleted since, perhaps): it is "
        "left out.",
        "%(count)s plays are of games the file does not hold (deleted since, perhaps): they "
        "are left out.", n)),
    "play_without_date": Kind("left_out", lambda n: ngettext(
        "%(count)s play has no date that can be read: it is left out.",
        "%(count)s plays have no date that can be read: they are left out.", n)),
    "play_without_players": Kind("left_out", lambda n: ngettext(
        "%(count)s play has no players: it is left out.",
        "%(count)s plays have no players: they are left out.", n)),
    "play_refused": Kind("left_out", lambda n: ngettext(
        "%(count)s play has a result the rules cannot take: it is left out.",
        "%(count)s plays have a result the rules cannot take: they are left out.", n)),
    "player_unreadable": Kind("left_out", lambda n: ngettext(
        "%(count)s player is unreadable or has no id of its own: it is left out, and so are "
        "its scores.",
        "%(count)s players are unreadable or have no id of their own: they are left out, and "
        "so are their scores.", n)),
    "game_unreadable": Kind("left_out", lambda n: ngettext(
        "%(count)s game is unreadable or has no id of its own: it is left out, and so are "
        "its plays.",
        "%(count)s games are unreadable or have no id of their own: they are left out, and "
        "so are their plays.", n)),
    "location_unreadable": Kind("left_out", lambda n: ngettext(
        "%(count)s location is unreadable: it is left out.",
        "%(count)s locations are unreadable: they are left out.", n)),
    "player_unknown": Kind("left_out", lambda n: ngettext(
        "%(count)s score is of a player the file does not list: the play comes in without "
        "it.",
        "%(count)s scores are of players the file does not list: each play comes in without "
        "them.", n)),
    "player_twice": Kind("left_out", lambda n: ngettext(
        "%(count)s player is listed twice in a play: the first listing is kept.",
        "%(count)s players are listed twice in a play: the first listing is kept.", n)),
    "too_large": Kind("left_out", lambda n: ngettext(
        "What the app does not show of %(count)s entry is too large to keep for the way "
        "back.",
        "What the app does not show of %(count)s entries is too large to keep for the way "
        "back.", n)),
    # Came in changed
    "player_same_name": Kind("changed", lambda n: ngettext(
        "%(count)s player has the name of another: it is told apart.",
        "%(count)s players have the name of another: they are told apart.", n)),
    "player_without_name": Kind("changed", lambda n: ngettext(
        "%(count)s player has no name: it is named by its BGG user name, or numbered.",
        "%(count)s players have no name: they are named by their BGG user names, or "
        "numbered.", n)),
    "game_same_name": Kind("changed", lambda n: ngettext(
        "%(count)s game has the name of another: it is told apart.",
        "%(count)s games have the name of another: they are told apart.", n)),
    "game_without_name": Kind("changed", lambda n: ngettext(
        "%(count)s game has no name: it is named by its BGG name, or numbered.",
        "%(count)s games have no name: they are named by their BGG names, or numbered.", n)),
    "places_kept": Kind("changed", lambda n: ngettext(
        "%(count)s play had a place for a player left out: everyone else keeps the place "
        "recorded, and nobody wins what they did not win.",
        "%(count)s plays had places for players left out: everyone else keeps the place "
        "recorded, and nobody wins what they did not win.", n)),
    "location_unknown": Kind("changed", lambda n: ngettext(
        "%(count)s play names a location the file does not hold: it comes in at home.",
        "%(count)s plays name locations the file does not hold: they come in at home.", n)),
    "night_places": Kind("changed", lambda n: ngettext(
        "On %(count)s day the plays took place in several locations: the game night keeps "
        "the first.",
        "On %(count)s days the plays took place in several locations: each game night keeps "
        "the first.", n)),
    "score_unreadable": Kind("changed", lambda n: ngettext(
        "%(count)s score is not a number the app can keep: it counts as no score.",
        "%(count)s scores are not numbers the app can keep: they count as no score.", n)),
    "unscored": Kind("changed", lambda n: ngettext(
        "%(count)s player without a score is placed after those with one (first where "
        "recorded as a winner).",
        "%(count)s players without a score are placed after those with one (first where "
        "recorded as winners).", n)),
    "decimals": Kind("changed", lambda n: ngettext(
        "%(count)s score with decimals is rounded to a whole number.",
        "%(count)s scores with decimals are rounded to whole numbers.", n)),
    "team_sum": Kind("changed", lambda n: ngettext(
        "In %(count)s team play the members' different scores are added up as the team's "
        "score.",
        "In %(count)s team plays the members' different scores are added up as the team's "
        "score.", n)),
    "no_scores": Kind("changed", lambda n: ngettext(
        "%(count)s play of a game with points has no scores: it is kept as win or lose only.",
        "%(count)s plays of games with points have no scores: they are kept as win or lose "
        "only.", n)),
    "unscorable": Kind("changed", lambda n: ngettext(
        "%(count)s play has neither scores, ranks nor a winner: it is kept as abandoned, "
        "with its players.",
        "%(count)s plays have neither scores, ranks nor a winner: they are kept as "
        "abandoned, with their players.", n)),
    "length_odd": Kind("changed", lambda n: ngettext(
        "%(count)s length is not a number of minutes from a minute to a day: the play has "
        "no length.",
        "%(count)s lengths are not numbers of minutes from a minute to a day: those plays "
        "have no length.", n)),
    "note_cut": Kind("changed", lambda n: ngettext(
        "%(count)s comment is longer than a note: its beginning is kept as the note.",
        "%(count)s comments are longer than a note: their beginnings are kept as the "
        "notes.", n)),
    "quantity": Kind("changed", lambda n: ngettext(
        "%(count)s entry of the log stands for several plays (its quantity): each comes in "
        "as that many plays.",
        "%(count)s entries of the log stand for several plays (their quantity): each comes "
        "in as that many plays.", n)),
    "incomplete": Kind("changed", lambda n: ngettext(
        "%(count)s play was not finished: it comes in as abandoned.",
        "%(count)s plays were not finished: they come in as abandoned.", n)),
    "nul": Kind("changed", lambda n: ngettext(
        "%(count)s NUL character (an invisible control character no name can hold) was "
        "left out of the file's texts.",
        "%(count)s NUL characters (invisible control characters no name can hold) were left "
        "out of the file's texts.", n)),
    # Good to know
    "rules_game_as_own": Kind("kept", lambda n: ngettext(
        "%(count)s game is one the app knows by its rules: it is kept as an own game, since "
        "the file holds only final scores, which the rules cannot check.",
        "%(count)s games are ones the app knows by their rules: they are kept as own games, "
        "since the file holds only final scores, which the rules cannot check.", n)),
    "ignored": Kind("kept", lambda n: ngettext(
        "%(count)s play is left out of the statistics in the other app: it is in the "
        "history and, as there, counted in no statistics.",
        "%(count)s plays are left out of the statistics in the other app: they are in the "
        "history and, as there, counted in no statistics.", n)),
    "anonymous": Kind("kept", lambda n: ngettext(
        "%(count)s anonymous player comes in as a player like the others.",
        "%(count)s anonymous players come in as players like the others.", n)),
    "competition": Kind("kept", lambda n: ngettext(
        "%(count)s play was a series race or a tournament table, as its comment says: it "
        "comes in as a play of its own.",
        "%(count)s plays were series races or tournament tables, as their comments say: "
        "each comes in as a play of its own.", n)),
    "coop_scores": Kind("kept", lambda n: ngettext(
        "The players' own scores in %(count)s co-operative play are not shown; the BG "
        "Stats export writes them back.",
        "The players' own scores in %(count)s co-operative plays are not shown; the BG "
        "Stats export writes them back.", n)),
    "hidden": Kind("kept", lambda n: ngettext(
        "%(count)s kind of detail the app does not show is kept with its player, game or "
        "play and written back by the BG Stats export:",
        "%(count)s kinds of detail the app does not show are kept with their players, games "
        "and plays and written back by the BG Stats export:", n)),
    "not_kept": Kind("kept", lambda n: ngettext(
        "%(count)s kind of detail of the log is not kept:",
        "%(count)s kinds of detail of the log are not kept:", n)),
    "no_end_rules": Kind("kept", lambda n: ngettext(
        "The file keeps no end rules: %(count)s game comes in ending when the host says so.",
        "The file keeps no end rules: %(count)s games come in ending when the host says "
        "so.", n)),
    "no_competitions": Kind("kept", lambda n: ngettext(
        "The file keeps no series, tournaments or points of single rounds: %(count)s play "
        "comes in with its final scores.",
        "The file keeps no series, tournaments or points of single rounds: %(count)s plays "
        "come in with their final scores.", n)),
}


class Report:
    """Problems as they are found, by kind: :meth:`add` one, :meth:`entries` for the page."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.examples: defaultdict[str, list[str]] = defaultdict(list)

    def add(self, kind: str, example: str = "", *, count: int = 1) -> None:
        """One more problem of ``kind`` (``count`` more), named by ``example`` while fewer
        than ``EXAMPLES_PER_KIND`` of its kind are."""
        if kind not in KINDS:
            raise ValueError(f"No such kind of problem: {kind}")
        self.counts[kind] += count
        if example and len(self.examples[kind]) < EXAMPLES_PER_KIND:
            self.examples[kind].append(shortened(example))

    def __bool__(self) -> bool:
        return bool(self.counts)

    def entries(self) -> list[dict[str, Any]]:
        """The report as stored with the import and shown: a dict per kind found, in the
        order of :data:`KINDS`, its heading in the active language."""
        return [{"kind": kind, "part": KINDS[kind].part,
                 "heading": heading(kind, self.counts[kind]),
                 "count": self.counts[kind], "examples": list(self.examples[kind])}
                for kind in KINDS if self.counts[kind]]


def shortened(text: str) -> str:
    return text if len(text) <= EXAMPLE_LENGTH else text[:EXAMPLE_LENGTH - 1] + "…"


def parts(entries: Iterable[Mapping[str, Any] | str]) -> list[dict[str, Any]]:
    """A stored report in its parts, for the page: ``[{"title", "entries"}]``, each entry
    with ``more``, the problems its examples do not name; the parts without entries left
    out. A line of a report stored as plain text stands as it is."""
    grouped: dict[str, list[dict[str, Any]]] = {part: [] for part in PARTS}
    for entry in entries:
        if isinstance(entry, str):
            entry = {"part": "kept", "heading": entry, "count": 1, "examples": []}
        examples = list(entry.get("examples") or [])
        grouped[entry.get("part") if entry.get("part") in PARTS else "kept"].append({
            **entry, "examples": examples,
            "more": max(0, int(entry.get("count") or 0) - len(examples)) if examples else 0})
    return [{"title": str(PARTS[part]), "entries": listed}
            for part, listed in grouped.items() if listed]


def lines(entries: Iterable[Mapping[str, Any]]) -> list[str]:
    """A stored report as lines of text (the import command prints them): each heading,
    then its examples indented."""
    out = []
    for entry in entries:
        out.append(entry["heading"])
        out.extend(f"  {example}" for example in entry["examples"])
        hidden = entry["count"] - len(entry["examples"])
        if entry["examples"] and hidden > 0:
            out.append("  " + _("… and %(count)s more") % {"count": hidden})
    return out
