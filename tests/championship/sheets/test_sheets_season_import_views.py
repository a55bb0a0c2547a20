"""Past seasons from a totals table on the site (docs/feuille.md §9): « Importer une saison
passée », for the board and superusers; a preview that stores nothing, then the import of exactly
the previewed file, carried back signed."""

import html
import re

import pytest
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from championship.models import Round
from federation.models import Official, Season
from scoring import french
from tests.championship.sheets.test_sheets_season_import import (
    PLAYERS,
    assert_stored_as_homologated,
    csv_table,
    model_counts,
    root,  # noqa: F401  (a fixture: the players of the table and a superuser)
    season_rows,
    xlsx_table,
)

URL = "/saisons/importer/"


def upload(name, data):
    return SimpleUploadedFile(name, data)


def preview(client, data, name="saison.xlsx", season="2005-2006", **options):
    fields = {"action": "preview", "season": season, "table": upload(name, data)}
    fields.update({key: "on" for key, value in options.items() if value})
    return client.post(URL, fields)


def token_of(response):
    match = re.search(r'name="token" value="([^"]+)"', page(response))
    assert match, "no confirmation form in the preview"
    return match.group(1)


def page(response):
    """The page's HTML with its entities read (« n'a », a no-break space as \\xa0)."""
    return html.unescape(response.content.decode())


def rows_2010(count=3):
    return csv_table(season_rows(count)).replace(b"/2005", b"/2010").replace(b"/2006", b"/2011")


def test_it_is_the_page_of_the_board_and_superusers(client, root, season, president, secretary, member):  # noqa: F811
    assert reverse("championship:season_import") == URL
    response = client.get(URL)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    for plain in (member, secretary):
        client.force_login(plain.user)
        assert client.get(URL).status_code == 403
        assert preview(client, xlsx_table(season_rows(3))).status_code == 403
    for official in (president.user, root):
        client.force_login(official)
        response = client.get(URL)
        assert response.status_code == 200
        assert "Importer une saison passée" in page(response)
        assert 'name="homologate"' in page(response)


def test_it_is_linked_from_the_round_import_page_for_the_board_only(client, season, president, secretary):
    client.force_login(secretary.user)
    assert URL not in client.get(reverse("championship:round_import")).content.decode()
    client.force_login(president.user)
    assert f'href="{URL}"' in client.get(reverse("championship:round_import")).content.decode()


def test_the_preview_lists_the_rounds_and_stores_nothing(client, root):  # noqa: F811
    client.force_login(root)
    rows = season_rows()
    counts = model_counts()
    response = preview(client, xlsx_table(rows), create_players=True)
    assert model_counts() == counts
    assert response.status_code == 200
    text = page(response)
    assert "Saison 2005-2006\xa0: le tableau est correct, 30 manches à importer." in text
    assert "La saison 2005-2006, nouvelle" in text
    assert "Aucun joueur à inscrire." in text
    assert "Les manches seront enregistrées en brouillon." in text
    body = text[text.index("<tbody>") : text.index("</tbody>")]
    lines = body.split("<tr>")[1:]
    assert len(lines) == 30
    date, place, totals = rows[6]
    line = re.sub(r"<[^>]+>", "|", lines[6])
    assert "|7|" in line and f"|{date:%d/%m/%Y}|" in line and f"|{place}|" in line and "|brouillon|" in line
    # in the order of the table's columns
    shown = [f"{name}\xa0{french.signed(totals[name])}" for name in PLAYERS if name in totals]
    assert re.findall(r"\|([^|]+\xa0[^|]+)\|", line) == shown
    assert not Season.objects.filter(name="2005-2006").exists()


def test_the_preview_names_the_players_it_would_register(client, root):  # noqa: F811
    client.force_login(root)
    table = csv_table(season_rows(4)).replace("Hélène".encode(), "Irène".encode())
    counts = model_counts()
    response = preview(client, table, name="saison.csv", create_players=True)
    assert model_counts() == counts
    assert "Un joueur à inscrire\xa0: Irène." in page(response)
    response = preview(client, table, name="saison.csv")
    assert response.status_code == 200
    assert "Tableau refusé : rien n'a été enregistré" in page(response)
    assert "Irène" in page(response)
    assert 'name="token"' not in page(response)


