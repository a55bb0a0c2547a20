"""« Moi » on a night's page (issue 31): the reader's own answer is marked among the answers
(federation.my_rows), nobody else's."""

from django.urls import reverse

from gamenights import services
from gamenights.models import Rsvp
from tests.championship.lib.test_marked_rows import marked, rows_of
from tests.conftest import make_player


def test_the_readers_answer_is_marked_among_the_nights_answers(client, night):
    alice, bruno = make_player("Alice"), make_player("Bruno")
    services.answer(night, alice, Rsvp.YES)
    services.answer(night, bruno, Rsvp.NO, reason="malade")
    url = reverse("gamenights:night", args=[night.pk])
    html = client.get(url).content.decode()
    assert {pk for _tag, pk, _attrs in rows_of(html)} >= {alice.pk, bruno.pk}
    assert marked(html) == set()
    for reader in (alice, bruno):
        client.force_login(reader.user)
        assert marked(client.get(url).content.decode()) == {reader.pk}
