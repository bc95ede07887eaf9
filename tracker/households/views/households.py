"""A family sets itself up: its household, players, members, invitations; the first account;
signing up."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tracker.common.pages import render_page
from tracker.households import limits
from tracker.households.access import (
    get_for_household,
    get_household_for_user,
    household_required,
    switch_household,
    user_households,
)
from tracker.households.auth import PASSWORD_BACKEND
from tracker.households.forms import AccountForm, HouseholdForm, PlayerForm, PlayerNamesForm
from tracker.households.limits import AddressCount, TooMany, TooManyHouseholds, client_address
from tracker.households.membership import (
    DEMO_USER,
    AlreadyMember,
    InvitationClosed,
    accept_invitation,
    closed_reason,
    found_household,
    start_family,
)
from tracker.households.models import Household, Invitation, Player

DETAIL = "households/detail.html"
INVITATION = "households/invitation.html"


class LoginView(auth_views.LoginView):
    """Django's login page, which on a fresh install offers to create the first account,
    where sign-up is open offers to start a family, and names the demo's login while the
    demo family is there."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        accounts = get_user_model().objects
        return super().get_context_data(**kwargs) | {
            "first_account": not accounts.exists(),
            "signup": settings.SIGNUP == "open",
            "demo": accounts.filter(username=DEMO_USER, is_active=True).exists(),
            "password_reset": can_send_email()}


def can_send_email() -> bool:
    """Whether the site's owner named a mail server (``DJANGO_EMAIL_HOST``)."""
    return bool(settings.EMAIL_HOST)


