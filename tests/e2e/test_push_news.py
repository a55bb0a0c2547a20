"""The member's news on his phone, in a real browser (Chromium at a phone's viewport, against the
live server, without the internet): the service worker's `push` handler shows a news as a
notification (a push delivered by the DevTools protocol, `ServiceWorker.deliverPushMessage`,
then read back with `registration.getNotifications()`), its `notificationclick` handler opens the
page it speaks of; « Moi » offers « Recevoir les nouvelles sur ce téléphone » where push is
possible, and on an iPhone's Safari says how to add the app to the home screen instead."""

import json
import time

import pytest
from playwright.sync_api import Error, expect

from tests.conftest import make_player
from tests.e2e import test_game_night as night
from tests.e2e.chromium import launch, requires_chromium

pytestmark = requires_chromium
expect.set_options(timeout=10_000)

IPHONE_SAFARI = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)


@pytest.fixture
def browser(shared_chromium):
    """Chromium itself (its headless shell delivers no push: tests/e2e/chromium.py), one of its
    own for each push test (launched by the shared browser's Playwright): on a clean clone under
    CI, a push delivered by the DevTools protocol to the shared browser once showed no
    notification within 15 s, and the cause is not found (the registration was the context's
    own, its worker activated). A fresh browser per push test is how these tests had always
    passed; it did not remove the failure (seen again on 3 December, see `PHONE_STATE`)."""
    own = launch(shared_chromium.browser_type, notifications=True)
    yield own
    own.close()


@pytest.fixture
def vapid(settings):
    from notifications.management.commands.vapid_keys import new_pair  # noqa: PLC0415

    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = new_pair()
    return settings


@pytest.fixture
def alice(season, vapid):
    return make_player("Alice")


LATE_SECONDS = 60.0  # how much longer a missing notification is waited for, to tell late from lost


def wait_for(condition, what, page, timeout=15.0):
    """`condition()` once true; the page's own wait between tries lets Playwright hear its events."""
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        assert time.monotonic() < deadline, f"toujours pas : {what}"
        page.wait_for_timeout(200)
    return found


def phone_on_moi(browser, live_server, name, **options):
    phone = night.Phone(browser, live_server.url, name)
    if options.get("permissions"):
        phone.context.grant_permissions(options["permissions"], origin=live_server.url)
    phone.context.set_default_timeout(20_000)
    night.log_in(phone.page, "alice")
    phone.page.goto("/")
    expect(phone.page.locator("#moi")).to_be_visible()
    return phone


def registration_id(cdp, live_server, page):
    """The service worker registration of the site, as the DevTools protocol names it."""
    found = {}
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: found.update(
            {r["scopeURL"]: r["registrationId"] for r in event["registrations"] if not r.get("isDeleted")}
        ),
    )
    cdp.send("ServiceWorker.enable")
    return wait_for(lambda: found.get(f"{live_server.url}/"), "l'enregistrement du service worker", page)


# The site's worker activated. Not « the page is controlled »: the login's redirect to « / » already
# registers the worker, and `page.goto("/")` just after may start its navigation before the worker
# claims the pages; that page then stays uncontrolled until the next one (as in any browser),
# although the worker is there and receives the pushes.
WORKER_ACTIVE = """async () => {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return Boolean(registration && registration.active && registration.active.state === "activated");
}"""

NOTIFICATIONS = """async () => {
  const registration = await navigator.serviceWorker.ready;
  const shown = await registration.getNotifications();
  return shown.map((n) => ({ title: n.title, body: n.body, url: n.data && n.data.url }));
}"""


# Said when no notification came: the permission, the site's workers and their states.
PHONE_STATE = """async () => {
  const states = (r) => ["installing", "waiting", "active"].map((k) => `${k}: ${r[k] ? r[k].state : "-"}`);
  const registrations = await navigator.serviceWorker.getRegistrations();
  return {
    permission: Notification.permission,
    controlled: Boolean(navigator.serviceWorker.controller),
    registrations: registrations.map((r) => `${r.scope} (${states(r).join(", ")})`),
  };
}"""


# In the worker, before the push: each call of `showNotification` noted with what became of it,
# said when no notification came (was the push handled, the notification refused, or shown then
# gone?). The site's handler still calls the real one, with the same arguments.
NOTE_SHOWN = """() => {
  const registration = self.registration;
  const show = registration.showNotification.bind(registration);
  self.shownForTheTest = [];
  registration.showNotification = (title, options) => {
    const call = { title, outcome: "en cours" };
    self.shownForTheTest.push(call);
    return show(title, options).then(
      (value) => { call.outcome = "affichée"; return value; },
      (error) => { call.outcome = `refusée : ${error}`; throw error; });
  };
}"""
SHOWN = """() => self.shownForTheTest === undefined
  ? "service worker relancé depuis la note (rien de noté)"
  : JSON.stringify(self.shownForTheTest)"""


def pushed(page, live_server, news):
    """`news` pushed to the phone's service worker, once it is activated (by the DevTools
    protocol, as a push service would deliver it); the notifications it then shows."""
    wait_for(lambda: page.evaluate(WORKER_ACTIVE), "le service worker", page)
    worker = wait_for(lambda: page.context.service_workers, "le service worker vu de Playwright", page)[0]
    worker.evaluate(NOTE_SHOWN)
    cdp = page.context.new_cdp_session(page)
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": live_server.url,
            "registrationId": registration_id(cdp, live_server, page),
            "data": json.dumps(news),
        },
    )
    try:
        return wait_for(lambda: page.evaluate(NOTIFICATIONS), "la notification", page)
    except AssertionError as missing:  # a rare failure whose cause is not found: what the phone was
        state = page.evaluate(PHONE_STATE)
        try:
            shown = f"showNotification : {worker.evaluate(SHOWN)}"
        except Error as closed:
            shown = f"service worker fermé ({closed.message})"
        raise AssertionError(f"{missing}\n{state}\n{shown}\n{late_or_lost(page)}") from None


