"""A household's data to take away (JSON, CSV and BG Stats), and an export brought back."""

from __future__ import annotations

import io
import json
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe
from django_htmx.http import HttpResponseClientRedirect

from tracker.common.downloads import attachment, file_name
from tracker.common.heavy import heavy
from tracker.common.pages import render_page
from tracker.households import limits
from tracker.households.access import household_required, switch_household
from tracker.households.models import Household, ImportJob
from tracker.portability.bgstats_export import to_bgstats
from tracker.portability.document import (
    BYTES_PER_KNIFFEL_SHEET,
    MAX_BYTES,
    ImportRefused,
    plays_that_fit,
)
from tracker.portability.export import export_csv, export_household
from tracker.portability.files import check_file, uploaded
from tracker.portability.imports import create_job, resume_if_stale
from tracker.portability.report import parts


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class FilesField(forms.FileField):
    """One file or several (the pages of BoardGameGeek's log): a list of them."""

    widget = MultipleFileInput

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(item, initial) for item in data] or [single(None, initial)]
        return [single(data, initial)]


class ImportForm(forms.Form):
    document = FilesField(label=gettext_lazy("Exported file"))
    name = forms.CharField(label=gettext_lazy("Name of the new household"), max_length=100,
                           required=False,
                           help_text=gettext_lazy("Empty: the name in the file."))


def download(content: str, household: Household, extension: str, content_type: str
             ) -> HttpResponse:
    """The household's file, named after it and today: familie-muller-2026-11-27.json."""
    return attachment(content, content_type, (file_name(household.name) or "household",
                                              f"{timezone.localdate():%Y-%m-%d}"), extension)


@login_required
@require_safe
@heavy()
def household_export(request: HttpRequest) -> HttpResponse:
    household = household_required(request)
    # Without indentation: it would double the file, and halve what fits the upload limit.
    text = json.dumps(export_household(household), ensure_ascii=False, separators=(",", ":"))
    return download(text, household, "json", "application/json; charset=utf-8")


@login_required
@require_safe
@heavy()
def household_export_bgstats(request: HttpRequest) -> HttpResponse:
    household = household_required(request)
    text = json.dumps(to_bgstats(household), ensure_ascii=False, indent=1)
    return download(text, household, "bgstats.json", "application/json; charset=utf-8")


@login_required
@require_safe
@heavy()
def household_export_csv(request: HttpRequest) -> HttpResponse:
    household = household_required(request)
    out = io.StringIO()
    export_csv(household, out)
    # The byte order mark makes spreadsheets read the file as UTF-8, umlauts included.
    return download("\ufeff" + out.getvalue(), household, "csv", "text/csv; charset=utf-8")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def household_import(request: HttpRequest) -> HttpResponse:
    """An exported household (ours, BG Stats' or BGG's log of plays, whose pages may come
    as several files) to restore as a new one, with the importing
    user as a member: a file that is not an export is refused here, and the import itself
    runs as background work (:mod:`tracker.portability.imports`) while its progress page
    shows it."""
    posted = request.method == "POST"
    form = ImportForm(request.POST if posted else None, request.FILES if posted else None)
    if posted and form.is_valid():
        try:
            data = uploaded([upload.read(MAX_BYTES + 1)
                             for upload in form.cleaned_data["document"]])
            check_file(data)
        except ImportRefused as refused:
            form.add_error("document", str(refused))
        else:
            try:
                with transaction.atomic():
                    limits.lock_account(request.user)
                    limits.check_households_left(request.user)
                    job = create_job(request.user, data, name=form.cleaned_data["name"])
            except limits.TooManyHouseholds as full:
                form.add_error("name", full.message())
            else:
                return redirect("household_import_progress", job_id=job.pk)
    return render_page(request, "households/import.html",
                       {"form": form, "limit_mb": MAX_BYTES // (1024 * 1024),
                        "plays_that_fit": plays_that_fit(),
                        "sheets_that_fit": plays_that_fit(BYTES_PER_KNIFFEL_SHEET)},
                       status=422 if form.errors else 200)


@login_required
@require_safe
def household_import_progress(request: HttpRequest, job_id: int) -> HttpResponse:
    """How far the user's import got, asked again every second by the page itself; once it
    is done, the device switches to the new household and shows it, or, where a file from
    another app held what could not come in as it was, the page shows that report (kept
    with the job, never in the session) and the way to the household."""
    job = resume_if_stale(get_object_or_404(ImportJob, pk=job_id, user=request.user))
    done = job.state == ImportJob.State.DONE and job.household is not None
    if done:
        switch_household(request, job.household_id)
    if done and not job.notes:
        messages.success(request, _("Imported as %(household)s.")
                         % {"household": job.household.name})
        if request.htmx:
            return HttpResponseClientRedirect(reverse("household"))
        return redirect("household")
    return render_page(request, "households/import_progress.html",
                       {"job": job, "done": done, "report": parts(job.notes)},
                       partial="progress")
