"""The entry pages on the services: a form read at an older version is refused with the other
change shown, a form sent twice stores once."""

import datetime
import uuid

from django.urls import reverse

from championship import services
from championship.models import Deal, Report, Round
from championship.rounds import data as round_data
from tests.factories import fifth_deal_data, make_round, player


def deal_fields(deal, **changes):
    return {**{name: getattr(deal, name) for name in round_data.DEAL_FIELDS}, **changes}


def test_a_deal_correction_read_before_another_is_refused_with_the_other_change(client, season, secretary):
    round_ = make_round(season)
    deal = round_.deals.get(number=4)
    client.force_login(secretary.user)
    url = reverse("championship:deal_edit", args=[round_.pk, 4])
    read_at = round_.version
    assert f'name="version" value="{read_at}"' in client.get(url).content.decode()
    services.change_deal(deal, deal_fields(deal, points=52), user=secretary.user)  # another browser
    data = {
        "version": read_at,
        "kind": "played",
        "dealer": player("Chloé").pk,
        "taker": player("Alice").pk,
        "contract": "garde_sans",
        "called": "pique",
        "partner": "seul",
        "bouts": "1",
        "points": "60",
    }
    response = client.post(url, data, follow=True)
    text = response.content.decode()
    assert "La manche a été modifiée pendant que vous la lisiez : donne 4 modifiée par Secrétaire" in text
    assert Deal.objects.get(pk=deal.pk).points == 52


def test_the_same_deal_posted_twice_is_stored_once(client, season, secretary):
    round_ = make_round(season)
    client.force_login(secretary.user)
    url = reverse("championship:round_edit", args=[round_.pk])
    assert 'name="key"' in client.get(url).content.decode()
    data = fifth_deal_data(key=str(uuid.uuid4()))
    assert client.post(url, data).status_code == 302
    assert client.post(url, data).status_code == 302
    assert client.post(url, data, headers={"HX-Request": "true"}).status_code == 200
    assert round_.deals.count() == 5


def test_the_same_new_round_posted_twice_is_created_once(client, season, secretary):
    client.force_login(secretary.user)
    data = {"date": "2010-11-19", "stage": "regular", "key": str(uuid.uuid4())}
    for row, name in enumerate(["Alice", "Bruno", "Chloé", "David", "Émile"], start=1):
        data[f"player_{row}"] = player(name).pk
    url = reverse("championship:round_create", args=[season.name])
    first = client.post(url, data)
    second = client.post(url, data)
    assert Round.objects.count() == 1
    assert (
        first["Location"]
        == second["Location"]
        == reverse("championship:round_edit", args=[Round.objects.get().pk])
    )


def test_a_report_edited_meanwhile_keeps_the_writers_text_and_shows_the_other(client, season, president):
    round_ = make_round(season, status=Round.HOMOLOGATED)
    alice = player("Alice")
    services.save_report(round_, "Premier jet.", author=alice)
    client.force_login(president.user)
    url = reverse("championship:report_edit", args=[round_.pk])
    assert 'name="version" value="1"' in client.get(url).content.decode()
    services.save_report(round_, "Texte de l'auteur, enregistré entre-temps.", version=1)
    data = {"version": "1", "text": "Texte de la Direction.", "author": alice.pk, "save": "1"}
    page = client.post(url, data).content.decode()
    assert "Le compte-rendu a été modifié pendant que vous l&#x27;écriviez" in page
    assert "<p>Texte de l'auteur, enregistré entre-temps.</p>" in page and "Texte de la Direction." in page
    assert 'name="version" value="2"' in page
    assert Report.objects.get().text == "Texte de l'auteur, enregistré entre-temps."
    client.post(url, {**data, "version": "2"})  # sent again, knowingly
    assert Report.objects.get().text == "Texte de la Direction."


def test_a_change_meanwhile_is_named_by_the_deal_deleted_not_the_deals_renumbered(season, president):
    """The message of a stale write names the change that made it stale: a deleted deal, not the
    following deals renumbered after it (the last rows that write saved)."""
    round_ = make_round(season)
    services.delete_deal(round_.deals.get(number=2), user=president.user)
    assert services.last_change(round_).startswith("donne 2 supprimée par Président le ")


def test_a_change_meanwhile_is_named_by_the_deal_corrected_not_the_rows_rescored(season, president):
    """A corrected deal of a homologated round, not the other rows rescored with the same motif."""
    homologated = make_round(season, status=Round.HOMOLOGATED, date=datetime.date(2010, 11, 26))
    deal = homologated.deals.get(number=1)
    services.change_deal(deal, deal_fields(deal, points=52), reason="feuille relue", user=president.user)
    change = services.last_change(homologated)
    assert change.startswith("donne 1 modifiée par Président le ")
    assert change.endswith("(motif : feuille relue)")
