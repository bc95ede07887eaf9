"""Printed sheets: the same context-building code feeds the HTML preview and the PDF.

WeasyPrint only turns an ordinary template into PDF. A pad of many identical
sheets is laid out once per distinct page (one per printed name, or one blank)
and the laid-out pages are repeated, which is what keeps a 100-sheet pad about
as fast as a single sheet."""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date
from itertools import accumulate
from typing import Any

from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy
from pypdf import PdfReader

import games
from games.dice_sheet import Field
from games.kniffel import (
    FULL_HOUSE,
    KNIFFEL,
    LARGE_STRAIGHT,
    LOWER,
    SCHMIDT_BONUS,
    SMALL_STRAIGHT,
    UPPER_BONUS,
    upper_bonus_missing,
)
from games.weltraum_kniffel import LOWER_POINTS, SYMBOL_ICONS
from tracker.common import regions
from tracker.common.lists import name_list
from tracker.common.pdf import (
    PAPER_SIZES,
    render_pdf,
    repeat_pages,
)
from tracker.evenings.models import Series, Tournament
from tracker.evenings.standings import final_table_seated, tiebreak_lines, tournament_place_points
from tracker.table.models import Play, PlayStatus

#: Game columns a pad has room for on each paper: a column stays at least 10 mm wide, room
#: for three digits written by hand.
MAX_COLUMNS = {"a4": 10, "letter": 10, "a5": 7}
VARIANTS = {"classic": "kniffel", "space": "weltraum_kniffel"}
#: Game columns that still fit "Game 10" as a header; more columns are headed by the number.
WORDED_COLUMNS = {"a4": 7, "letter": 7, "a5": 4}
#: The longest name a sheet prints: longer ones are cut with "…" so they stay in their box.
NAME_LENGTH = 40

#: What each classic row asks for, as printed on a bought pad: a text, or the fixed points.
CLASSIC_HINTS: dict[str, Any] = {
    "ones": _("count only ones"), "twos": _("count only twos"),
    "threes": _("count only threes"), "fours": _("count only fours"),
    "fives": _("count only fives"), "sixes": _("count only sixes"),
    "three_of_a_kind": _("all dice count"), "four_of_a_kind": _("all dice count"),
    "full_house": FULL_HOUSE, "small_straight": SMALL_STRAIGHT,
    "large_straight": LARGE_STRAIGHT, "kniffel": KNIFFEL, "chance": _("all dice count"),
}


def row_hint(variant: str, field: str) -> str:
    hint = CLASSIC_HINTS[field] if variant == "classic" else LOWER_POINTS.get(field)
    if hint is None:
        return str(_("one point per symbol"))
    if isinstance(hint, int):
        return _("%(points)s points") % {"points": hint}
    return str(hint)


@dataclass(frozen=True)
class Pad:
    """What a Kniffel pad looks like: variant, names, sheets, paper and language."""

    variant: str
    sheets: int
    names: tuple[str, ...]
    paper: str
    language: str
    columns: int

    @property
    def pages(self) -> int:
        """Pages of the PDF: one per sheet, ``sheets`` for each name (or blank)."""
        return self.sheets * max(1, len(self.names))


class LayoutError(Exception):
    """A sheet that should fit one page did not: a programming error in the print layout."""


def printed_name(name: str) -> str:
    """``name`` as a sheet prints it: at most ``NAME_LENGTH`` characters."""
    return name if len(name) <= NAME_LENGTH else name[:NAME_LENGTH - 1] + "…"


def column_headers(paper: str, columns: int) -> list[str]:
    """"Game 1" … while the columns are wide enough for it, otherwise just the numbers."""
    if columns > WORDED_COLUMNS[paper]:
        return [str(n) for n in range(1, columns + 1)]
    return [_("Game %(number)s") % {"number": n} for n in range(1, columns + 1)]


#: Width of the filled sheet's player columns together on A4, with and without the hint
#: column that a sheet of more than ``HINTED_COLUMNS`` players leaves out, in mm.
NAME_ROOM_MM = {True: 116.0, False: 143.0}
HINTED_COLUMNS = 6
#: A bold Noto Sans letter is about this wide, in ems; a point is 0.3528 mm.
LETTER_EM, POINT_MM = 0.62, 0.3528
#: The smallest a name over a column is printed, in pt: smaller is hard to read across the
#: table, so a word too long for its column at this size wraps inside the word instead.
LEAST_NAME_PT = 8.0


