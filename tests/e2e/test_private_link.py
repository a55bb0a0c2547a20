"""A member's private link in a real browser, at a phone's size (issue 31): the président hands
Karim his link as a QR code from the board's page; Karim's phone opens it (its script posts the
secret of the fragment), lands on the home page recognised, and « Mon compte » lists the phone;
no request the phone sent carries the secret, the address bar no longer shows it, and the
Content-Security-Policy refused nothing. Without script, the code pasted in the page's field
recognises the member too. With E2E_SCREENSHOTS set to a folder, each step leaves its screenshots.
"""

import re

from playwright.sync_api import expect

from federation.models import PhoneSession, Player
from tests.e2e import test_game_night as night
from tests.e2e.chromium import requires_chromium
from tests.e2e.test_content_security_policy import Watched

pytestmark = requires_chromium


class Phone(Watched):
    """A phone that also keeps the address of every request it sent."""

    def __init__(self, browser, base_url, name, **options):
        if options:  # a context of its own (without script)
            self.context = browser.new_context(base_url=base_url, **night.PHONE, **options)
            self.context.set_default_timeout(10_000)
            self.page = self.context.new_page()
            self.name, self.problems, self.violations = name, [], []
            self.page.on("console", self._check_console)
        else:
            super().__init__(browser, base_url, name)
        self.requests = []
        self.page.on("request", lambda request: self.requests.append(request.url))

    def fits(self):
        """Nothing wider than the phone's screen."""
        assert self.page.evaluate("document.documentElement.scrollWidth") <= night.PHONE["viewport"]["width"]


def handed_link(board, name, button):
    """The président taps `button` on `name`'s row of the board's page; the link it shows."""
    board.page.goto("/direction/liens/")
    row = board.page.locator("ul.member-links li").filter(has_text=name)
    row.get_by_role("button", name=button, exact=True).click()
    expect(board.page.get_by_role("heading", name=f"Lien privé de {name}")).to_be_visible()
    return board.page.locator("#private-link-url").input_value()


def test_the_board_hands_a_link_as_a_qr_code_and_the_phone_opens_it(browser, live_server, season, president):
    karim = Player.objects.create(name="Karim")
    Player.objects.create(name="David")

    board = Phone(browser, live_server.url, "lien-direction")
    night.log_in(board.page, "président")
    board.page.get_by_role("link", name="Liens privés des membres (envoyer, afficher le QR)").click()
    expect(board.page.get_by_text("donnent donc un NOUVEAU lien")).to_be_visible()
    board.fits()
    board.look("liste")
    link = handed_link(board, "Karim", "afficher le QR")
    qr = board.page.locator(".link-qr svg.qr")
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert 300 <= box["width"] <= 390, box  # large, and within the screen
    board.fits()
    board.look("qr", showing=qr)

    secret = link.partition("#")[2]
    assert link.startswith(live_server.url + "/moi/lien/#") and len(secret) >= 43
    phone = Phone(browser, live_server.url, "lien-karim")
    phone.page.goto(link)
    expect(
        phone.page.get_by_text(
            "Bonjour Karim : ce téléphone vous reconnaît désormais. Ajoutez le site à l'écran "
            "d'accueil pour le retrouver."
        )
    ).to_be_visible()
    assert phone.page.url == live_server.url + "/"
    phone.fits()
    phone.look("accueil")
    assert not [url for url in phone.requests if secret in url], phone.requests
    assert phone.page.evaluate("history.length") >= 1
    assert secret not in phone.page.evaluate("location.href")

    phone.page.goto("/compte/")
    phones = phone.page.locator("#telephones")
    expect(phones.get_by_text("ce téléphone", exact=True)).to_be_visible()
    expect(phones.get_by_role("button", name="déconnecter ce téléphone")).to_have_count(1)
    phone.fits()
    phone.look("compte", showing=phones)
    assert PhoneSession.objects.get().player == karim

    # Without script: the code pasted in the field
    david = handed_link(board, "David", "envoyer")
    board.fits()
    board.look("envoyer")
    bare = Phone(browser, live_server.url, "lien-sans-script", java_script_enabled=False)
    bare.page.goto(david)
    expect(bare.page.get_by_role("heading", name="Votre lien privé")).to_be_visible()
    bare.look("page")
    bare.page.get_by_label("Code de votre lien").fill(david)
    bare.page.get_by_role("button", name="Me reconnaître sur ce téléphone").click()
    expect(bare.page.get_by_text(re.compile("Bonjour David : ce téléphone vous reconnaît"))).to_be_visible()
    assert not [url for url in bare.requests if david.partition("#")[2] in url]

    for each in (board, phone, bare):
        assert each.violations == [], each.violations
        assert each.problems == [], each.problems
        each.close()
