"""Write a household's whole data as one JSON document, for a backup or another server, or
in BG Stats' format."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tracker.households.models import Household
from tracker.portability.bgstats_export import to_bgstats
from tracker.portability.export import export_household


class Command(BaseCommand):
    help = "Export a household's data as JSON (players, nights, plays, series, tournaments)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="The household's name.")
        parser.add_argument("-o", "--output", default="-",
                            help="The file to write; - or nothing for standard output.")
        parser.add_argument("--format", choices=["scorekeeper", "bgstats"],
                            default="scorekeeper",
                            help="scorekeeper (everything, to import here) or bgstats "
                                 "(players, games and finished plays, for the BG Stats app).")

    def handle(self, *args: Any, name: str, output: str, format: str, **options: Any
               ) -> None:
        found = list(Household.objects.filter(name=name)[:2])
        if not found:
            raise CommandError(_("No household is called %(name)r.") % {"name": name})
        if len(found) > 1:
            raise CommandError(_("Several households are called %(name)r: rename all but one "
                                 "in the admin first.") % {"name": name})
        document = (to_bgstats(found[0]) if format == "bgstats"
                    else export_household(found[0]))
        text = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
        if output == "-":
            self.stdout.write(text, ending="")
            return
        try:
            with open(output, "w", encoding="utf-8") as file:
                file.write(text)
        except OSError as error:
            raise CommandError(_("Cannot write %(file)s: %(reason)s.")
                               % {"file": output, "reason": error.strerror}) from None
        self.stderr.write(_("Exported %(household)s to %(file)s.")
                          % {"household": found[0].name, "file": output}, style_func=None)
