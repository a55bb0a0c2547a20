"""Filters of the statistics pages (`{% load stats %}`): titles naming a player, elided in French
(« Le jeu d'Alice », « La page de Bruno »), possessive in English (« Alice's game »)."""

from django import template
from django.utils.translation import gettext

from championship.labels import french_active
from scoring.french import of_name

register = template.Library()


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
