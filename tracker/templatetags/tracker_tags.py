from collections.abc import Iterable, Mapping
from typing import Any

from django import template
from django.db.models import Model
from django.template.defaultfilters import floatformat
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games import Problem, Text
from tracker.common.engine_text import say as say_text
from tracker.common.lists import name_list
from tracker.households.access import get_household_for_user
from tracker.households.models import COLOURS, colour_label
from tracker.looking_back.stats import percent
from tracker.ratings.pages import play_chances
from tracker.room.models import ShareLink
from tracker.room.sharing import board_address as full_board_address
from tracker.room.sharing import qr_svg
from tracker.table.models import Participant, Play

register = template.Library()
PALETTE = frozenset(colour for colour, _name in COLOURS)


@register.filter
def say(value: Text | Problem | str) -> str:
    """An engine text in the page's language: ``{{ rules.name|say }}``."""
    if isinstance(value, Text | Problem):
        return say_text(value)
    return value


@register.filter
def lookup(mapping: Mapping[str, Any] | None, key: Any) -> Any:
    """``{{ points|lookup:player_key }}``: a dict's value for a key held in a variable."""
    if not isinstance(mapping, Mapping):
        return None
    return mapping.get(key, mapping.get(str(key)))


@register.filter
def names(keys: Iterable[str], names_by_key: Mapping[str, str] | None = None) -> str:
    """``{{ side.members|names:player_names }}``: players' names in one line ("Mama Katrin,
    Papa Jörg"); the keys are looked up in ``names_by_key`` where it is given."""
    named = (names_by_key.get(key, key) for key in keys) if names_by_key else keys
    return name_list(named)


@register.filter
def colour_class(colour: str) -> str:
    """The CSS class that gives an element a player's colour (``--dot``), for the palette's
    colours only: pages carry no style attributes, so the Content-Security-Policy needs no
    'unsafe-inline'."""
    return f"colour-{colour.removeprefix('#')}" if colour in PALETTE else ""


@register.filter
def look_class(participant: Participant | Any) -> str:
    """The CSS classes that give a player the look they have at a play's table (their
    colour, and a marker past ten players): ``{{ p|look_class }}``."""
    if not isinstance(participant, Participant):
        return colour_class(getattr(participant, "colour", "") or "")
    colour, marker = participant.look
    return colour_class(colour) + (f" marker-{marker}" if marker else "")


@register.filter
def look_said(participant: Participant) -> str:
    """How a player looks at this table, in words: "Mama is Green here", "Gosia is Red with
    a ring here"."""
    colour, marker = participant.look
    said = {"name": participant.player.name, "colour": colour_label(colour)}
    if marker == 1:
        return _("%(name)s is %(colour)s with a ring here") % said
    if marker == 2:
        return _("%(name)s is %(colour)s with a square here") % said
    return _("%(name)s is %(colour)s here") % said


@register.filter
def share(part: float | None, whole: float | None) -> str:
    """``{{ wins|share:plays }}``: ``part`` of ``whole`` as a percentage in the page's
    language ("42%", "42 %"); 0% of nothing."""
    if not part or not whole:
        return percent(0)
    return percent(part / whole)


@register.simple_tag
def active_share_link(shown: Model) -> ShareLink | None:
    """``{% active_share_link play as share_link %}``: the link that shows a play, night,
    series or tournament on the room's boards, unless revoked."""
    return shown.share_links.filter(revoked_at__isnull=True).order_by("pk").first()


@register.simple_tag(takes_context=True)
def board_address(context: template.Context, link: ShareLink) -> str:
    """``{% board_address share_link as address %}``: the board's full address."""
    return full_board_address(context["request"], link)


@register.simple_tag
def qr_code(address: str) -> str:
    """``{% qr_code address %}``: the address's QR code, drawn inline as SVG."""
    # segno writes only numbers and path data: the address itself never enters the markup.
    return mark_safe(qr_svg(address))


@register.filter
def signed(value: float | None) -> str:
    """Points gained or lost, with one decimal in the page's language and a sign always
    shown: "+7.5", "−12.8" (a true minus sign, as wide as the plus), "±0.0"."""
    if value is None:
        return "–"
    shown = floatformat(abs(value), 1)
    if shown == floatformat(0, 1):
        return f"±{shown}"
    return f"{'+' if value > 0 else '−'}{shown}"


@register.inclusion_tag("ratings/chances.html", takes_context=True)
def win_chances(context: template.Context, play: Play) -> dict[str, Any]:
    """Who is the favourite of a game under way, and each side's chance to win; the
    household the request shows is the play's, read for the top bar already."""
    request = context.get("request")
    household = get_household_for_user(request) if request is not None else None
    if household is None or household.pk != play.household_id:
        household = None
    return {"chances": play_chances(play, household)}
