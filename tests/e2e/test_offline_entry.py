"""Entering deals when the bar's Wi-Fi drops, in a real browser (Chromium at a phone's viewport,
against the live server: a service worker runs on http://localhost as on HTTPS).

The secretary opens the entry page online once; then, offline (`context.set_offline`), the deals
she saves are kept on the phone (IndexedDB) and listed « en attente d'envoi »; the notice « Hors
ligne » tops the form and the dealer turns as online; the page opens again offline (the service
worker, under the production static storage); back online, they are sent in order, each stored
once, and the page shows them stored, even when a second send was asked while they went. An
answer lost on the way (the server stored the deal, the phone heard nothing) stores it once; a
round changed meanwhile keeps the deal on the phone with the server's message, which names the
change, and the number the deal would have now. And a save in flight, a failure and
« Réessayer » show on the page. Every check waits for what a person sees; the database is read
once the page is still (the live server's SQLite is shared with the test). A phone passed from
one account to another: tests/e2e/test_shared_phone.py.
"""

import re
import time

from django.contrib.staticfiles.storage import ManifestStaticFilesStorage, staticfiles_storage
from playwright.sync_api import expect

from championship import services
from championship.models import Deal, Round
from tests.e2e import test_game_night as night
from tests.e2e.chromium import requires_chromium
from tests.e2e.conftest import between_requests
from tests.factories import make_round, player

pytestmark = requires_chromium
expect.set_options(timeout=10_000)


def stored(round_):
    """The round's deals in the database: (number, dealer, kind), in order."""
    return list(
        Deal.objects.filter(round=round_).order_by("number").values_list("number", "dealer__name", "kind")
    )


