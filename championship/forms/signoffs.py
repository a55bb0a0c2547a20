"""The table's sign-off on the live view: a seated player confirms the sheet, or disputes it
with a comment (required); the round's version the page showed (required too), kept current
by the page's polls. The form validates; `championship.services.sign_sheet` writes."""

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from championship.forms.fields import TextField, version_field
from championship.models import Signoff


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
            "Version : la version de la feuille que vous avez lue manque ; rechargez la page en "
            "direct et signez de nouveau."
        )
        # the poll keeps it at the version shown (`_live.html` swaps it out of band)
        self.fields["version"].widget.attrs["id"] = "signoff-version"
        self.fields["verdict"].error_messages["required"] = gettext("Avis : confirmer ou contester.")
        self.fields["comment"].error_messages["max_length"] = gettext(
            "Commentaire : %(limit)s caractères au plus."
        ) % {"limit": Signoff.COMMENT_MAX_LENGTH}

    def clean(self):
        data = super().clean()
        if data.get("verdict") == Signoff.DISPUTED and not (data.get("comment") or "").strip():
            self.add_error("comment", gettext("Commentaire : obligatoire pour contester la feuille."))
        return data
