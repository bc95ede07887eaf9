"""Forms of the household: its name, its players with their colours, and new accounts."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from tracker.households.models import COLOURS, Household, Player, tidy_name
from tracker.households.names import confusable_with


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
        twin = confusable_with(name, [player.name for player in self.others])
        if twin is not None:
            raise forms.ValidationError(
                _("This name looks just like %(name)s's: choose one the table can tell apart."),
                code="confusable", params={"name": twin})
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


#: The most names one list adds: a club's evening, not a file.
NAMES_AT_ONCE = 60


class PlayerNamesForm(forms.Form):
    """Several new players at once, one name per line, each given the next free colour: a
    list of cousins typed in a minute. Every name is checked as a single new player's; one
    that cannot be added keeps them all out, and the message names it."""

    names = forms.CharField(
        label=_("Several at once: one name per line"), max_length=NAMES_AT_ONCE * 50,
        error_messages={"required": _("Enter at least one name.")},
        widget=forms.Textarea(attrs={"rows": 4, "autocomplete": "off",
                                     "placeholder": _("Oma\nOpa\nTante Gosia")}))

    def __init__(self, *args: Any, household: Household, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.household = household

    def clean_names(self) -> list[str]:
        names = [tidy_name(line) for line in self.cleaned_data["names"].splitlines()]
        names = [name for name in names if name]
        if not names:
            raise forms.ValidationError(_("Enter at least one name."))
        if len(names) > NAMES_AT_ONCE:
            raise forms.ValidationError(_("At most %(count)d names at once."),
                                        params={"count": NAMES_AT_ONCE})
        players = list(self.household.players.all())
        problems = []
        for index, name in enumerate(names):
            if any(other.lower() == name.lower() for other in names[:index]):
                twice = _("This name is on the list twice.")
                problems.append(f"{name}: {twice}")
                continue
            # Each name is checked as a new player's, against the household and the names
            # above it.
            earlier = [Player(household=self.household, name=other, colour=COLOURS[0][0])
                       for other in names[:index]]
            form = PlayerForm({"name": name, "colour": COLOURS[0][0]},
                              household=self.household, players=players + earlier)
            form.is_valid()
            problems += [f"{name}: {error}" for error in form.errors.get("name", [])]
        if problems:
            raise forms.ValidationError(problems)
        return names

    def save(self) -> list[Player]:
        """The new players, each in the next free colour (the colours taken in turn again
        once every one is taken), all or none."""
        taken = set(self.household.players.values_list("colour", flat=True))
        free = [value for value, _label in COLOURS if value not in taken]
        made = []
        with transaction.atomic():
            for number, name in enumerate(self.cleaned_data["names"]):
                colour = free.pop(0) if free else COLOURS[number % len(COLOURS)][0]
                player = Player(household=self.household, name=name, colour=colour)
                player.save()
                made.append(player)
        return made


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


class AccountForm(UserCreationForm):
    """Django's form for a new account, which also refuses a user name that looks like one
    taken (``dеmo`` with a Cyrillic е beside ``demo``): whoever logs in as the look-alike
    could pass for the other person."""

    def clean_username(self) -> str:
        username = super().clean_username()
        if username and "username" not in self.errors:
            taken = get_user_model().objects.values_list("username", flat=True)
            twin = confusable_with(username, taken.iterator())
            if twin is not None:
                raise forms.ValidationError(
                    _("This user name looks just like “%(name)s”, which is taken. Choose "
                      "another one."), code="confusable", params={"name": twin})
        return username
