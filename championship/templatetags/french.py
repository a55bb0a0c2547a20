"""French typography in templates (`{% load french %}`), from the one formatter `scoring.french`.

``{{ -650|num }}`` -> « −650 »; ``{{ 3|signed }}`` -> « +3 »; ``{{ 1|ordinal }}`` -> « 1er »
(``{{ 1|ordinal:"f" }}`` -> « 1re »); ``{{ 2|plural:"manche" }}`` -> « 2 manches »
(``{{ 3|plural:"cheval,chevaux" }}``), ``{{ 2|agree:"jouée" }}`` -> « jouées »;
``{{ "Igor"|of_name }}`` -> « d'Igor »; ``{{ round.date|written_date:"l j F Y" }}`` -> « lundi
1er novembre 2010 » (Django's `date` filter, with « 1er » on a French page: every date written in
words goes through it). ``None`` gives "". A signed figure always takes the true
minus sign (U+2212) on a page: ``{{ -240|num }}``, never ``{{ -240 }}``.
"""

from decimal import Decimal

from django import template

from championship import labels
from championship.cup import labels as cup_labels
from championship.cup.prospects import status_label
from scoring import french

register = template.Library()


def _is_number(value):
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)


@register.filter
def num(value):
    """A number with the true minus sign; anything else (a text, "—") as it is."""
    return french.num(value) if _is_number(value) else ("" if value is None else value)


@register.filter
def signed(value):
    return french.signed(value) if _is_number(value) else ("" if value is None else value)


@register.filter
def ordinal(value, gender=""):
    return "" if value is None else french.ordinal(value, feminine=gender == "f")


@register.filter
def plural(value, forms):
    singular, _comma, plural_form = forms.partition(",")
    return "" if value is None else french.plural(value, singular, plural_form or None)


@register.filter
def agree(value, forms):
    singular, _comma, plural_form = forms.partition(",")
    return "" if value is None else french.agree(value, singular, plural_form or None)


@register.filter
def of_name(value):
    return french.of_name(str(value))


@register.filter
def percent(value):
    """A whole percentage (`scoring.french.rounded_percent`): « 63 % » on a French page (a
    no-break space before the sign), « 63% » on an English one; None gives ""."""
    if value is None:
        return ""
    return f"{value}\u00a0%" if labels.french_active() else f"{value}%"


@register.filter(expects_localtime=True)
def written_date(value, fmt="j F Y"):
    """A date in words in the active language, « 1er » for the first of the month in French."""
    return labels.written_date(value, fmt)


# --- what the rules engine writes, in the page's language (championship.labels) -----------------


@register.filter
def code_label(value):
    """The name of a championship line's kind: ``{{ "wall"|code_label }}`` -> « Mur de la défense »."""
    return labels.code_label(value)


@register.filter
def line_label(value, code):
    """A stored line's explanation in the active language: ``{{ line.label|line_label:line.code }}``."""
    return labels.line_label(code, value)


@register.filter
def cup_status_label(code):
    """« qualifié », « éliminé », « en course » in the page's language (docs/regles.md §6.4)."""
    return status_label(code)


@register.filter
def cup_reason(value):
    """A reason of the cup (`scoring.cup_reasons.Reason`) in the active language:
    ``{{ line.reason|cup_reason }}``."""
    return cup_labels.reason_text(value)


@register.simple_tag
def colon():
    """« : » after a label, spaced as the page's language wants: ``{% colon %}``."""
    return labels.colon()


@register.filter
def award_reason(value):
    """Why an award goes where it goes (`scoring.awards.Reason`) in the active language:
    ``{{ award.reason|award_reason }}``."""
    return labels.award_reason(value)


@register.filter
def award_label(value):
    """An award's title in the active language: ``{{ award|award_label }}``."""
    return labels.award_label(value)


@register.filter
def round_name(round_):
    """A round named in the active language: « 2026-2027 — Manche 10 » / « 2026-2027 — Round 10 »."""
    from championship.rounds.display import round_title  # noqa: PLC0415 (presenters read the models)

    return f"{round_.season.name} — {round_title(round_)}"
