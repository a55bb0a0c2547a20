"""The one-click unsubscribe link of a reminder (RFC 8058) and the account page."""

import re

from django.core import signing
from django.test import Client
from django.urls import reverse

from gamenights import links as night_links
from notifications import links
from notifications.models import NIGHT, REPORT_LATE, ReminderPreference
from notifications.plan import preference


def test_a_post_without_login_nor_csrf_token_turns_that_kind_off(members):
    client = Client(enforce_csrf_checks=True)
    url = links.unsubscribe_path(members["Chloé"], NIGHT)
    response = client.post(url, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert "Vous ne recevrez plus le rappel « soirée sans réponse »." in response.content.decode()
    chosen = ReminderPreference.objects.get(player=members["Chloé"])
    assert (chosen.night, chosen.report_due, chosen.report_late) == (False, True, True)
    record = chosen.history.first()
    assert record.history_change_reason == "désinscription en un clic (lien du courriel)"
    assert record.history_user is None


def test_a_get_shows_a_button_and_changes_nothing(client, members):
    """Before the button, the page says what pressing it will do, not that it is done."""
    url = links.unsubscribe_path(members["Chloé"], REPORT_LATE)
    response = client.get(url)
    html = response.content.decode()
    assert response.status_code == 200
    assert "ne recevrez plus" not in html
    assert "Chloé, voulez-vous ne plus recevoir le rappel « compte-rendu en retard » ?" in html
    assert re.search(r'<form method="post">.*<button type="submit">Ne plus recevoir ce rappel</button>', html)
    assert not ReminderPreference.objects.exists()
    assert preference(members["Chloé"]).report_late is True


def test_a_forged_or_foreign_token_is_refused(client, members):
    chloe = members["Chloé"]
    good = links.unsubscribe_token(chloe, NIGHT)
    forged = good[:-2] + ("AA" if not good.endswith("AA") else "BB")
    other_salt = signing.dumps([chloe.pk, NIGHT], salt="gamenights.answer")
    unknown_kind = signing.dumps([chloe.pk, "everything"], salt=links.UNSUBSCRIBE_SALT)
    for token in (forged, other_salt, unknown_kind, "faux"):
        url = reverse("notifications:unsubscribe", args=[token])
        assert client.post(url).status_code == 404, token
        assert client.get(url).status_code == 404, token
    assert not ReminderPreference.objects.exists()


def test_the_account_page_saves_the_choices_with_their_history(client, members):
    bruno = members["Bruno"]
    client.force_login(bruno.user)
    page = client.get(reverse("notifications:account")).content.decode()
    assert re.search(r'<input type="checkbox" name="night" [^>]*checked', page)
    response = client.post(
        reverse("notifications:account"), {"night": "on", "report_due": "", "language": "en"}
    )
    assert response.status_code == 302
    chosen = ReminderPreference.objects.get(player=bruno)
    assert (chosen.night, chosen.report_due, chosen.report_late, chosen.language) == (
        True,
        False,
        False,
        "en",
    )
    assert chosen.history.first().history_user == bruno.user
    assert client.post(reverse("notifications:account"), {"language": "xx"}).status_code == 400


def test_the_account_page_and_the_calendar_show_the_members_own_feed(client, members):
    chloe = members["Chloé"]
    feed = "http://testserver" + night_links.feed_url(chloe)
    assert feed not in client.get(reverse("gamenights:calendar")).content.decode()  # not logged in
    client.force_login(chloe.user)
    for page in (reverse("notifications:account"), reverse("gamenights:calendar")):
        html = client.get(page).content.decode()
        assert f'value="{feed}"' in html, page
        assert 'href="webcal://testserver' + night_links.feed_url(chloe) + '"' in html, page
        assert "Sur un iPhone" in html
    assert 'href="#mon-agenda"' in html  # the calendar's header leads to it
    assert client.get(feed.removeprefix("http://testserver")).status_code == 200


def test_an_account_without_a_player_has_no_choices(client, db):
    from django.contrib.auth import get_user_model  # noqa: PLC0415

    staff = get_user_model().objects.create_user(username="equipe", password="x-pass-1")
    client.force_login(staff)
    html = client.get(reverse("notifications:account")).content.decode()
    assert "Ce compte n'est lié à aucun joueur" in html


def test_the_one_click_link_is_the_only_view_without_csrf_check():
    """`csrf_exempt` once in the project's sources: on the one-click POST, whose signature is the proof."""
    from tests.test_architecture import ROOT, source_files  # noqa: PLC0415

    found = {
        path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8").count("@csrf_exempt")
        for path in source_files()
        if "@csrf_exempt" in path.read_text(encoding="utf-8")
    }
    assert found == {"notifications/views.py": 1}
