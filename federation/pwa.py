"""The site on a phone's home screen and without a network: its web app manifest and its service
worker (templates/federation/service-worker.js), both served from the site's root so that the
worker's scope covers every page (the entry pages of the rounds among them).

The worker shows the member's news pushed to the phone (docs/calendrier.md, « Les nouvelles sur
le téléphone ») and opens the page a news speaks of when it is tapped. It keeps the static files
listed here (and any other the pages fetch) and, in a cache of
their own, the pages that ask to be kept (federation/static/js/offline-entry.js), forgotten when
someone logs in or out on the phone (ACCOUNT_CHANGES: a shared phone, docs/exploitation.md); its
caches are named after the content of these files, so that a new release replaces them. Browsers
run service workers only on HTTPS origins and on localhost (docs/exploitation.md)."""

import functools
import hashlib
import json

from django.contrib.staticfiles import finders
from django.http import JsonResponse
from django.shortcuts import render
from django.templatetags.static import PrefixNode, static
from django.urls import path, reverse
from django.utils.translation import gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

# What the entry page needs to open offline (its own script and styles included).
PRECACHE = [
    "css/site.css",
    "css/print.css",
    "css/rounds.css",
    "js/htmx.min.js",
    "js/rounds-entry.js",
    "js/deal-keys.js",
    "js/entry-screen.js",
    "js/idb-keyval.min.js",
    "js/offline-entry.js",
    "css/offline-entry.css",
    "icons/icon-192.png",
]
THEME_COLOUR = "#1f5f3f"  # the header's felt green (css/site.css, --felt)
BACKGROUND_COLOUR = "#f4efe6"
# The addresses whose POST logs someone in or out: the worker then forgets every kept page.
ACCOUNT_CHANGES = ["login", "login_code", "logout", "admin:login", "admin:logout", "links:open"]
PUSH_ICON = "icons/icon-192.png"  # a news' notification's icon
ICONS = [
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
]


@functools.cache
def files_version():
    """A short digest of the precached files' content: a new release, a new cache."""
    digest = hashlib.sha256()
    for name in PRECACHE:
        found = finders.find(name)
        digest.update(name.encode())
        if found:
            with open(found, "rb") as file:
                digest.update(file.read())
    return digest.hexdigest()[:12]


@require_safe
@cache_control(no_cache=True)
def service_worker(request):
    context = {
        "version": files_version(),
        # The folder's address, not a file's: the manifest storage has no entry for "" (a 500).
        "static_url": json.dumps(PrefixNode.handle_simple("STATIC_URL")),
        "precache": json.dumps([static(name) for name in PRECACHE]),
        "account_changes": json.dumps([reverse(name) for name in ACCOUNT_CHANGES]),
        "icon": json.dumps(static(PUSH_ICON)),
    }
    response = render(
        request, "federation/service-worker.js", context, content_type="text/javascript; charset=utf-8"
    )
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def manifest(request):
    data = {
        "name": gettext("Tarot-Bière : championnat de tarot"),
        "short_name": "Tarot-Bière",
        "lang": request.LANGUAGE_CODE,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static(src), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for src, sizes, purpose in ICONS
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


urlpatterns = [
    path("sw.js", service_worker, name="service_worker"),
    path("manifest.webmanifest", manifest, name="manifest"),
]
