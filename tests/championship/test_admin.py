"""The admin reads the competition and never writes it: rounds, seats, deals, adjustments,
championship lines and reports change only through the site's pages, with a reason."""

import datetime
import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import models
from django.urls import reverse

from championship.models import Adjustment, ChampionshipLine, Deal, Report, Round, Seat
from championship.services import homologate_round
from federation.models import Player
from tests.factories import make_round

COMPETITION = [Round, Deal, Adjustment, ChampionshipLine, Report]
HISTORIZED = [Round, Deal, Adjustment, Report]


def superuser_client(client):
    user = get_user_model().objects.create_superuser("admin", "admin@example.org", "x")
    client.force_login(user)
    return client


def staff_client(client):
    """A staff account holding every right of the admin on the competition and its history."""
    user = get_user_model().objects.create_user("staff", "staff@example.org", "x", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="championship"))
    client.force_login(user)
    return client


CLIENTS = {"staff with view and change rights": staff_client, "superuser": superuser_client}


@pytest.fixture
def homologated(season, president):
    round_ = make_round(season, adjustments=[("Émile", "retard", -1, "arrivé à 21h30")])
    homologate_round(round_, president.user)
    Report.objects.create(
        round=round_, author=Player.objects.get(name="Bruno"), text="Belle soirée.", filed_on=round_.date
    )
    return Round.objects.get(pk=round_.pk)


def objects_of(round_):
    return {
        Round: round_,
        Seat: round_.seats.first(),
        Deal: round_.deals.get(number=1),
        Adjustment: round_.adjustments.get(),
        ChampionshipLine: round_.championship_lines.first(),
        Report: round_.report,
    }


def snapshot(round_):
    """Every stored row of a round and every history record, to compare before and after."""
    rows = {}
    for model in (Round, Seat, Deal, Adjustment, ChampionshipLine, Report):
        field = "pk" if model is Round else "round_id"
        rows[model.__name__] = list(model.objects.filter(**{field: round_.pk}).order_by("pk").values())
        if hasattr(model, "history"):
            rows[f"history of {model.__name__}"] = model.history.count()
    return rows


def form_data(obj, **changes):
    """What an admin form of `obj` posts back: every editable field, as a browser sends it."""
    data = {}
    for model_field in obj._meta.concrete_fields:
        if model_field.primary_key or not model_field.editable:
            continue
        value = model_field.value_from_object(obj)
        if isinstance(model_field, models.JSONField):
            value = json.dumps(value)
        elif isinstance(model_field, models.BooleanField):
            if model_field.null:
                value = {True: "true", False: "false", None: "unknown"}[value]
            elif not value:
                continue
        elif value is None:
            value = ""
        data[model_field.name] = value
    data.update(changes)
    return data


def history_form_url(obj):
    opts = obj._meta
    record = obj.history.order_by("-history_id").first()
    return reverse(f"admin:{opts.app_label}_{opts.model_name}_simple_history", args=[obj.pk, record.pk])


# --- the history forms: read, never written back ---------------------------------------------------------


@pytest.mark.parametrize("who", list(CLIENTS))
def test_it_changes_nothing_when_a_deal_history_form_is_posted(client, homologated, who):
    client = CLIENTS[who](client)
    deal = homologated.deals.get(number=1)
    before = snapshot(homologated)
    player = str(homologated.seats.first().player_id)
    data = form_data(deal, shares=json.dumps({player: 100000}), unit="100000")
    response = client.post(history_form_url(deal), data)
    assert response.status_code == 403
    assert snapshot(homologated) == before


@pytest.mark.parametrize("who", list(CLIENTS))
def test_it_changes_nothing_when_a_round_or_report_history_form_is_posted(client, homologated, who):
    client = CLIENTS[who](client)
    before = snapshot(homologated)
    report = homologated.report
    response = client.post(
        history_form_url(report), form_data(report, filed_on="2011-06-01", text="Réécrit.")
    )
    assert response.status_code == 403
    response = client.post(history_form_url(homologated), form_data(homologated, status=Round.DRAFT))
    assert response.status_code == 403
    adjustment = homologated.adjustments.get()
    response = client.post(history_form_url(adjustment), form_data(adjustment, points="-50"))
    assert response.status_code == 403
    assert snapshot(homologated) == before


@pytest.mark.parametrize("model", HISTORIZED, ids=lambda model: model.__name__)
def test_it_shows_the_history_forms_without_a_revert_button(client, homologated, model):
    client = superuser_client(client)
    obj = objects_of(homologated)[model]
    response = client.get(history_form_url(obj))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="_save"' not in html and "Revert" not in html
    opts = obj._meta
    response = client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_history", args=[obj.pk]))
    assert response.status_code == 200


