"""Adding a bonus or a malus from the season's catalogue."""

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from championship import bounds
from championship.forms.fields import BoundedIntegerField, MotifMixin, TextField, key_field
from federation.models import Player
from scoring.french import signed


class AdjustmentForm(MotifMixin, forms.Form):
    player = forms.TypedChoiceField(label=_("Joueur"), coerce=int)
    code = forms.CharField(label=_("Bonus ou malus"), widget=forms.Select)
    note = TextField(field_name=_("Raison"), label=_("Raison"), max_length=200, required=False)

    def __init__(self, round_, *args, board=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        self.board = board
        self.catalogue = {entry.code: entry for entry in round_.season.rulebook.championship.catalogue}
        seats = round_.seats.select_related("player").order_by("position")
        self.fields["player"].choices = [("", gettext("— joueur —"))] + [
            (s.player_id, s.player.name) for s in seats
        ]
        self.fields["player"].error_messages.update(
            required=gettext("Joueur : obligatoire."),
            invalid_choice=gettext("Joueur : ce joueur n'est pas à cette table."),
        )
        self.fields["code"].error_messages["required"] = gettext("Bonus ou malus : obligatoire.")
        self.fields["code"].widget.choices = [("", gettext("— choisir —"))] + [
            (entry.code, self.entry_label(entry))
            for entry in self.catalogue.values()
            if board or not entry.board_only
        ]
        if board:
            self.fields["points"] = BoundedIntegerField(
                field_name=gettext("Points"),
                bounds=bounds.ADJUSTMENT_POINTS,
                label=gettext("Points (Direction)"),
                required=False,
                help_text=gettext("Vide : les points du catalogue."),
                error_messages={"invalid": gettext("Points : un nombre entier.")},
            )
        self.fields["key"] = key_field()
        self.add_motif(round_)

    @staticmethod
    def entry_label(entry):
        label = f"{entry.label} ({signed(entry.points)})"
        if entry.board_only:
            return gettext("%(label)s — Direction") % {"label": label}
        return label

    def clean_code(self):
        code = self.cleaned_data["code"]
        entry = self.catalogue.get(code)
        if entry is None:
            raise forms.ValidationError(
                gettext("Bonus ou malus : « %(code)s » n'est pas dans le catalogue de la saison.")
                % {"code": code}
            )
        if entry.board_only and not self.board:
            raise forms.ValidationError(
                gettext("Bonus ou malus : « %(label)s » est réservé à la Direction.") % {"label": entry.label}
            )
        return code

    def clean(self):
        data = super().clean()
        if not self.board and (self.data.get(self.add_prefix("points")) or "").strip():
            self.add_error(
                None, gettext("Points : seule la Direction peut fixer d'autres points que ceux du catalogue.")
            )
        return data

    def addition(self):
        """The arguments of `services.add_adjustment` for this valid form (but its author)."""
        data = self.cleaned_data
        return {
            "player": Player.objects.get(pk=data["player"]),
            "code": data["code"],
            "points": data.get("points"),
            "note": data.get("note", ""),
            "key": data.get("key"),
            "reason": self.reason,
        }
