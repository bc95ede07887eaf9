"""Printed sheets: the same context-building code feeds the HTML preview and the PDF.

WeasyPrint only turns an ordinary template into PDF. A pad of many identical
sheets is laid out once per distinct page (one per printed name, or one blank)
and the laid-out pages are repeated, which is what keeps a 100-sheet pad about
as fast as a single sheet.
"""

from __future__ import annotations

import io
import mimetypes
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from itertools import accumulate
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject

import games
from games.dice_sheet import Field
from games.kniffel import FULL_HOUSE, KNIFFEL, LARGE_STRAIGHT, SMALL_STRAIGHT, UPPER_BONUS
from games.weltraum_kniffel import LOWER_POINTS, SYMBOL_ICONS
from tracker.models import Play, PlayStatus, Series, Tournament

PRINT_CSS = settings.BASE_DIR / "static" / "css" / "print.css"
PAPER_SIZES = {"a4": "A4", "a5": "A5", "letter": "letter"}
VARIANTS = {"classic": "kniffel", "space": "weltraum_kniffel"}

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


def sheet_rows(variant: str, values: dict[str, list[Any]] | None = None) -> list[dict[str, Any]]:
    """The rows of a pad in print order, totals included; ``values`` fills the columns."""
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

    upper = [f for f in rules.fields if f.upper]
    lower = [f for f in rules.fields if not f.upper]
    rows += [field_row(field) for field in upper]
    if variant == "classic":
        rows += [total_row(_("total"), "upper_sum"),
                 total_row(_("Bonus at 63 or more"), "bonus",
                           hint=_("plus %(points)s") % {"points": UPPER_BONUS}),
                 total_row(_("upper total"), "upper_total", "subtotal")]
    rows += [field_row(field) for field in lower]
    if variant == "classic":
        rows += [total_row(_("lower total"), "lower_total"),
                 total_row(_("upper total"), "upper_total"),
                 total_row(_("Grand total"), "total", "grand")]
    else:
        rows += [total_row(_("Grand total"), "total", "grand")]
    return rows


def pad_context(pad: Pad) -> dict[str, Any]:
    """One page per distinct name (or one blank page); the PDF repeats them ``pad.sheets`` times."""
    with translation.override(pad.language):
        rules = games.get(VARIANTS[pad.variant])
        return {
            "title": _("%(game)s pad") % {"game": rules.name.in_language(pad.language)},
            "numbered": False,
            "paper": PAPER_SIZES[pad.paper],
            "language": pad.language,
            "variant": pad.variant,
            "pages": list(pad.names) or [""],
            "columns": [_("Game %(number)s") % {"number": n} for n in range(1, pad.columns + 1)],
            "rows": sheet_rows(pad.variant),
            "blank_values": [""] * pad.columns,
        }


def render_html(template: str, context: dict[str, Any], language: str) -> str:
    with translation.override(language):
        return render_to_string(template, context | {"print_css": print_css()})


@lru_cache(maxsize=1)
def print_css() -> str:
    return PRINT_CSS.read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def project_files_fetcher() -> type:
    """WeasyPrint's URL fetcher for printed sheets (WeasyPrint is imported only to print)."""
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class ProjectFilesOnly(URLFetcher):
        """The project's static files and data: URLs; nothing from the network or from
        elsewhere on the server's disk, whatever a sheet's text asks for."""

        def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse:
            parsed = urlparse(url)
            if parsed.scheme == "data":
                return super().fetch(url, headers)
            static = (settings.BASE_DIR / "static").resolve()
            path = Path(unquote(parsed.path)).resolve() if parsed.scheme == "file" else None
            if path is None or not path.is_relative_to(static) or not path.is_file():
                raise ValueError(f"printed sheets fetch only the project's files, not {url!r}")
            content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": content_type})

    return ProjectFilesOnly


def render_pdf(template: str, context: dict[str, Any], language: str, *, repeat: int = 1
               ) -> bytes:
    """The PDF of ``template``; with ``repeat``, each page is repeated that often.

    WeasyPrint lays out and draws each distinct page once; pypdf then repeats the
    drawn pages, which share one content stream, instead of drawing them again.
    """
    from weasyprint import HTML  # a heavy import, only for the views that print

    pdf = HTML(string=render_html(template, context, language),
               base_url=str(settings.BASE_DIR),
               url_fetcher=project_files_fetcher()(allowed_protocols={"data", "file"})).write_pdf()
    return repeat_pages(pdf, repeat) if repeat > 1 else pdf


def repeat_pages(pdf: bytes, repeat: int) -> bytes:
    """``pdf`` with every page repeated ``repeat`` times in place; metadata and language kept."""
    reader = PdfReader(io.BytesIO(pdf))
    writer = PdfWriter()
    for page in reader.pages:
        for _copy in range(repeat):
            writer.add_page(page)
    writer.add_metadata(reader.metadata or {})
    if "/Lang" in reader.root_object:
        writer.root_object[NameObject("/Lang")] = reader.root_object["/Lang"]
    output = io.BytesIO()
    writer.write(output)
    return output.getvalue()


def render_pad(pad: Pad) -> bytes:
    return render_pdf("print/kniffel_pad.html", pad_context(pad), pad.language,
                      repeat=pad.sheets)


