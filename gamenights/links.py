"""Signed links (django.core.signing): a member answers a night from an e-mail without logging
in, and subscribes to his own calendar. A link names one player (and one night for an answer);
it cannot be forged without SECRET_KEY, and an answer link stops working with the night's
deadline (the service refuses a late answer)."""

from django.core import signing
from django.urls import reverse

ANSWER_SALT = "gamenights.answer"
FEED_SALT = "gamenights.member-feed"


def answer_token(night, player):
    return signing.dumps([night.pk, player.pk], salt=ANSWER_SALT, compress=True)


def answer_url(night, player):
    return reverse("gamenights:answer_link", args=[night.pk, answer_token(night, player)])


def player_of_answer_token(night, token):
    """The player pk of a valid answer link for `night`, else None."""
    try:
        night_pk, player_pk = signing.loads(token, salt=ANSWER_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    return player_pk if night_pk == night.pk else None


def feed_token(player):
    """The same token at every call: a phone subscribes once to one address. (Tokens signed with
    the time, as `signing.dumps` does, were handed out before; `player_of_feed_token` reads both.)"""
    return signing.Signer(salt=FEED_SALT).sign_object(player.pk)


def feed_url(player):
    return reverse("gamenights:member_feed", args=[feed_token(player)])


def player_of_feed_token(token):
    for signer in (signing.TimestampSigner(salt=FEED_SALT), signing.Signer(salt=FEED_SALT)):
        try:
            return int(signer.unsign_object(token))
        except (signing.BadSignature, ValueError, TypeError):
            continue
    return None


def feed_addresses(request, player):
    """The addresses of `player`'s own feed for a page: https (to copy) and webcal (a phone opens
    it in its calendar app, which subscribes)."""
    url = request.build_absolute_uri(feed_url(player))
    return {"member_feed_url": url, "member_webcal_url": "webcal://" + url.split("://", 1)[1]}
