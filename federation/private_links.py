"""A member's private link: a bearer secret that identifies him on his phone, for the member's
own acts only (the threat model: docs/exploitation.md, « Comptes et sécurité »).

- The link is ``https://SITE/moi/lien/#SECRET``: the secret (``secrets.token_urlsafe(32)``) rides
  in the fragment, which a browser never sends, and reaches the site in the body of a POST
  (federation/static/js/private-link.js). Only its SHA-256 is stored (`MemberKey.digest`): it is
  shown once, when issued, and issuing it again renews it, which ends the old link and every
  phone session it opened.
- Opening it logs the member in (an account is made for a player without one) in a long session
  marked ``by_link`` and listed as a `PhoneSession`; `link_sessions` marks the request's user
  (``request.user.by_link``), whom `federation.roles` then grants no official's role, and the
  admin refuses. Every history record of such a request says « par son lien »
  (`federation.history`).
- Failed guesses are counted per client address (`federation.throttle.within_limit`): beyond
  PRIVATE_LINK_FAILURE_LIMIT in PRIVATE_LINK_WINDOW, the page answers 429 and checks nothing.
"""

import datetime
import hashlib
import re
import secrets
from importlib import import_module

from django.conf import settings
from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.contrib.sessions.models import Session
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone
from django.utils.text import slugify

from federation import throttle
from federation.history import audited
from federation.models import MemberKey, PhoneSession, Player

THROTTLE = "private-link:client"
SEEN_EVERY = datetime.timedelta(hours=1)  # how often a phone's « vu le » is written
MODEL_BACKEND = "federation.accounts.AccountBackend"


def digest_of(secret):
    return hashlib.sha256(secret.encode()).hexdigest()


def secret_of(text):
    """The secret in what was posted: the code alone, or the whole link pasted (after its #)."""
    return (text or "").strip().rpartition("#")[2].strip()


# --- issuing ---------------------------------------------------------------------------------------


def issue(player, *, user=None, keep=None):
    """A new private link for `player`: returns its secret, never stored. The link he held before
    no longer opens, and every phone session it opened ends, but `keep` (a session key: the
    member who renews his own link from his phone keeps that phone)."""
    secret = secrets.token_urlsafe(32)
    with transaction.atomic():
        key = MemberKey.objects.select_for_update().filter(player=player).first()
        if key is None:
            key, reason = MemberKey(player=player), "lien privé donné"
        else:
            key.renewed_at = timezone.now()
            key.renewed_by = user if getattr(user, "is_authenticated", False) else None
            reason = "lien privé renouvelé"
        key.digest = digest_of(secret)
        with audited(user, reason) as audit:
            audit.save(key)
        end_phone_sessions(player, keep=keep)
    return secret


def end_phone_sessions(player, *, keep=None):
    """Log out every phone `player`'s link opened (but the session `keep`)."""
    phones = PhoneSession.objects.filter(player=player).exclude(session_key=keep or "")
    for phone in phones:
        end_phone(phone)


def end_phone(phone):
    """Log out one phone: its session is deleted (the next request is anonymous), and its row."""
    _session_store()(session_key=phone.session_key).delete()
    phone.delete()


def _session_store():
    return import_module(settings.SESSION_ENGINE).SessionStore


def _open(phones):
    """The session keys among `phones`' whose session still exists and has not expired, in one
    query (sessions live in the database, Django's default engine, as federation.second_factor
    also reads them)."""
    keys = [phone.session_key for phone in phones]
    alive = Session.objects.filter(session_key__in=keys, expire_date__gt=timezone.now())
    return set(alive.values_list("session_key", flat=True))


def live_phones_of(players):
    """{player pk: his phone sessions still open}, for `players` (the ended ones left out)."""
    phones = list(PhoneSession.objects.filter(player__in=players))
    alive = _open(phones)
    found = {}
    for phone in phones:
        if phone.session_key in alive:
            found.setdefault(phone.player_id, []).append(phone)
    return found


def forget_ended_phones(player):
    """Drop the rows of `player`'s phone sessions that ended otherwise (expired, replaced by a
    password login or another link login on the same phone)."""
    phones = list(PhoneSession.objects.filter(player=player))
    alive = _open(phones)
    PhoneSession.objects.filter(
        pk__in=[phone.pk for phone in phones if phone.session_key not in alive]
    ).delete()


# --- opening -----------------------------------------------------------------------------------------


def player_of_secret(secret):
    """The player whose link carries `secret`, or None."""
    if not secret:
        return None
    key = MemberKey.objects.select_related("player__user").filter(digest=digest_of(secret)).first()
    return None if key is None else key.player


