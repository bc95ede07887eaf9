"""A household's whole data as one JSON document: what the format is, how much a file may
hold, and how a refusal is named.

The document names its objects by ids local to it ("p1", "o1", "n1", "g1", "s1", "t1"), never
by database ids, so it moves between servers; in results and history, players are named
by those ids too. It holds no tokens, passwords or accounts: who entered what stays on
the server it came from.

Version 2 carries the household's own games (``own_games``: every field of the library
entry) and names the own game of each play, series and tournament of the ``generic`` game.
A version 1 document has none: its plays of "Any other game" move into an own game "Other
games" (or "Other games (fewest points)") as migration 0012 moved the stored ones.

Since migration 0025 a document also carries each play's ``note`` and ``length_minutes``,
each night's ``place`` ("" at home) and how each own game's points are written down
(``sheet``, ``categories``, ``tiebreak``, ``pad_moves``); a result may keep its ``sums``.
A document from before has none of them: its plays come in without a note or a length,
its nights at home, its own games round by round. Since migration 0028 an own game may
name a ``tiebreak_count`` and a result keep its ``tie_counts``; without them, ties stand.

The household, each player, own game and play may carry ``elsewhere``: what the app it came
from knows of it, by app (``{"bgstats": {...}}``: the object as BG Stats wrote it, its uuid
among it), so that a household imported from BG Stats, moved between servers in this
format, still goes back to BG Stats as it came. A document without it has none."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DatabaseError, IntegrityError, OperationalError
from django.utils.translation import gettext as _

FORMAT = "family-scorekeeper"
VERSION = 2
#: The own game that the plays of "Any other game" in a version 1 document move into, as
#: migration 0012 named it; the family may rename it.
OTHER_GAMES = "Other games"
OWN_GAME_NAME_LENGTH = 60
#: Far above the largest family's history (a Kniffel evening a week for years), far
#: below what would keep a worker busy.
MAX_BYTES = 20 * 1024 * 1024
#: What a play takes in an export, measured: about 900 bytes for a game of four with its
#: result and history (BG Stats files less), 12 kB for a Kniffel game entered cell by cell.
BYTES_PER_PLAY = 1000
BYTES_PER_KNIFFEL_SHEET = 12_000
SMALL_INT = 32767
#: Game nights written in one step of an import: a few tenths of a second of writing.
NIGHTS_PER_STEP = 250


def plays_that_fit(size: int = BYTES_PER_PLAY) -> int:
    """About how many plays of ``size`` bytes an export of ``MAX_BYTES`` holds, rounded
    down to two significant digits."""
    count = MAX_BYTES // size
    unit = 10 ** max(0, len(str(count)) - 2)
    return count // unit * unit


class ImportRefused(Exception):
    """The document cannot be imported; the message says why, in the user's language."""


@contextmanager
def refusals() -> Iterator[None]:
    """What the database or the parser refuse in a document, refused as ImportRefused."""
    try:
        yield
    except RecursionError:
        raise ImportRefused(_("The file is nested too deeply.")) from None
    except OperationalError:
        raise  # the database's trouble (locked, gone away), not the file's
    except (IntegrityError, DatabaseError):
        raise ImportRefused(_("The file contradicts itself (two players of the same name, "
                              "two plays at one table, or similar).")) from None
