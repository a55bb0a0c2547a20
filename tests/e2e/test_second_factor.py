"""An official adds a second factor from his phone, then logs in with it, in a real Chromium at
390×844 (federation.two_step): « Mon compte », the QR code and the key, the code that confirms,
the backup codes; then the password, the code page, the code. The code is computed from the key
the page shows, as the authenticator app would. Nothing may reach beyond the screen's right edge.
With E2E_SCREENSHOTS set to a folder, each step leaves its screenshots there."""

import base64
import re

import pytest
from django_otp.oath import totp
from playwright.sync_api import expect

from tests.e2e import test_game_night as night
from tests.e2e.chromium import requires_chromium

pytestmark = requires_chromium

SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"


def code_from(secret, steps_ahead=0):
    key = base64.b32decode(secret.replace(" ", ""))
    return f"{totp(key, 30, 0, 6, steps_ahead):06d}"


@pytest.fixture(autouse=True)
def axes_on(settings):
    settings.AXES_ENABLED = True


def test_an_official_adds_a_second_factor_and_logs_in_with_it(browser, live_server, president):
    phone = night.Phone(browser, live_server.url, "seconde-verification")
    page = phone.page
    try:
        night.log_in(page, "président")
        page.goto("/compte/")
        add = page.get_by_role("button", name="Ajouter une seconde vérification")
        phone.look("compte", showing=add)
        add.click()

        qr = page.locator(".second-factor-qr svg")
        expect(qr).to_be_visible()
        box = qr.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390  # the whole QR code on the screen
        assert page.evaluate(SIDEWAYS) <= 0
        phone.look("ajout")
        secret = page.locator("code.secret").inner_text()
        page.get_by_label("Code").fill(code_from(secret))
        page.get_by_role("button", name="Confirmer").click()

        expect(page.get_by_role("heading", name="Vos codes de secours")).to_be_visible()
        expect(page.locator(".backup-codes li")).to_have_count(10)
        assert page.evaluate(SIDEWAYS) <= 0
        phone.look("codes-de-secours")
        page.get_by_role("link", name="J'ai noté mes codes").click()
        expect(page.locator("#seconde-verification summary")).to_have_text("Retirer…")
        phone.look("compte-protege")

        night.log_out(page, "président")
        page.goto("/connexion/")  # the password alone no longer logs in
        page.get_by_label(re.compile("utilisateur", re.I)).fill("président")
        page.get_by_label("Mot de passe").fill(night.PASSWORD)
        page.get_by_role("button", name="Se connecter").click()
        expect(page.get_by_role("heading", name="Code de vérification")).to_be_visible()
        expect(
            page.get_by_role("button", name=re.compile(r"Déconnexion"), include_hidden=True)
        ).to_have_count(0)
        assert page.evaluate(SIDEWAYS) <= 0
        phone.look("code")
        page.get_by_label("Code").fill(code_from(secret, 1))  # the next period: a code works once
        page.get_by_role("button", name="Vérifier").click()
        expect(
            page.get_by_role("button", name=re.compile(r"Déconnexion"), include_hidden=True)
        ).to_be_attached()
        night.show_menu(page)
        expect(page.get_by_role("button", name=re.compile(r"Déconnexion"))).to_be_visible()
        phone.look("connecte")
        assert phone.problems == []
    finally:
        phone.close()
