"""Recompute the statistics' running totals: ``python manage.py rebuild_tallies``."""

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from tracker.table import tallies
from tracker.table.models import HeadToHeadTally, KniffelFieldTally


class Command(BaseCommand):
    help = ("Recompute the Kniffel field and head-to-head totals from every stored result, "
            "e.g. after plays were changed or deleted in the admin.")

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            tallies.rebuild()
        self.stdout.write(f"{KniffelFieldTally.objects.count()} Kniffel field rows, "
                          f"{HeadToHeadTally.objects.count()} head-to-head rows.")
