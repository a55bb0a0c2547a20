"""A member's phones that receive his news (docs/calendrier.md, « Les nouvelles sur le
téléphone »): « Recevoir les nouvelles sur ce téléphone » on « Moi » posts the browser's push
subscription here (federation/static/js/push.js); « Mon compte » lists them, each removable.

A subscription's address is a secret: the pages show its phone's name (read from the browser's
User-Agent when it subscribed) and its push service's host, never the address."""

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from federation.roles import player_of
from notifications import services
from notifications.models import PushSubscription
from webhooks.addresses import Refused

BROWSERS = [
    ("Edg/", "Edge"),
    ("SamsungBrowser", "Samsung Internet"),
    ("Firefox", "Firefox"),
    ("Chrome", "Chrome"),
]
SYSTEMS = [
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("Windows", "Windows"),
    ("Mac", "Mac"),
]


def phone_label(user_agent):
    """« Android · Chrome », « iPhone · Safari »: what the account page calls a phone."""
    system = next((name for mark, name in SYSTEMS if mark in user_agent), "")
    browser = next((name for mark, name in BROWSERS if mark in user_agent), "")
    if not browser and "Safari" in user_agent:
        browser = "Safari"
    return " · ".join(part for part in (system, browser) if part) or gettext("navigateur")


def refused(reason, status=400):
    return JsonResponse({"error": reason}, status=status)


@login_required
@require_POST
def subscribe(request):
    """The browser's subscription (JSON: ``endpoint``, ``keys.p256dh``, ``keys.auth``), kept for
    the member; 201 when new, 200 when it was already his (or another account's on a shared
    phone: it follows who subscribed last)."""
    player = player_of(request.user)
    if player is None:
        return refused(gettext("Ce compte n'est lié à aucun joueur."), 403)
    try:
        data = json.loads(request.body or b"{}")
        endpoint, keys = data["endpoint"], data["keys"]
        found = services.keep_subscription(
            request.user,
            endpoint,
            keys["p256dh"],
            keys["auth"],
            label=phone_label(request.headers.get("User-Agent", ""))[:80],
        )
    except Refused as refusal:
        return refused(refusal.reason)
    except (ValueError, KeyError, TypeError):
        return refused(gettext("Abonnement illisible."))
    return JsonResponse({"phone": found.subscription.label}, status=201 if found.created else 200)


@login_required
@require_POST
def remove(request, pk):
    """« Retirer »: this phone no longer receives the member's news."""
    subscription = get_object_or_404(PushSubscription, pk=pk, user=request.user)
    services.remove_subscription(subscription)
    messages.success(request, gettext("Ce téléphone ne recevra plus vos nouvelles."))
    return redirect("notifications:account")
