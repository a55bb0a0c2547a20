"""« Annuler » just after a deal is saved (issue 34): the round's last deal removed by the deal
delete service (its history says who and why), at the round's version its saving left; with
htmx the page's live part answers, the form back to that deal's number. Refused for a deal that
is no longer the last, a round changed since, a submitted round; and the grid invites a
correction on a draft only."""

from django.urls import reverse

from championship import services
from championship.models import Deal, Round
from tests.factories import fifth_deal_data

HTMX = {"HTTP_HX_REQUEST": "true"}


def undo_url(round_, number):
    return reverse("championship:deal_undo", args=[round_.pk, number])


def entry_url(round_):
    return reverse("championship:round_edit", args=[round_.pk])


def saved_fifth(client, round_):
    response = client.post(entry_url(round_), fifth_deal_data(), **HTMX)
    assert response.status_code == 200
    round_.refresh_from_db()
    return response


def test_the_answer_to_a_saved_deal_offers_to_undo_it(as_user, example):
    client = as_user("secretary")
    html = saved_fifth(client, example).content.decode()
    assert f'action="{undo_url(example, 5)}"' in html
    assert f'name="version" value="{example.version}"' in html
    assert "Donne 5 enregistrée." in html and "Annuler" in html


def test_undo_removes_the_last_deal_with_its_history_and_answers_the_form_again(as_user, example, secretary):
    client = as_user("secretary")
    saved_fifth(client, example)
    response = client.post(undo_url(example, 5), {"version": example.version}, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert list(example.deals.values_list("number", flat=True)) == [1, 2, 3, 4]
    assert "Donne 5 annulée." in html
    assert response.context["deal_form"].number == 5
    version = Round.objects.get(pk=example.pk).version
    assert f'data-version="{version}" data-next="5"' in html  # what the phone's queue numbers from
    assert response["HX-Reswap"] == "outerHTML show:#saisie:top"
    record = Deal.history.get(round_id=example.pk, number=5, history_type="-")
    assert record.history_user == secretary.user
    assert record.history_change_reason == "annulée juste après sa saisie"


def test_undo_without_javascript_redirects_to_the_form(as_user, example):
    client = as_user("secretary")
    saved_fifth(client, example)
    response = client.post(undo_url(example, 5), {"version": example.version})
    assert response.status_code == 302 and response["Location"].endswith("#saisie")
    assert not example.deals.filter(number=5).exists()


def test_undo_is_refused_once_the_round_changed(as_user, example):
    client = as_user("secretary")
    saved_fifth(client, example)
    version = example.version
    services.set_paper_totals(example, {seat.player_id: 0 for seat in example.seats.all()}, user=None)
    response = client.post(undo_url(example, 5), {"version": version}, follow=True)
    assert example.deals.filter(number=5).exists()
    assert [message.level_tag for message in response.context["messages"]] == ["error"]


def test_undo_is_refused_for_a_deal_that_is_not_the_last(as_user, example):
    client = as_user("secretary")
    saved_fifth(client, example)
    response = client.post(undo_url(example, 4), {"version": example.version})
    assert response.status_code == 302
    assert example.deals.count() == 5


def test_undo_is_refused_on_a_submitted_round(as_user, example):
    client = as_user("secretary")
    saved_fifth(client, example)
    Round.objects.filter(pk=example.pk).update(status=Round.SUBMITTED)
    client.post(undo_url(example, 5), {"version": example.version})
    assert example.deals.count() == 5


def test_the_grid_invites_a_correction_on_a_draft_only(as_user, example):
    client = as_user("secretary")
    html = client.get(entry_url(example)).content.decode()
    assert "Touchez un numéro pour corriger la donne" in html and "✎" in html
    Round.objects.filter(pk=example.pk).update(status=Round.SUBMITTED)
    html = client.get(entry_url(example)).content.decode()
    assert "Touchez un numéro pour corriger la donne" not in html and "✎" not in html
    assert reverse("championship:deal_edit", args=[example.pk, 1]) not in html


def test_like_the_previous_one_without_javascript_fills_taker_partner_and_contract(as_user, example):
    """« Comme la précédente » is a link: without JavaScript the server fills the form."""
    client = as_user("secretary")
    html = client.get(entry_url(example)).content.decode()
    last = example.deals.filter(kind=Deal.PLAYED).order_by("-number").first()
    assert f'href="?comme={last.number}#saisie"' in html
    form = client.get(entry_url(example), {"comme": last.number}).context["deal_form"]
    assert (form["taker"].value(), form["partner"].value(), form["contract"].value()) == (
        last.taker_id,
        last.partner_id or "seul",
        last.contract,
    )
    assert form["bouts"].value() is None and not form["points"].value()
    stale = client.get(entry_url(example), {"comme": last.number - 1}).context["deal_form"]
    assert stale["taker"].value() is None  # only the previous deal's
