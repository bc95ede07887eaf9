"""Load a believable family to look around with: ``python manage.py seed_demo``.

The Sommer family: five players, three game nights, a finished Die Maus im
Nacken series of five races, finished games of Kniffel, Kniffel with space
symbols, Entenspiel, Mensch ärgere dich nicht, the family's own Skyjo (kept round
by round), Flügelschlag (written down by categories, birds added up card by card)
and Hanabi, lost and then won together (two of the Kniffel players entered every
turn with the dice, for the coach to weigh), some plays with a note and a length,
the first night at Oma's, a Kniffel game left unfinished yesterday with the
coach's hint allowed, a birthday tournament half played and an open invitation
for one more member. Every evening lies in the past, so home offers to start
tonight's.
Everything is recorded through the rules engine, as at the table. Running it
again changes nothing. Log in as ``demo`` / ``demo``.

``--if-empty`` (what ``make run`` uses on every start) loads the family only into a
database without any account or household: a demo that the site's owner deleted, or whose
account was renamed, stays gone.
"""

from datetime import date, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from tracker.evenings.models import GameNight, Series, SeriesChange, Tournament, TournamentEntry
from tracker.evenings.recording import start_tournament_round
from tracker.households.membership import DEMO_USER
from tracker.households.models import Household, Invitation, Player
from tracker.room.models import ShareLink
from tracker.table.models import OwnGame, Play
from tracker.table.recording import record_result, start_play, write_cell

HOUSEHOLD = "Familie Sommer"
PLAYERS = [("Julia", "#d62828"), ("Tobias", "#1d4ed8"), ("Lena", "#eab308"),
           ("Max", "#15803d"), ("Oma Gisela", "#7c3aed")]

WINGSPAN_CATEGORIES = ["Vögel", "Bonuskarten", "Rundenziele", "Eier", "Futter auf Karten",
                       "Untergelegte Karten"]
#: Each player's points per category, in the order above.
WINGSPAN_SHEET = {"Tobias": [38, 7, 14, 9, 3, 6], "Lena": [44, 4, 9, 12, 1, 8],
                  "Max": [31, 9, 11, 15, 4, 2], "Oma Gisela": [41, 6, 12, 6, 5, 5]}
#: The birds as added up card by card.
#: A rematch on another night, level at 81: the food tokens left decide, as the rules say.
WINGSPAN_TIE = {"Julia": [40, 9, 12, 10, 4, 6], "Tobias": [37, 8, 14, 12, 6, 4],
                "Max": [33, 7, 10, 11, 5, 4]}
WINGSPAN_FOOD_LEFT = {"Julia": 3, "Tobias": 1}
WINGSPAN_BIRDS = {"Tobias": "9+7+5+4+6+3+4", "Lena": "8+9+5+7+6+4+5",
                  "Max": "6+5+4+7+3+6", "Oma Gisela": "9+8+7+6+5+6"}

MAUS_RACES = [
    {"Julia": ["home:1", "seat:6", "caught", "pyramid"],
     "Tobias": ["home:2", "home:4", "caught", "caught"],
     "Lena": ["seat:8", "seat:7", "home:3", "caught"],
     "Max": ["seat:5", "caught", "caught", "pyramid"]},
    {"Julia": ["seat:4", "caught", "caught", "caught"],
     "Tobias": ["home:3", "seat:8", "caught", "pyramid"],
     "Lena": ["home:1", "home:2", "caught", "caught"],
     "Max": ["seat:7", "seat:3", "home:4", "caught"]},
    {"Julia": ["home:2", "home:5", "seat:5", "caught"],
     "Tobias": ["caught", "caught", "pyramid", "pyramid"],
     "Lena": ["seat:6", "caught", "caught", "caught"],
     "Max": ["home:1", "home:3", "home:4", "seat:8"]},
    {"Julia": ["home:1", "seat:8", "seat:8", "caught"],
     "Tobias": ["home:2", "seat:3", "caught", "caught"],
     "Lena": ["home:3", "caught", "caught", "pyramid"],
     "Max": ["seat:6", "seat:4", "caught", "caught"]},
    {"Julia": ["caught", "caught", "caught", "caught"],
     "Tobias": ["home:1", "home:2", "seat:7", "caught"],
     "Lena": ["home:3", "seat:5", "seat:5", "caught"],
     "Max": ["home:4", "seat:8", "caught", "pyramid"]},
]

