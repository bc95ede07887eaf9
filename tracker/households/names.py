"""Names that look alike: ``dеmo`` with a Cyrillic е beside ``demo``, ``rnax`` beside ``max``.

Two names are confusable when their skeletons are equal, as in Unicode's Technical Standard
#39 (section 4): each character is replaced by the prototype Unicode lists it as confusable
with. The list is Unicode's ``confusables.txt`` as the confusable_homoglyphs package ships
it, kept up to date with Unicode's releases; the package itself only tells whether one
string mixes scripts, so the skeleton is built here from its data. Names are compared
whatever their capitals, as the app compares them elsewhere.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

from confusable_homoglyphs.confusables import confusables_data

#: Unicode writes some right-to-left prototypes between these marks in the data's comments.
DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character's prototype.

    The data lists each pair of ``confusables.txt`` both ways: a character confusable with
    a prototype names that one prototype, and the prototype names every character
    confusable with it. A pair of two characters that name only each other is mapped to
    the smaller, which is all a comparison needs.
    """
    mapping: dict[str, str] = {}
    for character, homoglyphs in confusables_data.items():
        if len(character) != 1 or len(homoglyphs) != 1:
            continue  # a prototype: it stays as it is
        other = homoglyphs[0]["c"].translate(DIRECTION_MARKS)
        partners = confusables_data.get(other, [])
        if len(other) > 1 or len(partners) > 1 or other < character:
            mapping[character] = other
    return mapping


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: NFD, every character by its prototype, NFD again."""
    mapping = prototypes()
    return unicodedata.normalize("NFD", "".join(
        mapping.get(character, character)
        for character in unicodedata.normalize("NFD", text)))


def likeness(name: str) -> str:
    """What two names share when they look alike, capitals aside."""
    return skeleton(skeleton(unicodedata.normalize("NFKC", name)).casefold())


def confusable_with(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that looks like ``name`` without being equal to it."""
    wanted = likeness(name)
    return next((other for other in others if other != name and likeness(other) == wanted),
                None)
