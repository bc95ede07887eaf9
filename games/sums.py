"""Short sums typed into a cell of a score sheet: "3+6+2", "12-3", "-4".

Whole numbers joined by + and -, read by this small parser and never evaluated as code:
a family adds up a category's cards as it would on paper, and the sum is kept with the
cell so that it shows again when the cell is opened.
"""

from __future__ import annotations

import re

#: The longest sum a cell keeps, in characters.
MAX_LENGTH = 60
#: The most digits of one number in a sum.
MAX_DIGITS = 7

# Digits are 0 to 9 only: another script's digits (٣, ３) look like a number on the pad
# and add up to one nobody typed.
_SUM = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}(?:[+-][0-9]{{1,{MAX_DIGITS}}})*")
_TERM = re.compile(r"[+-]?[0-9]+")


def tidy_sum(text: str) -> str:
    """``text`` as the sheet keeps it: without the spaces around its signs and ends, and with
    the typographic minus (−) and en dash (–) read as a minus. A space or line break inside
    a number stays, and the sum is refused: "1 2" is not 12."""
    signed = text.replace("−", "-").replace("–", "-")
    return re.sub(r"\s*([+-])\s*", r"\1", signed).strip()


def read_short_sum(text: str) -> int | None:
    """The value of the short sum ``text`` ("3+6+2" is 11); None when it is anything else
    than whole numbers joined by + and - (at most :data:`MAX_LENGTH` characters)."""
    tidy = tidy_sum(text)
    if len(tidy) > MAX_LENGTH or not _SUM.fullmatch(tidy):
        return None
    return sum(int(term) for term in _TERM.findall(tidy))


def is_sum(text: str) -> bool:
    """Whether ``text`` adds up several numbers ("3+6"), rather than being one ("-4")."""
    return bool(re.search(r"[0-9][+-]", tidy_sum(text)))
