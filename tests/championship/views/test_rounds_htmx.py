"""The entry page with htmx: the same views answer a fragment to swap in place when the request
comes from htmx (header HX-Request), and keep the full page POST + redirect flow otherwise."""

import re
from decimal import Decimal
from html import unescape

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse

from championship.models import Adjustment, Deal, Round
from tests.factories import EXAMPLE_DEALS, EXAMPLE_TOTALS, fifth_deal_data, make_round, player, round_totals

HTMX = {"HTTP_HX_REQUEST": "true"}
DEAL_5 = dict(
    dealer="David",
    taker="Bruno",
    contract="garde",
    called="coeur",
    partner="Émile",
    bouts=2,
    points=Decimal(49),
)


def entry_url(round_):
    return reverse("championship:round_edit", args=[round_.pk])


def scoreboard_total(html, name):
    match = re.search(
        rf'<span class="seat-name">{name}</span>\s*<strong class="seat-total[^"]*">([-−]?\d+)</strong>', html
    )
    return int(match.group(1).replace("\N{MINUS SIGN}", "-")) if match else None


# --- a deal -------------------------------------------------------------------------------------


def test_it_answers_a_saved_deal_with_the_updated_part_of_the_page(as_user, season, example):
    client = as_user("secretary")
    response = client.post(entry_url(example), fifth_deal_data(), **HTMX)
    assert response.status_code == 200
    html = response.content.decode()

    # A fragment to swap, not a page.
    assert html.lstrip().startswith('<div id="entry-live">')
    assert "<html" not in html and "site-header" not in html
    # The deal is stored and the round rescored, with the totals a sheet of those 5 deals gives.
    deal = example.deals.get(number=5)
    assert (deal.dealer.name, deal.taker.name, deal.points, deal.made) == ("David", "Bruno", 49, True)
    expected = round_totals(make_round(season, number=9, deals=[*EXAMPLE_DEALS, DEAL_5]))
    assert round_totals(example) == expected != EXAMPLE_TOTALS
    # The fragment shows them: scoreboard, the new deal highlighted in the grid, its summary.
    assert {name: scoreboard_total(html, name) for name in expected} == expected
    assert 'id="donne-5" class="deal highlight"' in html
    assert "Donne 5 enregistrée." in html
    assert response.context["last_deal"].number == 5
    # And a fresh form for deal 6, proposing the next dealer by rotation.
    assert "Donne 6" in html
    assert response.context["deal_form"]["dealer"].value() == player("Émile").pk
    assert 'name="points"' in html and 'value="49"' not in html
    # The address becomes the one the redirect gives without JS; the next deal's form comes to the
    # top of the screen (one deal, one screen: issue 34), the new deal highlighted in the grid.
    assert response["HX-Replace-Url"] == entry_url(example) + "?donne=5#donne-5"
    assert response["HX-Reswap"] == "outerHTML show:#saisie:top"


def test_it_leaves_no_stale_message_for_the_next_page_after_an_htmx_deal(as_user, example):
    client = as_user("secretary")
    client.post(entry_url(example), fifth_deal_data(), **HTMX)
    page = client.get(entry_url(example)).content.decode()
    assert "Donne 5 enregistrée." not in page
    assert 'id="donne-5" class="deal"' in page


