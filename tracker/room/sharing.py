"""Share links as the room sees them: making and revoking one, the state of the board it
opens, the board's full address and its QR code."""

from __future__ import annotations

from functools import lru_cache

import segno
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Model
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils import timezone

from tracker.households.models import household_changed
from tracker.room.models import ShareLink


def share(target: Model, field: str, user: AbstractBaseUser) -> ShareLink:
    """The link that shows ``target`` (a play, night, series or tournament, named by its
    ``field`` on a link) on the room's boards: the one not revoked, or a new one."""
    with transaction.atomic():
        link, made = ShareLink.objects.get_or_create(
            household=target.household, revoked_at__isnull=True, **{field: target},
            defaults={"created_by": user})
        if made:
            household_changed(link.household_id, setup=True)
    return link


def revoke(link: ShareLink) -> None:
    """The link no longer opens its board; its pages offer a new one."""
    if link.revoked_at is not None:
        return
    with transaction.atomic():
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
        household_changed(link.household_id, setup=True)


#: What a board's state is made of, read in one query with the link: the play's version and
#: the household's setup for a play's board, the household's version for any other board.
BOARD_STATE = ("pk", "play_id", "game_night_id", "series_id", "play__version",
               "household__setup_version", "household__version")


def shown_state(token: str) -> tuple[int, str]:
    """The id of the link that ``token`` opens, unless revoked (else 404), and its board's
    state: a short text that changes whenever anything the board shows changes (see
    :mod:`tracker.table.following`), a player's name or colour included."""
    found = next(iter(ShareLink.objects.filter(token=token, revoked_at__isnull=True)
                      .order_by().values_list(*BOARD_STATE)[:1]), None)
    if found is None:
        raise Http404("no such scoreboard")
    link_id, play_id, night_id, series_id, play_version, setup_version, version = found
    if play_id:
        return link_id, f"p{play_version}-{setup_version}"
    kind = "n" if night_id else "s" if series_id else "t"
    return link_id, f"{kind}{version}"


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
