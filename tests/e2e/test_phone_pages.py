"""Every page type of the demonstration federation on a 390×844 phone and on a 1366×900 screen,
in a real Chromium: nothing beyond the screen's right edge and no sideways scrolling, and axe-core
(WCAG 2.2 A and AA rules) finds no serious or critical violation.

The demonstration federation is loaded by each test (`manage.py demo`), then walked
anonymously, as an official (the Président, `bruno`) and as a plain member (who meets the 403
page); the 404, the CSRF failure and the 500 pages are walked too. On each page every <details>
is opened first, so that what it hides must fit as well. The charts' text must render at least
12 CSS pixels tall on the phone, and a few pages are read again with the text at 200 %.

On the phone, moreover: no figure (a chart, a drawing) is taller than the screen; no table is
wider than its box, and no word of a table (a player's name above all) is broken across two
lines; on a round's page, its ranking (with the championship points) starts within the first
two screens (`RANKING_DEPTH`), before the deal-by-deal detail.

With E2E_SCREENSHOTS set to a folder, each page leaves its screenshots there (both sizes): as it
opens, and « -ouvert » with every <details> open.
"""

import datetime
import io
import os
import re
from pathlib import Path

from django.core.management import call_command
from django.test import RequestFactory
from django.views.defaults import server_error

from championship.models import Deal, Report, Round
from federation.models import Official, Player, Season
from gamenights.models import GameNight
from tests.championship.sheets.test_sheets_season_import import csv_table, season_rows
from tests.e2e import test_game_night as night
from tests.e2e.axe import serious_violations
from tests.e2e.chromium import requires_chromium
from tests.factories import make_round

pytestmark = requires_chromium

PHONE = night.PHONE
DESKTOP = {"viewport": {"width": 1366, "height": 900}, "locale": "fr-FR", "timezone_id": "Europe/Paris"}
DEMO_PASSWORD = "tarot-biere"
SMALLEST_CHART_TEXT = 12  # CSS pixels, on the phone
RANKING_DEPTH = 2 * PHONE["viewport"]["height"]  # a round's ranking starts within two screens
ROUND_PAGE = re.compile(r"^/manches/\d+/$")

# Every element's box against the viewport's right edge, after opening every <details>; an element
# hidden the accessible way (clipped to 1 px) does not count. Also any box that scrolls sideways;
# with the text at 200 %, a data table may scroll inside its box (WCAG 1.4.10's exception for
# content that needs two dimensions), the page itself may not.
LAYOUT = """(tablesMayScroll) => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const inTable = el => tablesMayScroll && el.closest('.table-wrap');
  const edge = document.documentElement.clientWidth;
  const classes = el => typeof el.className === 'string' && el.className.trim()
    ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + classes(el);
  const beyond = [], scrolling = [];
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;
    if (inTable(el)) continue;
    if (box.right > edge + 0.5) beyond.push(`${name(el)} (${Math.round(box.right)} px)`);
    const style = getComputedStyle(el);
    if (['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1)
      scrolling.push(`${name(el)} (${el.scrollWidth} px dans ${el.clientWidth})`);
  }
  return {sideways: document.documentElement.scrollWidth - window.innerWidth, beyond, scrolling};
}"""

# The rendered height of each chart's text: its font size times the drawing's scale.
CHART_TEXT = """() => [...document.querySelectorAll('svg[viewBox]')]
  .filter(svg => svg.getBoundingClientRect().width > 0)
  .flatMap(svg => {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return [...svg.querySelectorAll('text')].map(text => ({
      text: text.textContent.trim(),
      px: parseFloat(getComputedStyle(text).fontSize) * scale,
    }));
  })"""


# On the phone, every <details> open: figures taller than the screen, tables wider than the box
# they sit in, words of a table broken across two lines (each word, hyphens aside, on one line).
PHONE_READING = """() => {
  const height = window.innerHeight;
  const classes = el => typeof el.className === 'string' && el.className.trim()
    ? '.' + el.className.trim().split(/\\s+/).join('.') : (el.className && el.className.baseVal
      ? '.' + el.className.baseVal.trim().split(/\\s+/).join('.') : '');
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + classes(el);
  const visible = el => { const box = el.getBoundingClientRect(); return box.width > 1 && box.height > 1; };
  const tall = [...document.querySelectorAll('figure, svg, [role="img"], canvas, img')]
    .filter(visible).filter(el => !el.closest('svg') || el.tagName.toLowerCase() === 'svg')
    .map(el => [name(el), Math.round(el.getBoundingClientRect().height)])
    .filter(([, h]) => h > height).map(([n, h]) => `${n} (${h} px)`);
  const wide = [...document.querySelectorAll('table')].filter(visible).filter(table => {
    const box = table.parentElement;
    const style = getComputedStyle(box);
    const inner = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return table.getBoundingClientRect().width > inner + 0.5;
  }).map(table => `${name(table)} (${Math.round(table.getBoundingClientRect().width)} px dans ${
    Math.round(table.parentElement.clientWidth)})`);
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const cell = node.parentElement && node.parentElement.closest('td, th');
    if (!cell || !visible(node.parentElement)) continue;
    for (const match of node.textContent.matchAll(/[^\\s\\-‐–]+/g)) {
      if (match[0].length < 2) continue;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (lines.size > 1) broken.push(`« ${match[0]} » (${name(cell)})`);
    }
  }
  return {tall, wide, broken};
}"""