def name_size(name: str, columns: int) -> float:
    """The font size (pt) at which the longest word of ``name`` fits its column, between
    ``LEAST_NAME_PT`` and 8.5 pt, so that names wrap between words where they can."""
    room = NAME_ROOM_MM[columns <= HINTED_COLUMNS] / columns - 2.2
    longest = max((len(word) for word in name.split()), default=1)
    return round(max(LEAST_NAME_PT, min(8.5, room / (longest * LETTER_EM * POINT_MM))), 1)


class Heading(str):
    """A player's name over their column, with the font size that keeps its words whole."""

    def __new__(cls, name: str, columns: int) -> Heading:
        heading = super().__new__(cls, name)
        heading.style = f"font-size: {name_size(name, columns):.1f}pt"
        return heading


def sheet_rows(variant: str, values: dict[str, list[Any]] | None = None,
               extra_bonus: int = SCHMIDT_BONUS) -> list[dict[str, Any]]:
    """The rows of a pad in print order, totals included; ``values`` fills the columns.

    The classic pad has a row for the bonus of further Kniffels (``extra_bonus`` points
    each, as the house rules give them), which the lower total includes.
    """
    rules = games.get(VARIANTS[variant])
    values = values or {}
    rows: list[dict[str, Any]] = []

    def field_row(field: Field) -> dict[str, Any]:
        return {"label": field.label.in_language(translation.get_language()),
                "icon": SYMBOL_ICONS.get(field.key, ""), "hint": row_hint(variant, field.key),
                "values": values.get(field.key, []), "kind": "field"}

    def total_row(label: Any, key: str, kind: str = "total", hint: Any = "") -> dict[str, Any]:
        return {"label": label, "hint": hint, "icon": "", "values": values.get(key, []),
                "kind": kind}

    def section_row(label: Any) -> dict[str, Any]:
        return {"label": label, "hint": "", "icon": "", "values": [], "kind": "section"}

    upper = [f for f in rules.fields if f.upper]
    lower = [f for f in rules.fields if not f.upper]
    if variant == "classic":
        rows.append(section_row(_("Upper section")))
    rows += [field_row(field) for field in upper]
    if variant == "classic":
        rows += [total_row(pgettext_lazy("pad", "Total"), "upper_sum"),
                 total_row(_("Bonus at 63 or more"), "bonus",
                           hint=_("plus %(points)s") % {"points": UPPER_BONUS}),
                 total_row(pgettext_lazy("pad", "Upper total"), "upper_total", "subtotal"),
                 section_row(_("Lower section"))]
    rows += [field_row(field) for field in lower]
    if variant == "classic":
        rows += [total_row(_("Further Kniffels (bonus)"), "extra_kniffel_bonus", "extra",
                           hint=_("%(points)s points each") % {"points": extra_bonus}
                           if extra_bonus else ""),
                 total_row(pgettext_lazy("pad", "Lower total"), "lower_total"),
                 total_row(pgettext_lazy("pad", "Upper total"), "upper_total"),
                 total_row(_("Grand total"), "total", "grand")]
    else:
        rows += [total_row(_("Grand total"), "total", "grand")]
    return rows


def pad_context(pad: Pad) -> dict[str, Any]:
    """One page per distinct name (or one blank page); the PDF repeats them ``pad.sheets`` times."""
    with regions.override(pad.language):
        rules = games.get(VARIANTS[pad.variant])
        return {
            "title": _("%(game)s pad") % {"game": rules.name.in_language(pad.language)},
            "numbered": False,
            "paper": PAPER_SIZES[pad.paper],
            "language": pad.language,
            "variant": pad.variant,
            "paper_key": pad.paper,
            "pages": [printed_name(name) for name in pad.names] or [""],
            "columns": column_headers(pad.paper, pad.columns),
            "rows": sheet_rows(pad.variant),
            "blank_values": [""] * pad.columns,
        }


