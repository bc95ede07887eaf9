"""An uploaded file read for import: our own export, a BG Stats export, or BoardGameGeek's
log of plays (XML), the other apps' files converted into our document."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import Element, ParseError, tostring

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring
from django.utils.translation import gettext as _

from tracker.portability import bgg, bgstats
from tracker.portability.document import FORMAT, MAX_BYTES, VERSION, ImportRefused
from tracker.portability.report import Report

# Import


@dataclass
class Reading:
    """A file read for import: our document (another app's file converted into one), and the
    report of what the file held that could not come in as it was
    (:meth:`tracker.portability.report.Report.entries`)."""

    document: dict[str, Any]
    notes: list[dict[str, Any]] = field(default_factory=list)


def read_file(data: bytes) -> Reading:
    """Our export, or another app's converted into one, in ``data``; ImportRefused when
    :func:`check_file` refuses it."""
    report = Report()
    document = parsed(data, report)
    if isinstance(document, Element):
        document = bgg.from_bgg(document, report)
    elif bgstats.is_bgstats(document):
        document = bgstats.from_bgstats(document, report)
    return Reading(document, report.entries())


def check_file(data: bytes) -> None:
    """Refuse at once, in the upload's request, a file that is too big, neither JSON nor
    XML, not of the shape of our export, BG Stats' or BGG's log of plays, or of a version
    this app cannot read. Reading another app's plays takes a while for a large file: the
    import does it (:mod:`tracker.portability.imports`)."""
    parsed(data, Report())


def parsed(data: bytes, report: Report) -> Any:
    """The JSON document in ``data`` (ours checked for its format and version), or the root
    of BGG's XML log; the NUL characters left out of its texts told to ``report``."""
    if len(data) > MAX_BYTES:
        raise ImportRefused(_("The file is larger than %(size)s MB: this is not an export "
                              "of the scorekeeper.") % {"size": MAX_BYTES // (1024 * 1024)})
    if looks_like_xml(data):
        return play_log(data)
    try:
        document = json.loads(data)
    except (ValueError, RecursionError):
        raise ImportRefused(_("The file is neither JSON nor XML: choose a file exported "
                              "from the scorekeeper, from BG Stats or from BoardGameGeek.")
                            ) from None
    dropped: Counter[str] = Counter()
    try:
        document = without_nul(document, dropped)
    except RecursionError:
        raise ImportRefused(_("The file is nested too deeply: this is not an export of the "
                              "scorekeeper.")) from None
    if dropped["nul"]:
        report.add("nul", count=dropped["nul"])
    if bgstats.is_bgstats(document):
        return document
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
    return document


def looks_like_xml(data: bytes) -> bool:
    """Whether ``data`` begins as XML does, after a byte order mark and blanks."""
    return data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")


def uploaded(files: list[bytes]) -> bytes:
    """What was uploaded as one file: the file, or the pages of BGG's log of plays (it gives
    100 plays a page) as one log; ImportRefused for several files of another kind, or more
    than ``MAX_BYTES`` in all."""
    if len(files) == 1:
        return files[0]
    if sum(map(len, files)) > MAX_BYTES:
        raise ImportRefused(_("The files are larger than %(size)s MB together.")
                            % {"size": MAX_BYTES // (1024 * 1024)})
    roots = []
    for data in files:
        if not looks_like_xml(data):
            raise ImportRefused(_("Only the pages of BoardGameGeek's log of plays can be "
                                  "chosen several at once; choose any other file alone."))
        roots.append(play_log(data))
    log = Element("plays", roots[0].attrib)
    log.extend(play for root in roots for play in root.findall("play"))
    return tostring(log, encoding="utf-8")


def play_log(data: bytes) -> Element:
    """The root of BGG's XML log of plays in ``data``; refused when it is not one. Read
    without expanding entities or fetching anything the file points to."""
    try:
        root = fromstring(data, forbid_dtd=True)
    except (ParseError, DefusedXmlException, ValueError, RecursionError):
        raise ImportRefused(_("The file is not readable XML: choose the log of plays as "
                              "BoardGameGeek writes it.")) from None
    if not bgg.is_play_log(root):
        raise ImportRefused(_("The file is XML, but not BoardGameGeek's log of plays (it "
                              "begins with <plays>)."))
    return root


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
