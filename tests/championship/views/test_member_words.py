"""Words a member reads (issue 35): no « version 12 de la feuille » on the live view, « Aucun
joueur n'a encore confirmé » rather than « 0 joueurs… ont confirmé », « Récit » rather than
« Récit (Markdown) », the statistics' JSON links at the foot of their pages."""

import re

from django.urls import reverse

from championship.models import Report, Round
from tests.championship.views.test_table import live_url, seated
from tests.factories import make_round, player


def test_the_live_view_says_no_version_and_no_zero_plural(client, example):
    html = seated(client, "Alice").get(live_url(example)).content.decode()
    assert "version" not in re.sub(r"<[^>]+>", " ", html).lower().replace("version de la feuille que", "")
    assert "0 joueurs" not in html
    assert "Aucun joueur sur 5 n'a encore confirmé la feuille" in html


def test_the_round_page_of_the_officials_says_no_zero_plural(client, example, president):
    client.force_login(president.user)
    html = client.get(reverse("championship:round", args=[example.pk])).content.decode()
    assert "0 joueurs" not in html
    assert "Aucun joueur sur 5 n'a encore confirmé la feuille telle qu'elle est" in html


def test_the_report_form_says_recit_without_markdown(client, season):
    round_ = make_round(season, status=Round.HOMOLOGATED)
    Report.objects.create(round=round_, author=player("Bruno"), text="")
    html = seated(client, "Bruno").get(reverse("championship:report_edit", args=[round_.pk])).content.decode()
    assert "Récit (Markdown)" not in html and "Markdown :" not in html
    assert re.search(r"<label[^>]*>Récit[^<(]*</label>", html)


def test_the_statistics_json_links_sit_discreetly_at_the_foot_of_the_page(client, season):
    make_round(season, status=Round.HOMOLOGATED)
    for url in (reverse("championship:palmares"), reverse("championship:season_rating", args=[season.name])):
        html = client.get(url).content.decode()
        assert 'format=json">JSON</a>' not in html
        link = html.index('class="data-link')
        assert html.index("<footer") - link < 600, "at the foot of the page, after its figures"
