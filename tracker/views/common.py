"""What every view shares: finding a user's household data, and answering htmx requests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from django.db.models import Model, Prefetch, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext_lazy as _

from tracker.models import Household, Participant, ShareLink

M = TypeVar("M", bound=Model)

PLAY_ABANDONED = _("This game has been abandoned, perhaps on another tablet: it can no longer "
                   "be changed. Nothing was saved.")


def get_household_for_user(request: HttpRequest) -> Household | None:
    """The household whose data this user sees: the first they are a member of."""
    if not request.user.is_authenticated:
        return None
    return request.user.households.order_by("id").first()


def household_required(request: HttpRequest) -> Household:
    household = get_household_for_user(request)
    if household is None:
        raise Http404("no household")
    return household


def get_for_household(request: HttpRequest, queryset: QuerySet[M], **lookup: Any) -> M:
    """An object of one of the user's households, or 404: other families' data does not exist.

    One query: the membership is checked in the same join that finds the object.
    """
    if not request.user.is_authenticated:
        raise Http404("not logged in")
    return get_object_or_404(queryset.filter(household__members=request.user), **lookup)


def participants_in_seat_order() -> Prefetch:
    return Prefetch("participants",
                    queryset=Participant.objects.select_related("player").order_by("seat"))


def active_share_link(**target: Any) -> ShareLink | None:
    """The link that shows ``target`` (``play=…`` or ``game_night=…``), unless revoked."""
    return ShareLink.objects.filter(revoked_at__isnull=True, **target).order_by("pk").first()


def render_page(request: HttpRequest, template: str, context: Mapping[str, Any], *,
                partial: str | None = None, status: int = 200) -> HttpResponse:
    """The whole page, or for an htmx request only its ``partial`` region."""
    name = f"{template}#{partial}" if partial and request.htmx else template
    response = render(request, name, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response