KNIFFEL_SHEETS = {
    "Julia": {"ones": 2, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 24,
              "three_of_a_kind": 24, "four_of_a_kind": 0, "full_house": 25,
              "small_straight": 30, "large_straight": 40, "kniffel": 0, "chance": 21},
    "Tobias": {"ones": 3, "twos": 4, "threes": 6, "fours": 16, "fives": 10, "sixes": 18,
               "three_of_a_kind": 17, "four_of_a_kind": 22, "full_house": 25,
               "small_straight": 30, "large_straight": 0, "kniffel": 50, "chance": 19},
    "Lena": {"ones": 1, "twos": 8, "threes": 9, "fours": 8, "fives": 20, "sixes": 12,
             "three_of_a_kind": 28, "four_of_a_kind": 0, "full_house": 0,
             "small_straight": 30, "large_straight": 40, "kniffel": 0, "chance": 23},
}
#: The final dice of Julia's and Tobias's turns, in the order of their sheets.
KNIFFEL_DICE = {
    "Julia": [[1, 1, 3, 4, 6], [2, 2, 2, 4, 5], [3, 3, 3, 5, 6], [4, 4, 4, 2, 1],
              [5, 5, 5, 3, 6], [6, 6, 6, 6, 2], [4, 4, 4, 6, 6], [1, 2, 3, 5, 6],
              [3, 3, 5, 5, 5], [1, 2, 3, 4, 6], [2, 3, 4, 5, 6], [1, 1, 2, 2, 6],
              [6, 5, 4, 3, 3]],
    "Tobias": [[1, 1, 1, 5, 6], [2, 2, 3, 4, 6], [3, 3, 5, 6, 6], [4, 4, 4, 4, 1],
               [5, 5, 1, 2, 6], [6, 6, 6, 1, 2], [5, 5, 5, 1, 1], [5, 5, 5, 5, 2],
               [2, 2, 6, 6, 6], [3, 4, 5, 6, 6], [1, 1, 3, 4, 5], [3, 3, 3, 3, 3],
               [2, 3, 4, 5, 5]],
}
UNFINISHED_KNIFFEL = {
    "Lena": {"sixes": 18, "full_house": 25, "chance": 22, "twos": 6},
    "Max": {"ones": 3, "large_straight": 0, "fours": 8, "three_of_a_kind": 19},
    "Oma Gisela": {"fives": 20, "kniffel": 50, "threes": 9},
}
SPACE_SHEETS = {
    "Max": {"ufo": 3, "rocket": 2, "nebula": 1, "star": 4, "sun": 2, "planet": 3,
            "three_alike": 2, "two_pairs": 3, "three_and_pair": 4, "all_different": 0,
            "space_kniffel": 10},
    "Lena": {"ufo": 2, "rocket": 3, "nebula": 3, "star": 1, "sun": 2, "planet": 2,
             "three_alike": 2, "two_pairs": 3, "three_and_pair": 0, "all_different": 5,
             "space_kniffel": 0},
}


#: Skyjo yesterday, round by round, until Max passed 100: Oma Gisela won with the fewest.
SKYJO_ROUNDS = [
    {"Julia": 24, "Lena": 12, "Max": 31, "Oma Gisela": 9},
    {"Julia": 18, "Lena": 27, "Max": 22, "Oma Gisela": 15},
    {"Julia": 30, "Lena": 14, "Max": 35, "Oma Gisela": 20},
    {"Julia": 11, "Lena": 25, "Max": 19, "Oma Gisela": 13},
]


