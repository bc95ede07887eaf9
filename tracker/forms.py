"""Forms check what is about input; the rules engine checks what is about the game."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

import games
import games.seating
from tracker.engine_text import say, say_lazy
from tracker.library import LibraryGame, every_game, find, library
from tracker.models import (
    COLOURS,
    GameNight,
    Household,
    OwnGame,
    Player,
    Series,
    Tournament,
    TournamentEntry,
    tidy_name,
)
from tracker.own_pads import MAX_SIDES, OwnPad, SideHead, most_rounds
from tracker.parsing import IdField, IdsField, parse_whole_number
from tracker.printing import MAX_COLUMNS, NAME_LENGTH, Pad


@dataclass(frozen=True)
class Swatch:
    """One colour to tap: its value, its name and who already plays in it."""

    value: str
    label: str
    taken_by: str | None
    checked: bool


class PlayerForm(forms.ModelForm):
    """A new player, or one being renamed: a name unique in the household and a free colour.

    A colour another player of the household has is refused while some colour is still free;
    a family with more players than colours shares them. A new player is offered the first
    free colour.
    """

    class Meta:
        model = Player
        fields = ["name", "colour"]
        widgets = {"colour": forms.RadioSelect,
                   "name": forms.TextInput(attrs={"autocomplete": "off",
                                                  "placeholder": _("Name")})}
        # The inputs carry no maxlength: a browser would cut a pasted name without a word.
        error_messages = {"name": {"max_length": _(
            "A name has at most %(limit_value)d characters; this one has %(show_value)d.")}}

    def __init__(self, *args: Any, household: Household, instance: Player | None = None,
                 players: Iterable[Player] | None = None, **kwargs: Any):
        """``players`` are the household's players when the caller has them loaded already."""
        super().__init__(*args, instance=instance or Player(household=household), **kwargs)
        if players is None:
            players = household.players.all()
        self.others = [player for player in players if player.pk != self.instance.pk]
        if self.instance.pk is None and "colour" not in (kwargs.get("initial") or {}):
            self.initial["colour"] = next(iter(self.free_colours()), COLOURS[0][0])

    def holder_of(self, colour: str) -> Player | None:
        """Another player of the household who plays in ``colour``."""
        return next((player for player in self.others if player.colour == colour), None)

    def free_colours(self) -> list[str]:
        """The colours no other player of the household has, in the order of ``COLOURS``."""
        taken = {player.colour for player in self.others}
        return [value for value, _label in COLOURS if value not in taken]

    def swatches(self) -> list[Swatch]:
        chosen = self["colour"].value()
        return [Swatch(value, str(label), getattr(self.holder_of(value), "name", None),
                       value == chosen)
                for value, label in COLOURS]

    def clean_name(self) -> str:
        name = tidy_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Enter a name."))
        same_name = Player.objects.filter(household=self.instance.household, name__iexact=name)
        if same_name.exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(_("There is already a player with this name."))
        return name

    def clean_colour(self) -> str:
        colour = self.cleaned_data["colour"]
        holder = self.holder_of(colour)
        if holder is not None and self.free_colours():
            raise forms.ValidationError(
                _("%(name)s already plays in %(colour)s."), code="colour_taken",
                params={"name": holder.name, "colour": dict(COLOURS)[colour]})
        return colour

    def save(self, commit: bool = True) -> Player:
        """The player; a name taken on another tablet a moment ago becomes a form error."""
        try:
            with transaction.atomic():
                return super().save(commit)
        except IntegrityError:
            self.add_error("name", _("There is already a player with this name."))
            raise


class HouseholdForm(forms.ModelForm):
    """A household's name, when it is created and when it is renamed."""

    class Meta:
        model = Household
        fields = ["name"]
        widgets = {"name": forms.TextInput(attrs={"autocomplete": "off"})}

    def clean_name(self) -> str:
        name = tidy_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Enter a name."))
        return name


