"""The site as docs/exploitation.md deploys it, crawled and driven in a browser (issue 36).

What the rest of the suite cannot see: it runs the site in its own process (the test client, or
pytest-django's live server with an in-memory database), whereas production runs `gunicorn
federation.wsgi` with several worker processes, a database file they share, the cache of files
they share, the static files `collectstatic` wrote with the manifest storage and WhiteNoise serves,
and the settings of a fresh environment (tests/production/deployment.py: DEBUG=0, a random
SECRET_KEY, secure cookies, one proxy in front). Here the demo federation is built by `migrate`
and `manage.py demo` on a SQLite file, its static files collected into a folder of their own, and
gunicorn started with two workers as « Déployer » says (with a longer watchdog timeout, so that a
loaded machine does not get a worker killed: tests/production/deployment.py).

The crawl (`test_every_page_…`) plays the HTTPS proxy the docs put in front: every request carries
`X-Forwarded-Proto: https` and `X-Forwarded-For`, so the site sees an HTTPS request (its cookies
are `Secure`, the CSRF check compares the `Origin` of the public https address); the crawler's
cookie jar sends secure cookies over the proxy's last, plain-HTTP leg, as the proxy would. Four
visitors, two at a time: anonymous, the demo's Président (`bruno`, staff: the admin too), its
secretary (`chloe`) and a plain member (`david`), each logged in through the real login form with
its CSRF token. From the home page (and « Mon compte »), every link within the site is followed:
two addresses of each URL pattern for the anonymous visitor, one for the others (and one of the
admin's and of the files'), never a link that logs out, changes the language or opens a table
link's session. It fails on:

- a 5xx anywhere (a page, a file, a static file), or a link of the site to an address that fails;
- a page not in French (`<html lang="fr">`, `Content-Language: fr`);
- a static file a page names (stylesheets, scripts, images, icons, and the `url(…)` inside the
  stylesheets), an icon of the web app manifest or a file of the service worker's precache list
  (`/sw.js`) that does not answer 200 under its hashed name, with WhiteNoise's far-future cache;
- `/sw.js` or `/manifest.webmanifest` not answering 200, or a session or CSRF cookie without
  `Secure`, or a signed-in page a proxy or the browser may store (`private, no-store`);
- a visitor who did not reach the pages his role opens (a crawl that found nothing proves nothing).

The browser test (`test_a_phone_…`) is Chromium on a phone (tests/e2e/chromium.py) talking to
gunicorn directly over http://localhost, without the proxy: a service worker and `Secure` cookies
are allowed there as on HTTPS (a browser sending `X-Forwarded-Proto: https` would fail the CSRF
check, its `Origin` being http). The secretary logs in through the form, opens the entry page of
the round that waits for homologation; the service worker registers and activates, keeps the page;
offline, the page reloads from the worker, with its hashed static files from the worker's cache.

Not covered: PostgreSQL and Redis (tests/federation/test_postgresql.py, the concurrency tests), a
real TLS proxy, the files a page offers for download (PDF, spreadsheets, feeds: only checked to
answer, one of each pattern, by whichever visitor meets it first), and the pages behind a POST.
"""

import json
import re
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import requests
from django.urls import Resolver404, resolve
from playwright.sync_api import expect

from tests.e2e import test_game_night as night
from tests.e2e.chromium import headless_chromium, requires_chromium
from tests.production.deployment import requires_gunicorn

pytestmark = requires_gunicorn

DEMO_PASSWORD = "tarot-biere"
VISITORS = ("anonymous", "bruno", "chloe", "david")
PER_PATTERN = 2  # addresses crawled per URL pattern, query strings included (see limit())
DOWNLOADS = re.compile(r"\.(pdf|xlsx|ods|atom|ics|json)")  # files: one per pattern
REQUEST_SECONDS = 120  # a slow answer on a loaded machine is not a failure; an error is
# Never followed: they change who the visitor is or what language he reads.
NOT_FOLLOWED = {"deconnexion/", "admin/logout/", "i18n/setlang/", "manches/<int:pk>/table/<str:token>/"}
HASHED = re.compile(r"^/static/.+\.[0-9a-f]{12}\.[A-Za-z0-9]+$")
COMPRESSED = (".css", ".js", ".svg")  # text: WhiteNoise serves its .br copy
CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")
# What each visitor must have reached (URL patterns): the crawl found the site's pages.
MUST_REACH = {
    "anonymous": {
        "",
        "saisons/",
        "saisons/<str:name>/",
        "manches/<int:pk>/",
        "joueurs/<int:pk>/",
        "palmares/",
        "saisons/<str:name>/coupe/",
        "connexion/",
    },
    "bruno": {"compte/", "manches/<int:pk>/saisie/", "admin/", "direction/liens/"},
    "chloe": {"compte/", "manches/<int:pk>/saisie/"},
    "david": {"compte/", "saisons/<str:name>/", "manches/<int:pk>/"},
}


