"""The history's filters."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tracker.common.parsing import IdField
from tracker.evenings.models import Series, places_used
from tracker.households.models import Household, Player
from tracker.table.library import every_game

#: The place filter's choice for the nights at home, stored as no place: a value no place
#: typed can take, as places are stored without a leading or trailing space.
AT_HOME = " home"


class HistoryFilterForm(forms.Form):
    """The history page's filters; every field is optional, all of them narrow the list."""

    game = forms.ChoiceField(label=_("Game"), required=False)
    player = IdField(label=_("Player"), queryset=Player.objects.none(),
                     required=False, empty_label=_("All players"))
    series = IdField(label=_("Series"), queryset=Series.objects.none(),
                     required=False, empty_label=_("All series"))
    place = forms.ChoiceField(label=_("Place"), required=False)
    since = forms.DateField(label=_("From"), required=False,
                            widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label=_("To"), required=False,
                            widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args: Any, household: Household, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", _("All games")), *(
            (entry.key, entry.name) for entry in sorted(every_game(household),
                                                        key=lambda entry: entry.name.lower()))]
        self.fields["place"].choices = [("", _("All places")), (AT_HOME, _("At home")),
                                        *((place, place) for place in places_used(household))]
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
        """The chosen filters, for :func:`tracker.looking_back.stats.history_entries`: the
        place at home as the empty place it is stored as."""
        chosen = {name: value for name, value in self.cleaned_data.items() if value}
        if chosen.get("place") == AT_HOME:
            chosen["place"] = ""
        return chosen
