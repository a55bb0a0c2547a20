from django.contrib.auth import get_user_model
from django.urls import reverse

from championship.models import Deal, Round
from championship.services import homologate_round
from tests.factories import make_round


def superuser_client(client):
    user = get_user_model().objects.create_superuser("admin", "admin@example.org", "x")
    client.force_login(user)
    return client


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


def test_it_lets_a_draft_round_be_deleted_from_the_admin(client, season):
    round_ = make_round(season)
    client = superuser_client(client)
    response = client.post(reverse("admin:championship_round_delete", args=[round_.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert not Round.objects.filter(pk=round_.pk).exists()
    assert not Deal.objects.filter(round_id=round_.pk).exists()
