"""Forget the keys of entries older than a week: ``python manage.py prune_entry_keys``.

The server does this by itself at most once an hour; the command is for a server that
takes no entries for a while, or for cron."""

from typing import Any

from django.core.management.base import BaseCommand

from tracker.households.middleware import forget_old_entry_keys


class Command(BaseCommand):
    help = "Forget the keys of entries older than a week."

    def handle(self, *args: Any, **options: Any) -> None:
        forget_old_entry_keys()