def guesses_left(client):
    """Whether `client` (an address) may still try a link in the current window."""
    return throttle.counted(THROTTLE, client) < settings.PRIVATE_LINK_FAILURE_LIMIT


def count_failure(client):
    throttle.within_limit(THROTTLE, client, settings.PRIVATE_LINK_FAILURE_LIMIT, settings.PRIVATE_LINK_WINDOW)


def retry_at(client):
    """When `client`'s window of failed guesses ends."""
    return (throttle.window_start(THROTTLE, client) or timezone.now()) + settings.PRIVATE_LINK_WINDOW


def may_open(player):
    """An active player, whose account, if he has one, is active."""
    return player.active and (player.user is None or player.user.is_active)


def unique_username(name):
    """A free username made of `name` (« Émile Zola » → « emile-zola », then « emile-zola-2 »…)."""
    base = slugify(name)[:140] or "membre"
    users = get_user_model().objects
    candidate, number = base, 1
    while users.filter(username__iexact=candidate).exists():
        number += 1
        candidate = f"{base}-{number}"
    return candidate


def account_of(player):
    """`player`'s account, made for him (no password, no e-mail) when he has none."""
    if player.user is not None:
        return player.user
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.user is None:
            user = get_user_model()(username=unique_username(player.name))
            user.set_unusable_password()
            user.save()
            player.user = user
            with audited(None, "compte créé à l'ouverture de son lien privé") as audit:
                audit.save(player)
    return player.user


def open_session(request, player):
    """Log `player` in on this phone by his link: a long session marked ``by_link``, listed."""
    user = account_of(player)
    PhoneSession.objects.filter(session_key=request.session.session_key or "").delete()
    login(request, user, backend=MODEL_BACKEND)
    request.session["by_link"] = True
    request.session.set_expiry(settings.PRIVATE_LINK_SESSION_AGE)
    browser, system = device(request.headers.get("User-Agent", ""))
    PhoneSession.objects.create(
        session_key=request.session.session_key, player=player, browser=browser, system=system
    )
    forget_ended_phones(player)
    return user


BROWSERS = [
    ("EdgA?/|EdgiOS/", "Edge"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/|FxiOS/", "Firefox"),
    ("OPR/|Opera", "Opera"),
    ("CriOS/|Chrome/|Chromium/", "Chrome"),
    ("Safari/", "Safari"),
]
SYSTEMS = [
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("Windows", "Windows"),
    ("Macintosh|Mac OS X", "Mac"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
]


def device(user_agent):
    """(browser, system) named from a User-Agent (« Chrome », « Android »), "" when unknown."""

    def first(table):
        return next((name for pattern, name in table if re.search(pattern, user_agent)), "")

    return first(BROWSERS), first(SYSTEMS)


# --- the sessions ------------------------------------------------------------------------------------


def link_sessions(get_response):
    """After AuthenticationMiddleware: a session opened by a private link marks its user
    (``request.user.by_link``, read by federation.roles) and its request (``request.by_link``,
    read by federation.history) for as long as its `PhoneSession` exists and the player is
    active; otherwise it is logged out. A phone's « vu le » is written at most every hour."""

    def middleware(request):
        if request.session.get("by_link") and request.user.is_authenticated:
            session_key, user = request.session.session_key, request.user
            phones = PhoneSession.objects.filter(session_key=session_key, player__user=user)
            phone = phones.select_related("player").first()
            if phone is None or not phone.player.active:
                logout(request)
            else:
                request.user.by_link = request.by_link = True
                now = timezone.now()
                if now - phone.last_seen_at >= SEEN_EVERY:
                    PhoneSession.objects.filter(pk=phone.pk).update(last_seen_at=now)
        return get_response(request)

    return middleware


@receiver(user_logged_in, dispatch_uid="federation.private_links.password_login")
def password_login(sender, request, user, **kwargs):
    """Any login is a password's until `open_session` marks it: a member who logs in with his
    password on a phone his link opened gets an official's session, of the usual length."""
    if request is not None and hasattr(request, "session") and request.session.pop("by_link", None):
        request.session.set_expiry(None)


@receiver(user_logged_out, dispatch_uid="federation.private_links.phone_logout")
def phone_logout(sender, request, user, **kwargs):
    """Logging out of a link's session forgets its phone."""
    if request is not None and hasattr(request, "session") and request.session.session_key:
        PhoneSession.objects.filter(session_key=request.session.session_key).delete()
