"""The report form: its author writes the narrative; the board may also set the author and the
filing date."""

from django import forms
from django.utils import timezone

from championship.forms.fields import PlayerChoiceField
from championship.models import Report
from championship.reports.display import validate_report_text
from federation.models import Player


class NarrativeField(forms.CharField):
    """The Markdown of a report, its line breaks counted as one character (browsers send CRLF)."""

    def to_python(self, value):
        return super().to_python(value).replace("\r\n", "\n")


class ReportForm(forms.Form):
    # The report's version the form was read at (0: none yet); a stale one is refused.
    version = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)
    text = NarrativeField(
        label="Récit",
        widget=forms.Textarea(attrs={"rows": 18}),
        strip=True,
        error_messages={"required": "Récit : écrivez le compte-rendu avant de l'enregistrer."},
        validators=[validate_report_text],
        help_text="Mise en forme : **gras**, *italique*, listes avec « - », citations avec « > », liens "
        "[texte](https://…), tableaux. Le HTML, les scripts et les images ne sont pas repris. "
        f"{Report.TEXT_MAX_LABEL} caractères au plus.",
    )


class BoardReportForm(ReportForm):
    author = PlayerChoiceField(
        label="Auteur",
        queryset=Player.objects.none(),
        error_messages={
            "required": "Auteur : choisissez l'auteur du compte-rendu.",
            "invalid_choice": "Auteur : choisissez un joueur de la table.",
        },
    )
    filed_on = forms.DateField(
        label="Rendu le",
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={"invalid": "Rendu le : date invalide (format AAAA-MM-JJ)."},
        help_text="Laissez vide : la date du jour au premier dépôt, inchangée ensuite.",
    )

    def __init__(self, *args, round_, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        self.fields["author"].queryset = Player.objects.filter(seats__round=round_)

    def clean_filed_on(self):
        filed_on = self.cleaned_data.get("filed_on")
        if filed_on is None:
            return None
        if filed_on < self.round.date:
            raise forms.ValidationError(
                f"Rendu le : la date ne peut pas précéder la manche ({self.round.date:%d/%m/%Y})."
            )
        if filed_on > timezone.localdate():
            raise forms.ValidationError("Rendu le : la date ne peut pas être dans le futur.")
        return filed_on
