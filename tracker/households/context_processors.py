"""What the top bar of every page shows."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.http import HttpRequest

from tracker.households.access import get_household_for_user


def shown_household(request: HttpRequest) -> dict[str, Any]:
    """The household the device shows, looked up only if a template asks for it."""
    return {"shown_household": partial(get_household_for_user, request)}
