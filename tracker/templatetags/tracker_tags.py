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
