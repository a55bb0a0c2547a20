from django import forms

from notifications.models import ReminderPreference
from notifications.services import FIELDS


class PreferencesForm(forms.ModelForm):
    """The member's choices; it validates and writes nothing (``services.set_preferences`` does)."""

    class Meta:
        model = ReminderPreference
        fields = FIELDS

    def values(self):
        return {name: self.cleaned_data[name] for name in FIELDS}