def late_or_lost(page, seconds=LATE_SECONDS):
    """After the test has failed, whether the notification came late or not at all: evidence for
    the cause (the failure came back on 4 December, in a whole run on a loaded machine), never a
    second chance: the test has already failed."""
    start = time.monotonic()
    try:
        wait_for(lambda: page.evaluate(NOTIFICATIONS), "la notification", page, timeout=seconds)
    except AssertionError:
        return f"toujours rien {seconds:.0f} s plus tard"
    return f"arrivée {time.monotonic() - start:.1f} s plus tard"


def test_a_pushed_news_is_shown_and_its_tap_opens_its_page(browser, live_server, alice):
    phone = phone_on_moi(browser, live_server, "push", permissions=["notifications"])
    page = phone.page
    expect(page.get_by_role("button", name="Recevoir les nouvelles sur ce téléphone")).to_be_visible()
    phone.look("offre", page.locator("#nouvelles"))
    news = {
        "title": "Table confirmée",
        "text": "Soirée du mardi 3 mars à 20 h 30 : vous êtes au moins quatre.",
        "url": "/soirees/",
    }
    shown = pushed(page, live_server, news)
    assert shown == [{"title": news["title"], "body": news["text"], "url": f"{live_server.url}/soirees/"}]

    # A tap on it: the handler closes it and opens its page (the worker's `clients.openWindow`
    # recorded here: a window opens only from a real tap, which the protocol cannot give).
    worker = phone.context.service_workers[0]
    opened = worker.evaluate(
        """async () => {
          const opened = [];
          self.clients.openWindow = (url) => { opened.push(url); return Promise.resolve(null); };
          const [notification] = await self.registration.getNotifications();
          let work = Promise.resolve();
          const tap = new NotificationEvent("notificationclick", { notification });
          Object.defineProperty(tap, "waitUntil", { value: (promise) => { work = promise; } });
          self.dispatchEvent(tap);
          await work;
          return { opened, left: (await self.registration.getNotifications()).length };
        }"""
    )
    assert opened == {"opened": [f"{live_server.url}/soirees/"], "left": 0}
    assert phone.problems == []
    phone.close()


def test_a_link_elsewhere_opens_the_home_page(browser, live_server, alice):
    phone = phone_on_moi(browser, live_server, "push-ailleurs", permissions=["notifications"])
    page = phone.page
    shown = pushed(page, live_server, {"title": "Piège", "text": "…", "url": "https://ailleurs.example/"})
    assert shown[0]["url"] == f"{live_server.url}/"
    phone.close()


def test_an_iphone_in_safari_is_told_to_add_the_app_to_the_home_screen(browser, live_server, alice):
    phone = night.Phone(browser, live_server.url, "iphone")
    phone.context.close()
    phone.context = browser.new_context(
        base_url=live_server.url, **{**night.PHONE, "user_agent": IPHONE_SAFARI}
    )
    # Safari in a tab has no Push API: only the app added to the home screen has it.
    phone.context.add_init_script("delete window.PushManager;")
    phone.page = phone.context.new_page()
    phone.page.on("pageerror", lambda error: phone.problems.append(f"script: {error}"))
    night.log_in(phone.page, "alice")
    phone.page.goto("/")
    box = phone.page.locator("#nouvelles")
    expect(box.get_by_text("Sur iPhone, les nouvelles n'arrivent qu'à Tarot-Bière ajouté")).to_be_visible()
    expect(box.get_by_text("Sur l'écran d'accueil", exact=False)).to_be_visible()
    expect(box.get_by_role("button", name="Recevoir les nouvelles sur ce téléphone")).to_be_hidden()
    phone.look("iphone", box)
    assert phone.problems == []
    phone.close()


def test_the_account_page_lists_the_phones_and_the_choices(browser, live_server, alice):
    from notifications.models import PushSubscription  # noqa: PLC0415

    PushSubscription.objects.create(
        user=alice.user,
        endpoint="https://fcm.googleapis.com/fcm/send/secret-part-123",
        p256dh="x",
        auth="y",
        label="Android · Chrome",
    )
    phone = night.Phone(browser, live_server.url, "compte-nouvelles")
    night.log_in(phone.page, "alice")
    phone.page.goto("/compte/")
    section = phone.page.locator("#rappels")
    expect(section.get_by_text("Android · Chrome")).to_be_visible()
    expect(section).not_to_contain_text("secret-part-123")
    table = section.locator("table.news-choices")
    expect(table.get_by_role("checkbox", name="Table confirmée (téléphone)")).to_be_checked()
    expect(table.get_by_role("checkbox", name="Table confirmée (courriel)")).not_to_be_checked()
    phone.look("compte", table)
    table.get_by_role("checkbox", name="Table confirmée (téléphone)").uncheck()
    section.get_by_role("button", name="Enregistrer mes choix").click()
    expect(phone.page.get_by_text("Vos choix sont enregistrés", exact=False)).to_be_visible()
    section.get_by_role("button", name="retirer").click()
    expect(phone.page.get_by_text("Ce téléphone ne recevra plus vos nouvelles.")).to_be_visible()
    assert not PushSubscription.objects.exists()
    assert alice.reminder_preference.push_table_confirmed is False
    assert phone.problems == []
    phone.close()
