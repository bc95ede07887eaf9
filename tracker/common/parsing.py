"""Reading what a browser sends, within bounds: numbers, ids and JSON drafts.

A request may carry anything. These readers refuse what is out of bounds before it is
converted, so no later step meets a number too long for ``int()``, an id too large for
the database, or JSON too deep for the parser.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext as _

# Longer than any score or count a game knows, short enough to convert in no time;
# the rules engine says why a number this long does not fit.
MAX_NUMBER_DIGITS = 30
# The largest primary key of every supported database (PostgreSQL's integer).
MAX_ID = 2**31 - 1


class UnreadableInput(ValueError):
    """A request's data that cannot be read; ``message`` says why, in the user's language."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def parse_whole_number(text: str) -> int | None:
    """A whole number as typed (``-`` allowed, ASCII digits only, at most 30); else None."""
    text = text.strip()
    digits = text.removeprefix("-")
    if not (digits.isdecimal() and digits.isascii() and len(digits) <= MAX_NUMBER_DIGITS):
        return None
    return -int(digits) if text.startswith("-") else int(digits)


def small_int(text: str | None) -> int | None:
    """A non-negative whole number from a form, small enough for any database; else None."""
    number = parse_whole_number(text or "")
    return number if number is not None and 0 <= number <= MAX_ID else None


def read_json(text: str, *, max_chars: int, max_depth: int) -> Any:
    """``text`` as JSON, refused when longer than ``max_chars``, nested deeper than
    ``max_depth``, or holding a number of more than 30 digits or NaN and Infinity."""
    if len(text) > max_chars:
        raise UnreadableInput(_("The form is too large (at most %(count)s characters).")
                              % {"count": max_chars})
    if nesting_depth(text) > max_depth:
        raise UnreadableInput(_("The form is nested too deeply."))
    try:
        return json.loads(text, parse_int=bounded_int, parse_float=refuse_number,
                          parse_constant=refuse_number)
    except ValueError:
        raise UnreadableInput(_("The form was damaged.")) from None


def nesting_depth(text: str) -> int:
    """How deeply brackets nest in JSON ``text``, ignoring brackets inside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def bounded_int(digits: str) -> int:
    if len(digits.removeprefix("-")) > MAX_NUMBER_DIGITS:
        raise ValueError("number too long")
    return int(digits)


def refuse_number(text: str) -> Any:
    raise ValueError(f"not a whole number: {text[:20]}")


class IdsField(forms.ModelMultipleChoiceField):
    """A multiple choice of the queryset's objects that refuses an id no database can hold
    before the database is asked."""

    def _check_values(self, value: Any) -> Any:
        for item in value:
            if small_int(str(item)) is None:
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"], code="invalid_pk_value",
                    params={"pk": str(item)[:20]})
        return super()._check_values(value)


class IdField(forms.ModelChoiceField):
    """A choice of one of the queryset's objects, refusing ids out of range as unknown."""

    def to_python(self, value: Any) -> Any:
        if value not in self.empty_values and small_int(str(value)) is None:
            raise forms.ValidationError(self.error_messages["invalid_choice"],
                                        code="invalid_choice")
        return super().to_python(value)


class IdConverter:
    """``<id:name>`` in a URL: a primary key any database can hold; a longer number matches
    no URL, so the answer is 404 before the database is asked."""

    regex = "[0-9]{1,10}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError("id out of range")
        return number

    def to_url(self, value: int) -> str:
        return str(value)
