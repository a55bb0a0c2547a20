"""« Mon compte » for a member without a confirmed e-mail address (issue 31, the fault report):
the page says plainly that no reminder can reach him, shows the add-address form first, and
never claims that his reminder choices took effect."""

import re

from django.urls import reverse

from federation.models import Player

from .conftest import with_account

SAVED = "Vos choix de rappels sont enregistrés."
SAVED_FOR_LATER = "Vos choix sont enregistrés ; ils prendront effet quand votre adresse sera confirmée."


def without_address(name="Karim"):
    return with_account(Player.objects.create(name=name), email="")


def test_a_member_without_address_is_never_told_his_choices_took_effect(client, db):
    """The fault report: Karim, no e-mail, saves his choices; the page answered « Vos choix de
    rappels sont enregistrés. » for reminders he can never receive."""
    karim = without_address()
    client.force_login(karim.user)
    response = client.post(reverse("notifications:account"), {"night": "on", "language": "fr"}, follow=True)
    html = response.content.decode()
    assert SAVED not in html
    assert SAVED_FOR_LATER in html
    assert karim.reminder_preference.report_due is False  # saved all the same, for later


def test_a_member_with_an_address_is_told_his_choices_are_saved(client, members):
    client.force_login(members["Bruno"].user)
    response = client.post(reverse("notifications:account"), {"night": "on", "language": "fr"}, follow=True)
    html = response.content.decode()
    assert SAVED in html
    assert SAVED_FOR_LATER not in html


def test_the_page_says_no_reminder_can_reach_him_and_offers_the_form_first(client, db):
    karim = without_address()
    client.force_login(karim.user)
    html = client.get(reverse("notifications:account")).content.decode()
    assert "Demandez à la Direction" not in html
    assert "Aucun rappel ne peut vous parvenir" in html
    address_form = html.index('name="email"')
    assert address_form < html.index('name="night"')  # the address first, the choices after
    assert re.search(r"prendront effet quand votre adresse sera confirmée", html)


def test_an_account_without_player_can_add_an_address_too(client, db):
    from django.contrib.auth import get_user_model  # noqa: PLC0415

    staff = get_user_model().objects.create_user(username="equipe", password="x-pass-1")
    client.force_login(staff)
    html = client.get(reverse("notifications:account")).content.decode()
    assert 'name="email"' in html
    assert "Ce compte n'est lié à aucun joueur" in html


def test_the_page_says_it_in_english_too(client, db):
    karim = without_address()
    client.force_login(karim.user)
    html = client.get(reverse("notifications:account"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "No reminder can reach you" in html
    assert "your choices will take effect once your address is confirmed" in html
    response = client.post(
        reverse("notifications:account"),
        {"night": "on", "language": "en"},
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    )
    assert (
        "Your choices are saved; they will take effect once your address is confirmed."
        in response.content.decode()
    )
