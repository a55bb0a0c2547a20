"""The English catalogue: complete, compiled, and served to visitors who ask for English."""

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import make_round

CATALOGUE = Path(settings.BASE_DIR) / "federation" / "locale" / "en" / "LC_MESSAGES"
PO_FILE = CATALOGUE / "django.po"
MO_FILE = CATALOGUE / "django.mo"
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def read_po(path):
    """A tiny .po reader: one dict per entry with msgctxt, msgid, msgid_plural, msgstr, msgstr[n], flags.

    Enough for the files makemessages writes (no obsolete #~ entries).
    """
    entries, entry, key = [], None, None
    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            if entry is not None and "msgid" in entry:
                entries.append(entry)
            entry, key = None, None
            continue
        if entry is None:
            entry = {"flags": set()}
        if line.startswith("#,"):
            entry["flags"].update(flag.strip() for flag in line[2:].split(","))
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            entry[key] += ast.literal_eval(line)
        else:
            key, _, value = line.partition(" ")
            entry[key] = ast.literal_eval(value)
    return entries


@pytest.fixture(scope="module")
def po_entries():
    entries = read_po(PO_FILE)
    header = [entry for entry in entries if entry["msgid"] == ""]
    assert len(header) == 1
    return header[0], [entry for entry in entries if entry["msgid"] != ""]


def test_the_catalogue_declares_english_with_two_plural_forms(po_entries):
    header, _ = po_entries
    assert "Language: en\n" in header["msgstr"]
    assert "Plural-Forms: nplurals=2; plural=(n != 1);\n" in header["msgstr"]
    assert "fuzzy" not in header["flags"]


def test_every_msgid_has_an_english_msgstr(po_entries):
    _, entries = po_entries
    assert len(entries) > 250
    for entry in entries:
        assert "fuzzy" not in entry["flags"], entry["msgid"]
        if "msgid_plural" in entry:
            assert entry["msgstr[0]"].strip(), entry["msgid"]
            assert entry["msgstr[1]"].strip(), entry["msgid_plural"]
        else:
            assert entry["msgstr"].strip(), entry["msgid"]


def test_translations_keep_every_placeholder(po_entries):
    _, entries = po_entries
    for entry in entries:
        if "msgid_plural" in entry:
            # The singular form may drop %(counter)s (« Le premier de chaque table… »), never add one.
            plural = set(PLACEHOLDER.findall(entry["msgid_plural"]))
            assert set(PLACEHOLDER.findall(entry["msgstr[1]"])) == plural, entry["msgid_plural"]
            assert set(PLACEHOLDER.findall(entry["msgstr[0]"])) <= plural, entry["msgid"]
        else:
            expected = set(PLACEHOLDER.findall(entry["msgid"]))
            assert set(PLACEHOLDER.findall(entry["msgstr"])) == expected, entry["msgid"]


def test_the_compiled_catalogue_matches_the_po_file(po_entries):
    """The .mo is committed for machines without gettext: it must be recompiled whenever the .po changes."""
    _, entries = po_entries
    with MO_FILE.open("rb") as mo:
        translations = gettext.GNUTranslations(mo)
    for entry in entries:
        if "msgid_plural" in entry:
            for n, form in ((1, "msgstr[0]"), (2, "msgstr[1]")):
                assert translations.ngettext(entry["msgid"], entry["msgid_plural"], n) == entry[form]
        elif "msgctxt" in entry:  # « — couleur — » is a card suit in the deal form, a chip colour elsewhere
            assert translations.pgettext(entry["msgctxt"], entry["msgid"]) == entry["msgstr"], entry["msgid"]
        else:
            assert translations.gettext(entry["msgid"]) == entry["msgstr"], entry["msgid"]


def test_the_home_page_speaks_english_when_asked(client, season, president):
    response = client.get(reverse("federation:home"), headers={"accept-language": "en"})
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="en">' in html
    for english in ("Home", "Standings", "Seasons", "Log in", "Season 2010-2011"):
        assert english in html
    assert "Tarot-Bière World Championship" in html
    assert "The board" in html and "President" in html
    for french in ("Accueil", "Classement", "Connexion", "Saison 2010-2011", "Championnat du Monde"):
        assert french not in html


def test_the_home_page_stays_french_when_asked(client, season, president):
    response = client.get(reverse("federation:home"), headers={"accept-language": "fr"})
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="fr">' in html
    for french in ("Accueil", "Classement", "Connexion", "Saison 2010-2011", "Championnat du Monde"):
        assert french in html
    assert "Standings" not in html
    assert "World Championship" not in html


