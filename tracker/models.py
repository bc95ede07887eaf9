"""Every model of the app, gathered from the domains that define them.

Django reads an app's models from this module. Each model lives in its domain's
``models.py`` (see docs/architecture.md); import it from there. The names stay
reachable here for the migrations, which refer to ``tracker.models.new_token`` and
``tracker.models.invitation_expiry``.
"""

from tracker.evenings.models import (  # noqa: I001 (each domain after the ones below it)
    GameNight,
    Series,
    SeriesChange,
    Tournament,
    TournamentEntry,
)
from tracker.households.limits import AddressCount
from tracker.households.models import (
    AppliedEntry,
    Household,
    ImportJob,
    Invitation,
    Player,
    invitation_expiry,
    new_token,
)
from tracker.room.models import ShareLink
from tracker.table.models import (
    HeadToHeadTally,
    KniffelCell,
    KniffelFieldTally,
    OwnGame,
    Participant,
    Play,
    PlayChange,
    game_choices,
)

__all__ = [
    "AddressCount", "AppliedEntry", "GameNight", "HeadToHeadTally", "Household", "ImportJob",
    "Invitation", "KniffelCell", "KniffelFieldTally", "OwnGame", "Participant", "Play",
    "PlayChange", "Player", "Series", "SeriesChange", "ShareLink", "Tournament", "TournamentEntry",
    "game_choices", "invitation_expiry", "new_token",
]
