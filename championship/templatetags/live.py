"""The table's link of a round on the entry page (`{% load live %}{% live_qr round %}`): the
address the other players open on their phones, its QR code drawn by segno as an inline SVG (no
image file, nothing fetched); and the players' signing codes shown to the secretary
(`{% signing_codes round %}`, championship.rounds.table_link)."""

import segno
from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from championship.rounds.signoffs import table_signoffs
from championship.rounds.table_link import signing_codes as codes_of
from championship.rounds.table_link import table_path
from federation.roles import can_enter_rounds

register = template.Library()


def live_url(request, round_):
    """The absolute address of the table link of `round_`, as the request reached the site: it
    opens the round's live view without an account, until homologation (views.table)."""
    return request.build_absolute_uri(table_path(round_))


@register.simple_tag(takes_context=True)
def live_qr(context, round_):
    """The table link's QR code: an SVG of 6 px a module (about 200 px wide), with a quiet zone
    of 3 modules, titled for screen readers; it needs no style sheet."""
    url = live_url(context["request"], round_)
    title = gettext("QR code de la page en direct : %(url)s") % {"url": url}
    qr = segno.make(url, error="m")
    svg = qr.svg_inline(scale=6, border=3, svgclass="qr", title=title)
    return mark_safe(svg)  # segno's own markup; it escapes the only text in it, the title


@register.simple_tag(takes_context=True)
def live_address(context, round_):
    return live_url(context["request"], round_)


@register.simple_tag
def table_link(round_):
    """The table link's path, for a link on the page."""
    return table_path(round_)


@register.inclusion_tag("championship/rounds/_signing_codes.html", takes_context=True)
def signing_codes(context, round_):
    """« Codes de signature »: for who enters the round's deals (the secretary, the board), before
    homologation, each seated player's name, tapped to show his code alone; nothing for others."""
    user = context["request"].user
    if round_.is_homologated or not can_enter_rounds(user, round_.season):
        return {"rows": ()}
    signoffs = table_signoffs(round_)
    codes = codes_of(round_.pk, [row.player_id for row in signoffs.rows])
    rows = [(row, f"{codes[row.player_id][:3]} {codes[row.player_id][3:]}") for row in signoffs.rows]
    return {"round": round_, "rows": rows}
