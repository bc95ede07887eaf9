"""Print a Kniffel pad to PDF: ``python manage.py kniffel_pad --sheets 10 -o pad.pdf``."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tracker.paper.forms import PadForm
from tracker.paper.printing import render_pad


class Command(BaseCommand):
    help = "Write a Kniffel pad (classic or with space symbols) as a PDF."

    def add_arguments(self, parser: CommandParser) -> None:
        defaults = PadForm.defaults()
        parser.add_argument("--variant", default=defaults["variant"],
                            help="classic or space (default: classic)")
        parser.add_argument("--sheets", default=str(defaults["sheets"]),
                            help="sheets, for each name when names are given (default: 1)")
        parser.add_argument("--players", default="",
                            help=f'names printed on the sheets, e.g. "Anna,Ben", at most '
                                 f'{PadForm.MAX_NAMES} (default: blank)')
        parser.add_argument("--paper", default=defaults["paper"],
                            help="a4, a5 or letter (default: a4)")
        parser.add_argument("--lang", default=defaults["lang"],
                            help="de, en, fr, it or nl (default: de)")
        parser.add_argument("--columns", default=str(defaults["columns"]),
                            help="game columns per sheet, 1 to 10, on A5 1 to 7 (default: 6)")
        parser.add_argument("-o", "--output", required=True, help="the PDF file to write")

    def handle(self, *args: Any, **options: Any) -> None:
        form = PadForm({key: options[key] for key in PadForm.base_fields if key in options})
        if not form.is_valid():
            problems = [f"--{field}: {' '.join(errors)}" for field, errors in form.errors.items()]
            raise CommandError("\n".join(problems))
        output = Path(options["output"])
        if output.is_dir():
            raise CommandError(_("--output: %(output)s is a folder; give a file name, "
                                 "e.g. %(example)s") % {"output": output,
                                                         "example": output / "pad.pdf"})
        if not output.parent.is_dir():
            raise CommandError(_("--output: the folder %(folder)s does not exist")
                               % {"folder": output.parent})
        pad = form.pad()
        try:
            output.write_bytes(render_pad(pad))
        except OSError as error:
            raise CommandError(_("--output: cannot write %(output)s: %(reason)s")
                               % {"output": output, "reason": error.strerror}) from None
        self.stdout.write(ngettext("Wrote %(file)s (%(pages)s page).",
                                   "Wrote %(file)s (%(pages)s pages).", pad.pages)
                          % {"file": output, "pages": pad.pages})
