"""Forms of printed sheets: what a pad is made of, its paper and its names."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

import games
import games.seating
from tracker.households.models import Household, tidy_name
from tracker.paper.own_pads import MAX_SIDES, OwnPad, SideHead, co_operative, most_rounds
from tracker.paper.printing import MAX_COLUMNS, NAME_LENGTH, Pad
from tracker.table.models import OwnGame


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
    columns = forms.IntegerField(
        label=_("Columns without names"), initial=4, min_value=0,
        max_value=max(MAX_SIDES.values()),
        help_text=_("For a pad without names: with names, each name gets its column."))
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
        if co_operative(own_game):
            # A row per play, not a column per player: nothing to name.
            del self.fields["picked"], self.fields["players"], self.fields["teams"]
            del self.fields["columns"]
            self.fields["rounds"].label = _("Plays")
            self.fields["rounds"].help_text = _("Leave empty for rows enough to fill the page.")
        elif own_game.teams:
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
        elif co_operative(self.own_game):
            data["sides"], data["columns"] = (), 0
        if ("sides" in data and not data["sides"] and data.get("columns") == 0
                and not co_operative(self.own_game)):
            self.add_error("columns", _("A pad without names needs at least one column."))
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
