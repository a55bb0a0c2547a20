"""Entry rules shared by every path that stores what a person typed or a file gave: the round
entry forms, the sheet import (site and command) and, through the models, the administration.

Each rule returns the French message of what is wrong, without the field's name, or None when
the value is fine; each path names the field its own way (« Lieu : … » in a form,
« champ « place » : … » in a sheet). `field_message` and the `validate_*` functions wrap them for
forms and models.

The competition's bounds (a round's number, total, deals; a bonus's points) are
`championship.bounds`'; `Bounds` and `bounds_problem` are here, for every path.
"""

import unicodedata
from typing import NamedTuple

from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Bounds(NamedTuple):
    low: int
    high: int


# What a spreadsheet reads as the start of a formula (OWASP, CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Characters that change the direction of the text around them (« Trojan Source »).
BIDI_CONTROLS = frozenset(
    ["\u200e", "\u200f"]
    + [chr(code) for code in range(0x202A, 0x202F)]
    + [chr(code) for code in range(0x2066, 0x206A)]
)
MULTILINE_CONTROLS = frozenset("\t\n\r")


def _code(char):
    return f"U+{ord(char):04X}"


def text_problem(value, *, multiline=False):
    """Control characters (C0, DEL, C1) are refused; a multi-line text keeps tab, CR and LF.
    A one-line text also refuses the bidi controls."""
    for char in value:
        if unicodedata.category(char) == "Cc" and not (multiline and char in MULTILINE_CONTROLS):
            return gettext("caractère de contrôle %(code)s interdit") % {"code": _code(char)}
        if not multiline and char in BIDI_CONTROLS:
            return gettext("caractère de direction du texte %(code)s interdit") % {"code": _code(char)}
    return None


def name_problem(value):
    """A name or a place, which an export may put in a spreadsheet: a one-line text that does not
    begin like a formula."""
    problem = text_problem(value)
    if problem is None and value.startswith(FORMULA_STARTS):
        problem = gettext("ne doit pas commencer par « %(sign)s » (formule de tableur)") % {"sign": value[0]}
    return problem


def bounds_problem(value, bounds):
    if not bounds.low <= value <= bounds.high:
        return gettext("%(value)s n'est pas entre %(low)s et %(high)s") % {
            "value": value,
            "low": bounds.low,
            "high": bounds.high,
        }
    return None


def field_message(label, problem):
    """« Lieu : caractère de contrôle U+0000 interdit. »"""
    return gettext("%(field)s : %(problem)s.") % {"field": label, "problem": problem}


def check(label, problem):
    """Raise the ValidationError of a form or model field when there is a problem."""
    if problem is not None:
        raise ValidationError(field_message(label, problem), code="invalid")


def validate_player_name(value):
    check(_("Nom"), name_problem(value))


def validate_player_nickname(value):
    check(_("Surnom"), name_problem(value))


def validate_report_narrative(value):
    check(_("Récit"), text_problem(value, multiline=True))


def spreadsheet_cell(value):
    """A CSV cell as OWASP advises: a text that a spreadsheet would run as a formula gets a
    leading single quote; numbers (a negative integer included) stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
