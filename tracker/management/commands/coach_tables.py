"""Compute the Kniffel coach's tables ahead: ``python manage.py coach_tables``."""

import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from games import coach, coach_tables


class Command(BaseCommand):
    help = ("Compute the coach's tables for every Kniffel and Weltraum-Kniffel house rule into "
            "COACH_TABLES_DIR (data/coach), skipping those already there, and remove tables "
            "that an earlier version of the rules left behind. Under half a minute; without "
            "them, the first analysis or hint under new house rules waits a few seconds.")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        directory = Path(settings.COACH_TABLES_DIR)
        for name, found, fresh in coach_tables.compute_all(directory):
            how = "computed" if fresh else "ready"
            self.stdout.write(f"{name}: {found.expected({}):.4f} ({how})")
        current = {coach.table_name(rules, house_rules)
                   for _name, rules, house_rules in coach_tables.variants()}
        for stale in sorted(set(directory.glob("*.npz")) - {directory / n for n in current}):
            stale.unlink()
            self.stdout.write(f"removed: {stale.name}")
        self.stdout.write(f"seconds: {time.perf_counter() - started:.1f}")