# As the page opens (its <details> closed): where the round's ranking and its deals start.
DEPTHS = """() => {
  const top = id => {
    const el = document.getElementById(id);
    return el ? Math.round(el.getBoundingClientRect().top + window.scrollY) : null;
  };
  return {ranking: top('classement'), deals: top('donnes'), height: document.documentElement.scrollHeight};
}"""


class Walk:
    """One visitor's browser context at one size, and what went wrong on the pages it read."""

    def __init__(self, browser, base_url, name, device, problems):
        self.context = browser.new_context(base_url=base_url, **device)
        self.context.set_default_timeout(10_000)
        self.page = self.context.new_page()
        self.name = name
        self.width = device["viewport"]["width"]
        self.problems = problems
        self.depths = {}  # round page -> what PHONE_READING measured on it

    def log_in(self, username):
        self.page.goto("/connexion/")
        self.page.get_by_label(re.compile("utilisateur", re.I)).fill(username)
        self.page.get_by_label("Mot de passe").fill(DEMO_PASSWORD)
        self.page.get_by_role("button", name="Se connecter").click()
        self.page.get_by_role("button", name=f"Déconnexion ({username})", include_hidden=True).wait_for(
            state="attached"
        )

    def visit(self, url, status=200, axe=True):
        response = self.page.goto(url)
        if response.status != status:
            self.problems.append(f"{self.name} {url} : statut {response.status}, attendu {status}")
        self.check(url, axe=axe)

    def check(self, url, axe=True, tables_may_scroll=False):
        where = f"{self.name} {self.width} px {url}"
        path = url.split("?")[0]
        self.screenshot(url)  # as the page opens
        if self.width < 500 and ROUND_PAGE.match(path):  # before any <details> is opened
            self.round_depths(where, path)
        if axe:  # before the layout check, which opens every <details>
            for violation in serious_violations(self.page):
                targets = [" ".join(node["target"]) for node in violation["nodes"]][:5]
                self.problems.append(f"{where} : axe {violation['id']} ({violation['impact']}) {targets}")
        layout = self.page.evaluate(LAYOUT, tables_may_scroll)
        if layout["sideways"] > 0:
            self.problems.append(f"{where} : la page défile de côté de {layout['sideways']} px")
        if layout["beyond"]:
            self.problems.append(f"{where} : au-delà du bord droit : {layout['beyond'][:6]}")
        if layout["scrolling"]:
            self.problems.append(f"{where} : défile de côté : {layout['scrolling'][:6]}")
        if self.width < 500:
            texts = self.page.evaluate(CHART_TEXT)
            small = [f"{t['text']} ({t['px']:.1f} px)" for t in texts if t["px"] < SMALLEST_CHART_TEXT]
            if small:
                limit = SMALLEST_CHART_TEXT
                self.problems.append(f"{where} : texte de graphique sous {limit} px : {small[:6]}")
            if not tables_may_scroll:  # with the text at 200 %, a table may scroll in its box
                self.read_on_the_phone(where)
        self.screenshot(url, "-ouvert")

    def read_on_the_phone(self, where):
        """Figures within the screen's height, tables within their box, no word of a table broken."""
        found = self.page.evaluate(PHONE_READING)
        if found["tall"]:
            self.problems.append(f"{where} : figure plus haute que l'écran : {found['tall'][:6]}")
        if found["wide"]:
            self.problems.append(f"{where} : tableau plus large que sa boîte : {found['wide'][:6]}")
        if found["broken"]:
            self.problems.append(f"{where} : mot coupé sur deux lignes : {found['broken'][:6]}")

    def round_depths(self, where, path):
        """A round's ranking within `RANKING_DEPTH` of the page's top, above its deals."""
        found = self.depths[path] = self.page.evaluate(DEPTHS)
        if found["ranking"] is None or found["ranking"] > RANKING_DEPTH:
            self.problems.append(
                f"{where} : le classement de la manche commence à {found['ranking']} px, "
                f"au-delà de {RANKING_DEPTH} px"
            )
        elif found["deals"] is not None and found["deals"] < found["ranking"]:
            self.problems.append(f"{where} : le détail des donnes précède le classement")

    def screenshot(self, url, suffix=""):
        folder = os.environ.get("E2E_SCREENSHOTS")
        if folder:
            slug = re.sub(r"[^a-z0-9]+", "-", url.lower()).strip("-") or "accueil"
            self.page.screenshot(
                path=str(Path(folder) / f"phone-{self.name}-{self.width}-{slug}{suffix}.png"), full_page=True
            )

    def close(self):
        self.context.close()


