"""Which household a request acts in, and finding its data: other families' data does not
exist for a user."""

from __future__ import annotations

from typing import Any, TypeVar

from django.db.models import Case, IntegerField, Model, QuerySet, Value, When
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from tracker.common.parsing import small_int
from tracker.households.models import Household

M = TypeVar("M", bound=Model)

#: The cookie that remembers on a device which of the user's households it shows.
HOUSEHOLD_COOKIE = "household"
HOUSEHOLD_COOKIE_SECONDS = 400 * 24 * 60 * 60


def chosen_household_id(request: HttpRequest) -> int | None:
    """The household this device last chose for the signed-in user, if it said so.

    The cookie names the user too, so that a family tablet that several people log in
    on shows each of them their own choice; membership is checked wherever it is used.
    """
    switched = getattr(request, "switched_household_id", None)
    if switched is not None:
        return switched
    user_id, _sep, household_id = request.COOKIES.get(HOUSEHOLD_COOKIE, "").partition(":")
    if user_id != str(request.user.pk):
        return None
    return small_int(household_id)


def switch_household(request: HttpRequest, household_id: int) -> None:
    """Show ``household_id`` (one of the user's households) on this device from now on.

    :class:`tracker.households.middleware.HouseholdChoiceMiddleware` writes the choice into the
    answer's cookie; the rest of this request sees it already.
    """
    request.switched_household_id = household_id
    request.__dict__.pop("current_household", None)


def user_households(request: HttpRequest) -> QuerySet[Household]:
    """The user's households: the one the sending page showed first (see
    :func:`page_household_id`), then the one this device chose, then the oldest first."""
    preferred = [pk for pk in (page_household_id(request), chosen_household_id(request))
                 if pk is not None]
    order = [When(pk=pk, then=Value(rank)) for rank, pk in enumerate(preferred)]
    # What other apps know of a household is read only to write their files back.
    return request.user.households.defer("elsewhere").annotate(
        chosen=Case(*order, default=Value(len(order)), output_field=IntegerField())
    ).order_by("chosen", "id")


def page_household_id(request: HttpRequest) -> int | None:
    """The household the page that sent this form showed (``X-Household`` from htmx, else
    the ``shown_household`` field static/js/app.js adds): another tab of the browser may
    have switched the device meanwhile, and what is entered belongs where it was entered.
    A switch made by this request itself (a choice in the menu, an object of another
    household) goes before it."""
    if request.method in ("GET", "HEAD", "OPTIONS") or hasattr(request, "switched_household_id"):
        return None
    return small_int(request.headers.get("X-Household") or request.POST.get("shown_household"))


def get_household_for_user(request: HttpRequest) -> Household | None:
    """The household whose data this user sees: for a form, the one its page showed; else
    the one chosen on this device, else the first they joined; one query, once per request.

    A form sent from a page of another of the user's households than the device shows now
    switches the device back to it, as a link into it would.
    """
    if not request.user.is_authenticated:
        return None
    if "current_household" not in request.__dict__:
        household = user_households(request).first()
        if household is not None and household.pk == page_household_id(request):
            show_household_of(request, household.pk)
        request.current_household = household
    return request.current_household


def household_required(request: HttpRequest) -> Household:
    household = get_household_for_user(request)
    if household is None:
        raise Http404("no household")
    return household


def get_for_household(request: HttpRequest, queryset: QuerySet[M], **lookup: Any) -> M:
    """An object of one of the user's households, or 404: other families' data does not exist.

    One query: the membership is checked in the same join that finds the object. An object
    of another of the user's households switches the device to that household, so that a
    link shared in the family chat shows it among its own.
    """
    if not request.user.is_authenticated:
        raise Http404("not logged in")
    found = get_object_or_404(queryset.filter(household__members=request.user), **lookup)
    show_household_of(request, found.household_id)
    return found


def show_household_of(request: HttpRequest, household_id: int) -> None:
    """Switch to ``household_id`` (a household of the user's) unless the device shows it."""
    current = request.__dict__.get("current_household")
    shown = current.pk if current is not None else chosen_household_id(request)
    if household_id != shown:
        switch_household(request, household_id)





