"""The score pad's history entries: points entered and corrected, a round undone, the game
finished. Only the field's choices change; no column does."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tracker", "0012_own_games"),
    ]

    operations = [
        migrations.AlterField(
            model_name="playchange",
            name="action",
            field=models.CharField(
                choices=[("started", "Started"), ("result", "Result entered"),
                         ("edited", "Result corrected"), ("cell", "Cell entered"),
                         ("cell_corrected", "Cell corrected"), ("undone", "Entry undone"),
                         ("extra_kniffel", "Further Kniffels noted"),
                         ("round_points", "Points entered"),
                         ("round_corrected", "Points corrected"),
                         ("round_undone", "Round undone"), ("finished", "Game finished"),
                         ("abandoned", "Abandoned")],
                max_length=20, verbose_name="action"),
        ),
    ]
