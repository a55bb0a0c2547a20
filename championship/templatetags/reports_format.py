"""Number formatting of the reports: French minus sign, explicit plus sign."""

from django import template

from championship.presenters import french_number, signed

register = template.Library()


@register.filter
def num(value):
    """-650 -> "−650" (a true minus sign); None -> ""."""
    return french_number(value)


@register.filter
def plus(value):
    """+110, −130, 0; None -> ""."""
    return "" if value is None else signed(value)
