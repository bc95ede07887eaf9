"""A household's data to take away (JSON, CSV and BG Stats), and an export brought back."""

from __future__ import annotations

import io
import json

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from tracker.bgstats import to_bgstats
from tracker.models import Household
from tracker.transfer import (
    MAX_BYTES,
    ImportRefused,
    export_csv,
    export_household,
    import_household,
    read_file,
)
from tracker.views.common import household_required, render_page


class ImportForm(forms.Form):
    document = forms.FileField(label=gettext_lazy("Exported file"))
    name = forms.CharField(label=gettext_lazy("Name of the new household"), max_length=100,
                           required=False,
                           help_text=gettext_lazy("Empty: the name in the file."))


def download(content: str, household: Household, extension: str, content_type: str
             ) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    filename = f"{slugify(household.name) or 'household'}-{timezone.localdate():%Y-%m-%d}"
    response["Content-Disposition"] = f'attachment; filename="{filename}.{extension}"'
    return response


@login_required
@require_safe
def household_export(request: HttpRequest) -> HttpResponse:
    household = household_required(request)
    text = json.dumps(export_household(household), ensure_ascii=False, indent=1)
    return download(text, household, "json", "application/json; charset=utf-8")


@login_required
@require_safe
def household_export_bgstats(request: HttpRequest) -> HttpResponse:
    household = household_required(request)
    text = json.dumps(to_bgstats(household), ensure_ascii=False, indent=1)
    return download(text, household, "bgstats.json", "application/json; charset=utf-8")


@login_required
@require_safe
def household_export_csv(request: HttpRequest) -> HttpResponse:
    household = household_required(request)
    out = io.StringIO()
    export_csv(household, out)
    # The byte order mark makes spreadsheets read the file as UTF-8, umlauts included.
    return download("\ufeff" + out.getvalue(), household, "csv", "text/csv; charset=utf-8")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def household_import(request: HttpRequest) -> HttpResponse:
    """An exported household (ours or BG Stats') restored as a new one, with the importing
    user as a member; what a BG Stats file held that the app does not keep is listed."""
    posted = request.method == "POST"
    form = ImportForm(request.POST if posted else None, request.FILES if posted else None)
    if posted and form.is_valid():
        upload = form.cleaned_data["document"]
        try:
            with transaction.atomic():
                reading = read_file(upload.read(MAX_BYTES + 1))
                household = import_household(reading.document,
                                             name=form.cleaned_data["name"] or None)
                household.members.add(request.user)
        except ImportRefused as refused:
            form.add_error("document", str(refused))
        else:
            messages.success(request, _("Imported as %(household)s.")
                             % {"household": household.name})
            for note in reading.notes:
                messages.warning(request, note)
            return redirect("household")
    return render_page(request, "households/import.html", {"form": form},
                       status=422 if form.errors else 200)
