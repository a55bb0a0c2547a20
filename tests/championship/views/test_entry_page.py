"""The entry page of a round: the live preview of a deal (scored, never stored), the paper check,
and what the page shows once the round is submitted."""

import uuid

import pytest
from django.templatetags.static import static
from django.urls import reverse

from championship.models import Deal, Round
from championship.rounds.display import round_display
from championship.services import RoundError, homologate_round, set_paper_totals, submit_round
from tests.factories import fifth_deal_data, make_round, player

HTMX = {"HTTP_HX_REQUEST": "true"}


def preview(client, round_, data):
    return client.post(reverse("championship:deal_preview", args=[round_.pk]), data, **HTMX)


# --- the preview ---------------------------------------------------------------------------------


def test_it_previews_the_deal_with_the_scoring_engine_and_stores_nothing(as_user, example):
    client = as_user("secretary")
    versions = (example.version, Deal.objects.count(), Deal.history.count())
    response = preview(client, example, fifth_deal_data(key=str(uuid.uuid4()), poignee_1="simple"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Aperçu de la donne 5" in html
    assert "Garde de Bruno avec Émile, faite de 8" in html and "Poignée simple de Bruno" in html
    example.refresh_from_db()
    assert (example.version, Deal.objects.count(), Deal.history.count()) == versions
    # The shares and totals shown are those that saving gives.
    client.post(
        reverse("championship:round_edit", args=[example.pk]),
        fifth_deal_data(key=str(uuid.uuid4()), poignee_1="simple"),
    )
    display = round_display(Round.objects.get(pk=example.pk))
    fifth = display.deals[4]
    for seat, share in zip(display.seats, fifth.shares, strict=True):
        assert f"{seat.name}</td>" in html
        assert f"{share:+d}".replace("-", "\u2212") in html
    for seat in display.seats:
        assert f'<td class="num">{seat.total}</td>'.replace("-", "\u2212") in html


def test_it_previews_the_correction_of_a_deal_and_stores_nothing(as_user, example):
    client = as_user("secretary")
    data = fifth_deal_data(dealer=player("Chloé").pk, taker=player("Alice").pk, contract="garde_sans")
    data.update(called="pique", partner="seul", bouts="1", points="52")

    def state():
        return example.version, list(Deal.objects.values_list("pk", "points", "shares")), Deal.history.count()

    before = state()
    url = reverse("championship:deal_correction_preview", args=[example.pk, 4])
    html = client.post(url, data, **HTMX).content.decode()
    assert "Aperçu de la donne 4" in html and "Garde sans d&#x27;Alice, sans partenaire, faite de 1" in html
    example.refresh_from_db()
    assert state() == before
    # what saving the correction gives is what the preview showed
    client.post(reverse("championship:deal_edit", args=[example.pk, 4]), data)
    display = round_display(Round.objects.get(pk=example.pk))
    for seat in display.seats:
        assert f'<td class="num">{seat.total}</td>'.replace("-", "\u2212") in html
    page = client.get(reverse("championship:deal_edit", args=[example.pk, 4])).content.decode()
    assert f'hx-post="{url}"' in page


def test_it_previews_a_correction_of_a_homologated_round_before_its_reason_is_typed(
    as_user, example, president
):
    homologate_round(example, president.user)
    data = fifth_deal_data(dealer=player("Chloé").pk, taker=player("Alice").pk, contract="garde_sans")
    data.update(called="pique", partner="seul", bouts="1", points="52")
    url = reverse("championship:deal_correction_preview", args=[example.pk, 4])
    html = as_user("president").post(url, data, **HTMX).content.decode()
    assert "Aperçu de la donne 4" in html and "Motif" not in html
    assert not example.history.filter(history_change_reason="aperçu").exists()


def test_it_says_what_is_missing_in_the_preview(as_user, example):
    response = preview(as_user("secretary"), example, fifth_deal_data(points=""))
    html = response.content.decode()
    assert "Aperçu :" in html and "les points du preneur sont obligatoires" in html
    assert "Aperçu de la donne" not in html


def test_it_previews_a_deal_in_few_queries(as_user, example, django_assert_max_num_queries):
    client = as_user("secretary")
    with django_assert_max_num_queries(8):
        response = preview(client, example, fifth_deal_data(key=str(uuid.uuid4())))
    assert "Aperçu de la donne 5" in response.content.decode()


def test_it_refuses_the_preview_to_a_player(as_user, example):
    assert preview(as_user("member"), example, fifth_deal_data()).status_code == 403


def test_the_entry_page_asks_for_a_preview_at_each_change(as_user, example):
    html = as_user("secretary").get(reverse("championship:round_edit", args=[example.pk])).content.decode()
    assert f'hx-post="{reverse("championship:deal_preview", args=[example.pk])}"' in html
    assert "Raccourcis clavier" in html and static("js/deal-keys.js") in html  # its versioned name


# --- after submitting ----------------------------------------------------------------------------


def test_it_offers_no_deal_form_once_submitted_and_shows_the_pot_paid_back(as_user, example):
    client = as_user("secretary")
    url = reverse("championship:round_edit", args=[example.pk])
    draft = client.get(url).content.decode()
    assert "Enregistrer la donne" in draft and "en jeu" in draft
    submit_round(example)
    submitted = client.get(url).content.decode()
    assert "Enregistrer la donne" not in submitted
    assert "plus de donne à saisir" in submitted
    assert "en jeu" not in submitted
    assert "Pot rendu à la fin" not in submitted


def test_it_asks_for_a_confirmation_before_submitting(as_user, example):
    html = as_user("secretary").get(reverse("championship:round_edit", args=[example.pk])).content.decode()
    confirm = html[html.index('<details class="confirm">') :]
    confirm = confirm[: confirm.index("</details>")]
    assert "Soumettre pour homologation…" in confirm and "Confirmer la soumission" in confirm
    assert reverse("championship:round_submit", args=[example.pk]) in confirm


def test_it_shows_a_rotation_warning_next_to_its_deal(as_user, season):
    deals = [
        {"dealer": "Alice", "kind": "passed"},
        {"dealer": "Alice", "kind": "passed"},  # Bruno was expected
    ]
    round_ = make_round(season, deals=deals)
    display = round_display(round_)
    assert display.deals[1].warning == "donneur attendu Bruno, inscrit Alice"
    html = as_user("secretary").get(reverse("championship:round_edit", args=[round_.pk])).content.decode()
    deal = html[html.index('id="donne-2"') :]
    deal = deal[: deal.index("</tbody>")]
    assert "Rotation des donneurs : donneur attendu Bruno, inscrit Alice" in deal


# --- the paper check -----------------------------------------------------------------------------


def paper_post(client, round_, totals, **extra):
    data = {f"paper-paper_{position}": total for position, total in enumerate(totals)}
    data.update(extra)
    return client.post(reverse("championship:paper_totals", args=[round_.pk]), data)


def test_it_stores_the_paper_totals_with_the_round_and_its_history(as_user, example, secretary):
    client = as_user("secretary")
    response = paper_post(client, example, [-650, 380, 50, 220, 0])
    assert response.status_code == 302
    example.refresh_from_db()
    ids = [seat.player_id for seat in example.seats.order_by("position")]
    assert example.paper_totals == dict(zip(map(str, ids), [-650, 380, 50, 220, 0], strict=True))
    record = example.history.latest()
    assert record.history_change_reason == "totaux de la feuille papier"
    assert record.history_user == secretary.user
    html = client.get(reverse("championship:round_edit", args=[example.pk])).content.decode()
    assert "concordent avec ceux du site" in html


def test_it_shows_each_gap_with_the_deals_that_could_explain_it(as_user, example):
    """The example's totals are −650, 380, 50, 220, 0; deal 1 (Bruno's Garde) gives −70, +140,
    −70, +70, −70. A paper sheet that counted it as lost (reversed) differs by twice its shares."""
    display = round_display(example)
    first = display.deals[0].shares
    paper = [total - 2 * share for total, share in zip(display.totals, first, strict=True)]
    set_paper_totals(example, dict(zip([s.player_id for s in display.seats], paper, strict=True)))
    check = round_display(Round.objects.get(pk=example.pk)).paper
    assert check.entered and not check.agrees
    assert [row.gap for row in check.rows] == [-2 * share for share in first]
    assert all(row.suspects[0] == 1 for row in check.rows if row.gap)
    html = as_user("secretary").get(reverse("championship:round_edit", args=[example.pk])).content.decode()
    assert "n'ont pas le même total sur la feuille et sur le site" in html
    assert '<a href="#donne-1">donne 1</a>' in html


def test_it_says_when_no_deal_explains_a_gap(example):
    display = round_display(example)
    paper = list(display.totals)
    paper[0] += 7  # an addition mistake on the paper sheet
    set_paper_totals(example, dict(zip([s.player_id for s in display.seats], paper, strict=True)))
    check = round_display(Round.objects.get(pk=example.pk)).paper
    assert [row.gap for row in check.rows] == [7, 0, 0, 0, 0]
    assert check.rows[0].suspects == () and check.paper_sum == 7


def test_it_refuses_paper_totals_missing_a_player(example):
    seats = list(example.seats.order_by("position"))
    with pytest.raises(RoundError) as refused:
        set_paper_totals(example, {seats[0].player_id: 10})
    assert refused.value.code == "paper"


def test_it_refuses_a_paper_total_that_is_not_a_number_naming_the_player(as_user, example):
    response = paper_post(as_user("secretary"), example, [-650, 380, "beaucoup", 220, 0])
    assert response.status_code == 200
    assert "Total de Chloé sur la feuille : un nombre entier est attendu." in response.content.decode()
    example.refresh_from_db()
    assert example.paper_totals == {}


def test_it_asks_the_board_for_a_motif_to_check_a_homologated_round(as_user, example, president):
    homologate_round(example, president.user)
    client = as_user("president")
    response = paper_post(client, example, [-650, 380, 50, 220, 0])
    assert response.status_code == 200 and "Motif" in response.content.decode()
    response = paper_post(client, example, [-650, 380, 50, 220, 0], **{"paper-motif": "feuille retrouvée"})
    assert response.status_code == 302
    example.refresh_from_db()
    assert example.paper_totals and example.history.latest().history_change_reason == "feuille retrouvée"


def test_the_round_page_partial_shows_the_check_to_the_official(example):
    from django.template.loader import render_to_string

    display = round_display(example)
    html = render_to_string("championship/rounds/_paper_check.html", {"display": display})
    assert "n'ont pas été saisis" in html and "<form" not in html
