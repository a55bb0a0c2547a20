"""Signed links: a member answers a night from an e-mail without logging in, and subscribes to his
own calendar.

An answer link (django.core.signing) names one player and one night; it cannot be forged without
SECRET_KEY, and stops working with the night's deadline (the service refuses a late answer).

A feed address is a bearer secret (its threat model: docs/calendrier.md, « L'adresse de son
calendrier »): the player's id and the HMAC, under SECRET_KEY, of a random key stored with him
(`FeedKey`); renewing the key closes the old address, and no feed opens for a disabled account."""

from urllib.parse import urlencode

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

from federation.models import Player
from gamenights import services
from gamenights.models import FeedKey

ANSWER_SALT = "gamenights.answer"
FEED_SALT = "gamenights.member-feed"  # the addresses signed the old way
FEED_KEY_SALT = "gamenights.member-feed.key"


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


def _secrets():
    return [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]


def _mac(player_pk, key, secret):
    digest = salted_hmac(FEED_KEY_SALT, f"{player_pk}:{key}", secret=secret, algorithm="sha256").digest()
    return signing.b64_encode(digest).decode()


def feed_token(player):
    """The token of `player`'s feed address: his id and the HMAC of his key (made with his account,
    `gamenights.receivers`) under SECRET_KEY. The same at every call, until he renews his key."""
    key = services.feed_key(player).key
    return f"{player.pk}.{_mac(player.pk, key, settings.SECRET_KEY)}"


def feed_url(player):
    return reverse("gamenights:member_feed", args=[feed_token(player)])


def _legacy_player_pk(token):
    """The player of an address signed the old way (SECRET_KEY and his id alone: signed with
    the time, then without), else None."""
    for signer in (signing.TimestampSigner(salt=FEED_SALT), signing.Signer(salt=FEED_SALT)):
        try:
            player_pk = signer.unsign_object(token)
        except (signing.BadSignature, ValueError, TypeError):
            continue
        return player_pk if isinstance(player_pk, int) else None
    return None


def _keyed_player(token):
    player_pk, _dot, mac = token.partition(".")
    if not (player_pk.isdigit() and mac):
        return None
    found = FeedKey.objects.select_related("player__user").filter(player_id=int(player_pk)).first()
    if found is None:
        return None
    expected = [_mac(found.player_id, found.key, secret) for secret in _secrets()]
    return found.player if any(constant_time_compare(mac, one) for one in expected) else None


def feed_player(token):
    """The player whose feed `token` opens, else None: the address of his current key, or one
    signed the old way while he has never renewed his key; never for a player without an
    account or whose account is disabled (docs/calendrier.md, « L'adresse de son calendrier »)."""
    player = _keyed_player(token)
    if player is None:
        legacy_pk = _legacy_player_pk(token)
        player = (
            Player.objects.select_related("user", "feed_key").filter(pk=legacy_pk).first()
            if legacy_pk is not None
            else None
        )
        key = getattr(player, "feed_key", None) if player is not None else None
        if key is not None and key.renewed_at is not None:
            return None
    if player is None or player.user is None or not player.user.is_active:
        return None
    return player


GOOGLE_SUBSCRIBE = "https://calendar.google.com/calendar/r"


def feed_addresses(request, player):
    """The addresses of `player`'s own feed for a page (docs/calendrier.md, « S'abonner depuis un
    téléphone »): https (to copy, for any calendar), webcal (an iPhone opens it in Calendar, which
    subscribes) and Google Calendar's page that subscribes to the webcal address (Android)."""
    url = request.build_absolute_uri(feed_url(player))
    webcal = "webcal://" + url.split("://", 1)[1]
    return {
        "member_feed_url": url,
        "member_webcal_url": webcal,
        "member_google_url": f"{GOOGLE_SUBSCRIBE}?{urlencode({'cid': webcal})}",
    }
