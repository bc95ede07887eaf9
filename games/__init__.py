"""The rules engine: every game the family plays, validated and scored.

Pure Python, no Django. Each game is one module with one :class:`Rules`
subclass; :data:`GAMES` below is the registry, in the order games are offered.

    >>> import games
    >>> rules = games.get("maus_im_nacken")
    >>> outcome = rules.score({"players": ["anna", "ben"], "elephants": {
    ...     "anna": ["home:1", "seat:5", "caught", "pyramid"],
    ...     "ben": ["home:2", "seat:8", "seat:3", "caught"]}})
    >>> outcome.points, outcome.places
    ({'anna': 18, 'ben': 23}, {'anna': 2, 'ben': 1})
"""

from __future__ import annotations

from games import kniffel, weltraum_kniffel  # noqa: F401  (games.kniffel.points and options)
from games.alles_fuer_die_katz import AllesFuerDieKatz
from games.base import InvalidResult, Option, Outcome, Problem, Rules, UnknownGame
from games.entenspiel import Entenspiel
from games.generic import Generic
from games.i18n import Text
from games.mau_mau import MauMau
from games.maus_im_nacken import MausImNacken
from games.mensch_aergere_dich_nicht import MenschAergereDichNicht
from games.mouse_trap import MouseTrap
from games.seating import seat_rounds
from games.series import (
    DEFAULT_PLACE_POINTS,
    METRICS,
    Cut,
    StandingRow,
    TieBreak,
    final_table_cut,
    ranks_with_final,
    series_standings,
    tiebreaks_used,
)
from games.souriciere import Souriciere

GAMES: dict[str, Rules] = {
    rules.key: rules
    for rules in (
        MausImNacken(),
        kniffel.RULES,
        weltraum_kniffel.RULES,
        MouseTrap(),
        AllesFuerDieKatz(),
        Souriciere(),
        MenschAergereDichNicht(),
        Entenspiel(),
        MauMau(),
        Generic(),
    )
}


def get(key: str) -> Rules:
    """The rules registered under ``key``; :class:`UnknownGame` when there are none."""
    try:
        return GAMES[key]
    except (KeyError, TypeError):
        raise UnknownGame(f"no game is registered as {key!r}") from None


def all_games() -> list[Rules]:
    """Every game, in the order they are offered."""
    return list(GAMES.values())


__all__ = [
    "DEFAULT_PLACE_POINTS", "GAMES", "METRICS", "Cut", "InvalidResult", "Option", "Outcome",
    "Problem", "Rules", "StandingRow", "Text", "TieBreak", "UnknownGame", "all_games",
    "final_table_cut", "get", "ranks_with_final", "seat_rounds", "series_standings",
    "tiebreaks_used",
]
