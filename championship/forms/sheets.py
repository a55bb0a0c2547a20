"""The upload form of a round sheet (JSON, docs/feuille.md)."""

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from championship.sheets import MAX_SHEET_BYTES


class SheetUploadForm(forms.Form):
    sheet = forms.FileField(
        label=_("Feuille de manche (fichier JSON)"),
        help_text=_("Une feuille au format d'échange, par exemple exportée d'une autre manche."),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
    create_players = forms.BooleanField(
        label=_("Inscrire les joueurs inconnus"),
        required=False,
        help_text=_("Sinon, un nom qui n'est pas celui d'un joueur inscrit refuse la feuille."),
    )
    homologate = forms.BooleanField(
        label=_("Homologuer la manche importée"),
        required=False,
        help_text=_("Acte de la Direction : la manche compte aussitôt au championnat."),
    )

    def __init__(self, *args, board=False, **kwargs):
        super().__init__(*args, **kwargs)
        if not board:
            del self.fields["homologate"]

    def clean_sheet(self):
        upload = self.cleaned_data["sheet"]
        if upload.size > MAX_SHEET_BYTES:
            raise forms.ValidationError(
                gettext(
                    "Fichier trop gros pour une feuille de manche (%(size)s octets, %(maximum)s au plus)."
                )
                % {"size": upload.size, "maximum": MAX_SHEET_BYTES}
            )
        return upload
