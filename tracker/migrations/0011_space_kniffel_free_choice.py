"""Space Kniffel plays, series and tournaments begun before the rule "a roll goes where it
scores the most" keep the free choice of field they were played with, as the house rule
``field_choice: free``: their sheets stay valid and a running series keeps its rules."""

from django.db import migrations

GAME = "weltraum_kniffel"


def keep_free_choice(apps, schema_editor) -> None:
    for model in ("Series", "Tournament"):
        for group in apps.get_model("tracker", model).objects.filter(game=GAME):
            group.house_rules = {**(group.house_rules or {}), "field_choice": "free"}
            group.save(update_fields=["house_rules"])
    Play = apps.get_model("tracker", "Play")
    for play in Play.objects.filter(game=GAME).only("house_rules", "result"):
        play.house_rules = {**(play.house_rules or {}), "field_choice": "free"}
        if isinstance(play.result, dict) and isinstance(play.result.get("house_rules"), dict):
            play.result = {**play.result,
                           "house_rules": {**play.result["house_rules"], "field_choice": "free"}}
        play.save(update_fields=["house_rules", "result"])


class Migration(migrations.Migration):

    dependencies = [
        ("tracker", "0010_player_updated_at"),
    ]

    operations = [
        migrations.RunPython(keep_free_choice, migrations.RunPython.noop),
    ]