def render_pad(pad: Pad) -> bytes:
    """The pad's PDF: ``pad.sheets`` copies of each name's sheet, a name's sheets together.

    Raises ``LayoutError`` when a sheet did not fit its page, since repeating the
    pages would then interleave the halves of the sheets.
    """
    context = pad_context(pad)
    pdf = render_pdf("print/kniffel_pad.html", context, pad.language)
    laid_out = len(PdfReader(io.BytesIO(pdf)).pages)
    if laid_out != len(context["pages"]):
        raise LayoutError(f"{pad} needs {laid_out} pages for {len(context['pages'])} sheets")
    return repeat_pages(pdf, pad.sheets) if pad.sheets > 1 else pdf


def filled_sheet_context(play: Play, language: str, paper: str = "a4") -> dict[str, Any]:
    """A Kniffel play's sheet as a pad page: one column per player, totals and the winner."""
    with regions.override(language):
        variant = next(name for name, key in VARIANTS.items() if key == play.game)
        participants = sorted(play.participants.all(), key=lambda p: p.seat)
        cells = {(c.player_id, c.field): c.points for c in play.cells.all()}
        values: dict[str, list[Any]] = {
            field: [cells.get((p.player_id, field), "") for p in participants]
            for field in play.rules.field_keys
        }
        for key in ("upper_sum", "bonus", "upper_total", "extra_kniffel_bonus", "lower_total",
                    "total"):
            values[key] = [p.details.get(key, 0) for p in participants]
        if variant == "classic":
            # As on the app's sheet: no lower total before a lower field is filled.
            values["lower_total"] = [
                total if any(cells.get((p.player_id, field)) is not None for field in LOWER)
                else None for p, total in zip(participants, values["lower_total"], strict=True)]
        finished = play.status == PlayStatus.FINISHED
        if variant == "classic" and not finished:
            values["bonus"] = [
                None if upper_bonus_missing({field: cells.get((p.player_id, field))
                                             for field in play.rules.field_keys}) else bonus
                for p, bonus in zip(participants, values["bonus"], strict=True)]
        winners = [p for p in participants if p.place == 1]
        return {
            "title": play.rules.name.in_language(language),
            "paper": PAPER_SIZES[paper], "paper_key": paper, "language": language,
            "variant": variant,
            "pages": [date_format(play.game_night.date if play.game_night
                                  else play.created_at.date(), "DATE_FORMAT")],
            "name_label": _("Date"),
            "columns": [Heading(printed_name(p.player.name), len(participants))
                        for p in participants],
            "hinted": len(participants) <= HINTED_COLUMNS,
            "rows": sheet_rows(variant, values, (play.rules.default_house_rules()
                                                 | play.house_rules).get("extra_kniffel_bonus", 0)),
            "blank_values": [""] * len(participants),
            "celebrate": finished and bool(winners),
            "result_line": ngettext(
                "Winner: %(names)s with %(points)s points.",
                "Winners: %(names)s with %(points)s points.", len(winners)) % {
                    "names": name_list(p.player.name for p in winners),
                    "points": winners[0].points if winners else 0}
            if finished and winners else _("Game in progress."),
        }


#: Line styles and marker shapes, one pair per player, so the chart reads in black and white.
DASHES = ("", "7 3", "2 2.5", "9 3 2 3", "4 4", "1 4")
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "triangle-down")
#: The contrast a line needs against white paper (WCAG's figure for graphics).
LINE_CONTRAST = 3.0


