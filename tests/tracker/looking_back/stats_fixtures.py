"""A small household history whose numbers are worked out by hand in the tests.

Night 1 (1 March 2024), all "Any other game":
    P1  Anna 10, Ben 7, Carla 7       places 1, 2, 2 (shared)   Anna starts
    P2  Anna 5, Ben 9                 places 2, 1               Ben starts
    P3  Anna 100, Ben 1               abandoned: counts nowhere
Night 2 (8 March 2024):
    R1  series race 1, Maus: Anna 18 (1 home, 1 caught), Carla 23 (1 home, 1 caught)
    R2  series race 2, Maus: Anna 33 (2 home, 1 caught), Carla 14 (1 home, 2 caught)
    P4  Anna 8, Ben 8, Carla 3        places 1, 1 (shared), 3   Carla starts
David never plays.
"""

from __future__ import annotations

import datetime
from typing import Any

from tests.factories import GameNightFactory, OwnGameFactory, SeriesFactory
from tracker.households.models import Household, Player
from tracker.table.models import Play, game_key_of
from tracker.table.recording import abandon_play, record_result, start_play

#: The own game the statistics' examples play, and the key the statistics count it under.
UNO = "Uno"


def uno_key(household: Household) -> str:
    return game_key_of("generic", OwnGameFactory(household=household, name=UNO).pk)


def finish_generic(household: Household, night: Any, scores: list[tuple[Player, int]],
                   start_seat: int = 0) -> Play:
    play = start_play(household=household, game="generic",
                      own_game=OwnGameFactory(household=household, name=UNO),
                      players=[p for p, _ in scores], game_night=night, start_seat=start_seat)
    record_result(play, {"scores": {p.key: points for p, points in scores}},
                  expected_version=play.version)
    play.refresh_from_db()
    return play


def maus_race(household: Household, night: Any, series: Any, number: int,
              elephants: dict[Player, list[str]]) -> Play:
    race = start_play(household=household, game="maus_im_nacken", players=list(elephants),
                      game_night=night, series=series, race_number=number)
    record_result(race, {"elephants": {p.key: herd for p, herd in elephants.items()}},
                  expected_version=race.version)
    return race


def build_history(household: Household, family: list[Player]) -> dict[str, Any]:
    anna, ben, carla, _david = family
    first = GameNightFactory(household=household, date=datetime.date(2024, 3, 1))
    first.players.set([anna, ben, carla])
    second = GameNightFactory(household=household, date=datetime.date(2024, 3, 8))
    second.players.set([anna, ben, carla])
    p1 = finish_generic(household, first, [(anna, 10), (ben, 7), (carla, 7)], start_seat=0)
    p2 = finish_generic(household, first, [(anna, 5), (ben, 9)], start_seat=1)
    p3 = finish_generic(household, first, [(anna, 100), (ben, 1)])
    abandon_play(p3, expected_version=p3.version)
    series = SeriesFactory(household=household, name="Elefantenrennen", races_planned=2)
    series.players.set([anna, carla])
    r1 = maus_race(household, second, series, 1, {
        anna: ["home:1", "seat:5", "caught", "pyramid"],
        carla: ["home:2", "seat:8", "seat:3", "caught"]})
    r2 = maus_race(household, second, series, 2, {
        anna: ["home:1", "home:2", "seat:8", "caught"],
        carla: ["home:3", "seat:3", "caught", "caught"]})
    p4 = finish_generic(household, second, [(anna, 8), (ben, 8), (carla, 3)], start_seat=2)
    return {"nights": [first, second], "plays": [p1, p2, p3, p4], "races": [r1, r2],
            "series": series}
