"""A key keeps at most 1 KB of its answer: the stored answers are compressed where they fit
and dropped where they do not (a repeat then rebuilds them, see
``tracker.households.middleware.replay``)."""

from django.db import migrations

from tracker.households.middleware import compact_answer

KEPT_BYTES = 1024  # what a key kept when this migration was written


def compact(apps, schema_editor):
    AppliedEntry = apps.get_model("tracker", "AppliedEntry")
    for entry in AppliedEntry.objects.exclude(body=b"").iterator(chunk_size=500):
        room = KEPT_BYTES - len(entry.key) - len(entry.path.encode()) - 200
        entry.body = compact_answer(bytes(entry.body), room)
        entry.save(update_fields=["body"])


class Migration(migrations.Migration):

    dependencies = [
        ("tracker", "0022_address_counts"),
    ]

    operations = [
        migrations.RunPython(compact, migrations.RunPython.noop),
    ]