# The round pages a secretary uses on game night: (URL name, its arguments, English labels, the French ones).
ROUND_PAGES = [
    (
        "championship:round_list",
        lambda round_: [round_.season.name],
        ["New round", "Import a sheet", "Rounds of the 2010-2011 season", "You also see draft and submitted"],
        ["Nouvelle manche", "Importer une feuille", "Manches de la saison 2010-2011", "Vous voyez aussi"],
    ),
    (
        "championship:round_edit",
        lambda round_: [round_.pk],
        [
            "<h2>Deals</h2>",
            "<h2>Deal 5</h2>",
            "Save the deal",
            "Pot returned at the end",
            "<h2>Bonuses and penalties</h2>",
            "entered by",
            "Chip colours",
            "Submit for approval",
        ],
        [
            "<h2>Donnes</h2>",
            "<h2>Donne 5</h2>",
            "Enregistrer la donne",
            "Pot rendu à la fin",
            "<h2>Bonus et malus</h2>",
            "saisi par",
            "Couleurs des jetons",
            "Soumettre pour homologation",
        ],
    ),
    (
        "championship:round",
        lambda round_: [round_.pk],
        [
            "Enter / correct",
            "Download the sheet (JSON)",
            "<h2>The deals</h2>",
            '<th class="wide-only">Dealer</th><th class="wide-only">Taker</th>',
            "Round total",
            "<h2>History</h2>",
        ],
        [
            "Saisir / corriger",
            "Télécharger la feuille (JSON)",
            "<h2>Les donnes</h2>",
            '<th class="wide-only">Donneur</th><th class="wide-only">Preneur</th>',
            "Total de la manche",
            "<h2>Historique</h2>",
        ],
    ),
]


@pytest.fixture
def round_with_a_bonus(season, secretary):
    return make_round(season, adjustments=[("Émile", "retard", -1, "arrivé à 21h30")])


def get_as_secretary(client, secretary, name, args, language):
    client.force_login(secretary.user)
    response = client.get(reverse(name, args=args), headers={"accept-language": language})
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("name, args, english, french", ROUND_PAGES, ids=[page[0] for page in ROUND_PAGES])
def test_the_round_pages_speak_english_to_a_secretary_who_asks(
    client, secretary, round_with_a_bonus, name, args, english, french
):
    html = get_as_secretary(client, secretary, name, args(round_with_a_bonus), "en")
    assert '<html lang="en">' in html
    for label in english:
        assert label in html
    for label in french:
        assert label not in html


@pytest.mark.parametrize("name, args, english, french", ROUND_PAGES, ids=[page[0] for page in ROUND_PAGES])
def test_the_round_pages_stay_french_for_a_secretary_who_asks(
    client, secretary, round_with_a_bonus, name, args, english, french
):
    html = get_as_secretary(client, secretary, name, args(round_with_a_bonus), "fr")
    assert '<html lang="fr">' in html
    for label in french:
        assert label in html
    for label in english:
        assert label not in html


# The forms are built in Python: their labels and errors follow the visitor's language too.
ROUND_FORMS = {
    "en": {
        "labels": ['<label for="id_date">Date</label>', '<label for="id_place">Venue</label>', "Totals only"],
        "error": "Deal 5, points: a number is expected, for example 44.5",
    },
    "fr": {
        "labels": ['<label for="id_date">Date</label>', '<label for="id_place">Lieu</label>', "Totaux seuls"],
        "error": "Donne 5, points : un nombre est attendu, par exemple 44,5",
    },
}


@pytest.mark.parametrize("language, other", [("en", "fr"), ("fr", "en")])
def test_it_speaks_the_visitors_language_in_the_round_forms(
    client, secretary, round_with_a_bonus, language, other
):
    client.force_login(secretary.user)
    headers = {"accept-language": language}
    create = client.get(
        reverse("championship:round_create", args=[round_with_a_bonus.season.name]), headers=headers
    )
    assert create.status_code == 200
    html = create.content.decode()
    for label in ROUND_FORMS[language]["labels"]:
        assert label in html
    for label in ROUND_FORMS[other]["labels"][1:]:
        assert label not in html

    seats = [seat.player_id for seat in round_with_a_bonus.seats.order_by("position")]
    deal = {"kind": "played", "dealer": seats[4], "taker": seats[0], "contract": "garde", "called": "coeur"}
    deal |= {"partner": seats[1], "bouts": "2", "points": "beaucoup"}
    entry = reverse("championship:round_edit", args=[round_with_a_bonus.pk])
    response = client.post(entry, deal, headers=headers)
    assert response.status_code == 200
    html = response.content.decode()
    assert ROUND_FORMS[language]["error"] in html
    assert ROUND_FORMS[other]["error"] not in html
    assert round_with_a_bonus.deals.count() == 4