class Page(HTMLParser):
    """What a page names: its language, its links, and the files it loads."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lang, self.links, self.files, self.csrf = None, [], [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.lang = attrs.get("lang")
        elif tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        elif tag == "link" and attrs.get("href"):
            rel = set((attrs.get("rel") or "").split())
            if rel & {"stylesheet", "icon", "apple-touch-icon", "manifest", "preload", "modulepreload"}:
                self.files.append(attrs["href"])
            else:
                self.links.append(attrs["href"])  # rel=alternate: the feeds
        elif tag in ("script", "img", "source") and attrs.get("src"):
            self.files.append(attrs["src"])
        elif tag == "input" and attrs.get("name") == "csrfmiddlewaretoken":
            self.csrf = attrs.get("value")


def parsed(html):
    page = Page()
    page.feed(html)
    return page


def route_of(path):
    try:
        return resolve(path).route
    except Resolver404:
        return path


class Crawl:
    """What the visitors found, shared by their threads."""

    def __init__(self, site):
        self.site = site
        self.problems, self.reached, self.pages, self.timings = [], {}, {}, []
        self.statics, self.downloads, self.lock = {}, set(), threading.Lock()

    def first_download(self, route):
        """False for a file (PDF, spreadsheet, feed) of a pattern another visitor fetched: one of
        each is enough to see it answer, and they cost seconds each."""
        if not DOWNLOADS.search(route):
            return True
        with self.lock:
            first = route not in self.downloads
            self.downloads.add(route)
        return first

    def problem(self, text):
        with self.lock:
            self.problems.append(text)

    def check_static(self, visitor, url, where):
        """A static file: 200 under its hashed name, cached for good by WhiteNoise; a stylesheet's
        own url(…) checked in turn."""
        path = urlsplit(url).path
        with self.lock:
            if path in self.statics:
                return
            self.statics[path] = where
        if not HASHED.match(path):
            self.problem(f"{where} : {path} n'a pas de nom versionné (manifeste)")
        response = visitor.get(path)
        if response.status_code != 200:
            self.problem(f"{where} : {path} répond {response.status_code}")
            return
        if "immutable" not in response.headers.get("Cache-Control", ""):
            self.problem(f"{where} : {path} sans cache durable ({response.headers.get('Cache-Control')})")
        # The crawler accepts Brotli, as browsers do: a text file comes as collectstatic compressed it.
        if path.endswith(COMPRESSED) and response.headers.get("Content-Encoding") != "br":
            self.problem(f"{where} : {path} non compressé ({response.headers.get('Content-Encoding')})")
        if path.endswith(".css"):
            for found in CSS_URL.findall(response.text):
                if not found.startswith(("data:", "#")):
                    self.check_static(visitor, urljoin(path, found), path)


class Visitor:
    """One visitor's browser, behind the HTTPS proxy of docs/exploitation.md. The proxy speaks HTTPS
    to the browser and HTTP to gunicorn; the crawler plays both: it keeps the cookies the site
    sets (each must be `Secure`) and sends them back on the proxy's plain-HTTP leg."""

    def __init__(self, site, name):
        self.site, self.name = site, name
        self.cookies, self.insecure = {}, set()
        self.origin = f"https://127.0.0.1:{site.port}"

    def request(self, method, path, headers=(), **kwargs):
        sent = {
            "X-Forwarded-Proto": "https",
            "X-Forwarded-For": "203.0.113.7",
            "Accept-Language": "fr-FR,fr;q=0.9",
            "User-Agent": "tarot-biere-crawl",
            **dict(headers),
        }
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        response = requests.request(
            method,
            self.site.url + path,
            headers=sent,
            allow_redirects=False,
            timeout=REQUEST_SECONDS,
            **kwargs,
        )
        for cookie in response.cookies:
            if not cookie.secure:
                self.insecure.add(cookie.name)
            if cookie.value and not cookie.is_expired():
                self.cookies[cookie.name] = cookie.value
            else:
                self.cookies.pop(cookie.name, None)
        return response

    def get(self, path):
        return self.request("GET", path)

    def log_in(self):
        form = self.get("/connexion/")
        assert form.status_code == 200, form.status_code
        token = parsed(form.text).csrf
        assert token, "pas de jeton CSRF dans le formulaire de connexion"
        response = self.request(
            "POST",
            "/connexion/",
            data={"csrfmiddlewaretoken": token, "username": self.name, "password": DEMO_PASSWORD},
            headers={"Origin": self.origin, "Referer": self.origin + "/connexion/"},
        )
        assert response.status_code == 302, f"{self.name} : connexion refusée ({response.status_code})"
        assert not response.headers["Location"].startswith("/connexion/"), response.headers["Location"]
        assert {"sessionid", "csrftoken"} <= set(self.cookies), self.cookies.keys()