def test_it_answers_a_refused_deal_with_the_form_and_its_errors_in_place(as_user, example):
    before = round_totals(example)
    response = as_user("secretary").post(entry_url(example), fifth_deal_data(points="90"), **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="card" id="saisie">')
    assert "<html" not in html and "donne-4" not in html
    assert "Donne 5 non enregistrée" in html
    assert "Donne 5, points : avec 2 bout(s), le preneur a entre 9 et 86,5 points" in html
    assert re.search(r'<div class="field field-points has-error">', html)
    assert 'value="90"' in html  # what was typed is kept
    assert f'hx-post="{entry_url(example)}"' in html  # the form still posts with htmx
    assert response["HX-Retarget"] == "#saisie"
    assert response["HX-Reswap"] == "outerHTML show:#saisie:top"
    assert "HX-Replace-Url" not in response
    assert not example.deals.filter(number=5).exists()
    assert round_totals(example) == before


def test_it_names_the_deal_and_the_field_of_a_four_player_partner_error_with_htmx(as_user, season, secretary):
    round_ = make_round(season, names=["Alice", "Bruno", "Chloé", "David"], deals=[])
    data = fifth_deal_data(dealer=player("Alice").pk, called="", partner=player("Chloé").pk)
    response = as_user("secretary").post(entry_url(round_), data, **HTMX)
    assert response.status_code == 200
    assert "Donne 1, appelé : pas d&#x27;appelé à 4 joueurs" in response.content.decode()
    assert not Deal.objects.filter(round=round_).exists()


def test_it_keeps_the_full_page_post_and_redirect_without_htmx(as_user, example):
    client = as_user("secretary")
    response = client.post(entry_url(example), fifth_deal_data())
    assert response.status_code == 302
    assert response.url == entry_url(example) + "?donne=5#donne-5"
    assert "HX-Replace-Url" not in response
    page = client.get(response.url).content.decode()
    assert "<html" in page and "Donne 5 enregistrée." in page
    refused = client.post(entry_url(example), fifth_deal_data(points="90"))
    assert refused.status_code == 200 and "<html" in refused.content.decode()
    assert "HX-Retarget" not in refused


def test_it_answers_the_full_page_to_an_htmx_get(as_user, example):
    """htmx asks for the whole page when it restores history it has not cached."""
    response = as_user("secretary").get(entry_url(example) + "?donne=4", **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" in html and 'id="donne-4" class="deal highlight"' in html


@pytest.mark.parametrize("status", [Round.DRAFT, Round.HOMOLOGATED])
@pytest.mark.parametrize(("who", "expected"), [("anonymous", 302), ("member", 403)])
def test_it_refuses_an_htmx_deal_to_those_who_do_not_enter_rounds(as_user, example, status, who, expected):
    Round.objects.filter(pk=example.pk).update(status=status)
    response = as_user(who).post(entry_url(example), fifth_deal_data(), **HTMX)
    assert response.status_code == expected
    if who == "anonymous":
        assert response.url.startswith(reverse("login"))
    assert not example.deals.filter(number=5).exists()
    assert round_totals(example) == EXAMPLE_TOTALS


def test_it_refuses_an_htmx_deal_to_the_secretary_once_homologated(as_user, example):
    Round.objects.filter(pk=example.pk).update(status=Round.HOMOLOGATED)
    response = as_user("secretary").post(entry_url(example), fifth_deal_data(), **HTMX)
    assert response.status_code == 403
    assert not example.deals.filter(number=5).exists()


def test_it_needs_the_board_motif_for_an_htmx_deal_of_a_homologated_round(as_user, example):
    Round.objects.filter(pk=example.pk).update(status=Round.HOMOLOGATED)
    client = as_user("president")
    refused = client.post(entry_url(example), fifth_deal_data(), **HTMX)
    assert refused.status_code == 200 and refused["HX-Retarget"] == "#saisie"
    assert "Motif : obligatoire pour modifier une manche homologuée." in refused.content.decode()
    assert not example.deals.filter(number=5).exists()
    saved = client.post(entry_url(example), fifth_deal_data(**{"motif": "donne oubliée"}), **HTMX)
    assert saved.status_code == 200 and "HX-Retarget" not in saved
    assert example.deals.filter(number=5).exists()


def test_it_has_no_htmx_deal_for_a_totals_only_round(as_user, season, secretary):
    round_ = make_round(
        season, totals={"Alice": 300, "Bruno": 50, "Chloé": -20, "David": -100, "Émile": -230}
    )
    response = as_user("secretary").post(entry_url(round_), fifth_deal_data(), **HTMX)
    assert response.status_code == 404


# --- bonuses and maluses ------------------------------------------------------------------------


def bonus_url(round_):
    return reverse("championship:adjustment_add", args=[round_.pk])


def test_it_answers_an_htmx_bonus_with_the_bonus_section(as_user, example, secretary):
    response = as_user("secretary").post(
        bonus_url(example),
        {"adj-player": player("Bruno").pk, "adj-code": "hote", "adj-note": "raclette"},
        **HTMX,
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="card" id="bonus">')
    assert "<html" not in html and "donne-1" not in html
    adjustment = example.adjustments.get(code="hote")
    assert (adjustment.points, adjustment.note, adjustment.entered_by) == (1, "raclette", secretary.user)
    assert '<p class="message success" role="status">Bruno : ' in html
    assert "raclette" in html and "arrivé à 21h30" in html  # the new one and the one before


def test_it_answers_a_refused_htmx_bonus_with_its_error(as_user, example):
    response = as_user("secretary").post(
        bonus_url(example), {"adj-player": player("Bruno").pk, "adj-code": "ethique"}, **HTMX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="card" id="bonus">')
    assert "» est réservé à la Direction." in html
    assert not example.adjustments.filter(code="ethique").exists()


def test_it_deletes_a_bonus_with_htmx(as_user, example):
    adjustment = example.adjustments.get()
    url = reverse("championship:adjustment_delete", args=[example.pk, adjustment.pk])
    response = as_user("secretary").post(url, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Bonus/malus d'Émile supprimé." in unescape(html) and "Aucun bonus ni malus." in html
    assert not Adjustment.objects.exists()


def test_it_shows_the_missing_motif_of_an_htmx_bonus_deletion_in_the_section(as_user, example):
    Round.objects.filter(pk=example.pk).update(status=Round.HOMOLOGATED)
    adjustment = example.adjustments.get()
    url = reverse("championship:adjustment_delete", args=[example.pk, adjustment.pk])
    client = as_user("president")
    response = client.post(url, **HTMX)
    assert response.status_code == 200
    assert (
        '<p class="message error" role="alert">Motif : obligatoire pour modifier une manche homologuée.</p>'
        in response.content.decode()
    )
    assert Adjustment.objects.exists()
    assert '<ul class="messages">' not in client.get(entry_url(example)).content.decode()  # nothing stale


@pytest.mark.parametrize(("who", "expected"), [("anonymous", 302), ("member", 403)])
def test_it_refuses_htmx_bonuses_to_those_who_do_not_enter_rounds(as_user, example, who, expected):
    client = as_user(who)
    adjustment = example.adjustments.get()
    add = client.post(bonus_url(example), {"adj-player": player("Bruno").pk, "adj-code": "hote"}, **HTMX)
    delete = client.post(reverse("championship:adjustment_delete", args=[example.pk, adjustment.pk]), **HTMX)
    assert (add.status_code, delete.status_code) == (expected, expected)
    assert list(example.adjustments.values_list("code", flat=True)) == ["retard"]


# --- the script ---------------------------------------------------------------------------------


def test_it_loads_the_vendored_htmx_on_the_entry_page_only(as_user, example):
    client = as_user("secretary")
    html = client.get(entry_url(example)).content.decode()
    # Under the manifest storage, as production names them: their versioned names.
    assert f'<script src="{static("js/htmx.min.js")}" defer></script>' in html
    assert f'<script src="{static("js/rounds-entry.js")}" defer></script>' in html
    assert "//unpkg" not in html and "cdn" not in html.lower()
    assert f'hx-post="{entry_url(example)}" hx-target="#entry-live"' in html
    assert f'action="{entry_url(example)}#saisie"' in html  # still a plain form without JS
    detail = client.get(reverse("championship:round", args=[example.pk])).content.decode()
    correction = client.get(reverse("championship:deal_edit", args=[example.pk, 1])).content.decode()
    assert "htmx" not in detail
    # the correction page loads it too, for the live preview of the corrected deal
    assert f'<script src="{static("js/htmx.min.js")}" defer></script>' in correction
    assert f'<script src="{static("js/rounds-entry.js")}" defer></script>' in correction
    htmx = finders.find("js/htmx.min.js")
    assert htmx
    with open(htmx, encoding="utf-8") as script:
        assert "htmx.org 2.0.11" in script.readline()
