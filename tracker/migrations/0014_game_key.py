"""Each play's game as the statistics count it: its rules' key, or "own-<id>" for an own
game; the head-to-head tallies counted again by it."""

from django.conf import settings
from django.db import migrations, models
from django.db.models import CharField, F, Value
from django.db.models.functions import Cast, Concat

from tracker.table import tallies


def fill_game_keys(apps, schema_editor) -> None:
    Play = apps.get_model("tracker", "Play")
    Play.objects.filter(own_game__isnull=True).update(game_key=F("game"))
    Play.objects.filter(own_game__isnull=False).update(
        game_key=Concat(Value("own-"), Cast("own_game_id", CharField())))
    tallies.rebuild(apps, counted_only=False)


class Migration(migrations.Migration):

    dependencies = [
        ('tracker', '0013_score_pad_history'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='play',
            name='play_household_counted',
        ),
        migrations.AddField(
            model_name='play',
            name='game_key',
            field=models.CharField(default='', editable=False, max_length=40, verbose_name='game in the statistics'),
        ),
        migrations.AddIndex(
            model_name='play',
            index=models.Index(fields=['household', 'status', 'game_key', 'played_on'], name='play_household_counted'),
        ),
        migrations.RunPython(fill_game_keys, migrations.RunPython.noop),
    ]