# --- the change forms: no add, change or delete -----------------------------------------------------------


@pytest.mark.parametrize("who", list(CLIENTS))
@pytest.mark.parametrize("model", COMPETITION, ids=lambda model: model.__name__)
def test_it_refuses_to_add_change_or_delete_competition_data_in_the_admin(client, homologated, who, model):
    client = CLIENTS[who](client)
    obj = objects_of(homologated)[model]
    opts = obj._meta
    before = snapshot(homologated)
    assert (
        client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])).status_code
        == 200
    )
    response = client.post(
        reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk]), form_data(obj)
    )
    assert response.status_code == 403
    response = client.post(reverse(f"admin:{opts.app_label}_{opts.model_name}_add"), form_data(obj))
    assert response.status_code == 403
    delete = reverse(f"admin:{opts.app_label}_{opts.model_name}_delete", args=[obj.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    response = client.post(
        changelist, {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"}
    )
    assert response.status_code in (200, 302, 403)
    assert snapshot(homologated) == before


def test_it_shows_rounds_and_deals_in_the_admin_read_only(client, season):
    round_ = make_round(season)
    client = superuser_client(client)
    response = client.get(reverse("admin:championship_round_change", args=[round_.pk]))
    assert response.status_code == 200
    assert "Chez Steph" in response.content.decode()
    deal = round_.deals.get(number=1)
    before = (deal.points, deal.unit)
    response = client.post(reverse("admin:championship_deal_change", args=[deal.pk]), {"points": "30"})
    assert response.status_code == 403
    deal.refresh_from_db()
    assert (deal.points, deal.unit) == before


def test_it_refuses_to_delete_a_homologated_round_from_the_admin(client, season):
    round_ = make_round(season)
    homologate_round(round_)
    client = superuser_client(client)
    response = client.post(reverse("admin:championship_round_delete", args=[round_.pk]), {"post": "yes"})
    assert response.status_code == 403
    assert Round.objects.filter(pk=round_.pk).exists()


def test_it_refuses_to_delete_even_a_draft_round_from_the_admin(client, season):
    # Requirement change (issue #10): the admin is read-only for competition data, drafts included.
    round_ = make_round(season)
    client = superuser_client(client)
    response = client.post(reverse("admin:championship_round_delete", args=[round_.pk]), {"post": "yes"})
    assert response.status_code == 403
    assert Round.objects.filter(pk=round_.pk).exists()
    assert Deal.objects.filter(round_id=round_.pk).count() == 4


# --- the season's rulebook ----------------------------------------------------------------------------


def season_form_data(season, **changes):
    data = {
        "name": season.name,
        "start_date": season.start_date.isoformat(),
        "end_date": season.end_date.isoformat(),
        "remaining_rounds": season.remaining_rounds,
        "officials-TOTAL_FORMS": "0",
        "officials-INITIAL_FORMS": "0",
        "officials-MIN_NUM_FORMS": "0",
        "officials-MAX_NUM_FORMS": "1000",
    }
    if season.is_open:
        data["is_open"] = "on"
    data.update(changes)
    return data


def test_it_keeps_the_rulebook_read_only_in_the_admin(client, homologated):
    season = homologated.season
    client = superuser_client(client)
    before = snapshot(homologated)
    original = season.rulebook_text
    changed = original.replace("5 = [10, 7, 5, 3, 1]", "5 = [12, 8, 5, 2, 0]").replace(
        "garde = 2", "garde = 3"
    )
    assert changed != original
    url = reverse("admin:federation_season_change", args=[season.pk])
    response = client.post(url, season_form_data(season, rulebook_text=changed, remaining_rounds="4"))
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.rulebook_text == original
    assert season.remaining_rounds == 4
    assert snapshot(homologated) == before
    assert 'name="rulebook_text"' not in client.get(url).content.decode()


def test_it_changes_nothing_when_a_season_history_form_is_posted(client, homologated):
    season = homologated.season
    client = superuser_client(client)
    season.remaining_rounds = 3
    season.save()
    before = snapshot(homologated)
    first = season.history.order_by("history_id").first()
    url = reverse("admin:federation_season_simple_history", args=[season.pk, first.pk])
    changed = season.rulebook_text.replace("garde = 2", "garde = 3")
    response = client.post(url, season_form_data(season, rulebook_text=changed, start_date="2010-08-01"))
    assert response.status_code == 403
    season.refresh_from_db()
    assert (season.remaining_rounds, season.start_date) == (3, datetime.date(2010, 9, 1))
    assert "garde = 3" not in season.rulebook_text
    assert snapshot(homologated) == before
