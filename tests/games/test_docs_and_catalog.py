"""The rules reference and the German catalog keep up with the code."""

from pathlib import Path

from games.__main__ import reference
from games.i18n import LOCALE_DIR, catalog

ROOT = Path(__file__).resolve().parents[2]
SAME_IN_GERMAN = {
    "Alles für die Katz", "Bookmark", "Chance", "Die Maus im Nacken", "Entenspiel",
    "Full House", "Kniffel", "La souricière / Mausefalle", "Mau Mau(s)",
    "Mensch ärgere dich nicht", "Planet", "Ravensburger",
}


def msgids() -> list[str]:
    lines = (LOCALE_DIR / "games.pot").read_text(encoding="utf-8").splitlines()
    return [line[7:-1].replace('\\"', '"') for line in lines
            if line.startswith('msgid "') and line != 'msgid ""']


def test_docs_games_md_is_generated_from_the_module_docstrings():
    assert (ROOT / "docs" / "games.md").read_text(encoding="utf-8") == reference()


def test_every_engine_text_has_a_german_translation():
    german = catalog("de")
    untranslated = [msgid for msgid in msgids()
                    if german.gettext(msgid) == msgid and msgid not in SAME_IN_GERMAN]
    assert untranslated == []
    assert len(msgids()) > 100
