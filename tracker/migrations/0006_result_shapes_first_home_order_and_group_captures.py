"""Stored results in the engine's new shapes.

Alles für die Katz: ``first_home`` was the one player home first overall and is
now the order in which players first got a mouse home; the old player becomes
the start of that order. Mouse Trap: a capture named one ``mouse`` and now
names the ``mice`` caught together. Points and places stored with each
participant are not touched, so standings stay as they were.
"""

from typing import Any

from django.db import migrations


def katz_forwards(result: dict[str, Any]) -> dict[str, Any]:
    first = result.get("first_home")
    if isinstance(first, str):
        return {**result, "first_home": [first]}
    if first is None and "first_home" in result:
        return {key: value for key, value in result.items() if key != "first_home"}
    return result


def katz_backwards(result: dict[str, Any]) -> dict[str, Any]:
    order = result.get("first_home")
    if isinstance(order, list):
        return {**result, "first_home": order[0] if order else None}
    return result


def captures_forwards(result: dict[str, Any]) -> dict[str, Any]:
    captures = result.get("captures")
    if not isinstance(captures, list):
        return result
    return {**result, "captures": [
        {"mice": [capture["mouse"]], "by": capture.get("by")}
        if isinstance(capture, dict) and "mouse" in capture else capture
        for capture in captures]}


def captures_backwards(result: dict[str, Any]) -> dict[str, Any]:
    captures = result.get("captures")
    if not isinstance(captures, list):
        return result
    return {**result, "captures": [
        {"mouse": mouse, "by": capture.get("by")}
        for capture in captures if isinstance(capture, dict)
        for mouse in capture.get("mice", [])]}


CONVERSIONS = {"alles_fuer_die_katz": (katz_forwards, katz_backwards),
               "mouse_trap": (captures_forwards, captures_backwards)}


def convert(apps, direction: int) -> None:
    Play = apps.get_model("tracker", "Play")
    for game, functions in CONVERSIONS.items():
        for play in Play.objects.filter(game=game).only("result"):
            converted = functions[direction](play.result or {})
            if converted != play.result:
                play.result = converted
                play.save(update_fields=["result"])


def forwards(apps, schema_editor) -> None:
    convert(apps, 0)


def backwards(apps, schema_editor) -> None:
    convert(apps, 1)


class Migration(migrations.Migration):

    dependencies = [
        ("tracker", "0005_start_player_invitations"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
