"""Restore an exported household (ours, a BG Stats export or BGG's log of plays) as a new
household, and print what a file from another app held that could not come in as it was."""

from __future__ import annotations

import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tracker.portability.document import MAX_BYTES, ImportRefused
from tracker.portability.files import read_file
from tracker.portability.importer import import_household
from tracker.portability.report import lines


class Command(BaseCommand):
    help = ("Import a household exported with export_household, or a BG Stats export, as a "
            "new household.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The exported JSON file; - for standard input.")
        parser.add_argument("--name", help="The new household's name; by default the "
                                           "exported one, marked as imported when taken.")
        parser.add_argument("--member", help="The username of an account to make a member.")

    def handle(self, *args: Any, file: str, name: str | None, member: str | None,
               **options: Any) -> None:
        user = None
        if member is not None:
            user = get_user_model().objects.filter(username=member).first()
            if user is None:
                raise CommandError(_("No account is called %(name)r.") % {"name": member})
        try:
            if file == "-":
                data = sys.stdin.buffer.read(MAX_BYTES + 1)
            else:
                with open(file, "rb") as opened:
                    data = opened.read(MAX_BYTES + 1)
        except OSError as error:
            raise CommandError(_("Cannot read %(file)s: %(reason)s.")
                               % {"file": file, "reason": error.strerror}) from None
        try:
            reading = read_file(data)
            household = import_household(reading.document, name=name)
        except ImportRefused as refused:
            raise CommandError(str(refused)) from None
        if user is not None:
            household.members.add(user)
        self.stdout.write(_("Imported as %(name)r (id %(id)s).")
                          % {"name": household.name, "id": household.pk})
        for line in lines(reading.notes):
            self.stdout.write(line)
