"""The board's form of a season's rulebook (TOML) and the reason of its change."""

from django import forms
from django.utils.translation import gettext_lazy as _

from federation.history import REASON_MAX_LENGTH
from scoring.rulebook import RulebookError, load_rulebook


class RulebookForm(forms.Form):
    rulebook_text = forms.CharField(
        label=_("Règlement de la saison (TOML)"),
        widget=forms.Textarea(attrs={"rows": 30, "spellcheck": "false", "wrap": "off", "class": "code"}),
        strip=False,
    )
    reason = forms.CharField(
        label=_("Motif de la modification"),
        max_length=REASON_MAX_LENGTH,
        help_text=_(
            "Obligatoire : il est inscrit à l'historique de la saison et de chaque manche recalculée."
        ),
        error_messages={
            "required": _(
                "Motif de la modification : obligatoire, il est inscrit à l'historique de la saison "
                "et de chaque manche recalculée."
            ),
            "max_length": _("Motif de la modification : %(limit_value)d caractères au plus."),
        },
    )

    def clean_rulebook_text(self):
        """Checked here too, so that a bad rulebook and a missing reason show at once."""
        text = self.cleaned_data["rulebook_text"]
        try:
            load_rulebook(text)
        except RulebookError as error:
            raise forms.ValidationError(refused(error)) from error
        return text


def refused(error):
    return f"Règlement refusé, rien n'est enregistré — {error}"
