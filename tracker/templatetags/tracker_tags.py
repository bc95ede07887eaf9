from collections.abc import Mapping
from typing import Any

from django import template
from django.template.defaultfilters import floatformat

from games import Problem, Text
from tracker.engine_text import say as say_text
from tracker.models import COLOURS

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
def colour_class(colour: str) -> str:
    """The CSS class that gives an element a player's colour (``--dot``), for the palette's
    colours only: pages carry no style attributes, so the Content-Security-Policy needs no
    'unsafe-inline'."""
    return f"colour-{colour.removeprefix('#')}" if colour in PALETTE else ""


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
