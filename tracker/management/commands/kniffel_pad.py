"""Print a Kniffel pad to PDF: ``python manage.py kniffel_pad --sheets 10 -o pad.pdf``."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tracker.forms import PadForm
from tracker.printing import render_pad


class Command(BaseCommand):
    help = "Write a Kniffel pad (classic or with space symbols) as a PDF."

    def add_arguments(self, parser: CommandParser) -> None:
        defaults = PadForm.defaults()
        parser.add_argument("--variant", default=defaults["variant"],
                            help="classic or space (default: classic)")
        parser.add_argument("--sheets", default=str(defaults["sheets"]),
                            help="sheets, for each name when names are given (default: 10)")
        parser.add_argument("--players", default="",
                            help='names printed on the sheets, e.g. "Anna,Ben" (default: blank)')
        parser.add_argument("--paper", default=defaults["paper"], help="a4, a5 or letter")
        parser.add_argument("--lang", default=defaults["lang"], help="de or en")
        parser.add_argument("--columns", default=str(defaults["columns"]),
                            help="game columns per sheet (default: 6)")
        parser.add_argument("-o", "--output", required=True, help="the PDF file to write")

    def handle(self, *args: Any, **options: Any) -> None:
        form = PadForm({key: options[key] for key in PadForm.base_fields})
        if not form.is_valid():
            problems = [f"--{field}: {' '.join(errors)}" for field, errors in form.errors.items()]
            raise CommandError("\n".join(problems))
        output = Path(options["output"])
        if not output.parent.is_dir():
            raise CommandError(f"--output: the folder {output.parent} does not exist")
        output.write_bytes(render_pad(form.pad()))
        pad = form.pad()
        count = pad.sheets * max(1, len(pad.names))
        self.stdout.write(f"Wrote {output} ({count} sheets).")
