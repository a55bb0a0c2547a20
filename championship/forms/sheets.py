"""The upload form of a round sheet (JSON, XLSX, ODS or CSV, docs/feuille.md), and the
confirmation of a previewed one."""

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from championship.sheets import MAX_SHEET_BYTES


class SheetUploadForm(forms.Form):
    sheet = forms.FileField(
        label=_("Feuille de manche (JSON, XLSX, ODS ou CSV)"),
        help_text=_(
            "Une feuille au format d'échange, ou le modèle de tableur rempli, par exemple exporté d'une "
            "autre manche."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,.xlsx,.ods,.csv"}),
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


class SheetConfirmForm(forms.Form):
    """A previewed sheet, carried back as JSON (checked again in full on saving)."""

    file_name = forms.CharField(max_length=255, widget=forms.HiddenInput)
    sheet_json = forms.CharField(max_length=2 * MAX_SHEET_BYTES, widget=forms.HiddenInput, strip=False)
    create_players = forms.BooleanField(required=False, widget=forms.HiddenInput)
    homologate = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, board=False, **kwargs):
        super().__init__(*args, **kwargs)
        if not board:
            del self.fields["homologate"]
