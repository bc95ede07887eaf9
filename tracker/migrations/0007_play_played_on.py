"""Each play's day as a stored, indexed column, filled in for the plays already recorded."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery
from django.utils import timezone


def fill_played_on(apps, schema_editor):
    """The night's date, or the local day a play without a night was started."""
    Play = apps.get_model("tracker", "Play")
    GameNight = apps.get_model("tracker", "GameNight")
    Play.objects.filter(game_night__isnull=False).update(played_on=Subquery(
        GameNight.objects.filter(pk=OuterRef("game_night_id")).values("date")[:1]))
    nightless = list(Play.objects.filter(game_night__isnull=True).only("created_at"))
    for play in nightless:
        play.played_on = timezone.localdate(play.created_at)
    Play.objects.bulk_update(nightless, ["played_on"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("tracker", "0006_result_shapes_first_home_order_and_group_captures"),
    ]

    operations = [
        migrations.AddField(
            model_name="play",
            name="played_on",
            field=models.DateField(editable=False, null=True, verbose_name="played on"),
        ),
        migrations.RunPython(fill_played_on, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="play",
            name="played_on",
            field=models.DateField(editable=False, verbose_name="played on"),
        ),
        migrations.AddIndex(
            model_name="play",
            index=models.Index(fields=["household", "played_on", "created_at"],
                               name="play_household_day"),
        ),
        migrations.AddIndex(
            model_name="play",
            index=models.Index(fields=["household", "status", "game", "played_on"],
                               name="play_household_counted"),
        ),
        migrations.AddIndex(
            model_name="participant",
            index=models.Index(fields=["player", "play", "place", "points"],
                               name="participant_player_results"),
        ),
        migrations.AddIndex(
            model_name="participant",
            index=models.Index(fields=["play", "player", "place"],
                               name="participant_play_places"),
        ),
        migrations.AddIndex(
            model_name="kniffelcell",
            index=models.Index(fields=["field", "play", "points"],
                               name="kniffel_cell_field_points"),
        ),
        migrations.AddIndex(
            model_name="gamenight",
            index=models.Index(fields=["household", "date"], name="night_household_date"),
        ),
    ]
