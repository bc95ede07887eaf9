from collections.abc import Mapping
from typing import Any

from django import template

from games import Problem, Text
from tracker.engine_text import say as say_text

register = template.Library()


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