@pytest.mark.parametrize("table", [xlsx_table, csv_table])
def test_the_confirmation_imports_the_thirty_previewed_rounds(client, root, table):  # noqa: F811
    client.force_login(root)
    rows = season_rows()
    name = "saison.xlsx" if table is xlsx_table else "saison.csv"
    token = token_of(preview(client, table(rows), name=name, homologate=True))
    response = client.post(URL, {"action": "confirm", "token": token}, follow=True)
    assert response.redirect_chain[-1][0] == "/saisons/2005-2006/"
    assert "Saison 2005-2006 : 30 manches importées et homologuées." in page(response)
    season = assert_stored_as_homologated(rows, root)
    assert season.rulebook.reports.late_malus_per_week == 0
    # the same confirmation again (a second click): refused, nothing more stored; without a
    # « Manche » column the rounds would follow as 31 to 60, which is not what the preview showed
    counts = model_counts()
    response = client.post(URL, {"action": "confirm", "token": token})
    assert response.status_code == 200 and model_counts() == counts
    assert "Tableau refusé" in page(response)
    if table is xlsx_table:
        assert "l'import ne créerait plus ce que montrait l'aperçu" in page(response)
    else:
        assert "ligne 2, colonne Manche</strong>\xa0: la manche 1 de la saison 2005-2006 existe déjà" in page(
            response
        )


def test_a_broken_table_is_refused_naming_its_cells_and_stores_nothing(client, root):  # noqa: F811
    client.force_login(root)
    rows = season_rows(5)
    date, place, totals = rows[2]
    totals[next(iter(totals))] += 10  # line 4: the totals no longer cancel out
    counts = model_counts()
    response = preview(client, xlsx_table(rows))
    assert model_counts() == counts
    text = page(response)
    assert response.status_code == 200
    assert 'name="token"' not in text
    assert "Tableau refusé : rien n'a été enregistré" in text
    assert (
        '<strong class="where">saison.xlsx, feuille Saison 2005, ligne 4</strong>\xa0: '
        "les totaux doivent s'annuler (leur somme fait 10)" in text
    )


def test_a_season_name_and_a_file_are_checked_on_the_form(client, root, settings):  # noqa: F811
    client.force_login(root)
    counts = model_counts()
    response = preview(client, xlsx_table(season_rows(3)), season="2005-2007")
    assert "Une saison va d'une année à la suivante" in page(response)
    response = preview(client, xlsx_table(season_rows(3)), season="saison")
    assert "Le nom d'une saison s'écrit « 2010-2011 »." in page(response)
    response = preview(client, b"x" * 1_000_001, name="saison.csv")
    assert "Fichier trop gros pour un tableau de totaux (1000001 octets, 1000000 au plus)." in (
        page(response)
    )
    assert model_counts() == counts


def test_a_tampered_confirmation_is_refused(client, root, president):  # noqa: F811
    client.force_login(root)
    token = token_of(preview(client, xlsx_table(season_rows(3))))
    payload = signing.loads(token, salt="championship.season_import")
    counts = model_counts()
    forged = [
        token[:-3] + ("AAA" if token[-3:] != "AAA" else "BBB"),  # the signature altered
        signing.dumps({**payload, "homologate": True}, salt="another", compress=True),  # signed elsewhere
        signing.dumps({**payload, "homologate": True}, key="not-the-key", salt="championship.season_import"),
        "",
    ]
    for token_ in forged:
        response = client.post(URL, {"action": "confirm", "token": token_})
        assert response.status_code == 200
        assert "Aperçu périmé ou altéré : déposez le tableau de nouveau." in page(response)
    # a genuine confirmation is good for whoever previewed, not for another official
    client.force_login(president.user)
    response = client.post(URL, {"action": "confirm", "token": token})
    assert "Aperçu périmé ou altéré" in page(response)
    assert model_counts() == counts


def test_the_board_imports_into_its_season_and_creates_none(client, root, season, president, secretary):  # noqa: F811
    """The rule of ``import_season --by``: a season the import creates only by a superuser; an
    existing one by its secretary and board, homologated by its board."""
    client.force_login(president.user)
    counts = model_counts()
    response = preview(client, xlsx_table(season_rows(3)))
    assert "La saison 2005-2006 n'existe pas : seul un administrateur peut la créer par un import." in page(
        response
    )
    assert model_counts() == counts
    response = preview(client, rows_2010(), name="saison.csv", season="2010-2011", homologate=True)
    assert "Les manches s'ajoutent à la saison 2010-2011, qui existe déjà." in page(response)
    response = client.post(URL, {"action": "confirm", "token": token_of(response)})
    assert response.status_code == 302 and response.url == "/saisons/2010-2011/"
    assert season.rounds.filter(status=Round.HOMOLOGATED, homologated_by=president.user).count() == 3


def test_a_confirmation_checks_the_rights_again(client, root, season, president):  # noqa: F811
    client.force_login(president.user)
    token = token_of(preview(client, rows_2010(), name="saison.csv", season="2010-2011", homologate=True))
    # between the preview and the confirmation, he leaves the board of 2010-2011 for the next one's
    later = Season.objects.create(name="2011-2012", start_date="2011-09-01", end_date="2012-06-30")
    Official.objects.filter(season=season).update(season=later)
    response = client.post(URL, {"action": "confirm", "token": token})
    assert response.status_code == 200
    assert "Seuls le secrétaire et la Direction de la saison 2010-2011 importent ses manches." in (
        page(response)
    )
    assert not Round.objects.exists()
