from django.db.models import Count, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tracker.models import GameNight, Household, Participant, Play, PlayStatus, Series

RECENT_NIGHTS = 5


def _get_household_for_user(request: HttpRequest) -> Household | None:
    """The household whose data this user sees: the first they are a member of."""
    if not request.user.is_authenticated:
        return None
    return request.user.households.order_by("id").first()


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    household = _get_household_for_user(request)
    if household is None:
        return render(request, "home.html", {"household": None})
    ordered_participants = Prefetch(
        "participants", queryset=Participant.objects.select_related("player").order_by("seat"))
    nights = (GameNight.objects.filter(household=household)
              .annotate(play_count=Count("plays", distinct=True))
              .order_by("-date", "-id")
              .prefetch_related("players")[:RECENT_NIGHTS])
    open_plays = (Play.objects.filter(household=household, status=PlayStatus.IN_PROGRESS)
                  .prefetch_related(ordered_participants).order_by("-updated_at"))
    running_series = (Series.objects.filter(household=household, status=Series.Status.RUNNING)
                      .annotate(races_played=Count("plays", distinct=True)))
    return render(request, "home.html", {
        "household": household,
        "nights": nights,
        "open_plays": open_plays,
        "running_series": running_series,
    })
