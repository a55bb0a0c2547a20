"""« Mon compte » leads a member to his own pages (« Moi », issue 31): his player page, his
statistics and his head-to-heads; an account without a player has none to show."""

import re

from django.urls import reverse

from tests.conftest import make_player


def links_of(client):
    page = client.get(reverse("notifications:account")).content.decode()
    section = re.search(r'<section class="card narrow" id="mes-pages">.*?</section>', page, re.S)
    return (
        None
        if section is None
        else dict(
            (re.sub(r"\s+", " ", text).strip(), href)
            for href, text in re.findall(r'<a href="([^"]+)">([^<]+)</a>', section.group(0))
        )
    )


def test_the_account_page_links_to_his_own_pages(client, db):
    make_player("Bruno")
    alice = make_player("Alice")
    client.force_login(alice.user)
    stats = reverse("championship:player_stats", args=[alice.pk])
    assert links_of(client) == {
        "Ma page de joueur": reverse("championship:player", args=[alice.pk]),
        "Mes statistiques": stats,
        "Mes face-à-face": f"{stats}#partenaires-rivaux",
    }
    assert client.get(stats).status_code == 200


def test_an_account_without_a_player_has_no_pages_of_its_own(client, django_user_model):
    client.force_login(django_user_model.objects.create_user(username="gerant", password="secret-pass-1"))
    assert links_of(client) is None