class GameNightForm(forms.ModelForm):
    class Meta:
        model = GameNight
        fields = ["date", "players"]
        field_classes = {"players": IdsField}
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
                   "players": forms.CheckboxSelectMultiple}

    def __init__(self, *args: Any, household: Household, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.instance.household = household
        self.fields["players"].queryset = household.players.all()
        self.fields["players"].required = True
        self.fields["players"].error_messages["required"] = _("Tap the players who are here.")


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


class OwnGameForm(forms.ModelForm):
    """A game of the family's own in its library: a name unique in the household, and how it
    is scored and ends, checked by the engine that scores its plays."""

    class Meta:
        model = OwnGame
        fields = ["name", "scoring", "teams", "end", "end_at", "min_players", "max_players",
                  "note"]
        widgets = {"name": forms.TextInput(attrs={"autocomplete": "off"}),
                   "note": forms.Textarea(attrs={"rows": 2})}
        error_messages = {"name": {"max_length": _(
            "A name has at most %(limit_value)d characters; this one has %(show_value)d.")}}

    def __init__(self, *args: Any, household: Household, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.instance.household = household

    def clean_name(self) -> str:
        name = tidy_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Enter a name."))
        same = OwnGame.objects.filter(household=self.instance.household, name__iexact=name)
        if same.exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(_("Your library has a game of this name already."))
        return name

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        low, high = cleaned.get("min_players"), cleaned.get("max_players")
        if low and high and low > high:
            self.add_error("max_players", _("At least as many as the fewest players."))
        definition = {key: cleaned.get(key, default) for key, default in (
            ("scoring", "most_points"), ("teams", False), ("end", "host"), ("end_at", 0))}
        for problem in games.get("generic").validate_house_rules(definition):
            field = (problem.field or "").removeprefix("house_rules.")
            self.add_error(field if field in self.fields else None, say(problem))
        return cleaned


class QuickOwnGameForm(OwnGameForm):
    """Adding a game from the new-game screen: its name and how it is scored, nothing more."""

    class Meta(OwnGameForm.Meta):
        fields = ["name", "scoring"]


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


class LenientChoiceField(forms.ChoiceField):
    """A choice typed by hand: " A4 " is the choice "a4"."""

    def to_python(self, value: Any) -> str:
        return super().to_python(value).strip().lower()


def printed_names(text: str, most: int, too_many: Any) -> tuple[str, ...]:
    """The names in ``text``, separated by commas; ``too_many`` when more than ``most``.

    Every name may have up to ``NAME_LENGTH`` characters, like a player's name.
    """
    names = tuple(name for name in (tidy_name(name) for name in text.split(",")) if name)
    if len(names) > most:
        raise forms.ValidationError(too_many, params={"count": most, "given": len(names)})
    too_long = [name for name in names if len(name) > NAME_LENGTH]
    if too_long:
        raise forms.ValidationError(
            _("A name has at most %(length)s characters: %(name)s"),
            params={"length": NAME_LENGTH, "name": too_long[0][:NAME_LENGTH] + "…"})
    return names


class PrintForm(forms.Form):
    """A form for a printed sheet, where every parameter left out takes its default."""

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        return {name: field.initial for name, field in cls.base_fields.items()
                if field.initial is not None}


class PadForm(PrintForm):
    """A Kniffel pad to print; the web form and ``manage.py kniffel_pad`` share it.

    On the web, ``household`` offers its players to pick besides the typed names.
    """

    MAX_SHEETS = 500
    MAX_NAMES = 12
    MAX_PAGES = 500
    TOO_MANY_NAMES = _("At most %(count)s names at once, not %(given)s: print the others as "
                       "a second pad.")

    variant = LenientChoiceField(label=_("Pad"), initial="classic", choices=[
        ("classic", _("Kniffel (classic)")), ("space", _("Kniffel with space symbols"))])
    sheets = forms.IntegerField(label=_("Sheets"), initial=1, min_value=1,
                                max_value=MAX_SHEETS,
                                help_text=_("With names: sheets for each name."))
    picked = forms.MultipleChoiceField(label=_("Players"), required=False,
                                       widget=forms.CheckboxSelectMultiple)
    players = forms.CharField(label=_("Names (optional, separated by commas)"),
                              required=False)
    paper = LenientChoiceField(label=_("Paper"), initial="a4", choices=[
        ("a4", "A4"), ("a5", "A5"), ("letter", "US Letter")])
    lang = LenientChoiceField(label=_("Language"), initial="de", choices=settings.LANGUAGES)
    columns = forms.IntegerField(label=_("Game columns per sheet"), initial=6, min_value=1,
                                 max_value=10)

    def __init__(self, *args: Any, household: Household | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if household is None:
            del self.fields["picked"]
        else:
            self.fields["picked"].choices = [(player.name, player.name)
                                             for player in household.players.all()]
            self.fields["players"].label = _("More names (optional, separated by commas)")

    def clean_players(self) -> tuple[str, ...]:
        return printed_names(self.cleaned_data["players"], self.MAX_NAMES, self.TOO_MANY_NAMES)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        most = MAX_COLUMNS.get(data.get("paper", ""), 10)
        if data.get("columns", 0) > most:
            self.add_error("columns", _(
                "An A5 sheet has room for at most %(most)s game columns wide enough to write "
                "three digits into by hand: choose fewer columns, or A4.") % {"most": most})
        if "players" in data:
            typed = [name for name in data["players"]
                     if name.lower() not in {picked.lower() for picked in data.get("picked", [])}]
            data["players"] = (*data.get("picked", []), *typed)
            if len(data["players"]) > self.MAX_NAMES:
                self.add_error("players", self.TOO_MANY_NAMES % {
                    "count": self.MAX_NAMES, "given": len(data["players"])})
        if not self.errors and self.pad().pages > self.MAX_PAGES:
            self.add_error("sheets", _("That would be %(pages)s pages; at most %(most)s pages "
                                       "at once. Print fewer sheets for each name.") % {
                "pages": self.pad().pages, "most": self.MAX_PAGES})
        return data

    def pad(self) -> Pad:
        data = self.cleaned_data
        return Pad(variant=data["variant"], sheets=data["sheets"], names=data["players"],
                   paper=data["paper"], language=data["lang"], columns=data["columns"])


class OwnPadForm(PrintForm):
    """A blank score pad of one of the household's own games: the players (picked or typed),
    or in a team game the teams with their members, the rounds and the paper."""

    MAX_SHEETS = 100
    MEMBERS_LENGTH = 80

    picked = forms.MultipleChoiceField(label=_("Players"), required=False,
                                       widget=forms.CheckboxSelectMultiple)
    players = forms.CharField(label=_("More names (optional, separated by commas)"),
                              required=False)
    teams = forms.CharField(
        label=_("Teams (optional, one a line)"), required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("A team's name, and its players after a colon: Red: Anna, Carl"))
    columns = forms.IntegerField(label=_("Columns without names"), initial=4, min_value=1,
                                 max_value=max(MAX_SIDES.values()))
    rounds = forms.IntegerField(
        label=_("Rounds"), required=False, min_value=1, max_value=most_rounds("a4"),
        help_text=_("Leave empty for the game's rounds, or rows enough to fill the page."))
    sheets = forms.IntegerField(label=_("Sheets"), initial=1, min_value=1, max_value=MAX_SHEETS)
    paper = LenientChoiceField(label=_("Paper"), initial="a4", choices=[
        ("a4", "A4"), ("a5", "A5"), ("letter", "US Letter")])
    lang = LenientChoiceField(label=_("Language"), initial="de", choices=settings.LANGUAGES)

    def __init__(self, *args: Any, own_game: OwnGame, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.own_game = own_game
        if own_game.teams:
            del self.fields["picked"], self.fields["players"]
        else:
            del self.fields["teams"]
            self.fields["picked"].choices = [(player.name, player.name)
                                             for player in own_game.household.players.all()]

    def clean_players(self) -> tuple[str, ...]:
        return printed_names(self.cleaned_data["players"], max(MAX_SIDES.values()),
                             PadForm.TOO_MANY_NAMES)

    def clean_teams(self) -> tuple[SideHead, ...]:
        teams = []
        for line in self.cleaned_data["teams"].splitlines():
            name, _colon, members = line.partition(":")
            name, members = tidy_name(name), " ".join(members.split())
            if not name:
                continue
            if len(name) > NAME_LENGTH or len(members) > self.MEMBERS_LENGTH:
                raise forms.ValidationError(
                    _("A team's name has at most %(name)s characters and its players at most "
                      "%(members)s: %(line)s"),
                    params={"name": NAME_LENGTH, "members": self.MEMBERS_LENGTH,
                            "line": line[:NAME_LENGTH] + "…"})
            teams.append(SideHead(name, members))
        return tuple(teams)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "players" in data:
            typed = [name for name in data["players"]
                     if name.lower() not in {picked.lower() for picked in data.get("picked", [])}]
            data["sides"] = tuple(SideHead(name) for name in (*data.get("picked", []), *typed))
        elif "teams" in data:
            data["sides"] = data["teams"]
        paper = data.get("paper")
        if paper in MAX_SIDES and "sides" in data:
            most, given = MAX_SIDES[paper], len(data["sides"]) or data.get("columns") or 0
            if given > most:
                self.add_error("players" if "players" in self.fields else "teams", _(
                    "A sheet of this paper has room for %(most)s columns, not %(given)s: "
                    "print the others on a second sheet, or choose A4.") % {
                    "most": most, "given": given})
        if paper in MAX_SIDES and (data.get("rounds") or 0) > most_rounds(paper):
            self.add_error("rounds", _("A sheet of this paper has room for at most %(most)s "
                                       "rounds.") % {"most": most_rounds(paper)})
        return data

    def pad(self) -> OwnPad:
        data = self.cleaned_data
        return OwnPad(own_game=self.own_game, sides=data["sides"], columns=data["columns"],
                      rounds=data["rounds"], sheets=data["sheets"], paper=data["paper"],
                      language=data["lang"])


class TallyForm(PrintForm):
    """A Die Maus im Nacken tally sheet for playing on paper."""

    races = forms.IntegerField(label=_("Races"), initial=5, min_value=1, max_value=20)
    players = forms.CharField(label=_("Names (optional, separated by commas)"), required=False)
    lang = LenientChoiceField(label=_("Language"), initial="de", choices=settings.LANGUAGES)
    paper = LenientChoiceField(label=_("Paper"), initial="a4", choices=[
        ("a4", "A4"), ("letter", "US Letter")])

    def clean_players(self) -> tuple[str, ...]:
        rules = games.get("maus_im_nacken")
        return printed_names(self.cleaned_data["players"], rules.max_players, _(
            "Die Maus im Nacken is for at most %(count)s players, not %(given)s."))


def with_defaults(data: QueryDict, defaults: dict[str, Any]) -> QueryDict:
    """``data`` with ``defaults`` for the parameters it does not have (or leaves empty)."""
    merged = data.copy()
    for name, value in defaults.items():
        if not merged.get(name):
            merged[name] = value
    return merged


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


class HistoryFilterForm(forms.Form):
    """The history page's filters; every field is optional, all of them narrow the list."""

    game = forms.ChoiceField(label=_("Game"), required=False)
    player = IdField(label=_("Player"), queryset=Player.objects.none(),
                     required=False, empty_label=_("All players"))
    series = IdField(label=_("Series"), queryset=Series.objects.none(),
                     required=False, empty_label=_("All series"))
    since = forms.DateField(label=_("From"), required=False,
                            widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label=_("To"), required=False,
                            widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args: Any, household: Household, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", _("All games")), *(
            (entry.key, entry.name) for entry in sorted(every_game(household),
                                                        key=lambda entry: entry.name.lower()))]
        # Only what an option shows: a series' JSON settings cost more to load than the rest.
        self.fields["player"].queryset = Player.objects.filter(household=household).only("name")
        self.fields["series"].queryset = Series.objects.filter(household=household).only("name")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            raise forms.ValidationError(_("The start date lies after the end date."))
        return data

    def selects(self) -> list[tuple[forms.BoundField, list[tuple[str, str, bool]]]]:
        """Each choice field with its (value, label, chosen) options.

        The page writes the options itself: Django's widgets render each option from its
        own template, which took 40 ms for a household's hundred players, games and series.
        """
        selects = []
        for field in self:
            if isinstance(field.field, forms.ChoiceField):
                chosen = str(field.value() or "")
                selects.append((field, [(str(value), str(label), str(value) == chosen)
                                        for value, label in field.field.choices]))
        return selects

    def dates(self) -> list[forms.BoundField]:
        return [field for field in self if isinstance(field.field, forms.DateField)]

    def filters(self) -> dict[str, Any]:
        """The chosen filters, for :func:`tracker.stats.history_entries`."""
        return {name: value for name, value in self.cleaned_data.items() if value}