def filled_sheet_context(play: Play, language: str) -> dict[str, Any]:
    """A Kniffel play's sheet as a pad page: one column per player, totals and the winner."""
    with translation.override(language):
        variant = next(name for name, key in VARIANTS.items() if key == play.game)
        participants = sorted(play.participants.all(), key=lambda p: p.seat)
        cells = {(c.player_id, c.field): c.points for c in play.cells.all()}
        values: dict[str, list[Any]] = {
            field: [cells.get((p.player_id, field), "") for p in participants]
            for field in play.rules.field_keys
        }
        for key in ("upper_sum", "bonus", "upper_total", "lower_total", "total"):
            values[key] = [p.details.get(key, 0) for p in participants]
        winners = [p for p in participants if p.place == 1]
        finished = play.status == PlayStatus.FINISHED
        return {
            "title": play.rules.name.in_language(language),
            "paper": "A4", "language": language, "variant": variant,
            "pages": [date_format(play.game_night.date if play.game_night
                                  else play.created_at.date(), "DATE_FORMAT")],
            "name_label": _("Date"),
            "columns": [p.player.name for p in participants],
            "rows": sheet_rows(variant, values),
            "blank_values": [""] * len(participants),
            "celebrate": finished and bool(winners),
            "result_line": ngettext(
                "Winner: %(names)s with %(points)s points.",
                "Winners: %(names)s with %(points)s points.", len(winners)) % {
                    "names": ", ".join(p.player.name for p in winners),
                    "points": winners[0].points if winners else 0}
            if finished and winners else _("Game in progress."),
        }


def running_totals_chart(rows: list[games.StandingRow], names: dict[str, str],
                         colours: dict[str, str]) -> dict[str, Any]:
    """Polylines of each player's running total after every race, in a 0..100 box."""
    races = max((len(row.race_points) for row in rows), default=0)
    totals = {row.player: list(accumulate(row.race_points)) for row in rows}
    top = max((max(t, default=0) for t in totals.values()), default=0) or 1
    width, height = 600, 260

    def point(race: int, total: int) -> str:
        x = 40 + (width - 60) * (race / max(races, 1))
        y = height - 30 - (height - 50) * (total / top)
        return f"{x:.1f},{y:.1f}"

    lines = [{"name": names.get(player, player), "colour": colours.get(player, "#111827"),
              "points": " ".join([point(0, 0)] + [point(i + 1, t) for i, t in
                                                  enumerate(running)])}
             for player, running in totals.items()]
    ticks = [{"x": point(i, 0).split(",")[0], "label": i} for i in range(1, races + 1)]
    return {"width": width, "height": height, "lines": lines, "ticks": ticks, "top": top,
            "top_y": point(0, top).split(",")[1], "base_y": height - 30}


def series_context(series: Series, language: str) -> dict[str, Any]:
    """Standings, race-by-race points, the running totals chart, the date and the rules."""
    with translation.override(language):
        players = {p.key: p for p in series.players.all()}
        rows = series.standings()
        names = {key: player.name for key, player in players.items()}
        races = list(series.plays.filter(status=PlayStatus.FINISHED).order_by("race_number"))
        tiebreaks = series.tiebreaks or list(series.rules.series_tiebreaks)
        return {
            "title": series.name, "paper": "A4", "language": language,
            "series": series, "game": series.rules.name.in_language(language),
            "rows": [{"row": row, "name": names.get(row.player, row.player)} for row in rows],
            "races": races,
            "chart": running_totals_chart(rows, names, {k: p.colour for k, p in players.items()}),
            "tiebreaks": [games.METRICS[key].label.in_language(language) for key in tiebreaks],
            "house_rules": house_rules_text(series.rules, series.house_rules, language),
            "printed": date_format(timezone.localdate(), "DATE_FORMAT"),
        }


def house_rules_text(rules: games.Rules, chosen: dict[str, Any], language: str) -> list[str]:
    described = []
    for option in rules.house_rules:
        value = chosen.get(option.key, option.default)
        shown = (", ".join(map(str, value)) if option.kind == "int_list"
                 else option.choices[value].in_language(language))
        described.append(f"{option.label.in_language(language)}: {shown}")
    return described


def tally_context(races: int, names: tuple[str, ...], language: str) -> dict[str, Any]:
    """A Die Maus im Nacken tally sheet: a block per race, the scoring reminder."""
    with translation.override(language):
        rules = games.get("maus_im_nacken")
        return {
            "title": _("%(game)s: tally sheet") % {"game": rules.name.in_language(language)},
            "paper": "A4", "language": language,
            "races": range(1, races + 1),
            "names": list(names) or [""] * 4,
            "elephants": range(1, 5),
            "seat_values": ", ".join(map(str, rules.default_house_rules()["seat_values"])),
        }


def certificates_context(winners: list[str], what: str, day: date, language: str
                         ) -> dict[str, Any]:
    with translation.override(language):
        return {"title": _("Certificate"), "paper": "A4", "language": language,
                "winners": winners, "what": what, "numbered": False,
                "date": date_format(day, "DATE_FORMAT")}


def tournament_print_context(tournament: Tournament, language: str) -> dict[str, Any]:
    """Seating lists of every round so far and the standings."""
    with translation.override(language):
        plays = list(tournament.plays.order_by("round_number", "table_number")
                     .prefetch_related("participants__player"))
        names = {str(entry.player_id): entry.player.name
                 for entry in tournament.entries.select_related("player")}
        rounds: dict[int, list[Play]] = {}
        for play in plays:
            rounds.setdefault(play.round_number, []).append(play)
        return {
            "title": tournament.name, "paper": "A4", "language": language,
            "tournament": tournament, "game": tournament.rules.name.in_language(language),
            "rounds": [{"number": number, "final": number == tournament.final_round,
                        "tables": [{"number": play.table_number, "players": [
                            p.player.name for p in sorted(play.participants.all(),
                                                          key=lambda p: p.seat)]}
                                   for play in tables]}
                       for number, tables in sorted(rounds.items())],
            "standings": [item | {"name": names.get(item["player"], item["player"])}
                          for item in tournament.standings(plays)],
            "printed": date_format(timezone.localdate(), "DATE_FORMAT"),
        }
