"""Printed sheets on the web: a form with a preview, and the PDF download."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_GET

from tracker.forms import PadForm
from tracker.printing import pad_context, render_html, render_pad


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
@xframe_options_sameorigin
def pad(request: HttpRequest) -> HttpResponse:
    """The pad form; ``?format=pdf`` downloads the pad, ``?format=preview`` shows one sheet."""
    form = PadForm(request.GET or PadForm.defaults())
    wanted = request.GET.get("format")
    if not form.is_valid():
        return render(request, "print/pad_form.html", {"form": form}, status=400 if wanted
                      else 200)
    pad = form.pad()
    if wanted == "pdf":
        return pdf_response(render_pad(pad), f"kniffel-{pad.variant}-{pad.paper}.pdf")
    if wanted == "preview":
        html = render_html("print/kniffel_pad.html", pad_context(pad) | {"preview": True},
                           pad.language)
        return HttpResponse(html)
    return render(request, "print/pad_form.html", {
        "form": form, "query": request.GET.urlencode() or None})
