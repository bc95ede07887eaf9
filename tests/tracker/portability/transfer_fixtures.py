"""A household with every kind of thing the export carries."""

import copy
from datetime import date, timedelta

from tests.factories import GameNightFactory, OwnGameFactory, PlayerFactory, SeriesFactory
from tracker.evenings.models import SeriesChange, Tournament, TournamentEntry
from tracker.evenings.recording import (
    change_series_length,
    drop_out,
    start_series_race,
    start_tournament_round,
)
from tracker.table.models import Play
from tracker.table.recording import abandon_play, record_result, start_play, write_cell


def elephants(players, winner):
    result = {player.key: ["caught"] * 4 for player in players}
    result[winner.key] = ["home:1", "seat:8", "caught", "caught"]
    return {"elephants": result}


def finish_tables(plays):
    for play in plays:
        seated = [p.player for p in sorted(play.participants.all(), key=lambda p: p.seat)]
        record_result(play, elephants(seated, seated[0]), expected_version=play.version)


def build_everything(household, night, family, host):
    """Finished, abandoned and in-progress plays, a Kniffel sheet with dice, a series with a
    change, a tournament with a drop-out, a night with a guest."""
    anna, ben, carla, david = family
    guest = PlayerFactory(household=household, name="Oma Grete", colour="#7c3aed")
    party = GameNightFactory(household=household, notes="Birthday 🎂",
                             place="Bei Oma in Kassel")
    party.players.set([anna, ben, guest])

    finished = start_play(household=household, game="maus_im_nacken", players=[anna, guest],
                          game_night=party, start_seat=1, user=host)
    record_result(finished, elephants([anna, guest], guest), expected_version=1, user=host)
    record_result(finished, elephants([anna, guest], anna), expected_version=2, user=host)
    Play.objects.filter(pk=finished.pk).update(note="Oma's first win 🐘\nalmost", length_minutes=35)
    abandoned = start_play(household=household, game="mau_mau", players=[ben, carla],
                           game_night=night, user=host)
    abandon_play(abandoned, expected_version=1, user=host)
    start_play(household=household, game="alles_fuer_die_katz", players=[carla, david, anna],
               game_night=night)

    kniffel = start_play(household=household, game="kniffel", players=[anna, ben],
                         game_night=night, user=host)
    write_cell(kniffel, anna, "sixes", 24, expected_version=None, dice=[6, 6, 6, 6, 1],
               user=host)
    write_cell(kniffel, ben, "full_house", 25, expected_version=None, user=host)
    write_cell(kniffel, anna, "sixes", 30, expected_version=1, dice=[6, 6, 6, 6, 6], user=host)

    series = SeriesFactory(household=household, name="Summer cup", races_planned=1,
                           tiebreaks=["wins"], house_rules={})
    series.players.set([anna, ben])
    race = start_series_race(series, night=night, user=host)
    record_result(race, elephants([anna, ben], ben), expected_version=1)
    change_series_length(series, SeriesChange.Action.EXTENDED, user=host)
    start_series_race(series, night=night)

    tournament = Tournament.objects.create(household=household, name="Party", rounds_planned=2,
                                           game="maus_im_nacken", seed=7)
    for player in (anna, ben, carla, david, guest):
        TournamentEntry.objects.create(tournament=tournament, player=player)
    finish_tables(start_tournament_round(tournament))
    drop_out(tournament, guest)
    start_tournament_round(tournament)
    build_own_games(household, night, family, host)
    build_sheet_by_categories(household, night, family)
    return household


def build_sheet_by_categories(household, night, family):
    """An own game written down by categories, played once with short sums, one of them a
    number that is also a player's key (Anna's, who did not play)."""
    anna, ben, carla = family[:3]
    wingspan = OwnGameFactory(household=household, name="Wingspan", sheet="categories",
                              categories=[{"name": "Birds", "minus": False},
                                          {"name": "Penalties", "minus": True}],
                              tiebreak="Birds", pad_moves="next_row")
    play = start_play(household=household, game="generic", own_game=wingspan,
                      players=[ben, carla], game_night=night)
    record_result(play, {"rounds": [{ben.key: 30, carla.key: int(anna.key)},
                                    {ben.key: -2, carla.key: 0}],
                         "sums": [{ben.key: "10+20", carla.key: anna.key}, {ben.key: "2"}],
                         "finished": True}, expected_version=1)
    Play.objects.filter(pk=play.pk).update(length_minutes=70)


