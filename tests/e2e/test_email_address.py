"""« Mon compte » on a 390×844 phone for a member without an e-mail address (issue 31): the page
says first that no reminder can reach him and offers the address; another account's is refused,
naming the field; he types his, the link mailed to it opens a page with a button, and once he
taps it the page shows his address. Nothing beyond
the screen's right edge on any of these pages. With E2E_SCREENSHOTS set to a folder, each step
leaves its screenshots there."""

import re

from django.core import mail
from playwright.sync_api import expect

from federation import outbox
from tests.conftest import make_player
from tests.e2e.chromium import requires_chromium
from tests.e2e.test_game_night import Phone, log_in

pytestmark = requires_chromium
expect.set_options(timeout=10_000)

LINK = re.compile(r"https?://[^/\s]+(/compte/adresse/confirmer/[^/\s]+/)")
SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"


def test_a_member_without_address_adds_and_confirms_his_own(browser, live_server, season):
    karim = make_player("Karim")
    gaston = make_player("Gaston")
    gaston.user.email = "gaston@example.org"
    gaston.user.save()
    phone = Phone(browser, live_server.url, "adresse")
    page = phone.page
    log_in(page, karim.user.username)

    page.goto("/compte/")
    warning = page.get_by_text("Aucun rappel ne peut vous parvenir")
    expect(warning).to_be_in_viewport()  # said at once, on the first screen
    field = page.get_by_label("Adresse électronique")
    expect(field).to_be_in_viewport()
    expect(page.get_by_text("prendront effet quand votre adresse sera confirmée")).to_be_visible()
    assert page.evaluate(SIDEWAYS) <= 0
    phone.look("1-sans-adresse")

    field.fill("gaston@example.org")  # another account's
    page.get_by_role("button", name="Ajouter mon adresse").click()
    expect(
        page.get_by_text("Adresse électronique : cette adresse est déjà celle d'un autre compte.")
    ).to_be_visible()
    assert page.evaluate(SIDEWAYS) <= 0
    phone.look("1b-adresse-prise")
    assert mail.outbox == []

    page.get_by_label("Adresse électronique").fill("karim@example.org")
    page.get_by_role("button", name="Ajouter mon adresse").click()
    expect(page.get_by_text("Un lien de confirmation a été envoyé à karim@example.org")).to_be_visible()
    expect(page.get_by_text("Aucun rappel ne peut vous parvenir")).to_be_visible()  # not yet
    phone.look("2-lien-envoye")

    assert outbox.wait(timeout=30)
    [message] = mail.outbox
    page.goto(LINK.search(message.body).group(1))
    expect(page.get_by_text("Recevoir les courriels du compte « karim »")).to_be_visible()
    assert page.evaluate(SIDEWAYS) <= 0
    phone.look("3-confirmer")
    page.get_by_role("button", name="Confirmer cette adresse").click()
    expect(page.get_by_text("Votre adresse électronique est maintenant karim@example.org")).to_be_visible()
    phone.look("4-confirmee")

    page.goto("/compte/")
    expect(page.get_by_text("Votre adresse : karim@example.org")).to_be_visible()
    expect(page.get_by_text("Aucun rappel ne peut vous parvenir")).to_have_count(0)
    page.get_by_text("Changer d'adresse…").click()
    expect(page.get_by_role("button", name="Changer d'adresse", exact=True)).to_be_visible()
    assert page.evaluate(SIDEWAYS) <= 0
    phone.look("5-avec-adresse")
    karim.user.refresh_from_db()
    assert karim.user.email == "karim@example.org"
    assert phone.problems == []
    phone.close()
