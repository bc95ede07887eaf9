"""The tallies added up from the cells and places of every play recorded so far."""

from django.db import migrations

from tracker.table import tallies


def fill_tallies(apps, schema_editor):
    tallies.rebuild(apps, game="game", counted_only=False)


class Migration(migrations.Migration):

    dependencies = [
        ("tracker", "0008_tallies"),
    ]

    operations = [
        migrations.RunPython(fill_tallies, migrations.RunPython.noop),
    ]
