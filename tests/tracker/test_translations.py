"""German and English are complete: every string marked for translation has German."""

import gettext
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = [ROOT / "locale/de/LC_MESSAGES/django.po",
            ROOT / "games/locale/de/LC_MESSAGES/games.po"]


def unquote(text: str) -> str:
    return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")


def entries(po: Path) -> dict[tuple[str | None, str], list[str]]:
    """(msgctxt, msgid) -> its msgstr forms, from a catalog written without line wrapping."""
    lines = po.read_text(encoding="utf-8").splitlines()
    found: dict[tuple[str | None, str], list[str]] = {}
    for index, line in enumerate(lines):
        if line.startswith("msgid ") and line != 'msgid ""':
            forms = [entry.split(" ", 1)[1] for entry in lines[index + 1: index + 5]
                     if entry.startswith("msgstr")]
            previous = lines[index - 1]
            context = unquote(previous[8:]) if previous.startswith("msgctxt ") else None
            found[context, unquote(line[6:])] = [unquote(form) for form in forms]
    return found


@pytest.mark.parametrize("po", CATALOGS, ids=lambda po: po.parts[-4])
def test_german_catalog_is_complete(po):
    catalog = entries(po)
    assert len(catalog) > 50
    assert [msgid for msgid, forms in catalog.items() if "" in forms] == []
    assert "#, fuzzy" not in po.read_text(encoding="utf-8")


@pytest.mark.parametrize("po", CATALOGS, ids=lambda po: po.parts[-4])
def test_compiled_catalog_matches_its_source(po):
    with po.with_suffix(".mo").open("rb") as compiled:
        translations = gettext.GNUTranslations(compiled)
    for (context, msgid), forms in entries(po).items():
        if len(forms) == 1 and context:
            assert translations.pgettext(context, msgid) == forms[0]
        elif len(forms) == 1:
            assert translations.gettext(msgid) == forms[0]