def by_email(view_class: type[View]) -> Callable[..., HttpResponse]:
    """One of Django's password-reset pages, there only where the site can send email:
    elsewhere it would promise a message that never comes."""
    view = view_class.as_view()

    def when_email_is_sent(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not can_send_email():
            raise Http404("this site sends no email")
        return view(request, *args, **kwargs)

    return when_email_is_sent


@require_http_methods(["GET", "HEAD", "POST"])
def first_account(request: HttpRequest) -> HttpResponse:
    """The site owner's account, a superuser; once any account exists this page is gone."""
    if get_user_model().objects.exists():
        raise Http404("there are accounts already")
    form = AccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        owner = form.save(commit=False)
        owner.is_staff = owner.is_superuser = True
        owner.save()
        login(request, owner, backend=PASSWORD_BACKEND)
        return redirect("home")
    return render_page(request, "registration/first_account.html", {"form": form},
                       status=422 if form.errors else 200)


def throttled(request: HttpRequest, template: str, context: dict[str, Any],
              too_many: TooMany, kind: str) -> HttpResponse:
    """The form again with why this address waits, and how long (429)."""
    if kind == AddressCount.Kind.SIGNUP:
        why = ngettext("Too many new accounts came from this address in the last hour. "
                       "Try again in %(minutes)d minute.",
                       "Too many new accounts came from this address in the last hour. "
                       "Try again in %(minutes)d minutes.", too_many.minutes)
    else:
        why = ngettext("Too many attempts from this address. Try again in %(minutes)d minute.",
                       "Too many attempts from this address. Try again in %(minutes)d minutes.",
                       too_many.minutes)
    response = render_page(request, template, context | {
        name: unchecked(value) for name, value in context.items()
        if isinstance(value, forms.BaseForm)} | {
        "throttled": why % {"minutes": too_many.minutes}}, status=429)
    response["Retry-After"] = str(too_many.minutes * 60)
    return response


def unchecked(form: forms.BaseForm) -> forms.BaseForm:
    """``form`` again with what was typed (passwords aside) but not checked: an address that
    has to wait learns nothing from it, not even whether a user name is taken."""
    if not form.is_bound:
        return form
    typed = {name: form.data.get(form.add_prefix(name)) for name in form.fields
             if "password" not in name}
    return type(form)(prefix=form.prefix, initial=typed)


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Start a family: an account and its household in one short form, where the site's
    owner opened sign-up (``DJANGO_SIGNUP=open``). At most ``SIGNUPS_PER_HOUR`` new
    accounts an hour come from one address."""
    if settings.SIGNUP != "open":
        raise Http404("sign-up is not open on this site")
    if request.user.is_authenticated:
        return redirect("home")
    account = AccountForm(request.POST or None)
    family = HouseholdForm(request.POST or None, prefix="family")
    # The family's name comes first on the form, and so does the cursor.
    account.fields["username"].widget.attrs.pop("autofocus", None)
    family.fields["name"].widget.attrs["autofocus"] = True
    page = "registration/signup.html"
    context = {"form": account, "family": family}
    if request.method == "POST":
        address = client_address(request)
        kind = AddressCount.Kind.SIGNUP
        try:
            limits.check(kind, address, settings.SIGNUPS_PER_HOUR)
            kind = AddressCount.Kind.FAILED_SIGNUP
            limits.check(kind, address, settings.FAILED_SIGNUPS_PER_HOUR)
            if account.is_valid() and family.is_valid():
                kind = AddressCount.Kind.SIGNUP
                user, household = start_family(account, family.cleaned_data["name"], address)
                login(request, user, backend=PASSWORD_BACKEND)
                messages.success(request, _("Welcome, %(household)s! Add your players next.")
                                 % {"household": household.name})
                return redirect("home")
        except TooMany as too_many:
            return throttled(request, page, context, too_many, kind)
        except TooManyHouseholds as full:
            family.add_error("name", full.message())
        limits.record(AddressCount.Kind.FAILED_SIGNUP, address)
    return render_page(request, page, context,
                       status=422 if account.errors or family.errors else 200)


@login_required
@require_POST
def household_create(request: HttpRequest) -> HttpResponse:
    """Found a household (the first one from the home page, another from the household
    menu); its founder is its first member, and the device shows it at once."""
    form = HouseholdForm(request.POST)
    if form.is_valid():
        try:
            household = found_household(form.cleaned_data["name"], request.user)
        except TooManyHouseholds as full:
            form.add_error("name", full.message())
        else:
            switch_household(request, household.pk)
            return redirect("home")
    if get_household_for_user(request) is None:
        return render_page(request, "home.html",
                           {"household": None, "household_form": form}, status=422)
    return render_page(request, "households/choose.html", {
        "households": list(user_households(request)), "form": form}, status=422)


def edit_form(household: Household, player: Player, players: list[Player],
              data: QueryDict | None = None) -> PlayerForm:
    return PlayerForm(data, household=household, instance=player, players=players,
                      prefix=f"player-{player.pk}")


def household_context(request: HttpRequest, household: Household, *,
                      rename_form: HouseholdForm | None = None,
                      add_form: PlayerForm | None = None,
                      names_form: PlayerNamesForm | None = None,
                      edited: PlayerForm | None = None,
                      new_invitation: Invitation | None = None) -> dict[str, Any]:
    """The household page: its players, the members and the open invitations.

    The forms given are shown as they were filled in (with their errors); a player's own
    form is read when their row is opened (:func:`player_edit`), so that a club with
    thousands of players gets its page in well under a second. Constant queries, however
    many players.
    """
    players = list(household.players.all())
    player_rows = [(player, edited if edited and edited.instance.pk == player.pk else None)
                   for player in players]
    invitations = (household.invitations
                   .filter(accepted_at__isnull=True, revoked_at__isnull=True,
                           expires_at__gt=timezone.now()))
    return {
        "household": household,
        "rename_form": rename_form or HouseholdForm(instance=household),
        "player_rows": player_rows,
        "add_form": add_form or PlayerForm(household=household, players=players, prefix="new"),
        "names_form": names_form or PlayerNamesForm(household=household),
        "members": household.members.order_by("username"),
        "own_games": household.own_games.annotate(plays_count=Count("plays")),
        "invitations": [(invitation, request.build_absolute_uri(invitation.get_absolute_url()))
                        for invitation in invitations],
        "new_invitation": new_invitation,
    }


@login_required
@require_safe
def household_detail(request: HttpRequest) -> HttpResponse:
    household = get_household_for_user(request)
    if household is None:
        return redirect("home")
    return render_page(request, DETAIL, household_context(request, household))


@login_required
@require_POST
def household_rename(request: HttpRequest) -> HttpResponse:
    household = household_required(request)
    form = HouseholdForm(request.POST, instance=household)
    if form.is_valid():
        form.save()
        return redirect("household")
    return render_page(request, DETAIL, household_context(request, household, rename_form=form),
                       status=422)


def saved(form: PlayerForm) -> bool:
    """Save a valid player form; False when a name taken a moment ago became its error."""
    try:
        form.save()
    except IntegrityError:
        return False
    return True


@login_required
@require_POST
def household_player_add(request: HttpRequest) -> HttpResponse:
    """Add a player; htmx gets the players section back, with the next free colour offered."""
    household = household_required(request)
    form = PlayerForm(request.POST, household=household, prefix="new")
    if form.is_valid() and saved(form):
        if not request.htmx:
            return redirect(reverse("household") + "#players")
        return render_page(request, DETAIL, household_context(request, household),
                           partial="players")
    return render_page(request, DETAIL, household_context(request, household, add_form=form),
                       partial="players", status=422)


@login_required
@require_POST
def household_players_add(request: HttpRequest) -> HttpResponse:
    """Add several players at once, one name per line; htmx gets the players section back."""
    household = household_required(request)
    form = PlayerNamesForm(request.POST, household=household)
    if form.is_valid():
        try:
            form.save()
        except IntegrityError:
            form.add_error("names", _("There is already a player with this name."))
        else:
            if not request.htmx:
                return redirect(reverse("household") + "#players")
            return render_page(request, DETAIL, household_context(request, household),
                               partial="players")
    return render_page(request, DETAIL, household_context(request, household, names_form=form),
                       partial="players", status=422)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def player_edit(request: HttpRequest, player_id: int) -> HttpResponse:
    """Rename a player or give them another colour; their games stay theirs. Asked for
    without a form, the player's form: for their row on the household page, or as a page."""
    player = get_for_household(request, Player.objects.select_related("household"),
                               pk=player_id)
    household = player.household
    posted = request.POST if request.method == "POST" else None
    form = edit_form(household, player, list(household.players.all()), posted)
    if posted is None:
        if request.htmx:
            return render_page(request, f"{DETAIL}#player_form", {"form": form})
        return render_page(request, "households/player.html", {"player": player, "form": form})
    if form.is_valid() and saved(form):
        if not request.htmx:
            return redirect(reverse("household") + f"#player-{player.pk}")
        return render_page(request, DETAIL, household_context(request, household),
                           partial="players")
    return render_page(request, DETAIL, household_context(request, household, edited=form),
                       partial="players", status=422)


@login_required
@require_POST
def invitation_create(request: HttpRequest) -> HttpResponse:
    household = household_required(request)
    invitation = Invitation.objects.create(household=household, created_by=request.user)
    if not request.htmx:
        messages.success(request, _("The invitation is ready: send its link to the person "
                                    "you invite."))
        return redirect(reverse("household") + "#invitations")
    return render_page(request, DETAIL, household_context(request, household,
                                                          new_invitation=invitation),
                       partial="members")


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, invitation_id: int) -> HttpResponse:
    invitation = get_for_household(request, Invitation.objects.select_related("household"),
                                   pk=invitation_id)
    Invitation.objects.filter(pk=invitation.pk, accepted_at__isnull=True,
                              revoked_at__isnull=True).update(revoked_at=timezone.now())
    if not request.htmx:
        return redirect(reverse("household") + "#invitations")
    return render_page(request, DETAIL, household_context(request, invitation.household),
                       partial="members")


