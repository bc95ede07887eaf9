"""Share links as the room sees them: the board's full address and its QR code."""

from __future__ import annotations

from functools import lru_cache

import segno
from django.http import HttpRequest
from django.urls import reverse

from tracker.models import ShareLink


def board_address(request: HttpRequest, link: ShareLink) -> str:
    """The board's full address, as typed into a TV's browser or read from its QR code."""
    return request.build_absolute_uri(reverse("board", args=[link.token]))


@lru_cache(maxsize=256)
def qr_svg(address: str) -> str:
    """An SVG QR code of ``address`` without a fixed size: CSS or the printed page sizes it.

    Error correction M (or better, where the code's size allows) still reads on a TV with
    a reflection on it; the quiet zone of four modules is part of the drawing, in white, so
    the code scans on the dark scoreboard too.
    """
    code = segno.make(address, error="m", boost_error=True, micro=False)
    return code.svg_inline(omitsize=True, svgclass="qr", lineclass=None, dark="#000",
                           light="#fff", border=4)