class Command(BaseCommand):
    help = "Load the Sommer family's demo game nights (does nothing when already loaded)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--if-empty", action="store_true",
                            help="Only into a database without any account or household.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["if_empty"] and (get_user_model().objects.exists()
                                    or Household.objects.exists()):
            self.stdout.write("The database has accounts already: the demo family is loaded "
                              "only into an empty one (run seed_demo without --if-empty).")
            return
        if Household.objects.filter(name=HOUSEHOLD).exists():
            self.stdout.write(f"{HOUSEHOLD} is already here: nothing to do.")
            return
        with transaction.atomic():
            self.load()
        self.stdout.write(self.style.SUCCESS(
            f"Loaded {HOUSEHOLD}. Log in as {DEMO_USER} / {DEMO_USER}."))

    def load(self) -> None:
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(username=DEMO_USER)
        if created:
            user.set_password(DEMO_USER)
            user.save()
        household = Household.objects.create(name=HOUSEHOLD)
        household.members.add(user)
        players = {name: Player.objects.create(household=household, name=name, colour=colour)
                   for name, colour in PLAYERS}
        self.user, self.household, self.players = user, household, players

        today = timezone.localdate()
        first, second, yesterday = (
            self.night(today - timedelta(days=days), names)
            for days, names in ((14, ["Julia", "Tobias", "Lena", "Max", "Oma Gisela"]),
                                (7, ["Julia", "Tobias", "Lena", "Max"]),
                                (1, ["Lena", "Max", "Oma Gisela", "Julia"]))
        )
        series = Series.objects.create(
            household=household, name="Elefantenrennen im Advent", game="maus_im_nacken",
            races_planned=5, created_by=user)
        series.players.set([players[name] for name in MAUS_RACES[0]])
        first.place = "Bei Oma in Kassel"
        first.save()
        for number, race in enumerate(MAUS_RACES, start=1):
            night = first if number <= 3 else second
            self.play(night, "maus_im_nacken", list(race), {"elephants": self.keyed(race)},
                      series=series, race_number=number, start_seat=(number - 1) % len(race))
        SeriesChange.objects.create(series=series, action=SeriesChange.Action.EXTENDED,
                                    races_before=4, races_after=5, changed_by=user)

        self.play(first, "mensch_aergere_dich_nicht", ["Oma Gisela", "Lena", "Tobias", "Julia"],
                  {"order": self.keys(["Oma Gisela", "Lena", "Tobias"])})
        self.sheet_play(second, "kniffel", KNIFFEL_SHEETS, KNIFFEL_DICE)
        self.play(second, "entenspiel", ["Julia", "Tobias", "Lena", "Max"],
                  {"winner": self.keys(["Max"])[0],
                   "squares": self.keyed({"Julia": 51, "Tobias": 38, "Lena": 44})})
        self.sheet_play(yesterday, "weltraum_kniffel", SPACE_SHEETS)
        skyjo = OwnGame.objects.create(household=household, name="Skyjo",
                                       scoring="fewest_points", end="target", end_at=100,
                                       min_players=2, max_players=8)
        self.story(self.play(yesterday, "generic", ["Julia", "Lena", "Max", "Oma Gisela"],
                             {"rounds": [self.keyed(points) for points in SKYJO_ROUNDS],
                              "finished": True}, own_game=skyjo), "", 35)
        wingspan = OwnGame.objects.create(
            household=household, name="Flügelschlag", sheet="categories",
            categories=[{"name": name, "minus": False} for name in WINGSPAN_CATEGORIES],
            tiebreak_count="Futterplättchen übrig", min_players=1, max_players=5)
        self.story(self.play(first, "generic", list(WINGSPAN_SHEET), {
            "rounds": [self.keyed({name: rows[index] for name, rows in WINGSPAN_SHEET.items()})
                       for index in range(len(WINGSPAN_CATEGORIES))],
            "sums": [self.keyed(WINGSPAN_BIRDS)], "finished": True}, own_game=wingspan),
            "Lenas erster Sieg in Flügelschlag – mit einem Punkt vor Tobias!", 75)
        self.story(self.play(second, "generic", list(WINGSPAN_TIE), {
            "rounds": [self.keyed({name: rows[index] for name, rows in WINGSPAN_TIE.items()})
                       for index in range(len(WINGSPAN_CATEGORIES))],
            "tie_counts": self.keyed(WINGSPAN_FOOD_LEFT), "finished": True},
            own_game=wingspan),
            "81 zu 81 – Julia hatte noch drei Futterplättchen, Tobias eins.", 80)
        hanabi = OwnGame.objects.create(household=household, name="Hanabi",
                                        scoring="cooperative", min_players=2, max_players=5)
        self.play(second, "generic", ["Julia", "Tobias", "Lena"], {"won": False, "score": 17},
                  own_game=hanabi)
        self.story(self.play(yesterday, "generic", ["Julia", "Tobias", "Max"],
                             {"won": True, "score": 23}, own_game=hanabi),
                   "Endlich geschafft: 23 Punkte, und Max hat jeden Hinweis verstanden.", 40)
        self.sheet_play(yesterday, "kniffel", UNFINISHED_KNIFFEL,
                        house_rules={"coach_hint": True})
        ShareLink.objects.create(household=household, game_night=yesterday, created_by=user)
        Invitation.objects.create(household=household, created_by=user)
        self.tournament(today - timedelta(days=3))

    def tournament(self, day: date) -> None:
        """Lena's birthday: eight children, three rounds, the first one played."""
        for name, colour in (("Paul", "#ea580c"), ("Emma", "#db2777"), ("Noah", "#0891b2")):
            self.players[name] = Player.objects.create(household=self.household, name=name,
                                                       colour=colour)
        party = Tournament.objects.create(household=self.household, name="Lenas Geburtstag",
                                          game="maus_im_nacken", rounds_planned=3,
                                          created_by=self.user)
        guests = ("Lena", "Max", "Paul", "Emma", "Noah", "Julia", "Tobias", "Oma Gisela")
        for name in guests:
            TournamentEntry.objects.create(tournament=party, player=self.players[name])
        birthday = self.night(day, list(guests))
        outcomes = [["home:1", "seat:7", "caught", "caught"], ["home:2", "seat:5", "caught",
                                                               "pyramid"],
                    ["seat:8", "caught", "caught", "caught"], ["home:3", "caught", "caught",
                                                               "caught"]]
        for table in start_tournament_round(party, user=self.user, night=birthday):
            seats = sorted(table.participants.all(), key=lambda p: p.seat)
            record_result(table, {"elephants": {p.player_key: outcome for p, outcome in
                                                zip(seats, outcomes, strict=False)}},
                          expected_version=table.version, user=self.user)
        start_tournament_round(party, user=self.user, night=birthday)

    @staticmethod
    def story(play: Play, note: str, minutes: int) -> None:
        """The note the family kept with ``play``, and how long it took."""
        play.note, play.length_minutes = note, minutes
        play.save(update_fields=["note", "length_minutes"])

    def night(self, date, names: list[str]) -> GameNight:
        night = GameNight.objects.create(household=self.household, date=date, host=self.user)
        night.players.set([self.players[name] for name in names])
        return night

    def keys(self, names: list[str]) -> list[str]:
        return [self.players[name].key for name in names]

    def keyed(self, by_name: dict[str, Any]) -> dict[str, Any]:
        return {self.players[name].key: value for name, value in by_name.items()}

    def play(self, night: GameNight, game: str, names: list[str], result: dict[str, Any],
             **series: Any) -> Play:
        play = start_play(household=self.household, game=game, game_night=night,
                          players=[self.players[name] for name in names], user=self.user,
                          **series)
        record_result(play, result, expected_version=play.version, user=self.user)
        return play

    def sheet_play(self, night: GameNight, game: str, sheets: dict[str, dict[str, int]],
                   dice: dict[str, list[list[int]]] | None = None,
                   house_rules: dict[str, Any] | None = None) -> None:
        """Enter the sheets turn by turn, one cell per player in seat order, as at the table;
        with the final dice of the turn where ``dice`` has them."""
        play = start_play(household=self.household, game=game, game_night=night,
                          players=[self.players[name] for name in sheets], user=self.user,
                          house_rules=house_rules)
        turns = [list(sheet.items()) for sheet in sheets.values()]
        for turn in range(max(map(len, turns))):
            for name, cells in zip(sheets, turns, strict=True):
                if turn < len(cells):
                    field, points = cells[turn]
                    rolled = (dice or {}).get(name)
                    write_cell(play, self.players[name], field, points, expected_version=None,
                               dice=rolled[turn] if rolled else None, user=self.user)
