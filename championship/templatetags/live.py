"""The QR code of a round's live view (`{% load live %}{% live_qr round %}`): the address of the
page the other players open on their phones, drawn by segno as an inline SVG (no image file,
nothing fetched)."""

import segno
from django import template
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

register = template.Library()


def live_url(request, round_):
    """The absolute address of the live view of `round_`, as the request reached the site."""
    return request.build_absolute_uri(reverse("championship:round_live", args=[round_.pk]))


@register.simple_tag(takes_context=True)
def live_qr(context, round_):
    """The live view's QR code: an SVG of 6 px a module (about 200 px wide), with a quiet zone of
    3 modules, titled for screen readers; it needs no style sheet."""
    url = live_url(context["request"], round_)
    title = gettext("QR code de la page en direct : %(url)s") % {"url": url}
    qr = segno.make(url, error="m")
    svg = qr.svg_inline(scale=6, border=3, svgclass="qr", title=title)
    return mark_safe(svg)  # segno's own markup; it escapes the only text in it, the title


@register.simple_tag(takes_context=True)
def live_address(context, round_):
    return live_url(context["request"], round_)
