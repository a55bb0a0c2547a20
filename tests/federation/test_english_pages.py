"""Every page a visitor reads, in English, on the demo: no French left in what the site writes.

The pages are reached from the home page by following links (as a visitor would, anonymous,
with `Accept-Language: en`): rounds, seasons, players, the match reports' pages, the nights and
the calendars, the statistics, the World Cup. Their visible text is searched for phrases the site
used to leave in French (`FRENCH`): the engine's explanations, deal summaries, round titles,
phases, history lines; and for any French string of the interface's own catalogue (`catalogue`:
the msgids of django.po, and the pieces between their placeholders) left untranslated (issue 35).
What people wrote stays as written, and is left out of the search: the match reports' narratives
(marked `data-user-text`; README: the reports are written in French), the names of players and
places, the season catalogue's bonus and malus names and the reasons given for a change. The World
Cup pages are searched too: the engine gives their reasons as codes and figures
(scoring.cup_reasons), written in English by championship.cup.labels.
"""

import re
from html.parser import HTMLParser
from io import StringIO

import pytest
from django.core.management import call_command

from tests.federation.test_i18n import PO_FILE, read_po

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
    "Totaux :",
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
    ".ics",
    "/modifier/",
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


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
PLACEHOLDERS = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}")
ENGLISH_TOO = {"simple"}  # French words that are English words too (« simple handful »)
SHORTEST = 4  # a piece of a msgid shorter than this, and of one word (« de », « la »), is not searched


def pieces_of(text):
    """A catalogue string's pieces between its placeholders, stripped of spaces and punctuation."""
    for piece in PLACEHOLDERS.split(text):
        piece = re.sub(r"\s+", " ", piece.strip(" \u00a0\u202f:;,.!?()«»“”—–-'\"\n"))
        if re.search(r"[^\W\d_]", piece):
            yield piece


def same_in_both():
    """The catalogue's strings that English keeps as they are (the contracts: « Garde contre »)."""
    kept = set()
    for entry in read_po(PO_FILE):
        translations = [value for key, value in entry.items() if key.startswith("msgstr")]
        msgid = entry["msgid"]
        if msgid in translations and " " in msgid and not PLACEHOLDERS.search(msgid):
            kept.add(msgid)
    return kept


def catalogue():
    """The French strings of the interface that English must not show: each msgid translated into
    something else, whole, and each piece of it between placeholders. A piece that is English too
    (a msgstr, or a piece of one: « Points », « Total », « Phase ») is left out; so is a piece of a
    single word shorter than `SHORTEST` (« de », « la »)."""
    english, french = set(), set()
    for entry in read_po(PO_FILE):
        if not entry["msgid"]:
            continue
        translations = [value for key, value in entry.items() if key.startswith("msgstr")]
        english.update(piece.lower() for text in translations for piece in pieces_of(text))
        for msgid in filter(None, (entry["msgid"], entry.get("msgid_plural"))):
            if msgid not in translations:
                french.update(p for p in pieces_of(msgid) if len(p) >= SHORTEST or " " in p)
    return {piece for piece in french if piece.lower() not in english | ENGLISH_TOO}


def searched(pieces):
    """One expression for all the pieces, as whole words. It branches on one letter at a time (the
    pieces as a tree of their letters): `re` tries the branches of an alternation one after the
    other at each position of the text, and a branch for each of the thousand pieces cost the
    crawl 3 s."""
    tree = {}
    for piece in pieces:
        node = tree
        for letter in piece:
            node = node.setdefault(letter, {})
        node[""] = {}  # a piece ends here

    def expression(node):
        common = ""  # the letters down to where the tree branches or a piece ends
        while len(node) == 1 and "" not in node:
            letter, node = next(iter(node.items()))
            common += re.escape(letter)
        branches = [re.escape(letter) + expression(rest) for letter, rest in sorted(node.items()) if letter]
        if not branches:
            return common
        either = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return common + (f"(?:{either})?" if "" in node else either)  # the longer piece first

    return re.compile(r"(?<!\w)" + expression(tree) + r"(?!\w)")


