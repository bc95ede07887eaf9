"""The cells of the Kniffel score sheet, written in Python.

A sheet has a cell for every player and field (up to 10 players and 13 fields, with
their totals), and every saved cell sends its changed cells back to the tablet. An
``{% include %}`` per cell cost more than the rest of a save put together, so the markup
of each kind of cell lives here, once, for the tablet's sheet, the TV's scoreboard and
the saved-cell fragment alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import template
from django.template.context import Context
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.kniffel import LOWER
from tracker.table.announcements import points_said

register = template.Library()

OUT_OF_BAND = mark_safe(' hx-swap-oob="true"')


def swap(oob: bool) -> SafeString:
    """The attribute that has htmx put an element of an answer in place of its namesake."""
    return OUT_OF_BAND if oob else mark_safe("")


def fresh_class(fresh: bool) -> SafeString:
    """The scoreboard lights up the entry made last."""
    return mark_safe(' class="fresh"') if fresh else mark_safe("")


def whole(number: int) -> str:
    """A whole number as the sheet writes it: the digits alone, which is what ``localize``
    gives for a whole number in every language while no thousands separator is set, at a
    fraction of its cost (points stay far below where one would show anyway)."""
    return str(int(number))


def points_html(points: int | None) -> SafeString:
    """Points as the sheet writes them: 0 is a struck field, None an empty one."""
    if points is None:
        return mark_safe("")
    if points == 0:
        return format_html('<span class="struck" role="img" aria-label="{0}" title="{0}">✗</span>',
                           _("struck"))
    return mark_safe(whole(points))


def cell_name(player_name: str, field_label: str, points: int | None) -> str:
    """A sheet cell's accessible name: whose, which field, and what is in it."""
    return _("%(player)s, %(field)s: %(points)s") % {
        "player": player_name, "field": field_label, "points": points_said(points)}


@register.simple_tag(takes_context=True)
def sheet_cell(context: Context, slot: Mapping[str, Any], oob: bool = False) -> SafeString:
    """One field of one player: on a tablet a link that opens the editor, on the read-only
    scoreboard the points alone."""
    cell = slot["cell"]
    points = points_html(cell.points if cell else None)
    if context.get("readonly"):
        fresh = slot["id"] == context["sheet"].latest_id
        return format_html('<td id="{}"{}{}>{}</td>', slot["id"], fresh_class(fresh), swap(oob),
                           points)
    return format_html(
        '<td id="{id}"{swap}><a class="cell{filled}" href="{url}" hx-get="{url}"'
        ' hx-target="#editor" hx-swap="outerHTML" aria-label="{name}"'
        ' data-offline-editor data-version="{version}">{points}</a></td>',
        id=slot["id"], swap=swap(oob), filled=" filled" if cell else "", url=slot["url"],
        version=cell.version if cell else "",
        name=cell_name(slot["participant"].player.name, str(slot["label"]),
                       cell.points if cell else None),
        points=points if cell else mark_safe("&nbsp;"))


@register.simple_tag(takes_context=True)
def sheet_total(context: Context, participant: Any, key: str, row_id: str, grand: bool = False
                ) -> SafeString:
    """One player's total ``key`` (from the scored details) in the totals row ``row_id``;
    the scoreboard lights up the grand total of the player who entered last."""
    fresh = bool(context.get("readonly") and grand
                 and participant.player_id == context["sheet"].latest_player_id)
    return total_cell(participant, key, row_id, grand=grand, fresh=fresh,
                      blank=not_yet_added(context, participant, key))


@register.simple_tag(takes_context=True)
def player_totals(context: Context, participant: Any, rows: Iterable[Mapping[str, Any]]
                  ) -> SafeString:
    """Every total of one player after a save, each to take its namesake's place on the
    tablet's sheet."""
    cells = (total_cell(participant, row["key"], row["id"], grand=row["grand"], oob=True,
                        blank=not_yet_added(context, participant, row["key"])) for row in rows)
    return mark_safe("".join(f"<template>{cell}</template>" for cell in cells))


def not_yet_added(context: Context, participant: Any, key: str) -> bool:
    """Whether the total ``key`` stays empty, as on paper: the lower total until a lower
    field of the player is filled."""
    play = context.get("play")
    if key != "lower_total" or play is None:
        return False
    sheet = play.result.get("sheets", {}).get(participant.player_key, {})
    return not any(field in sheet for field in LOWER)


def total_cell(participant: Any, key: str, row_id: str, *, grand: bool, fresh: bool = False,
               oob: bool = False, blank: bool = False) -> SafeString:
    # Only numbers and the sheet's own ids go in: nothing to escape.
    total = "" if blank else whole(participant.details.get(key) or 0)
    data = " data-total" if grand else ""
    return mark_safe(f'<td id="{row_id}-{participant.player_id}"{fresh_class(fresh)}{data}'
                     f'{swap(oob)}>{total}</td>')


@register.simple_tag
def bonus_cell(bonus: Mapping[str, Any], oob: bool = False) -> SafeString:
    """One player's upper-section bonus: the points still missing for it while it can be
    reached, otherwise what it gave (35 or 0)."""
    if bonus["missing"]:
        content = format_html('<span class="to-go">{}</span>',
                              _("%(points)s to go") % {"points": whole(bonus["missing"])})
    else:
        content = mark_safe(whole(bonus["points"]))
    return format_html('<td id="sum-bonus-{}"{}>{}</td>', bonus["participant"].player_id,
                       swap(oob), content)


@register.simple_tag
def sheet_cols(participants: Iterable[Any], next_key: str | None, oob: bool = False
               ) -> SafeString:
    """The sheet's columns; the column of the player whose turn it is stands out."""
    columns = "".join('<col class="current">' if p.player_key == next_key else "<col>"
                      for p in participants)
    return mark_safe(f'<colgroup id="sheet-cols"{swap(oob)}><col>{columns}</colgroup>')