def luminance(colour: str) -> float:
    """The relative luminance of a ``#rrggbb`` colour, as WCAG defines it."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def ink_on_white(colour: str) -> str:
    """``colour``, darkened until it stands out on white paper by ``LINE_CONTRAST``."""
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    while 1.05 / (luminance(f"#{red:02x}{green:02x}{blue:02x}") + 0.05) < LINE_CONTRAST:
        red, green, blue = (int(c * 0.9) for c in (red, green, blue))
    return f"#{red:02x}{green:02x}{blue:02x}"


def axis_ticks(top: int) -> list[int]:
    """3 to 5 round values from 0 that reach ``top``: 0, 20, 40, 60 for 41."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if -(-top // (step * factor)) <= 4:
                size = step * factor
                return [size * i for i in range(max(2, -(-top // size)) + 1)]
        step *= 10


def marker_path(shape: str, x: float, y: float, r: float = 4.0) -> str:
    """An SVG path of a marker centred on (x, y)."""
    if shape == "circle":
        return (f"M{x - r:.1f},{y:.1f}a{r},{r} 0 1,0 {2 * r},0a{r},{r} 0 1,0 {-2 * r},0Z")
    if shape == "square":
        return f"M{x - r:.1f},{y - r:.1f}h{2 * r}v{2 * r}h{-2 * r}Z"
    if shape == "diamond":
        d = r * 1.3
        return f"M{x:.1f},{y - d:.1f}l{d:.1f},{d:.1f}l{-d:.1f},{d:.1f}l{-d:.1f},{-d:.1f}Z"
    if shape == "cross":
        return (f"M{x - r:.1f},{y - r:.1f}L{x + r:.1f},{y + r:.1f}"
                f"M{x - r:.1f},{y + r:.1f}L{x + r:.1f},{y - r:.1f}")
    sign = 1 if shape == "triangle" else -1
    return (f"M{x:.1f},{y - sign * r * 1.2:.1f}L{x + r * 1.2:.1f},{y + sign * r:.1f}"
            f"L{x - r * 1.2:.1f},{y + sign * r:.1f}Z")


def spread_labels(wanted: list[float], gap: float, lowest: float) -> list[float]:
    """Label heights near ``wanted`` (top to bottom order kept) at least ``gap`` apart."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [0.0] * len(wanted)
    previous = -gap
    for index in order:
        placed[index] = max(wanted[index], previous + gap)
        previous = placed[index]
    overflow = previous - lowest
    return [y - overflow for y in placed] if overflow > 0 else placed


def running_totals_chart(rows: list[games.StandingRow], names: dict[str, str],
                         colours: dict[str, str]) -> dict[str, Any]:
    """Each player's running total after every race, with labelled axes and gridlines.

    Every player gets a line style and a marker shape of their own and their name
    at the end of their line, so the chart also reads printed in black and white.
    """
    races = max((len(row.race_points) for row in rows), default=0)
    totals = {row.player: list(accumulate(row.race_points)) for row in rows}
    ticks = axis_ticks(max((max(t, default=0) for t in totals.values()), default=0))
    width, height, left, right, top_margin, bottom = 640, 280, 56, 150, 12, 40
    plot_width, plot_height = width - left - right, height - top_margin - bottom

    def x_of(race: int) -> float:
        return left + plot_width * race / max(races, 1)

    def y_of(total: float) -> float:
        return top_margin + plot_height * (1 - total / ticks[-1])

    lines = []
    for index, (player, running) in enumerate(totals.items()):
        points = [(x_of(0), y_of(0))] + [(x_of(i + 1), y_of(t)) for i, t in enumerate(running)]
        shape = MARKERS[index % len(MARKERS)]
        lines.append({
            "name": printed_name(names.get(player, player)),
            "colour": ink_on_white(colours.get(player, "#111827")),
            "dash": DASHES[index % len(DASHES)],
            "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in points),
            "markers": " ".join(marker_path(shape, x, y) for x, y in points[1:]),
            "filled": shape != "cross",
            "end_y": points[-1][1],
        })
    for line, label_y in zip(lines, spread_labels([line["end_y"] for line in lines], 12,
                                                  height - bottom), strict=True):
        line["label_y"] = f"{label_y:.1f}"
    return {"width": width, "height": height, "lines": lines,
            "plot_left": left, "plot_right": width - right, "label_x": width - right + 8,
            "base_y": height - bottom, "top_y": top_margin,
            "x_ticks": [{"x": f"{x_of(i):.1f}", "label": i} for i in range(1, races + 1)],
            "y_ticks": [{"y": f"{y_of(value):.1f}", "label": value} for value in ticks],
            "x_title_y": height - 6, "y_title_y": top_margin + plot_height / 2}


def series_context(series: Series, language: str, paper: str = "a4") -> dict[str, Any]:
    """Standings, race-by-race points, the running totals chart, the date and the rules.

    ``paper`` is a key of :data:`PAPER_SIZES`.
    """
    with regions.override(language):
        players = {p.key: p for p in series.players.all()}
        rows = series.standings()
        names = {key: player.name for key, player in players.items()}
        races = list(series.plays.filter(status=PlayStatus.FINISHED).order_by("race_number"))
        tiebreaks = series.tiebreak_order
        return {
            "title": series.name, "paper": PAPER_SIZES[paper], "language": language,
            "series": series, "game": competition_game_name(series, language),
            "rows": [{"row": row, "name": names.get(row.player, row.player)} for row in rows],
            "races": races,
            "chart": running_totals_chart(rows, names, {k: p.colour for k, p in players.items()}),
            "tiebreaks": [games.METRICS[key].label.in_language(language) for key in tiebreaks],
            "tiebreak_lines": tiebreak_lines(rows, tiebreaks, names),
            "house_rules": house_rules_text(series.rules, series.house_rules, language),
            "printed": date_format(timezone.localdate(), "DATE_FORMAT"),
        }


def competition_game_name(competition: Series | Tournament, language: str) -> str:
    """The game of a series or tournament as printed: an own game's name as the family gave
    it, else the rules' in ``language``."""
    if competition.own_game_id is not None:
        return competition.own_game.name
    return competition.rules.name.in_language(language)


def house_rules_text(rules: games.Rules, chosen: dict[str, Any], language: str) -> list[str]:
    """Each house rule as "Rule: value" in ``language``; a name or list left empty (an own
    game's categories, kept round by round) says nothing."""
    described = []
    for option in rules.house_rules:
        value = chosen.get(option.key, option.default)
        if option.kind in ("text", "categories") and not value:
            continue
        shown = (", ".join(map(str, value)) if option.kind == "int_list"
                 else str(value) if option.kind in ("int", "text")
                 else ", ".join(("−" if category["minus"] else "") + category["name"]
                                for category in value) if option.kind == "categories"
                 else option.choices[value].in_language(language))
        described.append(f"{option.label.in_language(language)}: {shown}")
    return described


def tally_context(races: int, names: tuple[str, ...], language: str, paper: str = "a4"
                  ) -> dict[str, Any]:
    """A Die Maus im Nacken tally sheet: a block per race, the scoring reminder."""
    with regions.override(language):
        rules = games.get("maus_im_nacken")
        return {
            "title": _("%(game)s: tally sheet") % {"game": rules.name.in_language(language)},
            "paper": PAPER_SIZES[paper], "language": language,
            "races": range(1, races + 1),
            "names": list(names) or [""] * 4,
            "elephants": range(1, 5),
            "seat_values": ", ".join(map(str, rules.default_house_rules()["seat_values"])),
        }


def certificates_context(winners: list[str], what: str, day: date, language: str,
                         paper: str = "a4") -> dict[str, Any]:
    with regions.override(language):
        return {"title": _("Certificate"), "paper": PAPER_SIZES[paper], "language": language,
                "winners": winners, "what": what, "numbered": False,
                "date": date_format(day, "DATE_FORMAT")}


def tournament_print_context(tournament: Tournament, language: str, paper: str = "a4"
                             ) -> dict[str, Any]:
    """Seating lists of every round so far, the standings and what places earn.

    ``paper`` is a key of :data:`PAPER_SIZES`.
    """
    with regions.override(language):
        plays = list(tournament.plays.select_related("own_game")
                     .order_by("round_number", "table_number")
                     .prefetch_related("participants__player"))
        names = {str(entry.player_id): entry.player.name
                 for entry in tournament.entries.select_related("player")}
        rounds: dict[int, list[Play]] = {}
        for play in plays:
            rounds.setdefault(play.round_number, []).append(play)
        return {
            "title": tournament.name, "paper": PAPER_SIZES[paper], "language": language,
            "tournament": tournament, "game": competition_game_name(tournament, language),
            "rounds": [{"number": number, "final": number == tournament.final_round,
                        "tables": [{"number": play.table_number, "players": [
                            p.player.name for p in sorted(play.participants.all(),
                                                          key=lambda p: p.seat)]}
                                   for play in tables]}
                       for number, tables in sorted(rounds.items())],
            "standings": [item | {"name": names.get(item["player"], item["player"])}
                          for item in tournament.standings(plays)],
            "scored_by_points": tournament.scored_by_points,
            "place_points": tournament_place_points(tournament),
            "tiebreak_labels": [games.METRICS[key].label for key in tournament.tiebreaks[1:]],
            "cut": final_table_seated(tournament, plays, names),
            "printed": date_format(timezone.localdate(), "DATE_FORMAT"),
        }