class _Page(HTMLParser):
    """The visible text of a page, without what people wrote (`data-user-text`), and its links."""

    def __init__(self):
        super().__init__()
        self.links, self.text, self._hidden, self._open = [], [], 0, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        href = attrs.get("href")
        if tag == "a" and href and href.startswith("/"):
            self.links.append(href.split("#")[0])
        if tag in VOID:
            return
        hides = tag in ("script", "style", "title") or "data-user-text" in attrs
        self._open.append(hides)
        self._hidden += hides

    def handle_endtag(self, tag):
        if tag not in VOID and self._open:
            self._hidden -= self._open.pop()

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


def test_the_catalogue_search_finds_what_a_visitor_saw_in_french():
    """The search itself: the phrases of issue 35, and not the English nor the names."""
    found = searched(catalogue())
    for french in (
        "Lieu",
        "Bonus et malus",
        "Faits marquants",
        "Classement de la manche",
        "Saison régulière",
    ):
        assert found.search(f"Venue | {french} | 8"), french
    assert found.search("2026-2027 — manche 11 approved")
    for english in (
        "Match report for round 8",
        "Venue : Chez Steph",
        "Points | Total | Phase",
        "Bruno",
        "Igor",
    ):
        assert not found.search(english), english


@pytest.mark.django_db(transaction=True)  # figures stored as in production: each computed once
def test_every_visitor_page_is_in_english(client):
    from championship.models import Adjustment, Round  # noqa: PLC0415
    from federation.models import Player, Season  # noqa: PLC0415
    from gamenights.models import GameNight  # noqa: PLC0415

    call_command("demo", stdout=StringIO())
    pages = visitor_pages(client)
    assert len(pages) > 40
    kinds = {re.sub(r"\d+", "N", url) for url in pages}
    assert {"/", "/manches/N/", "/saisons/N-N/", "/saisons/N-N/joueurs/N/", "/joueurs/N/"} <= kinds
    assert {"/saisons/N-N/coupe/", "/saisons/N-N/coupe/qualifications/"} <= kinds
    assert {"/manches/N/compte-rendu/", "/soirees/N/", "/calendrier/", "/saisons/N-N/calendrier/"} <= kinds
    assert {"/joueurs/N/statistiques/", "/palmares/", "/saisons/N-N/partenaires/"} <= kinds
    written = {reason for reason in Round.history.values_list("history_change_reason", flat=True) if reason}
    written |= {note for note in Adjustment.objects.values_list("note", flat=True) if note}
    for season in Season.objects.all():  # the season catalogue's bonus and malus names
        written |= {entry.label for entry in season.rulebook.championship.catalogue}
    names = set(Player.objects.values_list("name", flat=True))  # people and places: proper nouns
    names |= set(Player.objects.values_list("nickname", flat=True))
    names |= set(Round.objects.values_list("place", flat=True)) | set(
        GameNight.objects.values_list("place", flat=True)
    )
    french, kept = searched(catalogue()), sorted(same_in_both(), key=len, reverse=True)
    written = sorted(written, key=len, reverse=True)
    # The names as whole words, the longest first: « Jean-Pierre » before « Jean ».
    proper = sorted(filter(None, names), key=len, reverse=True)
    proper_nouns = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(name) for name in proper) + r")(?!\w)")
    assert proper  # an empty alternation would match everywhere
    problems = []
    for url, text in pages.items():
        for piece in written:
            text = text.replace(f" — {piece}", "").replace(piece, "")  # what people wrote, its dash too
        text = proper_nouns.sub("·", text)
        for term in kept:
            text = text.replace(term, "·")
        for found in french.finditer(text):
            at = found.start()
            problems.append(f"{url}: « {found.group()} » in …{text[max(0, at - 40) : at + 40]}…")
        for phrase in FRENCH:
            at = text.find(phrase)
            if at >= 0:
                problems.append(f"{url}: « {phrase} » in …{text[max(0, at - 40) : at + 40]}…")
        spaced = FRENCH_COLON.search(text)  # « Points : 5 »: French spacing before a colon
        if spaced:
            at = spaced.start()
            problems.append(f"{url}: a space before a colon in …{text[max(0, at - 40) : at + 40]}…")
    assert problems == []
