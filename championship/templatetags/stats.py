"""Filters of the statistics pages (`{% load stats %}`): titles naming a player, elided in French
(« Le jeu d'Alice », « La page de Bruno »), possessive in English (« Alice's game »); a figure and
the link to its deals."""

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext

from championship.labels import english_ordinal, french_active
from scoring import french
from scoring.french import of_name

register = template.Library()


@register.filter
def figure(value):
    """A figure and the link to its deals: `value` a {"value", "url"} (`pages._figure`)."""
    text = french.num(value["value"])
    return format_html('<a href="{}">{}</a>', value["url"], text) if value["url"] else text


@register.filter
def game_of(name):
    if french_active():
        return f"Le jeu {of_name(str(name))}"
    return gettext("%(name)s's game") % {"name": name}


@register.filter
def page_of(name):
    if french_active():
        return f"La page {of_name(str(name))}"
    return gettext("%(name)s's page") % {"name": name}


@register.filter
def rank(value):
    """A rank as an ordinal in the page's language: « 1er », « 2e » / « 1st », « 2nd »."""
    if value is None:
        return ""
    return french.ordinal(value) if french_active() else english_ordinal(value)
