"""Printed sheets as PDF (WeasyPrint) or, to look at, as a web page: the paper sizes, the
print stylesheet, and the answers a view gives."""

from __future__ import annotations

import io
import mimetypes
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from csp.constants import UNSAFE_INLINE
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject

from tracker.common import regions
from tracker.common.downloads import attachment

PRINT_CSS = settings.BASE_DIR / "static" / "css" / "print.css"
PAPER_SIZES = {"a4": "A4", "a5": "A5", "letter": "letter"}


def render_html(template: str, context: dict[str, Any], language: str) -> str:
    with regions.override(language):
        return render_to_string(template, context | {"print_css": print_css()})


@lru_cache(maxsize=1)
def print_css() -> str:
    return PRINT_CSS.read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def project_files_fetcher() -> type:
    """WeasyPrint's URL fetcher for printed sheets (WeasyPrint is imported only to print)."""
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class ProjectFilesOnly(URLFetcher):
        """The project's static files and data: URLs; nothing from the network or from
        elsewhere on the server's disk, whatever a sheet's text asks for."""

        def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse:
            parsed = urlparse(url)
            if parsed.scheme == "data":
                return super().fetch(url, headers)
            static = (settings.BASE_DIR / "static").resolve()
            path = Path(unquote(parsed.path)).resolve() if parsed.scheme == "file" else None
            if path is None or not path.is_relative_to(static) or not path.is_file():
                raise ValueError(f"printed sheets fetch only the project's files, not {url!r}")
            content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": content_type})

    return ProjectFilesOnly


def render_pdf(template: str, context: dict[str, Any], language: str, *, repeat: int = 1
               ) -> bytes:
    """The PDF of ``template``; with ``repeat``, each page is repeated that often.

    WeasyPrint lays out and draws each distinct page once; pypdf then repeats the
    drawn pages, which share one content stream, instead of drawing them again.
    """
    from weasyprint import HTML  # a heavy import, only for the views that print

    pdf = HTML(string=render_html(template, context, language),
               base_url=str(settings.BASE_DIR),
               url_fetcher=project_files_fetcher()(allowed_protocols={"data", "file"})).write_pdf()
    return repeat_pages(pdf, repeat) if repeat > 1 else pdf


def repeat_pages(pdf: bytes, repeat: int) -> bytes:
    """``pdf`` with every page repeated ``repeat`` times in place; metadata and language kept."""
    reader = PdfReader(io.BytesIO(pdf))
    writer = PdfWriter()
    for page in reader.pages:
        for _copy in range(repeat):
            writer.add_page(page)
    writer.add_metadata(reader.metadata or {})
    if "/Lang" in reader.root_object:
        writer.root_object[NameObject("/Lang")] = reader.root_object["/Lang"]
    output = io.BytesIO()
    writer.write(output)
    return output.getvalue()


def pdf_response(pdf: bytes, name: Sequence[object]) -> HttpResponse:
    """The PDF to download, named after the parts of ``name``: ("pad", "Skyjo", "a4") is
    pad-skyjo-a4.pdf."""
    return attachment(pdf, "application/pdf", name, "pdf", fallback="sheet")


def print_paper(request: HttpRequest) -> str:
    """The key in ``PAPER_SIZES`` of the paper a sheet prints on: ``?paper=letter`` for US
    Letter; A4 otherwise."""
    return "letter" if request.GET.get("paper") == "letter" else "a4"


def print_language(request: HttpRequest) -> str:
    """``?lang=fr`` (any of the site's languages); otherwise the page's language."""
    wanted = request.GET.get("lang")
    return wanted if wanted in dict(settings.LANGUAGES) else (get_language() or "en")[:2]


def sheet_response(request: HttpRequest, template: str, context: dict, language: str,
                   name: Sequence[object]) -> HttpResponse:
    """The PDF, or with ``?format=html`` the same sheet as a web page to look at."""
    if request.GET.get("format") == "html":
        return preview_response(render_html(template, context | {"preview": True}, language))
    return pdf_response(render_pdf(template, context, language), name)


def preview_response(html: str) -> HttpResponse:
    """A printed sheet as a web page: its paper's CSS is inline, so inline styles are allowed
    for this page alone (scripts stay forbidden)."""
    response = HttpResponse(html)
    response._csp_update = {"style-src": [UNSAFE_INLINE]}
    return response


def cannot_print(request: HttpRequest, message: str, status: int = 400) -> HttpResponse:
    """Why nothing prints, in the language the sheet was asked for."""
    with regions.override(print_language(request)):
        return render(request, "print/error.html", {"message": message}, status=status)