def limit(route, signed_in):
    """Addresses crawled per URL pattern: PER_PATTERN of the site's pages for the anonymous
    visitor; one for a signed-in visitor (what his role changes is the pattern, seldom the object),
    one of Django's admin (its many filter links) and of the files (one in all: first_download)."""
    if signed_in or route.startswith("admin/") or DOWNLOADS.search(route):
        return 1
    return PER_PATTERN


def crawl(crawl_, name):
    visitor = Visitor(crawl_.site, name)
    signed_in = name != "anonymous"
    if signed_in:
        visitor.log_in()
    queue = ["/", "/compte/"] if signed_in else ["/"]
    seen, counts, reached = set(queue), {}, set()
    while queue:
        path = queue.pop(0)
        asked = time.monotonic()
        response = visitor.get(path)
        with crawl_.lock:
            crawl_.timings.append((time.monotonic() - asked, name, path))
        where = f"{name} {path}"
        status = response.status_code
        if status == 200:
            reached.add(route_of(urlsplit(path).path))
        if status >= 500:
            crawl_.problem(f"{where} : {status}")
            continue
        if signed_in and not {"private", "no-store"} <= {
            part.strip() for part in response.headers.get("Cache-Control", "").split(",")
        }:
            crawl_.problem(f"{where} : Cache-Control {response.headers.get('Cache-Control')}")
        found = []
        if status in (301, 302, 303, 307, 308):
            found = [response.headers["Location"]]
        elif response.headers.get("Content-Type", "").startswith("text/html"):
            page = parsed(response.text)
            if page.lang != "fr" or response.headers.get("Content-Language") != "fr":
                crawl_.problem(
                    f"{where} : pas en français ({page.lang}, {response.headers.get('Content-Language')})"
                )
            for file in page.files:
                target = urlsplit(urljoin(path, file))
                if target.scheme in ("", "http") and target.path.startswith("/static/"):
                    crawl_.check_static(visitor, target.path, where)
            found = page.links
        with crawl_.lock:
            crawl_.pages[name] = crawl_.pages.get(name, 0) + 1
        for link in found:
            target = urlsplit(urljoin(crawl_.site.url + path, link))
            if target.netloc != urlsplit(crawl_.site.url).netloc or target.path.startswith("/static/"):
                continue
            address = target.path + (f"?{target.query}" if target.query else "")
            route = route_of(target.path)
            if address in seen or route in NOT_FOLLOWED:
                continue
            if counts.get(route, 0) >= limit(route, signed_in) or not crawl_.first_download(route):
                continue
            counts[route] = counts.get(route, 0) + 1
            seen.add(address)
            queue.append(address)
    if visitor.insecure:
        crawl_.problem(f"{name} : cookies sans Secure : {sorted(visitor.insecure)}")
    with crawl_.lock:
        crawl_.reached[name] = reached


