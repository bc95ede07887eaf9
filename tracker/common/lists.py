"""Lists of names as a sentence of the page's language writes them."""

from collections.abc import Iterable

from django.utils.translation import pgettext


def name_list(names: Iterable[str]) -> str:
    """``names`` in one line, "Mama Katrin, Papa Jörg", with the separator the active
    language puts between the names of a list."""
    return pgettext("between the names of a list", ", ").join(names)
