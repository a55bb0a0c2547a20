"""The upload form of a round sheet (JSON, SHEET_FORMAT.md)."""

from django import forms

from championship.sheets import MAX_SHEET_BYTES


class SheetUploadForm(forms.Form):
    sheet = forms.FileField(
        label="Feuille de manche (fichier JSON)",
        help_text="Une feuille au format d'échange, par exemple exportée d'une autre manche.",
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
    create_players = forms.BooleanField(
        label="Inscrire les joueurs inconnus",
        required=False,
        help_text="Sinon, un nom qui n'est pas celui d'un joueur inscrit refuse la feuille.",
    )
    homologate = forms.BooleanField(
        label="Homologuer la manche importée",
        required=False,
        help_text="Acte de la Direction : la manche compte aussitôt au championnat.",
    )

    def __init__(self, *args, board=False, **kwargs):
        super().__init__(*args, **kwargs)
        if not board:
            del self.fields["homologate"]

    def clean_sheet(self):
        upload = self.cleaned_data["sheet"]
        if upload.size > MAX_SHEET_BYTES:
            raise forms.ValidationError(
                f"Fichier trop gros pour une feuille de manche ({upload.size} octets, "
                f"{MAX_SHEET_BYTES} au plus)."
            )
        return upload
