"""`{% load nights %}`: where a night is played, as one address (docs/calendrier.md)."""

import re
from urllib.parse import quote

from django import template

register = template.Library()

# A place « has an address » when it holds a number (a street's, a postcode): « 12 rue des Lilas,
# Lyon » gets a map link, « Chez Steph » (a name the members know) does not.
ADDRESS = re.compile(r"\d")
MAP_SEARCH = "https://www.openstreetmap.org/search?query="


@register.filter
def map_url(place):
    """The map search of `place` when it reads as an address, else ""."""
    place = (place or "").strip()
    return MAP_SEARCH + quote(place, safe="") if ADDRESS.search(place) else ""


@register.inclusion_tag("gamenights/_where.html")
def night_where(night):
    """The night's place and host as one address: « Lieu : 12 rue des Lilas (plan) · Hôte : Alice »,
    never « Chez Steph · chez Alice », which reads as two places."""
    return {"place": night.place, "host": night.host, "map": map_url(night.place)}
