"""The round pages through the test client: permissions on every view, entry, lifecycle, history."""

import pytest
from django.urls import reverse

from championship.models import Adjustment, ChampionshipLine, Deal, Round, Seat
from tests.factories import (
    COLOURS,
    EXAMPLE_DEALS,
    EXAMPLE_TOTALS,
    fifth_deal_data,
    make_round,
    player,
    round_totals,
)

USERS = ["anonymous", "member", "secretary", "president"]


def colours_data(**changes):
    data = {f"seats-colour_{position}": colour for position, colour in enumerate(COLOURS)}
    data.update(changes)
    return data


# --- permissions ---------------------------------------------------------------------------------

ENTRY_VIEWS = [
    # name, method, args(round_), data, expected success status
    ("round_edit", "get", lambda r: [r.pk], None, 200),
    ("deal_edit", "get", lambda r: [r.pk, 1], None, 200),
    ("deal_edit", "post", lambda r: [r.pk, 1], lambda: fifth_deal_data(dealer=player("Alice").pk), 302),
    ("round_edit", "post", lambda r: [r.pk], fifth_deal_data, 302),
    ("deal_delete", "post", lambda r: [r.pk, 2], dict, 302),
    (
        "adjustment_add",
        "post",
        lambda r: [r.pk],
        lambda: {"adj-player": player("Alice").pk, "adj-code": "hote"},
        302,
    ),
    ("adjustment_delete", "post", lambda r: [r.pk, r.adjustments.get().pk], dict, 302),
    ("seat_colours", "post", lambda r: [r.pk], lambda: colours_data(**{"seats-colour_0": ""}), 302),
    ("round_submit", "post", lambda r: [r.pk], dict, 302),
    ("round_reopen", "post", lambda r: [r.pk], dict, 302),
]


def history_size():
    return sum(model.history.count() for model in (Round, Seat, Deal, Adjustment))


def call(client, name, method, args, data, round_):
    url = reverse(f"championship:{name}", args=args(round_))
    if method == "get":
        return client.get(url)
    return client.post(url, data() if data else {})


@pytest.mark.parametrize(("name", "method", "args", "data", "success"), ENTRY_VIEWS)
@pytest.mark.parametrize("who", USERS)
def test_it_lets_only_the_secretary_and_the_board_enter_a_round(
    as_user, example, who, name, method, args, data, success
):
    client = as_user(who)
    before = history_size()
    response = call(client, name, method, args, data, example)
    expected = {"anonymous": 302, "member": 403}.get(who, success)
    assert response.status_code == expected
    if who == "anonymous":
        assert response.url.startswith(reverse("login"))
    if who in ("anonymous", "member"):
        assert history_size() == before


@pytest.mark.parametrize(("name", "method", "args", "data", "success"), ENTRY_VIEWS)
@pytest.mark.parametrize("who", USERS)
def test_it_lets_only_the_board_change_a_homologated_round(
    as_user, example, who, name, method, args, data, success
):
    Round.objects.filter(pk=example.pk).update(status=Round.HOMOLOGATED)
    client = as_user(who)
    before = history_size()
    response = call(client, name, method, args, data, example)
    expected = {"anonymous": 302, "member": 403, "secretary": 403}.get(who)
    if expected:
        assert response.status_code == expected
        assert history_size() == before
    else:
        # The board reaches every form; changes without a motif are refused (see the lifecycle tests).
        assert response.status_code in (200, 302)


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize(
    ("who", "expected"), [("anonymous", 302), ("member", 403), ("secretary", 200), ("president", 200)]
)
def test_it_lets_only_the_secretary_and_the_board_create_a_round(
    as_user, season, president, secretary, method, who, expected
):
    client = as_user(who)
    url = reverse("championship:round_create", args=[season.name])
    response = client.get(url) if method == "get" else client.post(url, {})
    assert response.status_code == expected


def test_it_answers_404_for_an_unknown_season(as_user, secretary):
    assert (
        as_user("secretary").get(reverse("championship:round_create", args=["1999-2000"])).status_code == 404
    )
    assert as_user("anonymous").get(reverse("championship:round_list", args=["1999-2000"])).status_code == 404


@pytest.mark.parametrize(
    ("who", "expected"), [("anonymous", 302), ("member", 403), ("secretary", 403), ("president", 302)]
)
def test_it_lets_only_the_board_homologate(as_user, example, who, expected):
    submitted = Round.objects.filter(pk=example.pk)
    submitted.update(status=Round.SUBMITTED)
    response = as_user(who).post(reverse("championship:round_homologate", args=[example.pk]))
    assert response.status_code == expected
    assert submitted.get().is_homologated is (who == "president")