def build_own_games(household, night, family, host):
    """The library: a fewest-points game with a series, a team game whose recorded winners
    stand against the scores, a co-operative game, and a tie broken by a count."""
    anna, ben, carla, david = family
    skyjo = OwnGameFactory(household=household, name="Skyjo", scoring="fewest_points",
                           end="target", end_at=100, min_players=2, max_players=8,
                           note="Columns of three alike are cleared.")
    teams = OwnGameFactory(household=household, name="Doppelkopf", scoring="most_points",
                           teams=True, min_players=4, max_players=4)
    together = OwnGameFactory(household=household, name="Hanabi", scoring="cooperative")
    carcassonne = OwnGameFactory(household=household, name="Carcassonne",
                                 tiebreak_count="meeples left")
    play = start_play(household=household, game="generic", own_game=carcassonne,
                      players=[anna, ben], game_night=night)
    record_result(play, {"scores": {anna.key: 88, ben.key: 88},
                         "tie_counts": {anna.key: 2, ben.key: 5}}, expected_version=1)

    play = start_play(household=household, game="generic", own_game=skyjo,
                      players=[anna, ben, carla], game_night=night, start_seat=2, user=host)
    record_result(play, {"rounds": [{anna.key: 12, ben.key: 30, carla.key: 5},
                                    {anna.key: 20, ben.key: 75}], "finished": True},
                  expected_version=1, user=host)
    play = start_play(household=household, game="generic", own_game=teams,
                      players=[anna, ben, carla, david], game_night=night)
    record_result(play, {"teams": {"Re": [anna.key, carla.key], "Kontra": [ben.key, david.key]},
                         "scores": {"Re": 120, "Kontra": 121}, "winners": ["Re"]},
                  expected_version=1)
    play = start_play(household=household, game="generic", own_game=together,
                      players=[ben, carla], game_night=night)
    record_result(play, {"won": True, "score": 23}, expected_version=1)

    series = SeriesFactory(household=household, name="Skyjo league", game="generic",
                           own_game=skyjo, races_planned=2, tiebreaks=["wins"],
                           house_rules=skyjo.house_rules)
    series.players.set([anna, david])
    race = start_series_race(series, night=night, user=host)
    record_result(race, {"scores": {anna.key: 40, david.key: 60}}, expected_version=1)


def page_addresses(household):
    """Every page that shows the household's imported things, HTML and PDF (as HTML)."""
    from django.urls import reverse

    from tracker.table.models import DICE_GAMES, Play

    addresses = [reverse("home"), reverse("history"), reverse("household"),
                 reverse("series_list")]
    for night in household.game_nights.all():
        addresses += [reverse("night_detail", args=[night.pk]),
                      reverse("night_certificates", args=[night.pk]) + "?format=html"]
    for series in household.series.all():
        addresses += [reverse("series_detail", args=[series.pk]),
                      reverse("print_series", args=[series.pk]) + "?format=html",
                      reverse("series_certificates", args=[series.pk]) + "?format=html"]
    for tournament in household.tournaments.all():
        addresses += [reverse("tournament_detail", args=[tournament.pk]),
                      reverse("print_tournament", args=[tournament.pk]) + "?format=html"]
    for play in Play.objects.filter(household=household).prefetch_related("participants"):
        addresses += [reverse(name, args=[play.pk]) for name in (
            "play_detail", "play_entry", "play_edit", "print_play")]
        if play.game in DICE_GAMES:
            addresses += [reverse("play_analysis", args=[play.pk, p.player_id])
                          for p in play.participants.all()]
    for player in household.players.all():
        addresses.append(reverse("player_detail", args=[player.pk]))
    for game in {play.game for play in Play.objects.filter(household=household)}:
        addresses.append(reverse("game_stats", args=[game]))
    years = {play.played_on.year for play in Play.objects.filter(household=household)}
    for year in years:
        addresses += [reverse("year_review", args=[year]),
                      reverse("print_year_review", args=[year]) + "?format=html"]
    return addresses


def failing_pages(client, household):
    """The addresses among :func:`page_addresses` that answer 500 to a member."""
    from tests.factories import UserFactory

    member = UserFactory(username=f"member-{household.pk}")
    household.members.add(member)
    client.force_login(member)
    client.raise_request_exception = False
    return [(address, status) for address in page_addresses(household)
            if (status := client.get(address).status_code) >= 500]


def run_imports():
    """Run every import that is waiting, here and now, as its server's thread would."""
    from tracker.households.models import ImportJob
    from tracker.portability.imports import run_job

    for job in ImportJob.objects.exclude(state__in=["done", "failed"]):
        run_job(job.pk, job.runner)


def grown(document, plays):
    """``document`` with its finished evening plays (no Kniffel sheets) played again on
    earlier evenings until it has ``plays`` plays: a household of years, for imports long
    enough to interrupt."""
    grown = copy.deepcopy(document)
    evening = [play for play in grown["plays"] if play["status"] == "finished"
               and play["series"] is None and play["tournament"] is None and not play["cells"]]
    first = min(date.fromisoformat(night["date"]) for night in grown["nights"])
    while len(grown["plays"]) < plays:
        day = first - timedelta(days=len(grown["nights"]))
        night = {**grown["nights"][0], "id": f"n{len(grown['nights']) + 1}",
                 "date": day.isoformat(), "created_at": f"{day.isoformat()}T19:00:00+00:00"}
        grown["nights"].append(night)
        for play in evening[:plays - len(grown["plays"])]:
            grown["plays"].append({**copy.deepcopy(play), "id": f"x{len(grown['plays']) + 1}",
                                   "night": night["id"], "played_on": night["date"]})
    return grown