def wait_for(condition, what, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"toujours pas : {what}"
        time.sleep(0.1)


def open_entry_page(browser, live_server, secretary, round_, name):
    """The entry page opened online, once its service worker keeps it for offline use."""
    phone = night.Phone(browser, live_server.url, name)
    phone.context.set_default_timeout(20_000)  # the first page of a run, on a busy machine
    night.log_in(phone.page, secretary.user.username)
    phone.page.goto(f"/manches/{round_.pk}/saisie/")
    # (polled from here: the site's policy forbids the eval that page.wait_for_function needs)
    wait_for(
        lambda: phone.page.evaluate("() => navigator.serviceWorker.controller !== null"),
        "la page contrôlée par le service worker",
    )
    wait_for(
        lambda: phone.page.evaluate("async () => Boolean(await caches.match(location.pathname))"),
        "la page gardée par le service worker",
    )
    settled(phone)
    return phone


def settled(phone):
    """The page's own requests done (the queue's, the page read again), then the phone closed:
    none is left running in the live server when the test's database is emptied."""
    wait_for(
        lambda: phone.page.evaluate("() => !document.documentElement.dataset.offlineBusy"),
        "les envois de la page terminés",
    )


def passed_deal(page, dealer):
    form = page.locator("#saisie")
    night.choose(form, "Donneur", dealer)
    night.choose(form, "Donne", "Passe")
    form.get_by_role("button", name="Enregistrer la donne").click()


def pending(page):
    return page.locator(".pending-list > li")


def test_deals_saved_offline_survive_a_reload_and_are_stored_once_each_in_order_when_back_online(
    browser, live_server, secretary, empty_round
):
    phone = open_entry_page(browser, live_server, secretary, empty_round, "hors-ligne")
    page = phone.page
    phone.context.set_offline(True)

    for count, dealer in enumerate(["Alice", "Bruno", "Chloé"], start=1):
        passed_deal(page, dealer)
        expect(pending(page)).to_have_count(count)
        expect(pending(page).nth(count - 1)).to_contain_text(f"Donne {count} — en attente d’envoi")
        expect(page.get_by_role("status")).to_contain_text(
            f"Pas de réseau : la donne {count} est gardée sur ce téléphone"
        )
    expect(pending(page).nth(1)).to_contain_text("Donne : Passe · Donneur : Bruno")
    banner = page.get_by_text("Hors ligne : les donnes enregistrées sont gardées sur ce téléphone")
    expect(banner).to_be_visible()
    expect(page.locator("#saisie h2")).to_have_text("Donne 4")  # the form is ready for the next one
    phone.look("1-trois-donnes-hors-ligne", showing=page.locator(".pending-deals"))
    assert stored(empty_round) == []

    # « Modifier »: the second deal back in the form, corrected, saved again in its place.
    pending(page).nth(1).get_by_role("button", name="Modifier").click()
    form = page.locator("#saisie")
    expect(night.dealer(form, "Bruno")).to_be_checked()
    expect(pending(page).nth(1)).to_contain_text("Donne 2 — en cours de modification")
    passed_deal(page, "David")
    expect(pending(page).nth(1)).to_contain_text("Donne 2 — en attente d’envoi")
    expect(pending(page).nth(1)).to_contain_text("Donneur : David")
    expect(pending(page)).to_have_count(3)
    expect(page.locator("#saisie h2")).to_have_text("Donne 4")

    page.reload()  # still offline: the service worker's copy, and the deals kept on the phone
    expect(page.get_by_role("heading", name="Donnes gardées sur ce téléphone")).to_be_visible()
    expect(pending(page)).to_have_count(3)
    expect(page.get_by_text("Hors ligne : les donnes enregistrées")).to_be_visible()
    assert stored(empty_round) == []

    phone.context.set_offline(False)
    expect(pending(page)).to_have_count(0)
    expect(page.locator(".pending-deals")).to_be_hidden()
    # The page shows them, as stored (refreshed in place: the form had not been touched since).
    expect(page.locator("#donne-3")).to_be_visible()
    expect(page.locator("#saisie h2")).to_have_text("Donne 4")
    expect(page.get_by_role("status")).to_contain_text("Donne 3 enregistrée (gardée sur ce téléphone")
    phone.look("2-revenu-en-ligne")
    settled(phone)
    assert stored(empty_round) == [(1, "Alice", "passed"), (2, "David", "passed"), (3, "Chloé", "passed")]
    settled(phone)
    assert phone.problems == []
    phone.close()


def test_the_deals_sent_show_on_the_page_when_a_second_send_was_asked_meanwhile(
    browser, live_server, secretary, empty_round
):
    """Back online, the kept deals are sent; a second send asked while they go (the network's
    return and the page's own start both ask, on a slow phone) finds nothing left to send. The page
    still shows them as stored: it once stayed as it was, the deals gone from « en attente » and
    missing from the round, until it was reloaded (seen in a whole run on a loaded machine)."""
    phone = open_entry_page(browser, live_server, secretary, empty_round, "envoi-redemande")
    page = phone.page
    phone.context.set_offline(True)
    passed_deal(page, "Alice")
    expect(pending(page)).to_have_count(1)

    with between_requests(live_server):  # the deal, sent, waits for the server's turn
        phone.context.set_offline(False)
        wait_for(lambda: page.evaluate("() => navigator.onLine"), "le réseau revenu")
        page.evaluate("() => window.dispatchEvent(new Event('online'))")
        wait_for(
            lambda: page.evaluate("() => Boolean(document.documentElement.dataset.offlineBusy)"),
            "la donne en route",
        )
        page.evaluate("() => window.dispatchEvent(new Event('online'))")  # asked again meanwhile

    expect(pending(page)).to_have_count(0)
    expect(page.locator("#donne-1")).to_be_visible()
    expect(page.locator("#saisie h2")).to_have_text("Donne 2")
    settled(phone)
    assert stored(empty_round) == [(1, "Alice", "passed")]
    assert phone.problems == []
    phone.close()


def test_offline_the_notice_tops_the_form_and_the_dealers_turn_as_online(
    browser, live_server, secretary, empty_round
):
    phone = open_entry_page(browser, live_server, secretary, empty_round, "rotation-hors-ligne")
    page = phone.page
    form = page.locator("#saisie")
    phone.context.set_offline(True)

    # At a phone's size, the notice is at the top of the form, not under « Enregistrer la donne ».
    banner = form.get_by_text("Hors ligne : les donnes enregistrées sont gardées sur ce téléphone")
    expect(banner).to_be_visible()
    heading = form.get_by_role("heading", name="Donne 1", exact=True).bounding_box()
    notice = banner.bounding_box()
    first_field = form.get_by_role("group", name="Donne", exact=True).bounding_box()
    assert 0 <= notice["y"] - (heading["y"] + heading["height"]) < 40, (heading, notice)
    assert notice["y"] + notice["height"] <= first_field["y"], (notice, first_field)
    phone.look("1-bandeau-hors-ligne", showing=form.get_by_role("heading", name="Donne 1", exact=True))

    # No dealer tapped: each kept deal moves the rotation on, a misdeal's dealer deals again.
    for number, (dealer, kind) in enumerate(
        [("Alice", "Passe"), ("Bruno", "Fausse donne"), ("Bruno", "Passe")], start=1
    ):
        expect(night.dealer(form, dealer)).to_be_checked()
        night.choose(form, "Donne", kind)
        form.get_by_role("button", name="Enregistrer la donne").click()
        expect(pending(page)).to_have_count(number)
        expect(pending(page).nth(number - 1)).to_contain_text(f"Donneur : {dealer}")
    expect(night.dealer(form, "Chloé")).to_be_checked()
    page.reload()  # the page kept by the service worker: the rotation read from the kept deals
    expect(pending(page)).to_have_count(3)
    expect(night.dealer(form, "Chloé")).to_be_checked()

    phone.context.set_offline(False)
    expect(pending(page)).to_have_count(0)
    expect(page.locator("#donne-3")).to_be_visible()
    settled(phone)
    assert stored(empty_round) == [(1, "Alice", "passed"), (2, "Bruno", "misdeal"), (3, "Bruno", "passed")]
    expect(page.locator(".deal-warning")).to_have_count(0)  # « Rotation des donneurs : … »
    expect(night.dealer(form, "Chloé")).to_be_checked()
    settled(phone)
    assert phone.problems == []
    phone.close()


def test_the_entry_page_reloaded_offline_is_the_workers_copy_under_the_production_static_storage(
    browser, live_server, secretary, empty_round
):
    assert isinstance(staticfiles_storage, ManifestStaticFilesStorage)  # hashed names, as in production
    phone = open_entry_page(browser, live_server, secretary, empty_round, "recharge-hors-ligne")
    page = phone.page
    phone.context.set_offline(True)
    response = page.reload()
    assert response is not None and response.status == 200 and response.from_service_worker
    expect(page.get_by_role("heading", name="Donne 1", exact=True)).to_be_visible()
    expect(page.get_by_text("Hors ligne : les donnes enregistrées")).to_be_visible()  # its script ran
    scripts = page.locator("script[src]").evaluate_all("(nodes) => nodes.map((node) => node.src)")
    assert any(re.search(r"/static/js/offline-entry\.[0-9a-f]{12}\.js$", src) for src in scripts), scripts
    felt = page.locator(".site-header").evaluate("(node) => getComputedStyle(node).backgroundColor")
    assert felt == "rgb(31, 95, 63)", felt  # site.css from the worker's cache: the header's felt green
    phone.look("1-recharge-hors-ligne")
    assert phone.problems == []
    phone.context.set_offline(False)
    settled(phone)
    phone.close()


def test_a_kept_deal_refused_after_an_earlier_deal_was_deleted_names_the_deletion_and_keeps_its_number(
    browser, live_server, season, secretary, president
):
    round_ = make_round(season)  # the example: 4 deals
    phone = open_entry_page(browser, live_server, secretary, round_, "donne-supprimee")
    page = phone.page
    phone.context.set_offline(True)
    passed_deal(page, "David")
    expect(pending(page).first).to_contain_text("Donne 5 — en attente d’envoi")

    # Meanwhile, the président deletes deal 2 (deals 3 and 4 become 2 and 3).
    services.delete_deal(Deal.objects.get(round=round_, number=2), user=president.user)

    phone.context.set_offline(False)
    refused = pending(page).first
    expect(refused).to_contain_text("Donne 4 — refusée")
    expect(refused).to_contain_text(
        "La manche a été modifiée pendant que vous la lisiez : donne 2 supprimée par Président"
    )
    expect(page.get_by_role("status")).to_contain_text("Donne 4 refusée par le serveur")
    settled(phone)  # the page read again after the refusal: the list redrawn in its place
    phone.look("1-refusee-apres-suppression", showing=page.locator(".pending-deals"))
    refused.get_by_role("button", name="Renvoyer").click()
    expect(page.get_by_role("status")).to_contain_text("Donne 4 enregistrée")
    expect(pending(page)).to_have_count(0)
    settled(phone)
    assert stored(round_)[-1] == (4, "David", "passed")
    settled(phone)
    assert phone.problems == []
    phone.close()


def test_a_deal_whose_answer_was_lost_is_stored_once(browser, live_server, secretary, empty_round):
    phone = open_entry_page(browser, live_server, secretary, empty_round, "reponse-perdue")
    page = phone.page
    posts = []

    def store_then_lose_the_answer(route):
        if route.request.method != "POST":
            route.continue_()
            return
        posts.append(route.fetch().status)  # the server stores the deal...
        route.abort("connectionreset")  # ...and the phone never hears back

    page.route(re.compile(r"/manches/\d+/saisie/"), store_then_lose_the_answer)
    passed_deal(page, "Alice")
    expect(page.get_by_role("status")).to_contain_text("Pas de réseau : la donne 1 est gardée sur ce")
    expect(pending(page)).to_have_count(1)
    assert posts == [200] and stored(empty_round) == [(1, "Alice", "passed")]
    phone.look("1-reponse-perdue", showing=page.locator(".offline-entry"))

    page.get_by_role("button", name="Réessayer").click()  # sent again, same one-time key
    expect(pending(page)).to_have_count(0)
    expect(page.get_by_role("status")).to_contain_text("Donne 1 enregistrée")
    expect(page.get_by_role("status")).to_contain_text("déjà été enregistré (envoi en double)")
    settled(phone)
    assert stored(empty_round) == [(1, "Alice", "passed")]
    settled(phone)
    assert phone.problems == []
    phone.close()


def test_a_deal_kept_while_the_round_changed_stays_on_the_phone_with_the_servers_message(
    browser, live_server, secretary, president, empty_round
):
    phone = open_entry_page(browser, live_server, secretary, empty_round, "manche-changee")
    page = phone.page
    phone.context.set_offline(True)
    passed_deal(page, "Alice")
    expect(pending(page)).to_have_count(1)

    # Meanwhile, the président enters a deal on his own phone.
    round_ = Round.objects.get(pk=empty_round.pk)
    services.add_deal(round_, {"dealer": player("Émile"), "kind": "passed"}, user=president.user)

    phone.context.set_offline(False)
    refused = pending(page).first
    expect(refused).to_contain_text("Donne 2 — refusée")  # the number it will have once sent again
    expect(refused).to_contain_text("La manche a été modifiée pendant que vous la lisiez : donne 1 ajoutée")
    expect(page.get_by_role("status")).to_contain_text("Donne 2 refusée par le serveur")
    phone.look("1-donne-refusee")
    assert stored(empty_round) == [(1, "Émile", "passed")]

    page.reload()  # still kept, with its message
    expect(pending(page).first).to_contain_text("La manche a été modifiée pendant que vous la lisiez")

    # A second deal waits behind the refused one; the secretary sends the first again, as the round now is.
    passed_deal(page, "Bruno")
    expect(pending(page)).to_have_count(2)
    assert stored(empty_round) == [(1, "Émile", "passed")]
    pending(page).first.get_by_role("button", name="Renvoyer").click()
    expect(page.get_by_role("status")).to_contain_text("Donne 3 enregistrée")
    expect(pending(page)).to_have_count(0)
    settled(phone)
    assert stored(empty_round) == [(1, "Émile", "passed"), (2, "Alice", "passed"), (3, "Bruno", "passed")]

    # A deal the server refuses again (the round submitted meanwhile) can be dropped from the phone.
    phone.context.set_offline(True)
    passed_deal(page, "Chloé")
    services.submit_round(Round.objects.get(pk=empty_round.pk), president.user)
    phone.context.set_offline(False)
    expect(pending(page).first).to_contain_text("La manche a été modifiée pendant que vous la lisiez")
    pending(page).first.get_by_role("button", name="Renvoyer").click()
    expect(pending(page).first).to_contain_text("Cette manche est soumise pour homologation : la remettre")
    settled(phone)  # the page read again after the refusal: the list in its place before the tap
    delete = pending(page).first.get_by_role("button", name="Supprimer")
    delete.click()
    pending(page).first.get_by_role("button", name="Confirmer la suppression").click()
    expect(pending(page)).to_have_count(0)
    settled(phone)
    assert len(stored(empty_round)) == 3
    settled(phone)
    assert phone.problems == []
    phone.close()


def test_a_save_shows_it_is_on_its_way_on_a_slow_line(browser, live_server, secretary, empty_round):
    phone = open_entry_page(browser, live_server, secretary, empty_round, "ligne-lente")
    page = phone.page
    network = phone.context.new_cdp_session(page)
    network.send("Network.enable")
    slow = {"offline": False, "latency": 2500, "downloadThroughput": 20_000, "uploadThroughput": 20_000}
    network.send("Network.emulateNetworkConditions", slow)

    passed_deal(page, "Alice")
    form = page.locator("#saisie form")
    button = form.get_by_role("button", name="Envoi…")
    expect(button).to_be_visible()
    expect(button).to_be_disabled()
    expect(form).to_have_attribute("aria-busy", "true")
    phone.look("1-envoi-en-cours", showing=button)

    expect(page.get_by_text("Donne 1 enregistrée.")).to_be_visible(timeout=30_000)
    expect(page.locator("#saisie form")).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("#saisie").get_by_role("button", name="Enregistrer la donne")).to_be_enabled()
    assert stored(empty_round) == [(1, "Alice", "passed")]
    settled(phone)
    assert phone.problems == []
    phone.close()
