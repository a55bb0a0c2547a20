"""Forms of the calendar, which validate without writing (the writes are `gamenights.services`)."""

import datetime

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from championship import bounds
from championship.forms.fields import PlayerChoiceField, TextField
from federation import validators
from federation.models import Player
from gamenights.models import Rsvp

# The fields of a night that its form shows and writes: not its phase (a night of the form is
# regular; a play-off table's and the final's are the cup's, `CupNightForm`, and keep it).
NIGHT_FIELDS = ("date", "time", "place", "host", "tentative", "answers_until", "notes")


def check_season_date(form, data):
    """The night's date within its season's dates, or an error on the form's date field."""
    if data.get("date"):
        season = form.season
        problem = bounds.round_date_problem(data["date"], season.name, season.start_date, season.end_date)
        if problem:
            form.add_error("date", validators.field_message(gettext("Date"), problem))


class NightForm(forms.Form):
    date = forms.DateField(
        label=_("Date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={"required": _("Date : obligatoire."), "invalid": _("Date : date invalide.")},
    )
    time = forms.TimeField(
        label=_("Heure"),
        initial=datetime.time(20, 30),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        error_messages={"required": _("Heure : obligatoire."), "invalid": _("Heure : heure invalide.")},
    )
    place = TextField(field_name=_("Lieu"), formula=True, label=_("Lieu"), max_length=120, required=False)
    host = PlayerChoiceField(
        label=_("Hôte"),
        queryset=Player.objects.filter(active=True),
        required=False,
        empty_label=_("— personne —"),
    )
    tentative = forms.BooleanField(label=_("Date à confirmer"), required=False)
    answers_until = forms.DateTimeField(
        label=_("Réponses jusqu'au"),
        required=False,
        help_text=_("Vide : jusqu'au début de la soirée."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%d/%m/%Y %H:%M"],
    )
    notes = TextField(
        field_name=_("Notes"),
        multiline=True,
        label=_("Notes"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    reason = TextField(
        field_name=_("Motif"), label=_("Motif de la modification"), max_length=200, required=False
    )

    def __init__(self, season, *args, night=None, **kwargs):
        if night is not None:
            kwargs.setdefault(
                "initial",
                {name: getattr(night, name) for name in NIGHT_FIELDS},
            )
        super().__init__(*args, **kwargs)
        self.season, self.night = season, night
        if night is None:
            del self.fields["reason"]

    def clean(self):
        data = super().clean()
        check_season_date(self, data)
        deadline = data.get("answers_until")
        if deadline and data.get("date") and deadline.date() > data["date"]:
            self.add_error("answers_until", gettext("Réponses jusqu'au : au plus tard le jour de la soirée."))
        return data

    def fields_to_write(self):
        data = self.cleaned_data
        return {name: data.get(name) for name in NIGHT_FIELDS} | {
            "place": data.get("place") or "",
            "notes": data.get("notes") or "",
        }


class CancelForm(forms.Form):
    reason = TextField(field_name=_("Motif"), label=_("Motif de l'annulation"), max_length=200)


class AnswerForm(forms.Form):
    answer = forms.ChoiceField(label=_("Réponse"), choices=Rsvp.ANSWERS, widget=forms.RadioSelect)
    reason = TextField(
        field_name=_("Motif"),
        label=_("Motif (si vous ne venez pas, facultatif)"),
        max_length=200,
        required=False,
    )


class BoardAnswerForm(AnswerForm):
    """The board answers for a member."""

    player = PlayerChoiceField(
        label=_("Joueur"), queryset=Player.objects.filter(active=True), empty_label=_("— joueur —")
    )

    field_order = ["player", "answer", "reason"]


class ProposalForm(forms.Form):
    """The board confirms a proposed bonus or malus, with its reason (the adjustment's note)."""

    player = forms.ModelChoiceField(queryset=Player.objects.all(), widget=forms.HiddenInput)
    code = forms.ChoiceField(choices=[("hote", "hote"), ("absence", "absence")], widget=forms.HiddenInput)
    reason = TextField(field_name=_("Motif"), label=_("Motif"), max_length=200)


class CupNightForm(forms.Form):
    """A night of the cup: when and where (its stage, table and players are the cup's)."""

    date = NightForm.base_fields["date"]
    time = NightForm.base_fields["time"]
    place = NightForm.base_fields["place"]

    def __init__(self, season, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.season = season

    def clean(self):
        data = super().clean()
        check_season_date(self, data)
        return data
