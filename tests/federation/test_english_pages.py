"""Every page a visitor reads, in English, on the demo: no French left in what the site writes.

The pages are reached from the home page by following links (as a visitor would, anonymous,
with `Accept-Language: en`); their visible text is searched for phrases the site used to leave
in French (`FRENCH`): the engine's explanations, deal summaries, round titles, phases, history
lines. What people wrote stays as written, and is left out of the search: the match reports'
narratives (README: the reports are written and printed in French), the season catalogue's
bonus and malus names and the reasons given for a change. The World Cup pages are searched too:
the engine gives their reasons as codes and figures (scoring.cup_reasons), written in English by
championship.cup.labels.
"""

import re
from html.parser import HTMLParser
from io import StringIO

import pytest
from django.core.management import call_command

FRENCH = [
    "place sur",
    "Fiche d",
    "Manche ",
    "Saison régulière",
    "faite de",
    "chutée de",
    "juste faite",
    "(donneur ",
    "Objectif (",
    "Points de l'attaque",
    "Preneur ",
    "Défenseur ",
    "Appelé ",
    "Pot vide",
    "Pot gagné",
    "Pot après la donne",
    "Mise du donneur",
    "Roi de ",
    "Dame de ",
    " seul",
    "Poignée ",
    "Large victoire",
    "Défaite honorable",
    "réussie",
    "mise en échec",
    "Écart",
    "Arrondi à",
    "Total de la donne",
    "prend la place",
    "ajoutée (",
    "Manche créée",
    "Totaux :",
    "Classement final",
    "Classement provisoire",
    # the World Cup pages' reasons and statuses
    "qualifiés pour",
    "de la table",
    "vont en finale",
    "Qualifié",
    "Éliminé",
    "En course",
    "non classé",
    "hors classement",
    "Hors course",
    "Qualification assurée",
    "vainqueur de la finale",
    "l'atteindre",
    "encore au calendrier",
    "1er",
    # the awards page: titles and reasons
    "Trophée du record",
    "Cuillère de bois",
    "Meilleur preneur",
    "Le plus assidu",
    "Roi du chelem",
    "Plus haut total",
    "du classement final",
    "manches jouées",
    "contrats réussis",
    "Non attribué",
]
FRENCH_COLON = re.compile(r"[^|\s][ \u00a0\u202f]:")  # not the crawl's own « | » between texts
SKIPPED = (
    "/compte-rendu",
    ".pdf",
    ".json",
    ".atom",
    ".csv",
    ".xlsx",
    ".ods",
    "/admin/",
    "/connexion/",
    "/compte/",
    "/i18n/",
)


class _Page(HTMLParser):
    """The visible text of a page, without what people wrote (`data-user-text`), and its links."""

    def __init__(self):
        super().__init__()
        self.links, self.text, self._hidden = [], [], 0

    def handle_starttag(self, tag, attrs):
        href = dict(attrs).get("href")
        if tag == "a" and href and href.startswith("/"):
            self.links.append(href.split("#")[0])
        if tag in ("script", "style", "title"):
            self._hidden += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style", "title"):
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden and data.strip():
            self.text.append(data.strip())


def visitor_pages(client):
    seen, queue, pages = set(), ["/"], {}
    while queue:
        url = queue.pop(0)
        if url in seen or any(part in url for part in SKIPPED):
            continue
        seen.add(url)
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200, url
        page = _Page()
        page.feed(response.content.decode())
        pages[url] = " | ".join(page.text)
        queue += [link for link in page.links if link not in seen]
    return pages


@pytest.mark.django_db
def test_every_visitor_page_is_in_english(client):
    from championship.models import Adjustment, Round  # noqa: PLC0415

    call_command("demo", stdout=StringIO())
    pages = visitor_pages(client)
    assert len(pages) > 40
    kinds = {re.sub(r"\d+", "N", url) for url in pages}
    assert {"/", "/manches/N/", "/saisons/N-N/", "/saisons/N-N/joueurs/N/", "/joueurs/N/"} <= kinds
    assert {"/saisons/N-N/coupe/", "/saisons/N-N/coupe/qualifications/"} <= kinds
    written = {reason for reason in Round.history.values_list("history_change_reason", flat=True) if reason}
    written |= {note for note in Adjustment.objects.values_list("note", flat=True) if note}
    problems = []
    for url, text in pages.items():
        for piece in sorted(written, key=len, reverse=True):
            text = text.replace(f" — {piece}", "").replace(piece, "")  # what people wrote, its dash too
        for phrase in FRENCH:
            at = text.find(phrase)
            if at >= 0:
                problems.append(f"{url}: « {phrase} » in …{text[max(0, at - 40) : at + 40]}…")
        spaced = FRENCH_COLON.search(text)  # « Points : 5 »: French spacing before a colon
        if spaced:
            at = spaced.start()
            problems.append(f"{url}: a space before a colon in …{text[max(0, at - 40) : at + 40]}…")
    assert problems == []
