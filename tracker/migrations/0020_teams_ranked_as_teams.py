"""Teams are ranked as teams: the places stored for team plays become 1, 1, 2, 2.

Until now a team's members counted as players for the places (two teams of two: 1, 1, 3, 3).
A team's members always shared one place, and the old places follow the teams' order, so the
team's new place is one more than the number of teams placed ahead of it (ties still share).
"""

from collections import defaultdict

from django.db import migrations


def rank_teams_as_teams(apps, schema_editor):
    Participant = apps.get_model("tracker", "Participant")
    team_plays = (Participant.objects.filter(play__game="generic", play__house_rules__teams=True,
                                             place__isnull=False)
                  .order_by("play_id", "seat"))
    by_play = defaultdict(list)
    for participant in team_plays.iterator(chunk_size=2000):
        by_play[participant.play_id].append(participant)
    changed = []
    for participants in by_play.values():
        team_places = {}
        for participant in participants:
            team = (participant.details or {}).get("team") or f"seat-{participant.seat}"
            team_places[team] = min(participant.place, team_places.get(team, participant.place))
        for participant in participants:
            team = (participant.details or {}).get("team") or f"seat-{participant.seat}"
            place = 1 + sum(1 for other in team_places.values() if other < team_places[team])
            if place != participant.place:
                participant.place = place
                changed.append(participant)
    Participant.objects.bulk_update(changed, ["place"], batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ("tracker", "0019_times_from_imports"),
    ]

    operations = [
        migrations.RunPython(rank_teams_as_teams, migrations.RunPython.noop),
    ]
