"""The rules engine's texts in the language of the current request."""

from collections.abc import Mapping

from django.utils.functional import lazy
from django.utils.translation import get_language

from games import Problem, Text


def say(text: Text | Problem, names: Mapping[str, str] | None = None) -> str:
    """``text`` in the active language; players shown by ``names`` where given."""
    return text.in_language(get_language(), names)


say_lazy = lazy(say, str)
