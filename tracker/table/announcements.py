"""What a screen reader hears when a game changes (the page's one polite live region, see
``static/js/access.js``): the latest entry, who leads, whose turn it is, who won. Names are
joined with "&", as the sheet and the pad write leaders and winners."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def points_said(points: int | None) -> str:
    """A sheet cell's points as a screen reader says them: what the eye sees in the cell."""
    if points is None:
        return _("empty")
    return _("struck") if points == 0 else str(points)


def names_said(names: Sequence[str]) -> str:
    return " & ".join(names)


def entry_said(who: str, what: str, points: str) -> str:
    """One entry: "Ben: Full House 25."."""
    return _("%(who)s: %(what)s %(points)s.") % {"who": who, "what": what, "points": points}


def lead_said(names: Sequence[str], total: int) -> str:
    """Who leads: "Ben leads with 143.", "Anna & Ben lead with 40."."""
    if not names:
        return ""
    return ngettext("%(names)s leads with %(total)s.", "%(names)s lead with %(total)s.",
                    len(names)) % {"names": names_said(names), "total": total}


def win_said(names: Sequence[str]) -> str:
    if not names:
        return ""
    return ngettext("%(names)s wins!", "%(names)s win!", len(names)) % {
        "names": names_said(names)}


def turn_said(name: str | None) -> str:
    return _("%(name)s's turn") % {"name": name} + "." if name else ""


def announcement(*parts: str) -> str:
    return " ".join(part for part in parts if part)
