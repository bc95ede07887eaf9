"""Forms of the evening: a game night and who is there, a new game at its table, a series
and a tournament.

Forms check what is about input; the rules engine checks what is about the game."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db import transaction
from django.utils.translation import gettext_lazy as _

import games
import games.seating
from tracker.common.engine_text import say_lazy
from tracker.common.parsing import IdsField, parse_whole_number
from tracker.evenings.models import GameNight, Series, Tournament, TournamentEntry
from tracker.households.models import Household, Player, household_changed, tidy_name
from tracker.table.library import LibraryGame, find, library


class PlaceMixin:
    """A night's place: typed or chosen from the places used before; empty is at home."""

    cleaned_data: dict[str, Any]

    def clean_place(self) -> str:
        return tidy_name(self.cleaned_data.get("place") or "")


class GameNightForm(PlaceMixin, forms.ModelForm):
    class Meta:
        model = GameNight
        fields = ["date", "place", "players"]
        field_classes = {"players": IdsField}
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
                   "players": forms.CheckboxSelectMultiple}

    def __init__(self, *args: Any, household: Household, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.instance.household = household
        self.fields["players"].queryset = household.players.all()
        self.fields["players"].required = True
        self.fields["players"].error_messages["required"] = _("Tap the players who are here.")

    def save(self, commit: bool = True) -> GameNight:
        """Who is here, changed: the devices following the evening show it."""
        with transaction.atomic():
            night = super().save(commit)
            household_changed(night.household_id)
        return night


class NightPlaceForm(PlaceMixin, forms.ModelForm):
    """Where the night took place, changed later."""

    class Meta:
        model = GameNight
        fields = ["place"]


class NightPlayersForm(forms.ModelForm):
    """Who is here tonight, changed during the evening."""

    class Meta:
        model = GameNight
        fields = ["players"]
        field_classes = {"players": IdsField}
        widgets = {"players": forms.CheckboxSelectMultiple}

    def __init__(self, *args: Any, household: Household, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = household.players.all()
        self.fields["players"].required = True
        self.fields["players"].error_messages["required"] = _("Tap the players who are here.")


class NewPlayForm(forms.Form):
    """Which game of the household's library, who plays in which seat, and the house rules."""

    game = forms.ChoiceField(label=_("Game"), widget=forms.RadioSelect)
    seats = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, present: list[Player], games_offered: list[LibraryGame],
                 **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.present = {player.key: player for player in present}
        self.games_offered = games_offered
        self.fields["game"].choices = [(entry.key, entry.name) for entry in games_offered]

    def seat_keys(self) -> list[str]:
        """The players tapped so far, in seat order (ignoring anything not present)."""
        raw = (self.data.get("seats") or "") if self.is_bound else ""
        keys: list[str] = []
        for key in raw.split(","):
            if key in self.present and key not in keys:
                keys.append(key)
        return keys

    def start_seat(self) -> int | None:
        """The seat (from 0) of the player chosen to start. None while nobody is chosen and
        the game's rules say who starts (the host picks by the rule); otherwise the first
        seat."""
        keys = self.seat_keys()
        chosen = self.data.get("starter") if self.is_bound else None
        if chosen in keys:
            return keys.index(chosen)
        rules = self.chosen_rules()
        if len(keys) > 1 and rules is not None and rules.who_starts(
                rules.default_house_rules() | self.house_rules()) is not None:
            return None
        return 0

    def chosen(self) -> LibraryGame | None:
        """The game tapped, from the household's library."""
        return find(self.games_offered, self.data.get("game") if self.is_bound else None)

    def chosen_rules(self) -> games.Rules | None:
        chosen = self.chosen()
        return chosen.rules if chosen else None

    def house_rules(self) -> dict[str, Any]:
        """The house rules as chosen in the form (an own game's are its definition); the
        engine checks them."""
        chosen_game = self.chosen()
        if chosen_game is None:
            return {}
        if chosen_game.own_game is not None:
            return chosen_game.own_game.house_rules
        rules = chosen_game.rules
        chosen: dict[str, Any] = {}
        for option in rules.house_rules:
            raw = self.data.get(f"rule_{option.key}")
            if raw is None:
                continue
            chosen[option.key] = self.parse_option(option, raw)
        return chosen

    @staticmethod
    def parse_option(option: games.Option, raw: str) -> Any:
        if option.kind == "int":
            number = parse_whole_number(raw)
            return raw if number is None else number
        if option.kind == "int_list":
            values = [part.strip() for part in raw.replace(";", ",").split(",") if part.strip()]
            return [number if (number := parse_whole_number(v)) is not None else v
                    for v in values]
        for value in option.choices or {}:
            if str(value) == raw:
                return value
        return raw

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        rules = self.chosen_rules()
        if rules is None:
            return cleaned
        players = [self.present[key] for key in self.seat_keys()]
        cleaned["players"] = players
        cleaned["start_seat"] = self.start_seat()
        if cleaned["start_seat"] is None:
            self.add_error(None, _("Tap who starts."))
        cleaned["house_rules"] = self.house_rules()
        return cleaned


class CompetitionGameForm(forms.ModelForm):
    """The game of a series or tournament, from the household's library: a game the app has
    rules for, or one of the family's own with points or places. A co-operative game is not
    offered: its table wins or loses together, so there is nobody to rank."""

    game = forms.ChoiceField(label=_("Game"), widget=forms.RadioSelect)

    def __init__(self, *args: Any, household: Household, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.instance.household = household
        self.games_offered = library(household)
        self.fields["game"].choices = [(entry.key, entry.name) for entry in self.games_offered]

    def game_choices(self) -> list[Any]:
        """The game tiles to show: every game of the library but the co-operative ones."""
        cooperative = {entry.key for entry in self.games_offered if entry.cooperative}
        return [choice for choice in self["game"] if choice.data["value"] not in cooperative]

    def cooperative_games(self) -> list[str]:
        """The names of the library's co-operative games, to say why they are not offered."""
        return [entry.name for entry in self.games_offered if entry.cooperative]

    def chosen(self) -> LibraryGame | None:
        """The game chosen, or before the form is sent the one proposed."""
        key = self.data.get("game") if self.is_bound else self.initial.get("game")
        return find(self.games_offered, key)

    def clean_game(self) -> str:
        chosen = find(self.games_offered, self.cleaned_data["game"])
        if chosen is None:
            raise forms.ValidationError(_("Choose a game."))
        if chosen.cooperative:
            raise forms.ValidationError(
                _("%(game)s is co-operative: the table wins or loses together, so nobody can "
                  "win a series or a tournament of it."), params={"game": chosen.name})
        self.instance.game = chosen.game
        self.instance.own_game = chosen.own_game
        return chosen.key


class SeriesForm(CompetitionGameForm):
    """A series: its game, players, the races agreed and the tie-break order."""

    TIEBREAK_SLOTS = 3

    class Meta:
        model = Series
        fields = ["name", "players", "races_planned"]
        field_classes = {"players": IdsField}
        widgets = {"players": forms.CheckboxSelectMultiple}

    def __init__(self, *args: Any, household: Household, **kwargs: Any):
        super().__init__(*args, household=household, **kwargs)
        self.fields["players"].queryset = household.players.all()
        self.fields["races_planned"] = forms.IntegerField(label=_("Races agreed"), min_value=1,
                                                          max_value=100, initial=5)
        metric_choices = [("", _("—"))] + [(key, say_lazy(metric.label))
                                           for key, metric in games.METRICS.items()]
        for slot in range(1, self.TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{slot}"] = forms.ChoiceField(
                label=_("Then by") if slot > 1 else _("Rank by"), choices=metric_choices,
                required=False)

    def house_rules_to_choose(self) -> tuple[games.Option, ...]:
        """The chosen game's house rules to choose here: none for an own game."""
        chosen = self.chosen()
        return chosen.house_rules_to_choose if chosen else ()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        order = [cleaned.get(f"tiebreak_{slot}") for slot in range(1, self.TIEBREAK_SLOTS + 1)]
        order = [key for key in order if key]
        if len(set(order)) != len(order):
            raise forms.ValidationError(_("Choose each tie-break once."))
        chosen = find(self.games_offered, cleaned.get("game"))
        if chosen is None:
            return cleaned
        rules = chosen.rules
        house_rules = {option.key: NewPlayForm.parse_option(option, raw)
                       for option in chosen.house_rules_to_choose
                       if (raw := self.data.get(f"rule_{option.key}")) is not None}
        if chosen.own_game is not None:
            house_rules = chosen.own_game.house_rules
        players = [player.key for player in cleaned.get("players") or []]
        if chosen.own_game is not None and players and not (
                chosen.min_players <= len(players) <= chosen.max_players):
            self.add_error("players", _("%(game)s is for %(low)s to %(high)s players.") % {
                "game": chosen.name, "low": chosen.min_players, "high": chosen.max_players})
        problems = rules.validate_setup(players, house_rules) if players else []
        for problem in problems:
            self.add_error(None, say_lazy(problem))
        self.instance.tiebreaks = order
        self.instance.house_rules = rules.default_house_rules() | house_rules
        return cleaned


class TournamentForm(CompetitionGameForm):
    """A tournament: the game, everyone taking part, the rounds, an optional final table."""

    class Meta:
        model = Tournament
        fields = ["name", "rounds_planned", "final_table"]

    players = IdsField(queryset=Player.objects.none(),
                                             widget=forms.CheckboxSelectMultiple,
                                             label=_("Players"))

    def __init__(self, *args: Any, household: Household, **kwargs: Any):
        super().__init__(*args, household=household, **kwargs)
        self.fields["players"].queryset = household.players.all()
        self.fields["rounds_planned"] = forms.IntegerField(label=_("Rounds"), min_value=1,
                                                           max_value=30, initial=3)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        chosen = find(self.games_offered, cleaned.get("game"))
        players = cleaned.get("players") or []
        if chosen is None or not players:
            return cleaned
        if chosen.own_game is not None:
            self.instance.house_rules = chosen.own_game.house_rules
            if chosen.own_game.max_players is None:
                self.add_error("game", _(
                    "A tournament seats its tables by the most players of the game: say in "
                    "the library how many players at most play %(game)s.") % {
                        "game": chosen.name})
                return cleaned
        low, high = chosen.min_players, chosen.max_players
        try:
            games.seating.table_sizes_for(len(players), (low, high))
        except ValueError:
            self.add_error("players", _("%(count)s players cannot sit at tables of %(low)s to "
                                        "%(high)s.") % {"count": len(players),
                                                        "low": low, "high": high})
        final = cleaned.get("final_table")
        if final and not (low <= final <= min(high, len(players))):
            self.add_error("final_table", _("A final table seats %(low)s to %(high)s players.")
                           % {"low": low, "high": min(high, len(players))})
        return cleaned

    def save(self, commit: bool = True) -> Tournament:
        tournament = super().save(commit=commit)
        if commit:
            TournamentEntry.objects.bulk_create(
                TournamentEntry(tournament=tournament, player=player)
                for player in self.cleaned_data["players"])
        return tournament