def test_every_page_of_every_visitor_answers_in_french_with_its_hashed_static_files(deployed_site, benchmark):
    started = time.monotonic()
    anonymous = Visitor(deployed_site, "anonymous")
    crawl_ = Crawl(deployed_site)

    # The phone's files: the service worker and its precache list, the manifest and its icons.
    worker = anonymous.get("/sw.js")
    assert worker.status_code == 200 and worker.headers["Content-Type"].startswith("text/javascript")
    precache = json.loads(re.search(r"^const PRECACHE = (\[.*\]);$", worker.text, re.M).group(1))
    assert len(precache) >= 5, precache
    for url in precache:
        crawl_.check_static(anonymous, url, "/sw.js")
    manifest = anonymous.get("/manifest.webmanifest")
    assert manifest.status_code == 200, manifest.status_code
    assert manifest.headers["Content-Type"] == "application/manifest+json"
    assert manifest.json()["lang"] == "fr"
    for icon in manifest.json()["icons"]:
        crawl_.check_static(anonymous, icon["src"], "/manifest.webmanifest")

    with ThreadPoolExecutor(max_workers=2) as pool:
        for future in [pool.submit(crawl, crawl_, name) for name in VISITORS]:
            future.result()

    assert crawl_.problems == [], "\n".join(crawl_.problems) + "\n" + deployed_site.log()[-3000:]
    missing = {name: sorted(MUST_REACH[name] - crawl_.reached[name]) for name in VISITORS}
    assert all(not routes for routes in missing.values()), f"pages jamais atteintes : {missing}"
    seconds = time.monotonic() - started
    slowest = ", ".join(f"{path} ({name}) {took:.1f} s" for took, name, path in sorted(crawl_.timings)[-3:])
    benchmark(
        f"parcours sous gunicorn : {sum(crawl_.pages.values())} pages ({crawl_.pages}), "
        f"{len(crawl_.statics)} fichiers statiques, {seconds:.0f} s ; les plus lentes : {slowest}"
    )


def submitted_round(site):
    """The demo's round waiting for homologation (read from the database file, read-only)."""
    with sqlite3.connect(f"file:{site.database}?mode=ro", uri=True) as connection:
        (pk,) = connection.execute("SELECT id FROM championship_round WHERE status = 'submitted'").fetchone()
    return pk


WORKER_ACTIVE = """async () => {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return Boolean(registration && registration.active && registration.active.state === "activated");
}"""


def wait_for(page, script, what, timeout=60.0):
    """Polled: the site's policy forbids the eval that page.wait_for_function needs."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"toujours pas : {what}"
        time.sleep(0.2)


@requires_chromium
def test_a_phone_keeps_the_entry_page_and_reloads_it_offline_from_the_service_worker(deployed_site):
    round_pk = submitted_round(deployed_site)
    base = f"http://localhost:{deployed_site.port}"
    with headless_chromium() as browser:
        phone = night.Phone(browser, base, "gunicorn-hors-ligne")
        phone.context.set_default_timeout(30_000)  # a loaded machine; nothing here is timed
        page = phone.page
        page.goto("/connexion/")
        page.get_by_label(re.compile("utilisateur", re.I)).fill("chloe")
        page.get_by_label("Mot de passe").fill(DEMO_PASSWORD)
        page.get_by_role("button", name="Se connecter").click()
        expect(page.get_by_role("button", name="Déconnexion (chloe)", include_hidden=True)).to_be_attached(
            timeout=30_000
        )

        page.goto(f"/manches/{round_pk}/saisie/")
        wait_for(page, WORKER_ACTIVE, "le service worker actif")
        wait_for(
            page,
            "async () => Boolean(await caches.match(location.pathname))",
            "la page de saisie gardée par le service worker",
        )
        wait_for(page, "() => !document.documentElement.dataset.offlineBusy", "la page au repos")

        phone.context.set_offline(True)
        response = page.reload()
        assert response is not None and response.status == 200 and response.from_service_worker
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        expect(page.get_by_text("Hors ligne : les donnes enregistrées")).to_be_visible(timeout=30_000)
        scripts = page.locator("script[src]").evaluate_all("(nodes) => nodes.map((node) => node.src)")
        assert any(re.search(r"/static/js/offline-entry\.[0-9a-f]{12}\.js$", src) for src in scripts), scripts
        felt = page.locator(".site-header").evaluate("(node) => getComputedStyle(node).backgroundColor")
        assert felt == "rgb(31, 95, 63)", felt  # site.css from the worker's cache
        phone.look("1-recharge-hors-ligne")
        phone.context.set_offline(False)
        wait_for(page, "() => !document.documentElement.dataset.offlineBusy", "la page au repos")
        assert phone.problems == []
        phone.close()
