"""Every language is complete: each catalog under locale/ and games/locale/ translates every
string the code marks, nothing is fuzzy, and the compiled catalogs match their sources.

The catalogs are extracted again from the code into a temporary folder and compared with the
committed ones, so a string marked in a template or the engine but never extracted fails here.
"""

import gettext
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
APP_CATALOGS = sorted(ROOT.glob("locale/*/LC_MESSAGES/django.po"))
ENGINE_CATALOGS = sorted(ROOT.glob("games/locale/*/LC_MESSAGES/games.po"))
CATALOGS = APP_CATALOGS + ENGINE_CATALOGS

Key = tuple[str | None, str]


def catalog_id(po: Path) -> str:
    return f"{po.parts[-3]}-{po.stem}"


def unquote(text: str) -> str:
    return text[1:-1].replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")


def entries(po: Path) -> dict[Key, list[str]]:
    """(msgctxt, msgid) -> its msgstr forms, from a catalog written without line wrapping.

    Obsolete entries (``#~``) and the header are left out."""
    found: dict[Key, list[str]] = {}
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#")]
        fields = {line.split(" ", 1)[0]: unquote(line.split(" ", 1)[1]) for line in lines
                  if line.startswith(("msgctxt ", "msgid ", "msgstr"))}
        if fields.get("msgid"):
            forms = [text for key, text in fields.items() if key.startswith("msgstr")]
            found[fields.get("msgctxt"), fields["msgid"]] = forms
    return found


def fuzzy_entries(po: Path) -> list[str]:
    """Entries a tool guessed (msgmerge marks them ``#, fuzzy``): gettext ignores them."""
    blocks = po.read_text(encoding="utf-8").split("\n\n")
    return [block for block in blocks if re.search(r"^#,.*\bfuzzy\b", block, re.MULTILINE)]


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> dict[str, set[Key]]:
    """The msgids the code marks today, extracted as ``make messages`` does, into a copy of the
    sources: the committed catalogs stay untouched."""
    copy = tmp_path_factory.mktemp("extracted")
    shutil.copytree(ROOT / "tracker", copy / "tracker",
                    ignore=shutil.ignore_patterns("__pycache__", "locale"))
    shutil.copytree(ROOT / "templates", copy / "templates")
    (copy / "locale").mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(copy)
        patch.setattr(settings, "LOCALE_PATHS", [copy / "locale"])
        call_command("makemessages", locale=["en"], no_wrap=True, verbosity=0,
                     ignore_patterns=[".venv/*", "games/*", "tests/*"])
    engine_pot = copy / "games.pot"
    subprocess.run(["xgettext", "--language=Python", "--keyword=Text", "--from-code=UTF-8",
                    "--no-wrap", "-o", str(engine_pot),
                    *sorted(str(path) for path in (ROOT / "games").glob("*.py"))], check=True)
    return {"django": set(entries(copy / "locale/en/LC_MESSAGES/django.po")),
            "games": set(entries(engine_pot))}


def test_every_offered_language_but_english_has_its_catalogs_or_none_yet():
    """A catalog belongs to a language the site offers, and comes with its pair."""
    offered = {code for code, _name in settings.LANGUAGES}
    app = {po.parts[-3] for po in APP_CATALOGS}
    engine = {po.parts[-3] for po in ENGINE_CATALOGS}
    assert {"de", "fr"} <= app
    assert app == engine
    assert app <= offered - {"en"}


@pytest.mark.parametrize("po", CATALOGS, ids=catalog_id)
def test_catalog_translates_every_string_the_code_marks(po, extracted):
    catalog = entries(po)
    marked = extracted[po.stem]
    assert sorted(marked - set(catalog), key=str) == [], "not in the catalog: run make messages"
    assert sorted(set(catalog) - marked, key=str) == [], "no longer in the code: make messages"
    assert [msgid for msgid, forms in catalog.items() if "" in forms or not forms] == []
    assert fuzzy_entries(po) == []


@pytest.mark.parametrize("po", CATALOGS, ids=catalog_id)
def test_translations_keep_the_placeholders(po):
    """msgfmt refuses a translation that drops or renames a %(name)s or {name}."""
    checked = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize("po", CATALOGS, ids=catalog_id)
def test_compiled_catalog_matches_its_source(po):
    with po.with_suffix(".mo").open("rb") as compiled:
        translations = gettext.GNUTranslations(compiled)
    for (context, msgid), forms in entries(po).items():
        if len(forms) == 1 and context:
            assert translations.pgettext(context, msgid) == forms[0]
        elif len(forms) == 1:
            assert translations.gettext(msgid) == forms[0]
