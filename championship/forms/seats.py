"""Correcting a round's seats: the totals of a round whose deals were not kept, the chip colours."""

from django import forms
from django.utils.translation import gettext

from championship import bounds
from championship.choices import CHIPS_LABELS
from championship.forms.fields import (
    BoundedIntegerField,
    MotifMixin,
    unbalanced_totals,
    version_field,
)
from championship.labels import of_player
from championship.models import COLOURS
from championship.rounds.data import seats_in_order


class SeatTotalsForm(MotifMixin, forms.Form):
    """Correcting the totals of a round whose deals were not kept; they must sum to zero.
    `seats`: the round's seats (players joined) when read already."""

    def __init__(self, round_, *args, seats=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        self.seats = list(seats if seats is not None else seats_in_order(round_))
        for seat in self.seats:
            who = {"of_player": of_player(seat.player.name, "for")}
            self.fields[f"total_{seat.position}"] = BoundedIntegerField(
                field_name=gettext("Total %(of_player)s") % who,
                bounds=bounds.ROUND_TOTAL,
                label=seat.player.name,
                initial=seat.total,
                error_messages={
                    "required": gettext("Total %(of_player)s : obligatoire.") % who,
                    "invalid": gettext("Total %(of_player)s : un nombre entier est attendu.") % who,
                },
            )
        self.fields["version"] = version_field(round_.version)
        self.add_motif(round_)

    def total_fields(self):
        return [self[f"total_{seat.position}"] for seat in self.seats]

    def clean(self):
        data = super().clean()
        totals = [data.get(f"total_{seat.position}") for seat in self.seats]
        if None not in totals and (error := unbalanced_totals(totals)):
            self.add_error(None, error)
        return data

    def totals(self):
        """Player id → total, for `services.set_seat_totals`."""
        return {seat.player_id: self.cleaned_data[f"total_{seat.position}"] for seat in self.seats}

    @property
    def version(self):
        return self.cleaned_data.get("version")


class SeatColoursForm(MotifMixin, forms.Form):
    """The chip colour of each seat; `seats`: the round's seats (players joined) when read already."""

    def __init__(self, round_, *args, seats=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        self.seats = list(seats if seats is not None else seats_in_order(round_))
        for seat in self.seats:
            self.fields[f"colour_{seat.position}"] = forms.ChoiceField(
                label=seat.player.name,
                choices=[("", gettext("— aucune —")), *COLOURS],
                required=False,
                initial=seat.colour,
                error_messages={
                    "invalid_choice": gettext("Couleur de %(player)s : couleur inconnue.")
                    % {"player": seat.player}
                },
            )
        self.fields["version"] = version_field(round_.version)
        self.add_motif(round_)

    def colour_fields(self):
        return [self[f"colour_{seat.position}"] for seat in self.seats]

    def clean(self):
        data = super().clean()
        taken = {}
        for seat in self.seats:
            colour = data.get(f"colour_{seat.position}")
            if not colour:
                continue
            if colour in taken:
                self.add_error(
                    f"colour_{seat.position}",
                    gettext("Couleur %(of_player)s : les %(chips)s sont déjà à %(other)s.")
                    % {
                        "of_player": of_player(seat.player.name, "for"),
                        "chips": CHIPS_LABELS[colour],
                        "other": taken[colour],
                    },
                )
            else:
                taken[colour] = seat.player.name
        return data

    def colours(self):
        """Player id → colour ("" for none), for `services.set_seat_colours`."""
        return {seat.player_id: self.cleaned_data.get(f"colour_{seat.position}", "") for seat in self.seats}

    @property
    def version(self):
        return self.cleaned_data.get("version")


class PaperTotalsForm(MotifMixin, forms.Form):
    """The paper sheet's final totals, typed at the end of a round to check it; `seats`: the
    round's seats (players joined) when read already. The totals need not cancel out: a paper
    sheet with an addition mistake is what the check is for. No version: the totals do not depend
    on the deals entered meanwhile (the comparison is made when the page is shown)."""

    def __init__(self, round_, *args, seats=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        self.seats = list(seats if seats is not None else seats_in_order(round_))
        paper = round_.paper_totals or {}
        for seat in self.seats:
            who = {"of_player": of_player(seat.player.name, "for")}
            self.fields[f"paper_{seat.position}"] = BoundedIntegerField(
                field_name=gettext("Total %(of_player)s sur la feuille") % who,
                bounds=bounds.ROUND_TOTAL,
                label=seat.player.name,
                initial=paper.get(str(seat.player_id)),
                error_messages={
                    "required": gettext("Total %(of_player)s sur la feuille : obligatoire.") % who,
                    "invalid": gettext("Total %(of_player)s sur la feuille : un nombre entier est attendu.")
                    % who,
                },
            )
        self.add_motif(round_)

    def paper_fields(self):
        return [self[f"paper_{seat.position}"] for seat in self.seats]

    def totals(self):
        """Player id → total on the paper sheet, for `services.set_paper_totals`."""
        return {seat.player_id: self.cleaned_data[f"paper_{seat.position}"] for seat in self.seats}
