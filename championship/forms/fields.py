"""What the round-entry forms share: text and bounded-number fields refused in French naming
their field, the hidden version and one-time key, the « motif » of a correction, and the check
that a round's totals cancel out.

Forms write nothing: a valid form hands its cleaned data to a `championship.services` write
(the view calls it), which checks again under the round's lock. A form that changes what is
stored carries the round's `version` it was read at (a stale one is refused), one that adds
something carries a one-time `key` (sent twice, it stores once); both are hidden fields.
"""

import uuid

from django import forms
from django.core.validators import ProhibitNullCharactersValidator
from django.forms.models import ModelChoiceIterator
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from federation import validators
from federation.collation import french_key

MOTIF_MAX_LENGTH = 100  # django-simple-history keeps at most 100 characters of a change reason
MISSING_MOTIF = _("Motif : obligatoire pour modifier une manche homologuée.")


class TextField(forms.CharField):
    """A text refused with a French message naming `field_name` (the field as its errors call it) when
    it holds a control character (a one-line text, also a bidi control); `formula=True` for a
    name or a place, which an export may put in a spreadsheet."""

    def __init__(self, *args, field_name, multiline=False, formula=False, **kwargs):
        super().__init__(*args, **kwargs)
        # The shared rule says which character and names the field; Django's NUL check would not.
        self.validators = [v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)]
        self.field_name, self.multiline, self.formula = field_name, multiline, formula

    def validate(self, value):
        super().validate(value)
        if value in self.empty_values:
            return
        if self.formula:
            validators.check(self.field_name, validators.name_problem(value))
        else:
            validators.check(self.field_name, validators.text_problem(value, multiline=self.multiline))


class BoundedIntegerField(forms.IntegerField):
    """An integer within shared `bounds`, refused with the same message as the sheet import."""

    def __init__(self, *args, field_name, bounds, **kwargs):
        super().__init__(*args, **kwargs)
        self.field_name, self.bounds = field_name, bounds
        self.widget.attrs.update(min=bounds.low, max=bounds.high)

    def validate(self, value):
        super().validate(value)
        if value not in self.empty_values:
            validators.check(self.field_name, validators.bounds_problem(value, self.bounds))


def motif_field():
    return TextField(
        field_name=_("Motif"),
        label=_("Motif de la correction"),
        max_length=MOTIF_MAX_LENGTH,
        help_text=_("Obligatoire : la manche est homologuée, la correction est inscrite à l'historique."),
        error_messages={
            "required": MISSING_MOTIF,
            "max_length": gettext("Motif : %(maximum)s caractères au plus.") % {"maximum": MOTIF_MAX_LENGTH},
        },
    )


def version_field(version):
    """The version of the round (or report) the form was read at; empty: not checked."""
    return forms.IntegerField(required=False, min_value=0, initial=version, widget=forms.HiddenInput)


def key_field():
    """A one-time key, new with each blank form; the service stores a key once."""
    return forms.UUIDField(required=False, initial=uuid.uuid4, widget=forms.HiddenInput)


class MotifMixin:
    """Adds the required « motif » field when the round is homologated."""

    def add_motif(self, round_):
        if round_.is_homologated:
            self.fields["motif"] = motif_field()

    @property
    def reason(self):
        return self.cleaned_data.get("motif") or None


def unbalanced_totals(totals):
    """The French error when a round's totals do not cancel out, else None."""
    balance = sum(totals)
    if balance != 0:
        return gettext("Totaux : ils doivent s'annuler, or leur somme fait %(balance)s (et non 0).") % {
            "balance": balance
        }
    return None


class _ByFrenchName(ModelChoiceIterator):
    """The queryset's players in French alphabetical order (`french_key`), the field's `first`
    key before the name (the active players first, say); still one query."""

    def __iter__(self):
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        first = self.field.first or (lambda player: 0)
        for player in sorted(self.queryset, key=lambda player: (first(player), french_key(player.name))):
            yield self.choice(player)


class PlayerChoiceField(forms.ModelChoiceField):
    """A player chosen in a list sorted as a French reader expects (« Émile » before « Léa »),
    whatever order the database's collation gives; `first(player)`: a key put before the name."""

    iterator = _ByFrenchName

    def __init__(self, *args, first=None, **kwargs):
        self.first = first
        super().__init__(*args, **kwargs)
