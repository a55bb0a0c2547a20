from django import forms
from django.contrib.auth.base_user import BaseUserManager
from django.utils.translation import gettext, gettext_lazy

from notifications.models import EMAIL, EVENTS, PUSH, ReminderPreference, field_name
from notifications.services import FIELDS


class PreferencesForm(forms.ModelForm):
    """The member's choices; it validates and writes nothing (``services.set_preferences`` does).
    Each box of the news' table is named for what it turns on (« table confirmée (téléphone) »)."""

    class Meta:
        model = ReminderPreference
        fields = FIELDS

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if isinstance(field, forms.BooleanField):
                field.widget.attrs["aria-label"] = field.label

    def values(self):
        return {name: self.cleaned_data[name] for name in FIELDS}

    def matrix(self):
        """The news' table: (label, help, phone's box, e-mail's box) per event."""
        return [
            (label, help_text, self[field_name(code, PUSH)], self[field_name(code, EMAIL)])
            for code, label, help_text, *_defaults in EVENTS
        ]


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