def demo_pages():
    """The demo's pages, by who reads them: {"anonymous": [...], "official": [...], "member": [...]}."""
    call_command("demo", stdout=io.StringIO())
    current = Season.objects.order_by("-start_date").first()
    past = Season.objects.order_by("start_date").first()
    homologated = Round.objects.filter(season=current, status=Round.HOMOLOGATED).order_by("-date").first()
    pending = Round.objects.filter(season=current, status=Round.SUBMITTED).first()
    # A round still being entered besides the one awaiting homologation: the officials see it as
    # a draft (home page, standings), the public not at all.
    seated = [seat.player.name for seat in pending.seats.order_by("position")]
    draft = make_round(
        current,
        seated,
        totals=dict(zip(seated, (120, 60, 0, -80, -100), strict=True)),
        number=Round.objects.filter(season=current, stage=Round.REGULAR).count() + 1,
        date=pending.date,
        place="Chez Igor",
    )
    playoff = Round.objects.filter(stage=Round.PLAYOFF, status=Round.HOMOLOGATED).first()
    final = Round.objects.filter(stage=Round.FINAL, status=Round.HOMOLOGATED).first()
    report = Report.objects.filter(round__season=current).select_related("round").first()
    player = homologated.seats.order_by("position").first().player
    deal = Deal.objects.filter(round=homologated).order_by("number").first()
    president = Official.objects.get(season=current, role=Official.PRESIDENT).player
    member = Player.objects.exclude(user=None).filter(offices__isnull=True).first()
    # the calendar (issue 24): the next night (with answers), a cancelled one, a past one with its round
    nights = GameNight.objects.filter(season=current).order_by("date", "pk")
    next_night = nights.filter(date__gte=datetime.date.today(), cancelled=False).first()
    cancelled = nights.filter(cancelled=True).first()
    played = nights.filter(date=homologated.date).first()
    anonymous = [
        "/",
        "/saisons/",
        f"/saisons/{current.name}/",
        f"/saisons/{past.name}/",
        f"/saisons/{current.name}/accessits/",
        f"/saisons/{past.name}/accessits/",
        f"/saisons/{current.name}/joueurs/{player.pk}/",
        f"/joueurs/{player.pk}/",
        f"/saisons/{current.name}/manches/",
        f"/saisons/{past.name}/manches/",
        f"/manches/{homologated.pk}/",
        f"/manches/{playoff.pk}/",
        f"/manches/{final.pk}/",
        f"/manches/{report.round.pk}/compte-rendu/",
        f"/saisons/{current.name}/coupe/",
        f"/saisons/{current.name}/coupe/qualifications/",
        f"/saisons/{past.name}/coupe/",
        f"/saisons/{past.name}/coupe/qualifications/",
        "/connexion/",
        "/compte/mot-de-passe-oublie/",
        # the statistics (issue 25)
        f"/joueurs/{player.pk}/statistiques/",
        f"/joueurs/{player.pk}/statistiques/?saison={past.name}",
        f"/joueurs/{player.pk}/statistiques/defended/",
        f"/joueurs/{player.pk}/face-a-face/{homologated.seats.order_by('position')[1].player.pk}/",
        f"/saisons/{current.name}/partenaires/",
        f"/saisons/{current.name}/cote/",
        "/palmares/",
        # the calendar (issue 24)
        "/calendrier/",
        f"/saisons/{current.name}/calendrier/",
        f"/soirees/{next_night.pk}/",
        f"/soirees/{cancelled.pk}/",
        f"/soirees/{played.pk}/",
    ]
    official = [
        "/",
        f"/saisons/{current.name}/",
        f"/manches/{draft.pk}/",
        f"/manches/{pending.pk}/",
        f"/manches/{pending.pk}/saisie/",
        f"/manches/{homologated.pk}/saisie/",
        f"/manches/{homologated.pk}/donnes/{deal.number}/",
        f"/saisons/{current.name}/manches/",
        f"/saisons/{current.name}/manches/nouvelle/",
        f"/saisons/{current.name}/reglement/",
        "/manches/importer/",
        "/saisons/importer/",
        f"/manches/{pending.pk}/supprimer/",
        "/compte/mot-de-passe/",
        f"/manches/{draft.pk}/direct/",  # the live view for the table (issue 23)
        # the calendar (issue 24), as the board sees it
        "/calendrier/",
        f"/soirees/{next_night.pk}/",
        f"/soirees/{played.pk}/",
        f"/soirees/{next_night.pk}/modifier/",
        f"/saisons/{current.name}/soirees/nouvelle/",
        f"/saisons/{current.name}/calendrier/coupe/",
        f"/saisons/{past.name}/calendrier/coupe/",  # its seeds known: the forms
    ]
    return {
        "anonymous": anonymous,
        "official": official,
        "president": president.user.username,
        "member": member.user.username,
        "forbidden": f"/manches/{homologated.pk}/saisie/",
        "entry": f"/manches/{pending.pk}/saisie/",
        "standings": f"/saisons/{current.name}/",
        "round": f"/manches/{homologated.pk}/",
        "past": past.name,
    }


