"""The households a user belongs to: switching between them, leaving one, deleting one."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tracker.common.pages import render_page
from tracker.households.access import household_required, switch_household, user_households
from tracker.households.forms import HouseholdForm
from tracker.households.membership import LastMember, delete_household, leave_household
from tracker.households.models import Household, ImportJob


@login_required
@require_safe
def household_menu(request: HttpRequest) -> HttpResponse:
    """The top bar's household menu, read when it is opened: it differs from user to user,
    while the pages around it may be shared (a sheet's page is cached for every tablet).
    Imports still under way lead back to their progress. Opened at its own address, it is
    the page of the same choice."""
    if not request.htmx:
        return redirect("household_choose")
    imports = ImportJob.objects.filter(
        user=request.user, state__in=[ImportJob.State.WAITING, ImportJob.State.RUNNING])
    return render_page(request, "households/menu.html", {
        "households": list(user_households(request)),
        "imports": list(imports.order_by("pk").only("pk", "name"))})


@login_required
@require_safe
def household_choose(request: HttpRequest) -> HttpResponse:
    """The same choice as a page of its own, with a form to start another household."""
    return render_page(request, "households/choose.html", {
        "households": list(user_households(request)), "form": HouseholdForm()})


@login_required
@require_POST
def household_switch(request: HttpRequest, household_id: int) -> HttpResponse:
    """Show another of the user's households on this device, starting from its home page."""
    household = get_object_or_404(request.user.households, pk=household_id)
    switch_household(request, household.pk)
    messages.info(request, _("Now showing %(household)s.") % {"household": household.name})
    return redirect("home")


@login_required
@require_POST
def household_leave(request: HttpRequest) -> HttpResponse:
    """Leave the household shown; the device moves on to another of the user's households."""
    household = household_required(request)
    try:
        leave_household(household, request.user)
    except LastMember:
        messages.error(request, _("You are the last member of %(household)s: nobody would see "
                                  "it any more. Delete it instead.")
                       % {"household": household.name})
        return redirect("household_delete")
    messages.success(request, _("You have left %(household)s.") % {"household": household.name})
    return redirect("home")


class DeleteHouseholdForm(forms.Form):
    """Deleting asks for the household's name, typed: a tap alone deletes nothing."""

    name = forms.CharField(label=gettext_lazy("The household's name"), max_length=100)

    def __init__(self, *args: object, household: Household, **kwargs: object):
        super().__init__(*args, **kwargs)
        self.household = household

    def clean_name(self) -> str:
        typed = " ".join(self.cleaned_data["name"].split())
        if typed.casefold() != self.household.name.casefold():
            raise forms.ValidationError(
                _("Type the name exactly as it is written above: %(name)s"),
                params={"name": self.household.name})
        return typed


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def household_delete(request: HttpRequest) -> HttpResponse:
    """Delete the household shown with all its games, once its last member has typed its
    name; the page offers its export first. Members cannot delete a household others
    still use: they leave it."""
    household = household_required(request)
    others = household.members.exclude(pk=request.user.pk).count()
    form = DeleteHouseholdForm(request.POST if request.method == "POST" else None,
                               household=household)
    if request.method == "POST" and not others and form.is_valid():
        delete_household(household.pk)
        messages.success(request, _("%(household)s has been deleted.")
                         % {"household": household.name})
        following = user_households(request).first()
        if following is not None:
            switch_household(request, following.pk)
        return redirect("home")
    return render_page(request, "households/delete.html",
                       {"household": household, "form": form, "others": others},
                       status=422 if form.errors or (others and request.method == "POST")
                       else 200)
