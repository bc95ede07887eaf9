"""A household's whole data as one JSON document, and back as a new household.

The document names its objects by ids local to it ("p1", "o1", "n1", "g1", "s1", "t1"), never
by database ids, so it moves between servers; in results and history, players are named
by those ids too. It holds no tokens, passwords or accounts: who entered what stays on
the server it came from.

An import trusts nothing in the file: every reference must point inside the document,
every result is scored again by the rules engine, whose points and places are the ones
stored, and series, tournaments and the history of changes are checked as the app's own
forms and recording would check them. Anything wrong refuses the whole file and changes
nothing; the refusal names the series, tournament or play (game and date) and the players
as people know them, never the document's ids. The statistics' running totals are added
up as part of the import.

Version 2 carries the household's own games (``own_games``: every field of the library
entry) and names the own game of each play, series and tournament of the ``generic`` game.
A version 1 document has none: its plays of "Any other game" move into an own game "Other
games" (or "Other games (fewest points)") as migration 0012 moved the stored ones."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

import games
from games import InvalidResult, generic
from tracker.evenings.models import (
    GameNight,
    Series,
    SeriesChange,
    SeriesStatus,
    Tournament,
    TournamentEntry,
    TournamentStatus,
)
from tracker.households.models import COLOURS, Household, Player, tidy_name
from tracker.portability.document import (
    NIGHTS_PER_STEP,
    OTHER_GAMES,
    OWN_GAME_NAME_LENGTH,
    SMALL_INT,
    ImportRefused,
    refusals,
)
from tracker.portability.document_reader import (
    DocumentReader,
    definition_key,
    history_entry_fits,
)
from tracker.portability.export import rekey
from tracker.table import tallies
from tracker.table.models import (
    DICE_GAMES,
    KniffelCell,
    OwnGame,
    Participant,
    Play,
    PlayChange,
    PlayStatus,
    game_key_of,
)
from tracker.table.recording import dice_from_cells, sheets_from_cells


def import_household(document: Mapping[str, Any], *, name: str | None = None
                     ) -> Household:
    """A new household made from ``document`` in one transaction; ImportRefused changes
    nothing."""
    with refusals(), transaction.atomic():
        return Importer(document).run(name)


def household_name(wanted: str) -> str:
    """``wanted``, or marked as imported (and numbered) when a household has that name."""
    candidate, number = wanted, 1
    while Household.objects.filter(name=candidate).exists():
        label = _("imported") if number == 1 else _("imported %(number)s") % {"number": number}
        candidate = f"{wanted[:100 - len(label) - 3]} ({label})"
        number += 1
    return candidate


class Importer(DocumentReader):
    """Reads a document's parts in dependency order; every lookup refuses what is amiss."""

    def __init__(self, document: Mapping[str, Any]):
        self.document = document
        self.players: dict[str, Player] = {}
        self.own_games: dict[str, OwnGame] = {}
        #: a version 1 document's "Any other game" definitions -> the own game they move into
        self.other_games: dict[str, OwnGame] = {}
        self.household: Household | None = None
        self.nights: dict[str, GameNight] = {}
        self.series: dict[str, Series] = {}
        self.tournaments: dict[str, Tournament] = {}
        self.keys: dict[str, str] = {}
        #: player key -> name, to show players in messages as people know them
        self.names: dict[str, str] = {}
        #: id() of a series or tournament -> the players it has or who entered it
        self.members: dict[int, set[int]] = {}
        #: the plays' ids in the document so far
        self.seen_plays: dict[str, None] = {}
        #: While resuming: a part is read again, and given the rows it wrote before.
        self.replaying = False
        self.rows_read: Counter[type[Model]] = Counter()

    def run(self, name: str | None) -> Household:
        """Everything at once: :meth:`begin`, :meth:`parts_before_plays`, every play."""
        household = self.begin(name)
        for part in self.parts_before_plays():
            part()
        self.write_plays(self.prepare_plays(0, self.play_count))
        return household

    def begin(self, name: str | None) -> Household:
        """The household, named ``name``, else as in the document; still empty."""
        about = self.record(self.document, "household", "household")
        wanted = tidy_name(self.text(about, "name", _("household"), 100))
        if name:
            chosen = tidy_name(name)[:100]
        elif wanted:
            chosen = household_name(wanted)
        else:
            raise self.wrong(_("household"), "name")
        self.household = Household.objects.create(
            name=chosen, elsewhere=self.elsewhere(about, _("household")))
        return self.household

    def parts_before_plays(self) -> list[Callable[[], None]]:
        """What the plays name, in the order it must be written, each part small enough to
        be written in a step of its own: players, own games, game nights, series and
        tournaments."""
        household = self.household
        nights = len(self.items("nights"))
        return [partial(self.import_players, household),
                partial(self.import_own_games, household),
                *(partial(self.import_nights, household, start, start + NIGHTS_PER_STEP)
                  for start in range(0, nights, NIGHTS_PER_STEP)),
                partial(self.import_series, household),
                partial(self.import_tournaments, household)]

    @property
    def play_count(self) -> int:
        return len(self.items("plays"))

    def resume(self, household: Household, parts_done: int, plays_done: int) -> None:
        """Go on where an earlier run stopped, after ``parts_done`` of
        :meth:`parts_before_plays` and ``plays_done`` plays written into ``household``: the
        parts are read again and given the rows they wrote, so the plays still to come
        find what they name."""
        self.household = household
        self.replaying = True
        try:
            for part in self.parts_before_plays()[:parts_done]:
                part()
        finally:
            self.replaying = False
        # A version 1 document's plays may have moved an "Any other game" into the library.
        for own in OwnGame.objects.filter(household=household).order_by("pk")[
                self.rows_read[OwnGame]:]:
            self.other_games[definition_key(partial(getattr, own))] = own
        for item in self.items("plays")[:plays_done]:
            self.seen_plays[item["id"]] = None

    def store(self, model: type[Model], objects: list[Model]) -> None:
        """Create a part's ``objects`` (a few statements however many); while resuming, give
        them the primary keys of the rows the part created before, in the same order."""
        if not self.replaying:
            model.objects.bulk_create(objects)
            return
        start = self.rows_read[model]
        keys = list(model.objects.filter(household=self.household).order_by("pk")
                    .values_list("pk", flat=True)[start:start + len(objects)])
        if len(keys) != len(objects):
            raise RuntimeError(f"The interrupted import wrote {len(keys)} rows of "
                               f"{model.__name__} where {len(objects)} were expected.")
        for obj, key in zip(objects, keys, strict=True):
            obj.pk = key
            obj._state.adding = False
            obj._state.db = "default"
        self.rows_read[model] += len(objects)

    def store_links(self, model: type[Model], rows: Iterable[Model]) -> None:
        """Create rows that nothing later in the import refers to; none while resuming."""
        if not self.replaying:
            model.objects.bulk_create(rows)

    def import_players(self, household: Household) -> None:
        players, created = [], []
        for index, item in enumerate(self.items("players"), start=1):
            where = self.label(item, "players", index)
            local = self.new_id(item, self.players, where)
            name = tidy_name(self.text(item, "name", where, 40))
            if not name:
                raise self.wrong(where, "name")
            player = Player(household=household, name=name,
                            colour=self.choice(item, "colour", where,
                                               [value for value, _label in COLOURS]),
                            elsewhere=self.elsewhere(item, where))
            self.players[local] = player
            players.append(player)
            created.append(self.moment(item, "created_at", where))
        stamp(players, "created_at", created)
        self.store(Player, players)
        self.keys = {local: player.key for local, player in self.players.items()}
        self.names = {player.key: player.name for player in players}

    def import_own_games(self, household: Household) -> None:
        """The library, checked as the database and the rules check an own game."""
        own_games, created, names = [], [], set()
        for index, item in enumerate(self.items("own_games"), start=1):
            where = self.label(item, "own_games", index)
            local = self.new_id(item, self.own_games, where)
            name = tidy_name(self.text(item, "name", where, OWN_GAME_NAME_LENGTH))
            if not name:
                raise self.wrong(where, "name")
            if name.lower() in names:
                raise ImportRefused(_("Two own games are called “%(name)s”.") % {"name": name})
            names.add(name.lower())
            own = OwnGame(
                household=household, name=name,
                scoring=self.choice(item, "scoring", where, list(generic.SCORINGS)),
                teams=self.boolean(item, "teams", where),
                end=self.choice(item, "end", where, list(generic.ENDINGS)),
                end_at=self.number(item, "end_at", where, high=generic.SCORE_LIMIT),
                min_players=self.number(item, "min_players", where, low=1, high=20,
                                        optional=True),
                max_players=self.number(item, "max_players", where, low=1, high=20,
                                        optional=True),
                note=self.text(item, "note", where, 1000, blank=True),
                elsewhere=self.elsewhere(item, where),
                **self.sheet_definition(item, where))
            if None not in (own.min_players, own.max_players) and (
                    own.min_players > own.max_players):
                raise self.wrong(where, "max_players")
            self.check_definition(own.house_rules, where)
            self.own_games[local] = own
            own_games.append(own)
            created.append(self.moment(item, "created_at", where))
        stamp(own_games, "created_at", created)
        self.store(OwnGame, own_games)

    def check_definition(self, house_rules: dict[str, Any], where: str) -> None:
        problems = games.get("generic").validate_setup(["1"], house_rules)
        if problems:
            raise ImportRefused(_("%(where)s: %(problem)s")
                                % {"where": where, "problem": self.problems_text(problems)})

    def own_game(self, item: Mapping[str, Any], game: str, house_rules: dict[str, Any],
                 where: str) -> tuple[OwnGame | None, dict[str, Any]]:
        """The own game of a play, series or tournament of the ``generic`` game (none for the
        other games) and its house rules; a version 1 document's move into the library."""
        value = item.get("own_game")
        if game != "generic":
            if value is not None:
                raise self.wrong(where, "own_game")
            return None, house_rules
        if value is None and self.document.get("version") == 1:
            return self.other_game(house_rules, where)
        return self.ref(self.own_games, value, where, "own_game"), house_rules

    def other_game(self, house_rules: dict[str, Any], where: str
                   ) -> tuple[OwnGame, dict[str, Any]]:
        """As migration 0012: "Any other game" house rules ({"lower_wins": …}) become an own
        game's, in "Other games" or "Other games (fewest points)"; house rules already of
        the own game's shape keep their definition, in an own game of their own."""
        if "scoring" not in house_rules:
            rest = {key: value for key, value in house_rules.items() if key != "lower_wins"}
            scoring = "fewest_points" if house_rules.get("lower_wins") else "most_points"
            house_rules = {**rest, "scoring": scoring, "teams": False, "end": "host",
                           "end_at": 0}
        definition = games.get("generic").default_house_rules() | house_rules
        self.check_definition(definition, where)
        key = definition_key(definition.__getitem__)
        if key not in self.other_games:
            name = (OTHER_GAMES if definition["scoring"] == "most_points"
                    else f"{OTHER_GAMES} (fewest points)")
            taken = {own.name.lower() for own in [*self.own_games.values(),
                                                  *self.other_games.values()]}
            number, candidate = 1, name
            while candidate.lower() in taken:
                number += 1
                candidate = f"{name} {number}"
            own = OwnGame(household=self.household, name=candidate,
                          **{option.key: definition[option.key]
                             for option in generic.Generic.house_rules})
            self.store(OwnGame, [own])
            self.other_games[key] = own
        return self.other_games[key], house_rules

    def import_nights(self, household: Household, start: int = 0, stop: int | None = None
                      ) -> None:
        """The game nights from ``start`` to ``stop`` (all by default)."""
        nights, created, present = [], [], []
        items = self.items("nights")
        for index, item in enumerate(items[start:stop], start=start + 1):
            where = _("Game night no. %(number)s") % {"number": index}
            local = self.new_id(item, self.nights, where)
            night = GameNight(household=household, date=self.day(item, "date", where),
                              notes=self.text(item, "notes", where, 10_000, blank=True),
                              place=tidy_name(self.text(item, "place", where, 100, blank=True)))
            self.nights[local] = night
            nights.append(night)
            created.append(self.moment(item, "created_at", where))
            present.append(self.refs(self.players, item, "players", where))
        stamp(nights, "created_at", created)
        self.store(GameNight, nights)
        self.store_links(GameNight.players.through, (
            GameNight.players.through(gamenight=night, player=player)
            for night, players in zip(nights, present, strict=True) for player in players))

    def import_series(self, household: Household) -> None:
        all_series, created, members, changes = [], [], [], []
        for index, item in enumerate(self.items("series"), start=1):
            where = self.label(item, "series", index)
            local = self.new_id(item, self.series, where)
            tiebreaks = self.json(item, "tiebreaks", where, list)
            if not all(isinstance(key, str) and key in games.METRICS for key in tiebreaks
                       ) or len(set(tiebreaks)) != len(tiebreaks):
                raise self.wrong(where, "tiebreaks")
            place_points = self.json(item, "place_points", where, list)
            if not all(type(points) is int and abs(points) <= SMALL_INT
                       for points in place_points):
                raise self.wrong(where, "place_points")
            game = self.game(item, where).key
            own_game, house_rules = self.own_game(
                item, game, self.json(item, "house_rules", where, dict), where)
            series = Series(
                household=household, name=self.text(item, "name", where, 100),
                game=game, own_game=own_game,
                races_planned=self.number(item, "races_planned", where, low=1, high=100),
                tiebreaks=tiebreaks, place_points=place_points,
                house_rules=house_rules,
                status=self.choice(item, "status", where, SeriesStatus.values))
            self.series[local] = series
            all_series.append(series)
            created.append(self.moment(item, "created_at", where))
            members.append(self.refs(self.players, item, "players", where))
            # As the series form checks them: a game for its players, rules of that game.
            problems = series.rules.validate_setup([player.key for player in members[-1]],
                                                   series.house_rules)
            if problems:
                raise ImportRefused(_("%(where)s: %(problem)s")
                                    % {"where": where, "problem": self.problems_text(problems)})
            self.members[id(series)] = {id(player) for player in members[-1]}
            changes.append([self.series_change(series, change, where)
                            for change in self.json(item, "changes", where, list)])
        stamp(all_series, "created_at", created)
        self.store(Series, all_series)
        self.store_links(Series.players.through, (
            Series.players.through(series=series, player=player)
            for series, players in zip(all_series, members, strict=True) for player in players))
        made = [change for group in changes for change, _at in group]
        stamp(made, "changed_at", [at for group in changes for _change, at in group])
        self.store_links(SeriesChange, made)

    def series_change(self, series: Series, change: Any, where: str
                      ) -> tuple[SeriesChange, datetime]:
        if not isinstance(change, dict):
            raise self.wrong(where, "changes")
        return (SeriesChange(series=series,
                             action=self.choice(change, "action", where,
                                                SeriesChange.Action.values),
                             races_before=self.number(change, "races_before", where),
                             races_after=self.number(change, "races_after", where)),
                self.moment(change, "at", where))

    def import_tournaments(self, household: Household) -> None:
        tournaments, created, entries = [], [], []
        for index, item in enumerate(self.items("tournaments"), start=1):
            where = self.label(item, "tournaments", index)
            local = self.new_id(item, self.tournaments, where)
            game = self.game(item, where).key
            own_game, house_rules = self.own_game(
                item, game, self.json(item, "house_rules", where, dict), where)
            tournament = Tournament(
                household=household, name=self.text(item, "name", where, 100),
                game=game, own_game=own_game,
                rounds_planned=self.number(item, "rounds_planned", where, low=1, high=30),
                final_table=self.number(item, "final_table", where, optional=True),
                seed=self.number(item, "seed", where, high=2**31 - 1),
                house_rules=house_rules,
                status=self.choice(item, "status", where, TournamentStatus.values))
            self.tournaments[local] = tournament
            tournaments.append(tournament)
            created.append(self.moment(item, "created_at", where))
            seen: dict[int, Player] = {}
            for entry in self.json(item, "entries", where, list):
                if not isinstance(entry, dict):
                    raise self.wrong(where, "entries")
                player = self.ref(self.players, entry.get("player"), where, "entries")
                if id(player) in seen:
                    raise self.wrong(where, "entries")
                seen[id(player)] = player
                entries.append(TournamentEntry(
                    tournament=tournament, player=player,
                    dropped_after_round=self.number(entry, "dropped_after_round", where,
                                                    low=1, high=tournament.rounds_planned,
                                                    optional=True)))
            self.check_tournament(tournament, list(seen.values()), where)
            self.members[id(tournament)] = set(seen)
        stamp(tournaments, "created_at", created)
        self.store(Tournament, tournaments)
        self.store_links(TournamentEntry, entries)

    def check_tournament(self, tournament: Tournament, players: list[Player], where: str
                         ) -> None:
        """Refuse what the tournament form refuses: players who cannot be seated at the
        game's tables, a final table of another size, house rules the game does not have."""
        rules = tournament.rules
        low, high = rules.min_players, rules.max_players
        try:
            games.seating.table_sizes_for(len(players), (low, high))
        except ValueError:
            problem = _("%(count)s players cannot sit at tables of %(low)s to %(high)s.") % {
                "count": len(players), "low": low, "high": high}
        else:
            final = tournament.final_table
            problem = (_("A final table seats %(low)s to %(high)s players.")
                       % {"low": low, "high": min(high, len(players))}
                       if final is not None and not low <= final <= min(high, len(players))
                       else self.problems_text(rules.validate_setup(
                           [player.key for player in players[:high]], tournament.house_rules)))
        if problem:
            raise ImportRefused(_("%(where)s: %(problem)s")
                                % {"where": where, "problem": problem})

    def prepare_plays(self, start: int, stop: int) -> PreparedPlays:
        """The document's plays ``start`` to ``stop`` (counted from 0) read, checked and
        scored, ready to write; :meth:`begin` came first, and the plays before ``start``."""
        assert self.household is not None, "begin() first"
        prepared = PreparedPlays()
        items = self.items("plays")[start:stop]
        for index, item in enumerate(items, start=start + 1):
            where = self.play_label(item, index)
            self.seen_plays[self.new_id(item, self.seen_plays, where)] = None
            play, players = self.play(self.household, item, where)
            participants = [Participant(play=play, player=player, seat=seat)
                            for seat, player in enumerate(players)]
            result = rekey(self.json(item, "result", where, dict), self.keys)
            self.score(play, participants, result, item["status"], where)
            prepared.plays.append(play)
            prepared.created.append(self.moment(item, "created_at", where))
            prepared.participants.extend(participants)
            self.prepare_cells(prepared, play, participants, item, where)
            self.prepare_changes(prepared, play, participants, item, where)
            if play.in_statistics:
                prepared.shares.append(tallies.play_share(
                    play.status, play.game_key,
                    [(participant.player_id, participant.place) for participant in participants],
                    play.result.get("sheets") or {}))
        return prepared

    def write_plays(self, prepared: PreparedPlays) -> None:
        """Store plays :meth:`prepare_plays` made: a few statements, however many plays."""
        stamp(prepared.plays, "created_at", prepared.created)
        Play.objects.bulk_create(prepared.plays)
        Participant.objects.bulk_create(prepared.participants)
        stamp(prepared.cells, "entered_at", prepared.entered)
        KniffelCell.objects.bulk_create(prepared.cells)
        stamp(prepared.changes, "changed_at", prepared.changed)
        PlayChange.objects.bulk_create(prepared.changes)
        tallies.apply(sum_of_shares(prepared.shares))

    def play(self, household: Household, item: Mapping[str, Any], where: str
             ) -> tuple[Play, list[Player]]:
        """An unsaved play from ``item`` and its players in seat order."""
        rules = self.game(item, where)
        night = (None if item.get("night") is None
                 else self.ref(self.nights, item["night"], where, "night"))
        series = (None if item.get("series") is None
                  else self.ref(self.series, item["series"], where, "series"))
        tournament = (None if item.get("tournament") is None
                      else self.ref(self.tournaments, item["tournament"], where, "tournament"))
        if night is None and series is None and tournament is None:
            raise ImportRefused(_("%(where)s: the play belongs to no game night, series or "
                                  "tournament.") % {"where": where})
        own_game, house_rules = self.own_game(
            item, rules.key, self.json(item, "house_rules", where, dict), where)
        players = self.seated(item, where)
        problems = rules.validate_setup([player.key for player in players], house_rules)
        if problems:
            raise self.refused_result(where, InvalidResult(problems))
        start_seat = self.number(item, "start_seat", where, high=max(0, len(players) - 1))
        # A race belongs to a series and a round's table to a tournament, each of the same
        # game and with its own players only, as starting them in the app makes them.
        if series is not None and tournament is not None:
            raise self.wrong(where, "tournament")
        group = series or tournament
        if group is not None and group.game != rules.key:
            raise self.wrong(where, "game")
        if group is not None and group.own_game is not own_game:
            raise self.wrong(where, "own_game")
        last_round = tournament and (tournament.final_round or tournament.rounds_planned)
        race_number = self.number(item, "race_number", where, low=1, high=100,
                                  optional=series is None)
        round_number = self.number(item, "round_number", where, low=1,
                                   high=last_round or SMALL_INT, optional=tournament is None)
        table_number = self.number(item, "table_number", where, low=1,
                                   optional=tournament is None)
        if series is None and race_number is not None:
            raise self.wrong(where, "race_number")
        if tournament is None and (round_number, table_number) != (None, None):
            raise self.wrong(where, "round_number")
        if group is not None:
            self.check_members(group, players, where)
        in_statistics = item.get("in_statistics", True)
        if not isinstance(in_statistics, bool):
            raise self.wrong(where, "in_statistics")
        play = Play(
            household=household, game=rules.key, own_game=own_game, game_night=night,
            series=series,
            race_number=race_number, tournament=tournament,
            round_number=round_number, table_number=table_number,
            house_rules=house_rules, start_seat=start_seat, in_statistics=in_statistics,
            scored_by_points=rules.scores_points(house_rules),
            game_key=game_key_of(rules.key, own_game.pk if own_game else None),
            played_on=self.played_on(item, night, where), elsewhere=self.elsewhere(item, where),
            **self.story(item, where))
        self.choice(item, "status", where, PlayStatus.values)
        return play, players

    def check_members(self, group: Series | Tournament, players: list[Player], where: str
                      ) -> None:
        members = self.members[id(group)]
        stranger = next((player for player in players if id(player) not in members), None)
        if stranger is None:
            return
        if isinstance(group, Series):
            message = _("%(where)s: %(player)s plays a race of the series “%(series)s” but is "
                        "not one of its players.")
        else:
            message = _("%(where)s: %(player)s plays at a table of the tournament "
                        "“%(series)s” but has not entered it.")
        raise ImportRefused(message % {"where": where, "player": stranger.name,
                                       "series": group.name})

    def seated(self, item: Mapping[str, Any], where: str) -> list[Player]:
        """The play's players in seat order; seats must be 0, 1, 2… each once."""
        rows = self.json(item, "participants", where, list)
        if not all(isinstance(row, dict) for row in rows):
            raise self.wrong(where, "participants")
        seats = sorted((self.number(row, "seat", where, high=63), index)
                       for index, row in enumerate(rows))
        if [seat for seat, _index in seats] != list(range(len(rows))):
            raise self.wrong(where, "seat")
        players = [self.ref(self.players, rows[index].get("player"), where, "participants")
                   for _seat, index in seats]
        if len({id(player) for player in players}) != len(players):
            raise self.wrong(where, "participants")
        return players

    def score(self, play: Play, participants: list[Participant], result: dict[str, Any],
              status: str, where: str) -> None:
        """Score ``result`` as recording does and set what the engine says on the play and its
        ``participants`` (seat order); a result the engine refuses, or a status it
        contradicts, refuses all."""
        if not result:
            if status == PlayStatus.FINISHED:
                raise self.status_contradicted(where)
            play.status = status
            return
        try:
            outcome = play.rules.score({
                **result, "players": [participant.player_key for participant in participants],
                "house_rules": play.house_rules})
        except InvalidResult as error:
            raise self.refused_result(where, error) from None
        engine_status = PlayStatus.FINISHED if outcome.finished else PlayStatus.IN_PROGRESS
        if status != PlayStatus.ABANDONED and status != engine_status:
            raise self.status_contradicted(where)
        play.result = {key: value for key, value in result.items()
                       if key not in ("players", "house_rules")}
        play.status = status
        play.scored_by_points, play.lower_is_better = (
            outcome.scored_by_points, outcome.lower_is_better)
        places = outcome.places if outcome.finished else {}
        for participant in participants:
            key = participant.player_key
            participant.points = outcome.points[key]
            participant.place = places.get(key)
            participant.details = outcome.details.get(key, {})

    def played_on(self, item: Mapping[str, Any], night: GameNight | None, where: str) -> date:
        """The day the play was played: its night's, where it has one (files from before
        plays had a day give none); a day that is no date, or not the night's, is refused:
        the app never writes one."""
        if night is not None and item.get("played_on") is None:
            return night.date
        day = self.day(item, "played_on", where)
        if night is not None and day != night.date:
            raise ImportRefused(_("%(where)s: it was played on %(day)s, not on the day of "
                                  "its game night (%(night)s).")
                                % {"where": where, "day": date_format(day, "DATE_FORMAT"),
                                   "night": date_format(night.date, "DATE_FORMAT")})
        return day

    def refused_result(self, where: str, error: InvalidResult) -> ImportRefused:
        return ImportRefused(_("%(where)s: the rules refuse this result: %(problem)s")
                             % {"where": where, "problem": self.problems_text(error.problems)})

    def status_contradicted(self, where: str) -> ImportRefused:
        return ImportRefused(_("%(where)s: the play's status does not match its result.")
                             % {"where": where})

    def prepare_cells(self, prepared: PreparedPlays, play: Play,
                      participants: list[Participant], item: Mapping[str, Any], where: str
                      ) -> None:
        """The play's Kniffel cells, which must be exactly the sheets and dice of the result."""
        rows = self.json(item, "cells", where, list)
        if rows and play.game not in DICE_GAMES:
            raise self.wrong(where, "cells")
        players = {participant.player.key: participant.player for participant in participants}
        keys = {local: key for local, key in self.keys.items() if key in players}
        mine = []
        for row in rows:
            if not isinstance(row, dict):
                raise self.wrong(where, "cells")
            player = players[self.ref(keys, row.get("player"), where, "cells")]
            mine.append(KniffelCell(
                play=play, player=player,
                field=self.text(row, "field", where, 20),
                points=self.number(row, "points", where),
                dice=self.json(row, "dice", where, list, optional=True)))
            prepared.entered.append(self.moment(row, "entered_at", where))
        if play.game in DICE_GAMES and (
                sheets_from_cells(mine) != play.result.get("sheets", {})
                or dice_from_cells(mine) != (play.result.get("dice") or {})):
            raise ImportRefused(_("%(where)s: the Kniffel sheet does not match the "
                                  "result.") % {"where": where})
        prepared.cells.extend(mine)

    def prepare_changes(self, prepared: PreparedPlays, play: Play,
                        participants: list[Participant], item: Mapping[str, Any], where: str
                        ) -> None:
        """The play's history, each entry of the shape recording gives it, since the play's
        page shows the corrections and offers to undo the last one."""
        keys = {participant.player_key for participant in participants}
        for row in self.json(item, "changes", where, list):
            if not isinstance(row, dict):
                raise self.wrong(where, "changes")
            action = self.choice(row, "action", where, PlayChange.Action.values)
            data = rekey(self.json(row, "data", where, dict), self.keys)
            moment = self.moment(row, "at", where)
            if not history_entry_fits(action, data, keys):
                raise ImportRefused(
                    _("%(where)s: the entry “%(action)s” of %(moment)s in its history of "
                      "changes is not what it should be.")
                    % {"where": where, "action": PlayChange.Action(action).label,
                       "moment": date_format(timezone.localtime(moment),
                                             "DATETIME_FORMAT")})
            prepared.changes.append(PlayChange(play=play, action=action, data=data))
            prepared.changed.append(moment)


@dataclass
class PreparedPlays:
    """Plays read, checked and scored but not yet stored, with their seats, cells, history
    and what they add to the statistics' tallies: one step's writing."""

    plays: list[Play] = field(default_factory=list)
    created: list[datetime] = field(default_factory=list)
    participants: list[Participant] = field(default_factory=list)
    cells: list[KniffelCell] = field(default_factory=list)
    entered: list[datetime] = field(default_factory=list)
    changes: list[PlayChange] = field(default_factory=list)
    changed: list[datetime] = field(default_factory=list)
    shares: list[tallies.Share] = field(default_factory=list)


def sum_of_shares(shares: Iterable[tallies.Share]) -> tallies.Share:
    """What several plays add to the statistics' tallies together."""
    total = tallies.Share()
    for share in shares:
        for mine, theirs in ((total.fields, share.fields), (total.meetings, share.meetings)):
            for key, counts in theirs.items():
                mine.setdefault(key, Counter()).update(counts)
    return total


def stamp(objects: list[Any], field_name: str, times: list[datetime]) -> None:
    """Give objects about to be created their times from the document: the day each was
    really made, not the import's."""
    for obj, moment in zip(objects, times, strict=True):
        setattr(obj, field_name, moment)
