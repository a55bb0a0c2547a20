"""The private links in templates (federation.private_links): `{% link_qr url %}`, a member's link
as a large QR code, and `{% account_phones as phones %}`, the phones his link opened (« Mon
compte »)."""

from types import SimpleNamespace

import segno
from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from federation import private_links
from federation.roles import player_of

register = template.Library()


@register.simple_tag
def link_qr(url):
    """A QR code of 8 px a module (about 400 px wide at the link's length) as inline SVG, titled
    without the address (a screen reader would read the secret aloud)."""
    qr = segno.make(url, error="m")
    svg = qr.svg_inline(scale=8, border=3, svgclass="qr", title=gettext("QR code du lien privé"))
    return mark_safe(svg)  # segno's own markup; it escapes the only text in it, the title


@register.simple_tag(takes_context=True)
def account_phones(context):
    """The logged-in member's open phone sessions, and the current session's key."""
    request = context["request"]
    player = player_of(request.user)
    phones = [] if player is None else private_links.live_phones_of([player]).get(player.pk, [])
    return SimpleNamespace(list=phones, current=request.session.session_key)
