"""Deleting a deal or an adjustment: the motif form."""

from django import forms

from championship.forms.fields import MotifMixin, version_field


class MotifForm(MotifMixin, forms.Form):
    """Deleting a deal or an adjustment: the motif, when the round is homologated; with
    `versioned`, the round's version the page was read at (a deal's page)."""

    def __init__(self, round_, *args, versioned=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        if versioned:
            self.fields["version"] = version_field(round_.version)
        self.add_motif(round_)

    @property
    def version(self):
        return self.cleaned_data.get("version")
