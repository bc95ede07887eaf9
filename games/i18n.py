"""Texts the engine shows to people, in English and in the languages of its catalog.

The engine must not depend on Django, so it carries its own gettext catalog
(``games/locale/<lang>/LC_MESSAGES/games.po``), read with the standard library.
A :class:`Text` is an English string that also remembers its template and
parameters, so the same text can be said again in another language::

    >>> hint = Text("The mouse starts on square {square}.", square=3)
    >>> str(hint)
    'The mouse starts on square 3.'
    >>> hint.in_language("de")
    'Die Maus startet auf Feld 3.'

Parameters that are themselves texts (a field's label inside a problem) are
translated too. Strings are marked for extraction by being the first argument
of ``Text(...)``: ``make messages`` runs ``xgettext --keyword=Text``.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "games"
LANGUAGES = ("en", "de", "fr", "it", "nl")


class Text(str):
    """English text with the template and parameters it was made from."""

    template: str
    params: Mapping[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Text:
        self = super().__new__(cls, template.format(**params) if params else template)
        self.template = template
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_text, (self.template, dict(self.params)))

    def in_language(self, language: str | None, names: Mapping[str, str] | None = None) -> str:
        """This text in ``language`` (a code such as ``de`` or ``en-us``).

        ``names`` maps player keys to the names people know them by; a
        parameter called ``player`` (or ``players``) is shown through it.
        Unknown languages fall back to English.
        """
        translated = catalog(language).gettext(self.template)
        if not self.params:
            return translated
        params = {key: _localise(key, value, language, names) for key, value in self.params.items()}
        return translated.format(**params)


def _rebuild_text(template: str, params: dict[str, Any]) -> Text:
    return Text(template, **params)


def _localise(key: str, value: Any, language: str | None, names: Mapping[str, str] | None) -> Any:
    if isinstance(value, Text):
        return value.in_language(language, names)
    if names and key in ("player", "other") and isinstance(value, str):
        return names.get(value, value)
    return value


@lru_cache(maxsize=16)
def catalog(language: str | None) -> gettext.NullTranslations:
    """The engine's catalog for ``language``; English (the msgids) when there is none."""
    if not language:
        return gettext.NullTranslations()
    code = language.replace("-", "_").split("_")[0].lower()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)


def one_of(values: Iterable[int]) -> Text:
    """The allowed values as people say them: "0 or 25", "0, 2, 4 or 6", "0 or 5 to 30"."""
    ordered = sorted(set(values))
    runs: list[list[int]] = []
    for value in ordered:
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    parts: list[Text | str] = []
    for run in runs:
        if len(run) >= 4:
            parts.append(Text("{low} to {high}", low=run[0], high=run[-1]))
        else:
            parts.extend(str(value) for value in run)
    return _join_or(parts)


# Structural templates that hold no words of their own: not marked for translation.
compose = Text


def any_of(parts: Iterable[Text | str]) -> Text:
    """Texts as people list alternatives: "Threes", "Threes or Chance", "A, B or C"."""
    return _join_or(list(parts))


def _join_or(parts: list[Text | str]) -> Text:
    if len(parts) == 1:
        return compose("{only}", only=parts[0])
    names = [f"p{index}" for index in range(len(parts) - 1)]
    head = compose(", ".join(f"{{{name}}}" for name in names),
                   **dict(zip(names, parts[:-1], strict=True)))
    return Text("{head} or {last}", head=head, last=parts[-1])
