"""Printed score pads of a family's own games: blank, or filled with a play's rounds.

One template serves both. A column per side (a player, or a team with its members under
its name), a row per round and the totals row. A blank pad has the game's rounds when it
ends after a number of rounds, otherwise as many rows as fill the page; the rows share the
page's height between them, so a short game gets rows to write in comfortably and a long
one still fits one sheet. A filled pad has the rounds played, and while the game is under
way blank rows below them to play on with pen and paper.

A game written down by categories has a row per category instead (Birds, Eggs, − Penalties),
its names in a wider first column; with the categories in each round, a block of them per
round under the round's number.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tracker.common import regions
from tracker.common.lists import name_list
from tracker.common.pdf import PAPER_SIZES
from tracker.paper.printing import LEAST_NAME_PT, LETTER_EM, POINT_MM, printed_name
from tracker.table.models import OwnGame, Play
from tracker.table.rounds import ROUNDS, Layout, stored_rounds
from tracker.table.score_pad import Side, sides_of

#: The most side columns a blank pad has room for: at least 14 mm each on A4 and Letter and
#: 15 mm on A5, for four handwritten digits and a minus.
MAX_SIDES = {"a4": 12, "letter": 12, "a5": 8}
#: Room for the rows on one page, in mm: the paper's height without its margins (12 and
#: 14 mm, as ``print.css`` sets them for every paper), the head, the column heads, the totals
#: row and the line under it that a filled pad prints.
ROWS_ROOM_MM = {"a4": 220.0, "letter": 203.0, "a5": 135.0}
#: Widths of the side columns together, in mm: the page's width without the round column.
SIDES_ROOM_MM = {"a4": 178.0, "letter": 184.0, "a5": 116.0}
#: A row's height on a blank page (rows enough to fill it), and the least and most it takes
#: when the rounds share the page; the borders add about ``ROW_EXTRA_MM`` to each row.
ROW_MM = {"a4": 9.0, "letter": 9.0, "a5": 7.2}
LEAST_ROW_MM, MOST_ROW_MM, ROW_EXTRA_MM = 5.4, 14.0, 0.6
#: How much wider than a round's number the first column is for category names, in mm.
CATEGORY_LABEL_MM = {"a4": 26.0, "letter": 26.0, "a5": 18.0}


def rows_that_fit(paper: str, height: float | None = None) -> int:
    """How many rows of ``height`` mm (the paper's usual row) fill the page."""
    return int(ROWS_ROOM_MM[paper] // ((height or ROW_MM[paper]) + ROW_EXTRA_MM))


def most_rounds(paper: str) -> int:
    """The most rounds a blank sheet of ``paper`` has room for, at the least row height."""
    return rows_that_fit(paper, LEAST_ROW_MM)


def default_rounds(own_game: OwnGame, paper: str) -> int:
    """The game's rows: its rounds when it ends after a number of rounds (as many as fit),
    else the rows that fill the page; a row per category on a sheet by categories, and with
    the categories in each round, whole rounds of them."""
    layout = Layout.of_rules(own_game.house_rules)
    if layout.by_categories and not layout.in_each_round:
        return len(layout.categories)
    if layout.by_categories:
        # Each round's block has a line for its number above its categories.
        size = len(layout.categories)
        rounds = rows_that_fit(paper) // (size + 1) or 1
        if own_game.end == "rounds" and own_game.end_at:
            rounds = min(own_game.end_at, rounds)
        return rounds * size
    if own_game.end == "rounds" and own_game.end_at:
        return min(own_game.end_at, most_rounds(paper))
    return rows_that_fit(paper)


def row_height(paper: str, rows: int) -> float:
    """The height of each of ``rows`` rows that share the page, within readable bounds; rows
    beyond :func:`most_rounds` go on to a second page."""
    shared = ROWS_ROOM_MM[paper] / max(rows, 1) - ROW_EXTRA_MM
    return max(LEAST_ROW_MM, min(MOST_ROW_MM, int(shared * 10) / 10))


@dataclass(frozen=True)
class SideHead:
    """A column's head: a player's name, or a team's with its members."""

    name: str
    members: str = ""


def head_style(name: str, members: str, sides: int, paper: str, labelled: bool = False
               ) -> str:
    """A font size at which the longest word of the head fits its column (narrower beside
    category names, ``labelled``), from ``LEAST_NAME_PT`` to 10 pt; a longer word wraps
    inside itself."""
    room = ((SIDES_ROOM_MM[paper] - (CATEGORY_LABEL_MM[paper] if labelled else 0))
            / max(sides, 1) - 2.4)
    longest = max((len(word) for word in f"{name} {members}".split()), default=1)
    size = max(LEAST_NAME_PT, min(10.0, room / (longest * LETTER_EM * POINT_MM)))
    return f"font-size: {size:.1f}pt"


def ending_text(own_game: OwnGame | dict[str, Any]) -> str:
    """How the game ends and who wins, as one line under the game's name."""
    rules = own_game if isinstance(own_game, dict) else own_game.house_rules
    scoring, end, end_at = rules["scoring"], rules["end"], rules["end_at"]
    parts = {"most_points": [_("Most points win.")],
             "fewest_points": [_("Fewest points win.")]}.get(scoring, [])
    if end == "rounds" and end_at:
        parts.append(ngettext("Ends after %(rounds)s round.", "Ends after %(rounds)s rounds.",
                              end_at) % {"rounds": end_at})
    elif end == "target" and end_at:
        parts.append(_("Ends when someone reaches %(points)s points.") % {"points": end_at})
    deciders = [rules["tiebreak"]] if rules.get("tiebreak") and rules.get(
        "sheet", "rounds") != "rounds" else []
    deciders += [rules["tiebreak_count"]] if rules.get("tiebreak_count") else []
    if len(deciders) == 1:
        parts.append(_("A tie goes to the most %(category)s.") % {"category": deciders[0]})
    elif deciders:
        parts.append(_("A tie goes to the most %(category)s, then the most %(count)s.")
                     % {"category": deciders[0], "count": deciders[1]})
    return " ".join(parts)


def sheet_context(title: str, subline: str, heads: list[SideHead], rounds: list[list[Any]],
                  blank_rows: int, totals: list[Any], paper: str, language: str,
                  layout: Layout = ROUNDS) -> dict[str, Any]:
    """The template's context: ``rounds`` filled rows (a value per side), then ``blank_rows``
    empty ones, then ``totals``; the rows named after the ``layout``'s categories, if any."""
    rows = [{"number": number, "values": values}
            for number, values in enumerate(rounds, start=1)]
    rows += [{"number": len(rows) + n, "values": [""] * len(heads)}
             for n in range(1, blank_rows + 1)]
    for row in rows:
        category = layout.category(row["number"])
        if category is not None:
            row |= {"label": category["name"], "minus": category["minus"],
                    "starts_round": layout.round_of(row["number"])
                    if layout.in_each_round and category is layout.categories[0] else None}
    starts = sum(1 for row in rows if row.get("starts_round"))
    height = row_height(paper, len(rows) + starts)
    labelled = layout.by_categories
    return {
        "title": title, "subline": subline, "paper": PAPER_SIZES[paper], "paper_key": paper,
        "language": language, "numbered": False, "by_categories": labelled,
        "heads": [{"name": printed_name(head.name), "members": head.members,
                   "style": head_style(head.name, head.members, len(heads), paper, labelled)}
                  for head in heads],
        "rows": rows, "totals": totals, "row_height": f"{height:.1f}",
        "small_values": height < 8 or len(heads) > 8,
        "many": len(heads) > MAX_SIDES[paper],
    }


@dataclass(frozen=True)
class OwnPad:
    """A blank pad of an own game: its sides (or ``columns`` blank ones), rounds and paper."""

    own_game: OwnGame
    sides: tuple[SideHead, ...]
    columns: int
    rounds: int | None
    sheets: int
    paper: str
    language: str

    @property
    def pages(self) -> int:
        return self.sheets

    @property
    def rows(self) -> int:
        if co_operative(self.own_game) or by_finishing_order(self.own_game):
            return self.rounds or rows_that_fit(self.paper)
        layout = Layout.of_rules(self.own_game.house_rules)
        if layout.by_categories and not (layout.in_each_round and self.rounds):
            return default_rounds(self.own_game, self.paper)
        if layout.by_categories:
            # Each round's block has a line for its number: as many whole rounds as fit.
            fit = most_rounds(self.paper) // (len(layout.categories) + 1) or 1
            return layout.rows_of_rounds(min(self.rounds, fit))
        return self.rounds or default_rounds(self.own_game, self.paper)

    @property
    def template(self) -> str:
        return "print/plays_pad.html" if co_operative(self.own_game) else "print/own_pad.html"

    def context(self) -> dict[str, Any]:
        return plays_pad_context(self) if co_operative(self.own_game) else own_pad_context(self)


def co_operative(own_game: OwnGame) -> bool:
    """Whether the table plays together against the game: won or lost, no score per player."""
    return own_game.scoring == "cooperative"


def by_finishing_order(own_game: OwnGame) -> bool:
    """Whether the game is won or lost only, without points: its pad takes places."""
    return own_game.scoring == "places"


def plays_pad_context(pad: OwnPad) -> dict[str, Any]:
    """A co-operative game's pad: a row per play, for its date, who played, whether the
    table won or lost and, if the game keeps one, its score."""
    with regions.override(pad.language):
        subline = " ".join(filter(None, [str(pad.own_game.get_scoring_display()),
                                         ending_text(pad.own_game)]))
        return {"title": pad.own_game.name, "subline": subline,
                "paper": PAPER_SIZES[pad.paper], "paper_key": pad.paper,
                "language": pad.language, "numbered": False, "rows": range(pad.rows),
                "row_height": f"{row_height(pad.paper, pad.rows):.1f}"}


def own_pad_context(pad: OwnPad) -> dict[str, Any]:
    """One page; the PDF repeats it ``pad.sheets`` times."""
    with regions.override(pad.language):
        heads = list(pad.sides) or [SideHead("")] * pad.columns
        context = sheet_context(pad.own_game.name, ending_text(pad.own_game), heads, [],
                                pad.rows, [""] * len(heads), pad.paper, pad.language,
                                Layout.of_rules(pad.own_game.house_rules)) | {
            "date_line": _("Date"), "teams": pad.own_game.teams}
        if by_finishing_order(pad.own_game):
            # No points to add up: a row per game, each player's place in it.
            context |= {"finishing_order": True, "subline": _(
                "Win or lose only: write each player's place in each game (1 for the "
                "winner).")}
        return context


def printable(play: Play) -> bool:
    """Whether a play has a score pad to print: an own game scored with points."""
    return play.own_game_id is not None and play.rules.scores_points(play.house_rules)


def own_sheet_context(play: Play, language: str, paper: str = "a4") -> dict[str, Any]:
    """A play of an own game as its pad: the rounds played (or only the final scores), the
    totals and the winners; blank rows to play on below while it is under way. ``play``
    comes with its participants in seat order and their players."""
    with regions.override(language):
        sides = sides_of(play)
        rounds = stored_rounds(play)
        by_side = {p.player_key: p for p in play.participants.all()}
        totals = [(side.members[0].points if side.members else None) for side in sides]
        if rounds:
            totals = [sum(round_.get(side.key, 0) for round_ in rounds) for side in sides]
        under_way = play.status == Play.Status.IN_PROGRESS
        layout = Layout.of(play)
        blank = max(0, default_rounds(play.own_game, paper) - len(rounds)) if under_way else 0
        if layout.by_categories and not layout.in_each_round:
            blank = len(layout.categories) - len(rounds)
        context = sheet_context(
            play.own_game.name, ending_text(play.house_rules),
            [SideHead(side.name, team_members(side, play)) for side in sides],
            [[round_.get(side.key, "") for side in sides] for round_ in rounds], blank,
            totals, paper, language, layout)
        winners = [side for side in sides
                   if side.members and by_side[side.members[0].player_key].place == 1]
        if play.status == Play.Status.FINISHED and winners:
            points = totals[sides.index(winners[0])]
            result_line = ngettext("Winner: %(names)s with %(points)s points.",
                                   "Winners: %(names)s with %(points)s points.",
                                   len(winners)) % {
                "names": name_list(side.name for side in winners), "points": points}
        elif play.status == Play.Status.ABANDONED:
            result_line = _("This game was abandoned.")
        else:
            result_line = _("Game in progress.")
        return context | {
            "date_line": _("Date"),
            "date": date_format(play.played_on, "DATE_FORMAT"),
            "result_line": result_line,
            "celebrate": play.status == Play.Status.FINISHED and bool(winners),
            "leaders": [index for index, total in enumerate(totals)
                        if rounds and total == best_total(totals, play)],
            "filled": True,
        }


def team_members(side: Side, play: Play) -> str:
    """The players of a team, "Anna, Carl"; nothing under a player's own column."""
    if not play.house_rules.get("teams"):
        return ""
    return name_list(member.player.name for member in side.members)


def best_total(totals: list[Any], play: Play) -> Any:
    numbers = [total for total in totals if total is not None]
    if not numbers:
        return None
    return (min if play.house_rules.get("scoring") == "fewest_points" else max)(numbers)
