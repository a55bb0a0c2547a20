"""What the statistics pages write in Python rather than in a template (200 rows at 10×): the
rows of a player's opponents and a figure's link, escaped as a template escapes them."""

from championship.templatetags.stats import figure, opponent_rows


def test_the_opponents_rows_are_escaped_and_each_cell_labelled():
    row = {"h2h_url": "/a/?b=1&c=2", "player": "<b>Zoé</b>", "player_pk": 7, "net": -12, "took_from": 3}
    row |= {"gave_to": 15}
    row |= {"rounds": 4, "ahead": 1, "behind": 3}
    html = str(opponent_rows([row], "Pris", "Donnés", "M", "D", "<x>"))
    assert '<a href="/a/?b=1&amp;c=2">&lt;b&gt;Zoé&lt;/b&gt;</a>' in html
    assert '<td class="num">−12</td>' in html and 'data-label="Donnés">15</td>' in html
    assert 'data-label="&lt;x&gt;">3</td></tr>' in html and html.count("<tr") == 1
    assert html.startswith('<tr data-player="7">')  # his row, marked for him (federation.my_rows)


def test_a_figure_links_to_its_deals_when_it_has_some():
    assert str(figure({"value": -3, "url": "/d/?s=1&p=2"})) == '<a href="/d/?s=1&amp;p=2">−3</a>'
    assert figure({"value": 0, "url": None}) == "0"
