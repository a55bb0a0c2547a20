"""The season's own menu, first on each of its pages (issue 35): before the ranking (it used to sit
under it, after the CSV, ODS and XLSX buttons), with the page shown marked."""

import pytest
from django.urls import reverse

from tests.factories import make_round

PAGES = {
    "ranking": ("championship:season", "name"),
    "rounds": ("championship:round_list", "season_name"),
    "calendar": ("gamenights:season_calendar", "name"),
    "awards": ("championship:awards", "name"),
    "cup": ("championship:cup", "name"),
    "race": ("championship:cup_status", "name"),
    "partners": ("championship:season_partners", "name"),
    "rating": ("championship:season_rating", "name"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("page", PAGES)
def test_each_page_of_a_season_opens_with_its_menu(client, season, page):
    make_round(season)
    view, argument = PAGES[page]
    url = reverse(view, kwargs={argument: season.name})
    html = client.get(url).content.decode()
    content = html[html.index('id="contenu"') :]
    assert content.count('class="season-menu"') == 1
    menu = content[content.index('class="season-menu"') : content.index("</details>")]
    for other_view, other_argument in PAGES.values():
        assert f'href="{reverse(other_view, kwargs={other_argument: season.name})}"' in menu
    assert menu.count('aria-current="page"') == 1
    assert f'href="{url}" aria-current="page"' in menu
    assert content.index('class="season-menu"') < content.index("<h1")


@pytest.mark.django_db
def test_the_ranking_comes_after_the_menu_and_the_exports_after_the_ranking(client, season):
    make_round(season)
    html = client.get(reverse("championship:season", kwargs={"name": season.name})).content.decode()
    menu, ranking, export = (html.index(s) for s in ('class="season-menu"', "<h2>", "_export=csv"))
    assert menu < ranking < export
