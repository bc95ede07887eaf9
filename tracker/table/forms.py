"""Forms of the household's own games, in full and in the short form a new game offers."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

import games
import games.seating
from tracker.common.engine_text import say
from tracker.households.models import Household, tidy_name
from tracker.table.models import OwnGame
from tracker.table.story import LONGEST_MINUTES, NOTE_LENGTH, SHORTEST_MINUTES


class OwnGameForm(forms.ModelForm):
    """A game of the family's own in its library: a name unique in the household, and how it
    is scored and ends, checked by the engine that scores its plays."""

    class Meta:
        model = OwnGame
        fields = ["name", "scoring", "teams", "end", "end_at", "sheet", "categories",
                  "tiebreak", "tiebreak_count", "pad_moves", "min_players", "max_players", "note"]
        widgets = {"name": forms.TextInput(attrs={"autocomplete": "off"}),
                   "tiebreak": forms.TextInput(attrs={"autocomplete": "off"}),
                   "tiebreak_count": forms.TextInput(attrs={"autocomplete": "off"}),
                   "note": forms.Textarea(attrs={"rows": 2})}
        error_messages = {"name": {"max_length": _(
            "A name has at most %(limit_value)d characters; this one has %(show_value)d.")}}

    categories = forms.CharField(
        label=_("Categories"), required=False, widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("One per line, in the order of the sheet. A line that starts with a minus "
                    "is taken off the total (penalties)."))

    def __init__(self, *args: Any, household: Household, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.instance.household = household
        if "categories" in self.fields and not self.is_bound:
            self.initial["categories"] = "\n".join(
                ("−" if category["minus"] else "") + category["name"]
                for category in self.instance.categories)
        for optional in ("sheet", "pad_moves"):
            if optional in self.fields:
                self.fields[optional].required = False
        if "tiebreak" in self.fields:
            self.fields["tiebreak"].help_text = _(
                "Optional: the category whose most points win a tie (most food wins).")
        if "tiebreak_count" in self.fields:
            self.fields["tiebreak_count"].help_text = _(
                "Optional: what is counted when totals are tied, and only then; the most wins "
                "(Wingspan: food tokens left).")

    def clean_sheet(self) -> str:
        return self.cleaned_data.get("sheet") or "rounds"

    def clean_pad_moves(self) -> str:
        return self.cleaned_data.get("pad_moves") or "next_player"

    def clean_categories(self) -> list[dict[str, Any]]:
        """The sheet's rows from the lines typed: "Birds", "− Penalties"."""
        categories = []
        for line in self.cleaned_data.get("categories", "").splitlines():
            minus = line.strip().startswith(("-", "−", "–"))
            name = tidy_name(line.strip().lstrip("-−– "))
            if name:
                categories.append({"name": name, "minus": minus})
        return categories

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
            ("scoring", "most_points"), ("teams", False), ("end", "host"), ("end_at", 0),
            ("sheet", "rounds"), ("categories", []), ("tiebreak", ""), ("tiebreak_count", ""))}
        if definition["sheet"] == "rounds":
            definition |= {"categories": [], "tiebreak": ""}
        for problem in games.get("generic").validate_house_rules(definition):
            field = (problem.field or "").removeprefix("house_rules.")
            self.add_error(field if field in self.fields else None, say(problem))
        return cleaned

    def clean_tiebreak_count(self) -> str:
        return tidy_name(self.cleaned_data.get("tiebreak_count", ""))


class QuickOwnGameForm(OwnGameForm):
    """Adding a game from the new-game screen: its name and how it is scored, nothing more."""

    class Meta(OwnGameForm.Meta):
        fields = ["name", "scoring"]


class PlayStoryForm(forms.Form):
    """A finished play's note and length, as the family tells it."""

    note = forms.CharField(label=_("Note"), required=False, strip=True)
    length_minutes = forms.IntegerField(
        label=_("Length in minutes"), required=False, min_value=SHORTEST_MINUTES,
        max_value=LONGEST_MINUTES,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages={
            "invalid": _("Enter the length as whole minutes, from 1 to 1440 (a day)."),
            "min_value": _("Enter the length as whole minutes, from 1 to 1440 (a day)."),
            "max_value": _("Enter the length as whole minutes, from 1 to 1440 (a day)."),
        })

    def clean_note(self) -> str:
        """The note with the line breaks a browser sends as two characters counted as one,
        as the browser counts them while it is typed."""
        note = self.cleaned_data["note"].replace("\r\n", "\n").replace("\r", "\n")
        if len(note) > NOTE_LENGTH:
            raise forms.ValidationError(
                _("A note has at most %(limit)d characters; this one has %(length)d.")
                % {"limit": NOTE_LENGTH, "length": len(note)})
        return note
