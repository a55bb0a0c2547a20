from django import forms
from django.contrib.auth.base_user import BaseUserManager
from django.utils.translation import gettext, gettext_lazy

from notifications.models import ReminderPreference
from notifications.services import FIELDS


class PreferencesForm(forms.ModelForm):
    """The member's choices; it validates and writes nothing (``services.set_preferences`` does)."""

    class Meta:
        model = ReminderPreference
        fields = FIELDS

    def values(self):
        return {name: self.cleaned_data[name] for name in FIELDS}


class EmailChangeForm(forms.Form):
    """The new address a member types; it validates its form and that it is a new one, and writes
    nothing (``services.request_email_change`` checks that no other account has it)."""

    email = forms.EmailField(
        label=gettext_lazy("Adresse électronique"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email", "inputmode": "email"}),
        help_text=gettext_lazy(
            "Un lien pour la confirmer y sera envoyé ; elle ne servira qu'une fois confirmée."
        ),
        error_messages={
            "required": gettext_lazy("Adresse électronique : saisissez votre adresse."),
            "invalid": gettext_lazy("Adresse électronique : saisissez une adresse valide."),
        },
    )

    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_email(self):
        address = BaseUserManager.normalize_email(self.cleaned_data["email"].strip())
        if address.casefold() == self.user.email.strip().casefold():
            raise forms.ValidationError(
                gettext("Adresse électronique : c'est déjà l'adresse de votre compte.")
            )
        return address
