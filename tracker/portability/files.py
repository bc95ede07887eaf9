"""An uploaded file read for import: our own export, or a BG Stats export converted into one."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tracker.portability import bgstats
from tracker.portability.document import FORMAT, MAX_BYTES, VERSION, ImportRefused

# Import


@dataclass
class Reading:
    """A file read for import: our document (a BG Stats file converted into one), and what
    the file held that the app does not keep."""

    document: dict[str, Any]
    notes: list[str] = field(default_factory=list)


def read_file(data: bytes) -> Reading:
    """Our export, or a BG Stats export converted into one, in ``data``; ImportRefused when
    :func:`check_file` refuses it, or for a damaged BG Stats file."""
    document, notes = parsed(data)
    if bgstats.is_bgstats(document):
        converted = bgstats.from_bgstats(document)
        return Reading(converted.document, converted.notes + notes)
    return Reading(document, notes)


def check_file(data: bytes) -> None:
    """Refuse at once, in the upload's request, a file that is too big, not JSON, neither
    our export nor BG Stats', or of a version this app cannot read. Reading a BG Stats
    file's plays takes a while for a large one: the import does it
    (:mod:`tracker.portability.imports`)."""
    parsed(data)


def parsed(data: bytes) -> tuple[Any, list[str]]:
    """The JSON document in ``data``, ours checked for its format and version, and the notes
    on what was left out of it (NUL characters)."""
    if len(data) > MAX_BYTES:
        raise ImportRefused(_("The file is larger than %(size)s MB: this is not an export "
                              "of the scorekeeper.") % {"size": MAX_BYTES // (1024 * 1024)})
    try:
        document = json.loads(data)
    except (ValueError, RecursionError):
        raise ImportRefused(_("The file is not a JSON document: choose a file exported "
                              "from the scorekeeper or from BG Stats.")) from None
    dropped: Counter[str] = Counter()
    try:
        document = without_nul(document, dropped)
    except RecursionError:
        raise ImportRefused(_("The file is nested too deeply: this is not an export of the "
                              "scorekeeper.")) from None
    notes = [ngettext("%(count)s NUL character (an invisible control character no name "
                      "can hold) was left out of the file's texts.",
                      "%(count)s NUL characters (invisible control characters no name can "
                      "hold) were left out of the file's texts.", dropped["nul"])
             % {"count": dropped["nul"]}] if dropped["nul"] else []
    if bgstats.is_bgstats(document):
        return document, notes
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportRefused(_("The file is not an export of the scorekeeper, nor one of "
                              "BG Stats."))
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ImportRefused(_("The file does not say which version of the format it has."))
    if version > VERSION:
        raise ImportRefused(_("The file was exported by a newer version of the scorekeeper "
                              "(format %(version)s): update this one first.")
                            % {"version": version})
    return document, notes


def without_nul(value: Any, dropped: Counter[str]) -> Any:
    """``value`` with the NUL characters taken out of every text and key, counted in
    ``dropped``: no name shows one, and PostgreSQL can store none (a text or JSON with one
    would fail the import half-way)."""
    if isinstance(value, str):
        if "\x00" in value:
            dropped["nul"] += value.count("\x00")
            return value.replace("\x00", "")
        return value
    if isinstance(value, list):
        return [without_nul(item, dropped) for item in value]
    if isinstance(value, dict):
        return {without_nul(key, dropped): without_nul(item, dropped)
                for key, item in value.items()}
    return value


def read_document(data: bytes) -> dict[str, Any]:
    """The document in ``data`` (see :func:`read_file`), without the notes."""
    return read_file(data).document