def preview_past_season(walk, season, axe):
    """« Importer une saison passée »: a totals table refused (its errors named by cell), then one
    previewed (its rounds, following those of the season)."""
    first = int(season[:4])
    lines = (
        csv_table(season_rows(12)).decode().replace("/2005", f"/{first}").replace("/2006", f"/{first + 1}")
    )
    rows = [line.split(";", 1)[1] for line in lines.splitlines()]  # no « Manche » column
    good = "\n".join(rows).encode()
    broken = "\n".join(rows[:3] + [row.replace(";", ";x", 3) for row in rows[3:6]]).encode()
    page = walk.page
    for name, data, heading in (
        ("refus.csv", broken, "Tableau refusé : rien n'a été enregistré"),
        ("saison.csv", good, "Aperçu de la saison importée"),
    ):
        page.goto("/saisons/importer/")
        page.get_by_label("Saison", exact=True).fill(season)
        page.get_by_label("Tableau de totaux").set_input_files(
            {"name": name, "mimeType": "text/csv", "buffer": data}
        )
        page.get_by_label("Inscrire les joueurs inconnus").check()
        page.get_by_role("button", name="Aperçu").click()
        page.get_by_role("heading", name=heading).wait_for()
        walk.check(f"/saisons/importer/{name}", axe=axe)


def test_every_page_fits_a_phone_and_passes_axe(browser, live_server, transactional_db):
    pages = demo_pages()
    problems = []
    for device, size in ((PHONE, "telephone"), (DESKTOP, "ecran")):
        axe = device is PHONE  # axe's verdicts hardly depend on the width: once is enough
        walk = Walk(browser, live_server.url, f"anonyme-{size}", device, problems)
        for url in pages["anonymous"]:
            walk.visit(url, axe=axe)
        walk.visit("/nulle-part/", status=404)
        walk.close()

        walk = Walk(browser, live_server.url, f"officiel-{size}", device, problems)
        walk.log_in(pages["president"])
        for url in pages["official"]:
            walk.visit(url, axe=axe)
        preview_past_season(walk, pages["past"], axe=axe)
        walk.close()

    # A form sent without its cookie meets the CSRF page; a member without rights, the 403 page.
    walk = Walk(browser, live_server.url, "membre", PHONE, problems)
    walk.page.goto("/connexion/")
    walk.page.get_by_label(re.compile("utilisateur", re.I)).fill(pages["member"])
    walk.page.get_by_label("Mot de passe").fill(DEMO_PASSWORD)
    walk.context.clear_cookies()
    walk.page.get_by_role("button", name="Se connecter").click()
    walk.page.get_by_role("heading", name="Formulaire refusé").wait_for()
    walk.check("csrf")
    walk.log_in(pages["member"])
    walk.visit(pages["forbidden"], status=403)
    # The 500 page, as Django renders it, served at an address of the site.
    body = server_error(RequestFactory().get("/")).content
    html = "text/html; charset=utf-8"
    walk.page.route("**/erreur-serveur/", lambda r: r.fulfill(status=500, body=body, content_type=html))
    walk.visit("/erreur-serveur/", status=500)
    walk.close()

    assert problems == [], "\n".join(problems)


def test_the_pages_hold_text_at_200_percent(browser, live_server, transactional_db):
    """WCAG 1.4.4: the text twice as large (the root font size doubled, as a browser's text-size
    setting does); nothing may then go beyond the phone's edge, labels of the entry form included."""
    pages = demo_pages()
    problems = []
    walk = Walk(browser, live_server.url, "texte-200", PHONE, problems)
    walk.log_in(pages["president"])
    for url in (pages["entry"], pages["round"], pages["standings"]):
        walk.page.goto(url)
        walk.page.evaluate("document.documentElement.style.fontSize = '200%'")
        walk.check(url, axe=False, tables_may_scroll=True)
    walk.close()
    assert problems == [], "\n".join(problems)
