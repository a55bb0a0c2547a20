"""The table's sign-off on the live view: a seated player confirms the sheet, or disputes it
with a comment (required); the round's version the page showed (required too), kept current
by the page's polls; or, from a phone where he has no account, with his name and his signing
code (`CodeSignoffForm`). The forms validate; `championship.services.sign_sheet` and
`sign_sheet_by_code` write."""

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from championship.forms.fields import TextField, version_field
from championship.models import Signoff
from championship.rounds.table_link import CODE_DIGITS, typed_code


class SignoffForm(forms.Form):
    verdict = forms.ChoiceField(choices=Signoff.VERDICTS, widget=forms.HiddenInput)
    comment = TextField(
        field_name=_("Commentaire"),
        multiline=True,
        label=_("Ce qui ne va pas"),
        required=False,
        max_length=Signoff.COMMENT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, round_, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["version"] = version_field(round_.version)
        # required: a sign-off is of the version the player saw (services.signoff)
        self.fields["version"].required = True
        self.fields["version"].error_messages["required"] = gettext(
            "Version : la version de la feuille que vous avez lue manque ; rechargez la page en "
            "direct et signez de nouveau."
        )
        # the poll keeps it at the version shown (`_live.html` swaps it out of band)
        self.fields["version"].widget.attrs["id"] = "signoff-version"
        self.fields["verdict"].error_messages["required"] = gettext("Avis : confirmer ou contester.")
        self.fields["comment"].error_messages["max_length"] = gettext(
            "Commentaire : %(limit)s caractères au plus."
        ) % {"limit": Signoff.COMMENT_MAX_LENGTH}

    def clean(self):
        data = super().clean()
        if data.get("verdict") == Signoff.DISPUTED and not (data.get("comment") or "").strip():
            self.add_error("comment", gettext("Commentaire : obligatoire pour contester la feuille."))
        return data


class CodeSignoffForm(SignoffForm):
    """« Signer pour moi », from a phone where the player has no account: his name, among the
    seated players who have not signed the round as it is, and his signing code, which the
    secretary's screen shows him (`championship.services.sign_sheet_by_code` checks it)."""

    def __init__(self, round_, signoffs, *args, **kwargs):
        super().__init__(round_, *args, **kwargs)
        unsigned = [(row.player_id, row.name) for row in signoffs.rows if not (row.verdict and row.current)]
        self.fields["player"] = forms.TypedChoiceField(
            label=_("Votre nom"),
            choices=unsigned,
            coerce=int,
            widget=forms.RadioSelect,
            error_messages={
                "required": gettext("Joueur : choisissez votre nom."),
                "invalid_choice": gettext("Joueur : choisissez votre nom parmi ceux qui n'ont pas signé."),
            },
        )
        self.fields["code"] = forms.CharField(
            label=_("Votre code"),
            help_text=_("Six chiffres : le secrétaire vous les montre sur son écran."),
            max_length=20,
            widget=forms.TextInput(
                attrs={"inputmode": "numeric", "autocomplete": "one-time-code", "size": 8, "class": "code"}
            ),
            error_messages={
                "required": gettext("Code : tapez les six chiffres que le secrétaire vous montre.")
            },
        )
        self.order_fields(["player", "code"])

    def clean_code(self):
        code = typed_code(self.cleaned_data["code"])
        if len(code) != CODE_DIGITS:
            raise forms.ValidationError(gettext("Code : six chiffres sont attendus."))
        return code