def invitation_closed(request: HttpRequest, invitation: Invitation | None,
                      reason: str) -> HttpResponse:
    """Why a link lets nobody in: 404 when it never existed, 410 when it is used up."""
    return render_page(request, INVITATION, {"invitation": invitation, "closed": reason},
                       status=404 if invitation is None else 410)


@require_http_methods(["GET", "HEAD", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """Join a household: with the account one is logged in with, or a new one made here."""
    invitation = Invitation.objects.select_related("household").filter(token=token).first()
    if invitation is None:
        return invitation_closed(request, None, "unknown")
    reason = closed_reason(invitation)
    if reason is not None:
        return invitation_closed(request, invitation, reason)
    if request.user.is_authenticated:
        return join(request, invitation)
    return sign_up(request, invitation)


def join(request: HttpRequest, invitation: Invitation) -> HttpResponse:
    household = invitation.household
    if request.method == "POST":
        try:
            accept_invitation(invitation, request.user)
        except InvitationClosed as closed:
            return invitation_closed(request, invitation, closed.reason)
        except AlreadyMember:
            messages.info(request, _("You already belong to %(household)s.")
                          % {"household": household.name})
        else:
            messages.success(request, _("Welcome to %(household)s!")
                             % {"household": household.name})
        return redirect("home")
    current = get_household_for_user(request)
    return render_page(request, INVITATION, {
        "invitation": invitation, "household": household,
        "already_member": household.members.filter(pk=request.user.pk).exists(),
        "current_household": current})


def sign_up(request: HttpRequest, invitation: Invitation) -> HttpResponse:
    """A new account that joins the invitation's household; where sign-up is closed
    (``DJANGO_SIGNUP=closed``) only someone with an account can accept."""
    if settings.SIGNUP == "closed":
        return render_page(request, INVITATION, {
            "invitation": invitation, "household": invitation.household, "form": None})
    form = AccountForm(request.POST or None)
    context = {"invitation": invitation, "household": invitation.household, "form": form}
    if request.method == "POST":
        address = client_address(request)
        try:
            limits.check(AddressCount.Kind.FAILED_SIGNUP, address,
                         settings.FAILED_SIGNUPS_PER_HOUR)
        except TooMany as too_many:
            return throttled(request, INVITATION, context, too_many,
                             AddressCount.Kind.FAILED_SIGNUP)
        if form.is_valid():
            try:
                with transaction.atomic():
                    user = form.save()
                    household = accept_invitation(invitation, user)
            except InvitationClosed as closed:
                return invitation_closed(request, invitation, closed.reason)
            login(request, user, backend=PASSWORD_BACKEND)
            messages.success(request, _("Welcome to %(household)s!")
                             % {"household": household.name})
            return redirect("home")
        limits.record(AddressCount.Kind.FAILED_SIGNUP, address)
    return render_page(request, INVITATION, context, status=422 if form.errors else 200)
