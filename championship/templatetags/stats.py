"""Filters of the statistics pages (`{% load stats %}`): titles naming a player, elided in French
(« Le jeu d'Alice », « La page de Bruno »), possessive in English (« Alice's game »); a figure and
the link to its deals."""

from django import template
from django.utils.html import format_html, format_html_join
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


OPPONENT_ROW = (
    '<tr data-player="{}"><th scope="row" class="key-main"><a href="{}">{}</a></th><td class="num">{}</td>'
    '<td class="num more" data-label="{}">{}</td><td class="num more" data-label="{}">{}</td>'
    '<td class="num more" data-label="{}">{}</td><td class="num more" data-label="{}">{}</td>'
    '<td class="num more" data-label="{}">{}</td></tr>'
)


@register.simple_tag
def opponent_rows(rows, taken, given, rounds, ahead, behind):
    """The rows of a player's table of opponents (200 at 10×), written at once: their head to
    head, net, points taken and given, rounds together, ahead and behind, each cell labelled."""
    return format_html_join(
        "",
        OPPONENT_ROW,
        (
            (row["player_pk"], row["h2h_url"], row["player"], french.signed(row["net"]), taken)
            + (french.num(row["took_from"]),)
            + (
                given,
                french.num(row["gave_to"]),
                rounds,
                row["rounds"],
                ahead,
                row["ahead"],
                behind,
                row["behind"],
            )
            for row in rows
        ),
    )


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
