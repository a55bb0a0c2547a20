"""The widgets and fields of the deal form: buttons with keyboard keys, a seated player, several
players, the taker's points."""

from decimal import Decimal, InvalidOperation

from django import forms

from federation.models import Player


def parse_points(text):
    """Card points as typed on a phone: "44,5", "44.5", " 49 " -> Decimal; "" -> None."""
    text = (text or "").strip().replace(" ", "").replace(",", ".")
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(text) from None
    if not value.is_finite():
        raise ValueError(text)
    return value


class ButtonRadio(forms.RadioSelect):
    """Radio buttons drawn as big buttons (`_segmented.html`): `extra` maps a choice's value to
    its chip `colour` (a seat's) and its keyboard `key` (« b 2 »: either key), given to the
    template and, for the key, to the script as `data-key`."""

    def __init__(self, *args, extra=None, **kwargs):
        self.extra = extra or {}
        super().__init__(*args, **kwargs)

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        extra = self.extra.get(str(value), {})
        option["colour"] = extra.get("colour", "")
        option["key"] = extra.get("key", "")
        if option["key"]:
            option["attrs"]["data-key"] = option["key"]
        return option


def keyed(keys):
    return {value: {"key": key} for value, key in keys.items()}


class PlayerField(forms.CharField):
    """A player given by id. Any registered player passes, so that the engine can say who is
    not seated; `special` values (e.g. « seul ») pass through unchanged. `known` (id → Player,
    the seated players the form has read) spares a query for them."""

    def __init__(self, *args, special=(), **kwargs):
        self.special = special
        self.known = {}
        super().__init__(*args, **kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        if value in self.special:
            return value
        if not str(value).isdigit():
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        player = self.known.get(int(value)) or Player.objects.filter(pk=value).first()
        if player is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return player


class PlayersField(forms.MultipleChoiceField):
    """Several players by id (checkboxes); duplicates and players not seated reach the engine.
    `known` (id → Player, the seated players) spares a query for them."""

    def __init__(self, *args, **kwargs):
        self.known = {}
        super().__init__(*args, **kwargs)

    def valid_value(self, value):
        return str(value).isdigit()

    def clean(self, value):
        values = super().clean(value)
        players = {pk: player for pk, player in self.known.items() if str(pk) in values}
        others = [int(v) for v in values if int(v) not in players]
        if others:
            players.update(Player.objects.in_bulk(others))
        if any(int(v) not in players for v in values):
            raise forms.ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return [players[int(v)] for v in values]