@pytest.mark.parametrize(
    ("who", "expected"), [("anonymous", 404), ("member", 404), ("secretary", 200), ("president", 200)]
)
def test_it_hides_a_round_that_is_not_homologated(as_user, example, who, expected):
    assert as_user(who).get(reverse("championship:round", args=[example.pk])).status_code == expected


@pytest.mark.parametrize("who", USERS)
def test_it_shows_a_homologated_round_to_anyone(as_user, example, who):
    Round.objects.filter(pk=example.pk).update(status=Round.HOMOLOGATED)
    response = as_user(who).get(reverse("championship:round", args=[example.pk]))
    assert response.status_code == 200
    assert ("Corriger (Direction)" in response.content.decode()) is (who == "president")


def test_it_links_the_round_page_to_its_report_its_pdf_and_its_sheet(as_user, example):
    Round.objects.filter(pk=example.pk).update(status=Round.HOMOLOGATED)
    html = as_user("anonymous").get(reverse("championship:round", args=[example.pk])).content.decode()
    for name in ("championship:report", "championship:report_pdf", "championship:round_export"):
        assert f'href="{reverse(name, args=[example.pk])}"' in html


@pytest.mark.parametrize("who", USERS)
def test_it_lists_homologated_rounds_to_anyone_and_drafts_to_those_who_enter_them(
    as_user, season, example, who
):
    make_round(season, number=2, status=Round.HOMOLOGATED, place="Au Bar des Sports")
    response = as_user(who).get(reverse("championship:round_list", args=[season.name]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Au Bar des Sports" in html
    enters = who in ("secretary", "president")
    assert ("Chez Steph" in html) is enters
    assert ("Nouvelle manche" in html) is enters


@pytest.mark.parametrize(
    "name",
    ["deal_delete", "adjustment_add", "seat_colours", "round_submit", "round_reopen"],
)
def test_it_refuses_get_on_actions(as_user, example, name):
    args = [example.pk, 2] if name == "deal_delete" else [example.pk]
    assert as_user("president").get(reverse(f"championship:{name}", args=args)).status_code == 405


# --- creating a round ----------------------------------------------------------------------------


def test_it_creates_a_round_from_the_phone_form_and_opens_its_entry_page(as_user, season, secretary):
    data = {"date": "2010-11-26", "place": "Chez Bruno", "stage": "regular", "number": ""}
    for row, name in enumerate(["Alice", "Bruno", "Chloé", "David"], start=1):
        data[f"player_{row}"] = player(name).pk
        data[f"colour_{row}"] = COLOURS[row - 1]
    response = as_user("secretary").post(reverse("championship:round_create", args=[season.name]), data)
    round_ = Round.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("championship:round_edit", args=[round_.pk])
    assert round_.seats.count() == 4
    page = as_user("secretary").get(response.url).content.decode()
    assert "Donne 1" in page
    assert 'name="partner"' in page and 'type="hidden" name="partner"' in page


def test_it_shows_the_creation_errors_on_the_page(as_user, season, secretary):
    data = {"date": "2010-11-26", "stage": "regular", "totals_only": "on"}
    for row, (name, total) in enumerate([("Alice", 100), ("Bruno", 0), ("Chloé", 0), ("David", 0)], start=1):
        data[f"player_{row}"] = player(name).pk
        data[f"total_{row}"] = total
    response = as_user("secretary").post(reverse("championship:round_create", args=[season.name]), data)
    assert response.status_code == 200
    assert (
        "Totaux : ils doivent s&#x27;annuler, or leur somme fait 100 (et non 0)." in response.content.decode()
    )
    assert not Round.objects.exists()


# --- entering deals ------------------------------------------------------------------------------


def test_it_saves_the_next_deal_and_highlights_it(as_user, example):
    client = as_user("secretary")
    response = client.post(
        reverse("championship:round_edit", args=[example.pk]), fifth_deal_data(points="44,5")
    )
    assert response.status_code == 302
    assert response.url == reverse("championship:round_edit", args=[example.pk]) + "?donne=5#donne-5"
    deal = example.deals.get(number=5)
    assert deal.points == 44.5 and deal.made is True
    page = client.get(response.url)
    html = page.content.decode()
    assert "Donne 5 enregistrée." in html
    assert 'id="donne-5" class="deal highlight"' in html
    assert page.context["last_deal"].pot_after == deal.pot_after == 0
    assert "Donne 6" in html
    assert sum(round_totals(example).values()) == 0


def test_it_shows_the_deal_errors_next_to_their_fields(as_user, example):
    response = as_user("secretary").post(
        reverse("championship:round_edit", args=[example.pk]), fifth_deal_data(bouts="2", points="90")
    )
    assert response.status_code == 200
    assert (
        "Donne 5, points : avec 2 bout(s), le preneur a entre 9 et 86,5 points" in response.content.decode()
    )
    assert not example.deals.filter(number=5).exists()


def test_it_shows_a_partner_error_at_four_players(as_user, season, secretary):
    round_ = make_round(season, names=["Alice", "Bruno", "Chloé", "David"], deals=[])
    data = fifth_deal_data(dealer=player("Alice").pk, called="", partner=player("Chloé").pk)
    response = as_user("secretary").post(reverse("championship:round_edit", args=[round_.pk]), data)
    assert "Donne 1, appelé : pas d&#x27;appelé à 4 joueurs" in response.content.decode()


def test_it_corrects_a_deal_of_a_submitted_round(as_user, example):
    Round.objects.filter(pk=example.pk).update(status=Round.SUBMITTED)
    data = fifth_deal_data(dealer=player("Chloé").pk, taker=player("Alice").pk, contract="garde_sans")
    data.update(called="pique", partner="seul", bouts="1", points="52")
    response = as_user("secretary").post(reverse("championship:deal_edit", args=[example.pk, 4]), data)
    assert response.status_code == 302
    assert example.deals.get(number=4).made is True
    assert round_totals(example) != EXAMPLE_TOTALS
    assert sum(round_totals(example).values()) == 0


def test_it_deletes_a_deal_renumbers_the_next_ones_and_rescores(as_user, season, example):
    response = as_user("secretary").post(reverse("championship:deal_delete", args=[example.pk, 1]))
    assert response.status_code == 302
    assert list(example.deals.values_list("number", "kind")) == [(1, "passed"), (2, "misdeal"), (3, "played")]
    expected = make_round(season, number=9, deals=EXAMPLE_DEALS[1:])
    assert round_totals(example) == round_totals(expected)
    assert round_totals(example) != EXAMPLE_TOTALS


def test_it_has_no_deal_form_for_a_totals_only_round(as_user, season, secretary):
    round_ = make_round(
        season, totals={"Alice": 300, "Bruno": 50, "Chloé": -20, "David": -100, "Émile": -230}
    )
    client = as_user("secretary")
    page = client.get(reverse("championship:round_edit", args=[round_.pk]))
    assert page.context["deal_form"] is None
    assert (
        client.post(reverse("championship:round_edit", args=[round_.pk]), fifth_deal_data()).status_code
        == 404
    )


# --- bonuses, maluses, colours -------------------------------------------------------------------


def test_it_records_who_entered_a_bonus(as_user, example, secretary):
    response = as_user("secretary").post(
        reverse("championship:adjustment_add", args=[example.pk]),
        {"adj-player": player("Bruno").pk, "adj-code": "hote", "adj-note": "raclette"},
    )
    assert response.status_code == 302
    adjustment = example.adjustments.get(code="hote")
    assert (adjustment.points, adjustment.note, adjustment.entered_by) == (1, "raclette", secretary.user)


def test_it_lets_the_board_set_custom_points_and_board_only_maluses(as_user, example):
    as_user("president").post(
        reverse("championship:adjustment_add", args=[example.pk]),
        {"adj-player": player("Bruno").pk, "adj-code": "ethique", "adj-points": "-5"},
    )
    assert example.adjustments.get(code="ethique").points == -5


def test_it_shows_the_bonus_errors_to_a_secretary(as_user, example):
    response = as_user("secretary").post(
        reverse("championship:adjustment_add", args=[example.pk]),
        {"adj-player": player("Bruno").pk, "adj-code": "ethique"},
    )
    assert response.status_code == 200
    assert "est réservé à la Direction" in response.content.decode()
    assert not example.adjustments.filter(code="ethique").exists()


def test_it_deletes_a_bonus(as_user, example):
    adjustment = example.adjustments.get()
    as_user("secretary").post(reverse("championship:adjustment_delete", args=[example.pk, adjustment.pk]))
    assert not Adjustment.objects.exists()


def test_it_changes_the_seat_colours(as_user, example):
    response = as_user("secretary").post(
        reverse("championship:seat_colours", args=[example.pk]),
        colours_data(**{"seats-colour_0": "jaune", "seats-colour_1": "blanc"}),
    )
    assert response.status_code == 302
    assert list(example.seats.values_list("colour", flat=True))[:2] == ["jaune", "blanc"]


def test_it_shows_a_colour_error_on_the_entry_page(as_user, example):
    response = as_user("secretary").post(
        reverse("championship:seat_colours", args=[example.pk]), colours_data(**{"seats-colour_1": "blanc"})
    )
    assert response.status_code == 200
    assert "Couleur de Bruno : les jetons blancs sont déjà à Alice." in response.content.decode()


# --- lifecycle -----------------------------------------------------------------------------------


def test_it_refuses_to_submit_a_round_without_deals(as_user, season, secretary):
    round_ = make_round(season, deals=[])
    response = as_user("secretary").post(reverse("championship:round_submit", args=[round_.pk]), follow=True)
    assert "Aucune donne n&#x27;est saisie." in response.content.decode()
    round_.refresh_from_db()
    assert round_.status == Round.DRAFT


def test_it_submits_reopens_and_homologates(as_user, example):
    client = as_user("secretary")
    client.post(reverse("championship:round_submit", args=[example.pk]))
    assert Round.objects.get(pk=example.pk).status == Round.SUBMITTED
    client.post(reverse("championship:round_reopen", args=[example.pk]))
    assert Round.objects.get(pk=example.pk).status == Round.DRAFT
    client.post(reverse("championship:round_submit", args=[example.pk]))
    response = as_user("president").post(
        reverse("championship:round_homologate", args=[example.pk]), follow=True
    )
    assert "Manche homologuée." in response.content.decode()
    assert Round.objects.get(pk=example.pk).is_homologated
    assert ChampionshipLine.objects.filter(round=example).exists()
    points = {row.name: row.championship_points for row in response.context["display"].ranking}
    assert points == {"Bruno": 11, "David": 8, "Chloé": 6, "Émile": 3, "Alice": 1}


def test_it_refuses_to_reopen_a_draft(as_user, example):
    response = as_user("secretary").post(reverse("championship:round_reopen", args=[example.pk]), follow=True)
    assert "Seule une manche soumise peut revenir en brouillon." in response.content.decode()


@pytest.fixture
def homologated(example, president):
    from championship.services import homologate_round

    homologate_round(example, president.user)
    return example


def correction(**changes):
    data = fifth_deal_data(dealer=player("Chloé").pk, taker=player("Alice").pk, contract="garde_sans")
    data.update(called="pique", partner="seul", bouts="1", points="52")
    data.update(changes)
    return data


def test_it_refuses_a_board_correction_without_a_motif(as_user, homologated):
    response = as_user("president").post(
        reverse("championship:deal_edit", args=[homologated.pk, 4]), correction()
    )
    assert response.status_code == 200
    assert "Motif : obligatoire pour modifier une manche homologuée." in response.content.decode()
    assert homologated.deals.get(number=4).points == 44.5
    assert round_totals(homologated) == EXAMPLE_TOTALS


def test_it_records_a_board_correction_with_its_motif_and_rescores_at_once(as_user, homologated, president):
    client = as_user("president")
    lines_before = set(ChampionshipLine.objects.values_list("player__name", "code", "points"))
    response = client.post(
        reverse("championship:deal_edit", args=[homologated.pk, 4]), correction(motif="feuille mal recopiée")
    )
    assert response.status_code == 302
    deal = homologated.deals.get(number=4)
    assert deal.points == 52
    record = deal.history.order_by("-history_date", "-history_id").first()
    assert record.history_change_reason == "feuille mal recopiée"
    assert record.history_user == president.user
    totals = round_totals(homologated)
    assert totals["Alice"] > 0 and sum(totals.values()) == 0
    assert set(ChampionshipLine.objects.values_list("player__name", "code", "points")) != lines_before
    page = client.get(reverse("championship:round", args=[homologated.pk])).content.decode()
    assert "feuille mal recopiée" in page
    assert "Donne 4 : points du preneur 44,5 → 52" in page
    assert "Totaux : Alice −650 → " in page


def test_it_refuses_a_board_deletion_without_a_motif_and_records_it_with_one(as_user, homologated):
    client = as_user("president")
    url = reverse("championship:deal_delete", args=[homologated.pk, 2])
    response = client.post(url)
    assert response.status_code == 200
    assert "Motif : obligatoire" in response.content.decode()
    assert homologated.deals.count() == 4
    client.post(url, {"del-motif": "donne en double"})
    assert homologated.deals.count() == 3
    page = client.get(reverse("championship:round", args=[homologated.pk])).content.decode()
    assert "donne en double" in page and "Donne 2 supprimée" in page


def test_it_needs_a_motif_for_bonuses_and_colours_of_a_homologated_round(as_user, homologated):
    client = as_user("president")
    adjustment = homologated.adjustments.get()
    client.post(reverse("championship:adjustment_delete", args=[homologated.pk, adjustment.pk]))
    assert Adjustment.objects.filter(pk=adjustment.pk).exists()
    client.post(
        reverse("championship:adjustment_delete", args=[homologated.pk, adjustment.pk]),
        {"del-motif": "excusé"},
    )
    assert not Adjustment.objects.filter(pk=adjustment.pk).exists()
    assert not ChampionshipLine.objects.filter(code="retard").exists()
    add = {"adj-player": player("Alice").pk, "adj-code": "fair_play"}
    client.post(reverse("championship:adjustment_add", args=[homologated.pk]), add)
    assert not homologated.adjustments.exists()
    client.post(reverse("championship:adjustment_add", args=[homologated.pk]), {**add, "adj-motif": "oubli"})
    assert ChampionshipLine.objects.filter(code="fair_play", player__name="Alice").exists()
    swap = colours_data(**{"seats-colour_0": "jaune", "seats-colour_1": "blanc"})
    response = client.post(reverse("championship:seat_colours", args=[homologated.pk]), swap)
    assert "Motif : obligatoire" in response.content.decode()
    client.post(
        reverse("championship:seat_colours", args=[homologated.pk]), {**swap, "seats-motif": "inversion"}
    )
    assert homologated.seats.get(position=0).colour == "jaune"


# --- the round page ------------------------------------------------------------------------------


def test_it_shows_the_example_sheet_totals_and_ranking(as_user, example):
    response = as_user("secretary").get(reverse("championship:round", args=[example.pk]))
    display = response.context["display"]
    assert dict(zip((seat.name for seat in display.seats), display.totals, strict=True)) == EXAMPLE_TOTALS
    assert [row.name for row in display.ranking] == ["Bruno", "David", "Chloé", "Émile", "Alice"]
    html = response.content.decode()
    for total in ("−650", "380", "50", "220"):
        assert f">{total}</span>" in html
    assert 'id="donne-4"' in html
    assert '<details class="explain">' in html
    assert "Base (25 + 8) × 2" in html
    assert "Pot rendu à la fin" in html
    assert "arrivé à 21h30" in html
    assert reverse("championship:round_export", args=[example.pk]) in html


def test_it_shows_dealer_rotation_warnings(as_user, season, secretary):
    deals = [{"dealer": "Alice", "kind": "passed"}, {"dealer": "Chloé", "kind": "passed"}]
    round_ = make_round(season, deals=deals)
    html = as_user("secretary").get(reverse("championship:round", args=[round_.pk])).content.decode()
    assert "donne 2 : donneur attendu Bruno, inscrit Chloé" in html


def test_it_shows_a_totals_only_round_without_deals(as_user, season, secretary):
    totals = {"Alice": 300, "Bruno": 50, "Chloé": -20, "David": -100, "Émile": -230}
    round_ = make_round(season, totals=totals, status=Round.HOMOLOGATED)
    html = as_user("anonymous").get(reverse("championship:round", args=[round_.pk])).content.decode()
    assert "totaux seuls" in html
    assert "Les donnes" not in html
    assert ">−230</span>" in html


def test_it_links_the_round_pages_together(as_user, example):
    client = as_user("secretary")
    entry = client.get(reverse("championship:round_edit", args=[example.pk])).content.decode()
    assert reverse("championship:round", args=[example.pk]) in entry
    assert reverse("championship:deal_edit", args=[example.pk, 3]) in entry
    page = client.get(reverse("championship:round", args=[example.pk])).content.decode()
    assert reverse("championship:round_edit", args=[example.pk]) in page
    assert reverse("championship:round_list", args=[example.season.name]) in page
