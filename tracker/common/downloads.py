"""Files to download: every export and printed sheet gets its name and its answer here."""

from __future__ import annotations

from collections.abc import Sequence

from django.http import HttpResponse
from django.utils.text import slugify

#: Letters that Unicode's NFKD decomposition leaves whole (they are letters of their own, not
#: a letter with a mark), written as people write them without the mark. slugify would drop
#: them, and "Łukasiewicz" would become "ukasiewicz".
LETTERS_OF_THEIR_OWN = str.maketrans({
    "Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Đ": "D", "đ": "d", "Ð": "D", "ð": "d",
    "ß": "ss", "ẞ": "SS", "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "Þ": "Th", "þ": "th",
    "Ħ": "H", "ħ": "h", "ı": "i", "Ŋ": "NG", "ŋ": "ng", "Ŧ": "T", "ŧ": "t", "ĸ": "k",
})


def file_name(*parts: object) -> str:
    """``parts`` as one ASCII file name, without extension: "Familie Müller-Łukasiewicz",
    2026 becomes "familie-muller-lukasiewicz-2026". Parts with nothing to keep are left out."""
    slugs = (slugify(str(part).translate(LETTERS_OF_THEIR_OWN)) for part in parts)
    return "-".join(slug for slug in slugs if slug)


def attachment(content: bytes | str, content_type: str, name: Sequence[object],
               extension: str, fallback: str = "download") -> HttpResponse:
    """``content`` to download, named after the parts of ``name`` (:func:`file_name`), or
    ``fallback`` when none of them has a letter or digit to keep."""
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = (
        f'attachment; filename="{file_name(*name) or fallback}.{extension}"')
    return response


def spreadsheet_text(text: str) -> str:
    """Text a spreadsheet shows as text: a name such as "=1+1" would otherwise be a formula."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
