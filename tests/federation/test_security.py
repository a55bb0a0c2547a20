"""Response headers, cookies, deploy checks and escaping of echoed values (issue #10).

The Content-Security-Policy forbids inline scripts and styles: every template is scanned for
what the policy would block, and the main pages are rendered and parsed for the same.
"""

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.templatetags.static import static
from django.urls import reverse

from tests.factories import make_round

ROOT = Path(__file__).resolve().parents[2]
PAYLOAD = '"><script>alert("tarot")</script>'


def policy(response):
    """The Content-Security-Policy header as {directive: [sources]}."""
    header = response["Content-Security-Policy"]
    directives = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


# --- Content-Security-Policy --------------------------------------------------------------------


def test_it_sends_a_content_security_policy_without_inline_script(client, season):
    directives = policy(client.get(reverse("federation:home")))
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["img-src"] == ["'self'", "data:"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["form-action"] == ["'self'"]
    assert directives["base-uri"] == ["'none'"]
    assert directives["object-src"] == ["'none'"]
    everything = " ".join(word for sources in directives.values() for word in sources)
    assert "unsafe" not in everything


def test_it_sends_the_policy_on_error_pages_and_the_admin_too(client, db):
    assert "script-src 'self'" in client.get("/nulle-part/")["Content-Security-Policy"]
    assert "script-src 'self'" in client.get(reverse("admin:login"))["Content-Security-Policy"]


INLINE_IN_TEMPLATE = {
    "inline script": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "event handler attribute": re.compile(r"<[^>]*\son[a-z]+\s*=", re.I),
    "hx-on attribute": re.compile(r"\shx-on[:-]", re.I),
    "style attribute": re.compile(r"<[^>]*\sstyle\s*=", re.I),
    "style element": re.compile(r"<style[\s>]", re.I),
    "javascript: URL": re.compile(r"javascript:", re.I),
}


def test_it_keeps_every_site_template_free_of_what_the_policy_blocks():
    """PDF templates (print.html and what extends it) never reach a browser: WeasyPrint reads
    them, so they may carry their own styles."""
    found = []
    for template in sorted((ROOT / "templates").rglob("*.html")):
        text = template.read_text()
        if "print.html" in text or template.name == "print.html":
            continue
        for what, pattern in INLINE_IN_TEMPLATE.items():
            for match in pattern.finditer(text):
                line = text[: match.start()].count("\n") + 1
                found.append(f"{template.relative_to(ROOT)}:{line}: {what}")
    assert found == []


class InlineFinder(HTMLParser):
    """What a strict policy would block in a rendered page."""

    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        names = {name for name, _value in attrs}
        if tag == "script" and "src" not in names:
            self.found.append("inline <script>")
        if tag == "style":
            self.found.append("<style> element")
        for name, value in attrs:
            if name.startswith("on") or name.startswith("hx-on"):
                self.found.append(f"<{tag} {name}>")
            if name == "style":
                self.found.append(f"<{tag} style>")
            if name in {"href", "src", "action"} and (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}=javascript:>")


def inline_code(response):
    finder = InlineFinder()
    finder.feed(response.content.decode())
    return finder.found


@pytest.fixture
def world(season, president, secretary):
    homologated = make_round(season, status="homologated")
    draft = make_round(season, date=homologated.date.replace(day=26))
    return {"homologated": homologated, "draft": draft}


def test_it_renders_the_main_pages_without_inline_code(client, world, season, secretary):
    homologated, draft = world["homologated"], world["draft"]
    public = [
        reverse("federation:home"),
        reverse("championship:season", args=[season.name]),
        reverse("championship:seasons"),
        reverse("championship:awards", args=[season.name]),
        reverse("championship:round_list", args=[season.name]),
        reverse("championship:round", args=[homologated.pk]),
        reverse("championship:cup", args=[season.name]),
        reverse("championship:cup_status", args=[season.name]),
        reverse("login"),
        reverse("password_reset"),
    ]
    problems = {}
    for url in public:
        response = client.get(url)
        assert response.status_code == 200, url
        if inline_code(response):
            problems[url] = inline_code(response)
    client.force_login(secretary.user)
    for url in [reverse("championship:round_edit", args=[draft.pk]), reverse("password_change")]:
        response = client.get(url)
        assert response.status_code == 200, url
        if inline_code(response):
            problems[url] = inline_code(response)
    assert problems == {}


def test_it_configures_htmx_to_need_neither_eval_nor_an_inline_style(client, world, secretary):
    """htmx is configured by the script loaded right after it (the browser test checks that no
    style element is inserted and that the policy reports nothing)."""
    client.force_login(secretary.user)
    html = client.get(reverse("championship:round_edit", args=[world["draft"].pk])).content.decode()
    # Under the manifest storage, as production names them: their versioned names.
    assert html.index(f'src="{static("js/htmx.min.js")}" defer') < html.index(
        f'src="{static("js/rounds-entry.js")}" defer'
    )
    script = (ROOT / "federation" / "static" / "js" / "rounds-entry.js").read_text()
    for setting in ["includeIndicatorStyles = false", "allowEval = false", "allowScriptTags = false"]:
        assert f"htmx.config.{setting};" in script
    css = (ROOT / "federation" / "static" / "css" / "site.css").read_text()
    assert ".htmx-indicator {" in css and ".htmx-request .htmx-indicator" in css


# --- Permissions-Policy, cookies ----------------------------------------------------------------


def test_it_denies_powerful_browser_features(client, db):
    header = client.get(reverse("federation:home"))["Permissions-Policy"]
    features = dict(item.strip().split("=", 1) for item in header.split(","))
    for feature in ["camera", "microphone", "geolocation", "payment", "usb"]:
        assert features[feature] == "()", feature


def test_it_sets_the_language_cookie_httponly_and_samesite_lax(client, db):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    cookie = response.cookies[django_settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "en"
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"


def run_python(extra_env, code, *args):
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "DATABASE_URL"}}
    env.update({"SECRET_KEY": "k" * 50, "DEBUG": "0", **extra_env})
    env["DJANGO_SETTINGS_MODULE"] = "federation.settings"
    return subprocess.run(
        [sys.executable, *(["-c", code] if code else []), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


# The settings alone, read by a new process (see run_settings in tests/federation/test_settings.py).
LANGUAGE_COOKIE = (
    "from django.conf import settings as s; "
    "print(s.LANGUAGE_COOKIE_SECURE, s.LANGUAGE_COOKIE_HTTPONLY, s.LANGUAGE_COOKIE_SAMESITE, "
    "s.SESSION_COOKIE_SECURE)"
)


def test_it_reserves_the_language_cookie_to_https_in_production():
    result = run_python({"SECURE_COOKIES": "1"}, LANGUAGE_COOKIE)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "Lax", "True"]
    result = run_python({"SECURE_COOKIES": "0"}, LANGUAGE_COOKIE)
    assert result.stdout.split() == ["False", "True", "Lax", "False"]


# --- HSTS and check --deploy --------------------------------------------------------------------


def deploy_check(extra_env):
    base = {"ALLOWED_HOSTS": "tarot.example.org", "SECURE_SSL_REDIRECT": "1", "SECURE_COOKIES": "1"}
    result = run_python({**base, **extra_env}, None, "manage.py", "check", "--deploy")
    return result.stdout + result.stderr


def test_check_deploy_reports_no_hsts_warning_once_subdomains_and_preload_are_on():
    output = deploy_check({"SECURE_HSTS_SECONDS": "31536000"})
    assert "security.W005" in output and "security.W021" in output
    output = deploy_check(
        {
            "SECURE_HSTS_SECONDS": "31536000",
            "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
            "SECURE_HSTS_PRELOAD": "1",
        }
    )
    assert "security.W005" not in output
    assert "security.W021" not in output
    assert "security.W004" not in output  # HSTS itself is on


def test_it_sends_hsts_with_subdomains_and_preload_when_asked(client, db, settings):
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SECURE_HSTS_PRELOAD = True
    response = client.get(reverse("federation:home"), secure=True)
    assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"


# --- echoed values ------------------------------------------------------------------------------


def assert_escaped(response):
    html = response.content.decode()
    assert "<script>alert(" not in html
    assert PAYLOAD not in html


@pytest.mark.parametrize("page", ["championship:season", "championship:awards"])
def test_it_escapes_an_invalid_as_of_date_it_echoes(client, world, season, page):
    response = client.get(reverse(page, args=[season.name]), {"as_of": PAYLOAD})
    assert response.status_code == 200
    assert_escaped(response)
    assert "&lt;script&gt;alert(" in response.content.decode()  # echoed, as text


def test_it_escapes_an_invalid_as_of_date_on_a_player_page(client, world, season):
    player = world["homologated"].seats.first().player
    url = reverse("championship:player_season", args=[season.name, player.pk])
    response = client.get(url, {"as_of": PAYLOAD})
    assert response.status_code == 200
    assert_escaped(response)
    assert "&lt;script&gt;alert(" in response.content.decode()


def test_it_escapes_every_query_parameter_echoed_by_a_public_page(client, world, season):
    homologated = world["homologated"]
    for url in [
        reverse("federation:home"),
        reverse("championship:season", args=[season.name]),
        reverse("championship:round_list", args=[season.name]),
        reverse("championship:round", args=[homologated.pk]),
        reverse("championship:cup_status", args=[season.name]),
        reverse("championship:seasons"),
        reverse("login"),
        reverse("password_reset"),
    ]:
        # sort: django-tables2's ordering; next: the login redirect; anything else: the footer's
        # language form sends the whole path back.
        response = client.get(url, {"sort": PAYLOAD, "next": PAYLOAD, "x": PAYLOAD, PAYLOAD: "1"})
        assert response.status_code == 200, url
        assert_escaped(response)


def test_it_escapes_the_highlighted_deal_of_the_entry_page(client, world, secretary):
    client.force_login(secretary.user)
    response = client.get(reverse("championship:round_edit", args=[world["draft"].pk]), {"donne": PAYLOAD})
    assert response.status_code == 200
    assert_escaped(response)


def test_it_escapes_a_path_it_cannot_find(client, db):
    response = client.get("/saisons/" + PAYLOAD + "/")
    assert response.status_code == 404
    assert_escaped(response)


# --- error pages in French, in the site's layout --------------------------------------------------


def test_it_shows_a_french_page_not_found_in_the_site_layout(client, db):
    response = client.get("/nulle-part/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Page introuvable" in html
    assert 'class="site-header"' in html


def test_it_explains_a_refusal_in_french(client, world, member):
    client.force_login(member.user)
    response = client.get(reverse("championship:round_create", args=[world["draft"].season.name]))
    assert response.status_code == 403
    html = response.content.decode()
    assert "Accès refusé" in html
    assert "Seuls le secrétaire et la Direction saisissent les manches." in html
    assert 'class="site-header"' in html


def test_it_explains_a_failed_csrf_check_in_french(db):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": "x", "password": "y"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "formulaire a expiré" in html
    assert inline_code(response) == []


def test_it_escapes_a_player_name_everywhere_it_is_shown(client, season, president, secretary):
    """A name comes from a sheet import or the admin: whatever it holds, it is text on every page."""
    from federation.models import Player

    hostile = '<img src=x onerror="alert(1)">'
    round_ = make_round(season, status="homologated")
    bruno = Player.objects.get(name="Bruno")
    bruno.name = hostile
    bruno.save()
    draft = make_round(
        season,
        names=[hostile, "Alice", "Chloé", "David", "Émile"],
        deals=(),
        date=round_.date.replace(day=26),
    )
    pages = [
        reverse("federation:home"),
        reverse("championship:season", args=[season.name]),
        reverse("championship:awards", args=[season.name]),
        reverse("championship:round_list", args=[season.name]),
        reverse("championship:round", args=[round_.pk]),
        reverse("championship:report", args=[round_.pk]),
        reverse("championship:player", args=[bruno.pk]),
        reverse("championship:player_season", args=[season.name, bruno.pk]),
        reverse("championship:cup", args=[season.name]),
        reverse("championship:cup_status", args=[season.name]),
    ]
    client.force_login(secretary.user)
    pages += [reverse("championship:round_edit", args=[draft.pk])]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert hostile not in html, url
        assert "<img src=x" not in html, url


def test_it_escapes_what_a_refused_sheet_echoes(client, world, secretary):
    from django.core.files.uploadedfile import SimpleUploadedFile

    sheet = SimpleUploadedFile(
        PAYLOAD + ".json",
        (
            '{"season": "%s", "number": "%s", "players": [{"name": "%s"}]}'
            % (("<script>alert(1)</script>",) * 3)
        ).encode(),
        content_type="application/json",
    )
    client.force_login(secretary.user)
    response = client.post(reverse("championship:round_import"), {"sheet": sheet})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Feuille refusée" in html
    assert_escaped(response)
    assert "&lt;script&gt;" in html  # echoed, as text
