"""The site on a phone (federation.pwa): the service worker served from the root, so that its
scope covers the entry pages, with the static files it keeps; the web app manifest and its icons;
both linked from every page."""

import io
import json
import re

from django.contrib.staticfiles import finders
from django.templatetags.static import static
from PIL import Image

from federation import pwa


def test_the_service_worker_is_served_from_the_root_as_javascript_never_cached(client, db):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    assert "Content-Security-Policy" in response  # the worker runs under the site's policy too
    assert client.post("/sw.js").status_code == 405


def test_the_service_worker_keeps_the_static_files_of_the_entry_page_under_a_versioned_cache(client, db):
    script = client.get("/sw.js").content.decode()
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", script).group(1))
    # Under the manifest storage, as production serves them: each file's versioned name.
    assert precache == [static(name) for name in pwa.PRECACHE]
    assert all(re.fullmatch(r"/static/[\w/.-]+\.[0-9a-f]{12}\.\w+", url) for url in precache), precache
    for url in precache:  # every file it installs is served: a missing one fails its install
        response = client.get(url)
        assert response.status_code == 200, url
        response.close()
    assert json.loads(re.search(r"const STATIC_URL = (.*?);", script).group(1)) == "/static/"
    assert re.search(r'const CACHE = "tarot-([0-9a-f]{12})";', script).group(1) == pwa.files_version()
    assert "{%" not in script and "{{" not in script


def test_the_cache_name_follows_the_content_of_the_files(monkeypatch, tmp_path):
    before = pwa.files_version()
    changed = tmp_path / "rounds-entry.js"
    changed.write_text("/* another release */")
    real_find = finders.find
    monkeypatch.setattr(
        finders, "find", lambda name: str(changed) if name == "js/rounds-entry.js" else real_find(name)
    )
    pwa.files_version.cache_clear()
    try:
        assert pwa.files_version() != before
    finally:
        pwa.files_version.cache_clear()


def test_the_manifest_makes_the_site_installable(client, db):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["short_name"] == "Tarot-Bière"
    assert manifest["name"] == "Tarot-Bière : championnat de tarot"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/", "standalone")
    assert manifest["theme_color"] == "#1f5f3f"
    icons = {(icon["sizes"], icon["purpose"]): icon["src"] for icon in manifest["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for (sizes, _purpose), src in icons.items():
        served = client.get(src)  # the icon's versioned address, served as production serves it
        assert served.status_code == 200, src
        with Image.open(io.BytesIO(b"".join(served.streaming_content))) as image:
            assert image.format == "PNG" and f"{image.width}x{image.height}" == sizes


def test_the_maskable_icon_fills_its_square_and_the_other_has_round_corners(db):
    with Image.open(finders.find("icons/icon-maskable-512.png")) as maskable:
        assert maskable.convert("RGBA").getpixel((0, 0))[3] == 255  # full bleed: the phone crops it
    with Image.open(finders.find("icons/icon-512.png")) as plain:
        assert plain.convert("RGBA").getpixel((0, 0))[3] == 0


def test_every_page_links_the_manifest_and_the_theme_colour(client, db):
    html = client.get("/connexion/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<meta name="theme-color" content="#1f5f3f">' in html
