"""Who gets what: every URL pattern of the site × every role × GET and POST, against a table.

The patterns are read from Django's resolver (the site, the accounts pages, the admin), so a new
URL that is not in TABLE fails the test: whoever adds one says here who may open it. Each row gives
a concrete path in a small world (a season, a draft, a submitted and a homologated round with its
report, players, officials), and the expected class of answer for each role, in ROLES order:

    200  the page          log  a redirect to a login page     302  another redirect
    403  refused           404  not found (or not shown)       405  method not allowed

POST requests carry no data (and the test client skips the CSRF check): a view that acts on a
bare POST acts, inside a savepoint rolled back after each request, so every cell sees the same
world. Every answer to a logged-in account, whatever its class, is `Cache-Control: private,
no-store` (a shared phone: tests/federation/test_shared_phone.py). One loop, one report listing
every mismatch.

« by_link » is a member who opened his private link on his phone (federation.private_links): the
season's vice-president, whose account is staff and superuser besides, answered as the member he
is there and nothing more (no role, no admin: federation.roles).
"""

import copy
import datetime
import logging
from types import SimpleNamespace

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.test import Client
from django.urls import URLResolver, get_resolver, resolve, reverse
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from championship.models import ChampionshipLine, Report, Round
from championship.rounds.table_link import table_path, table_token
from federation import private_links
from federation.models import Official, Player
from gamenights import links
from gamenights.services import schedule_night
from notifications import links as reminder_links
from notifications.models import News, PushSubscription
from notifications.services import request_email_change
from tests.factories import make_round
from webhooks.models import Delivery, Webhook

ROLES = ("anonymous", "member", "winner", "secretary", "board", "staff", "superuser", "by_link")


def routes(patterns=None, prefix=""):
    """Every URL pattern of the site, as the route string Django's resolver reports (which drops
    the leading ^ of a regular expression)."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern).removeprefix("^")
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, route)
        else:
            yield route


@pytest.fixture
def world(season, member, secretary, president):
    """The rounds all have the docs/feuille.md example's deals: Bruno wins each, and writes its report."""
    homologated = make_round(season, status=Round.HOMOLOGATED)
    submitted = make_round(season, status=Round.SUBMITTED, date=datetime.date(2010, 11, 26))
    draft = make_round(
        season,
        date=datetime.date(2010, 12, 3),
        adjustments=[("Émile", "retard", -1, "arrivé à 21h30")],
    )
    winner = Player.objects.get(name="Bruno")
    winner.user = get_user_model().objects.create_user(username="bruno", password="secret-pass-1")
    winner.save()
    report = Report.objects.create(
        round=homologated, author=winner, text="Belle soirée.", filed_on=homologated.date
    )
    users = get_user_model().objects
    staff = users.create_user(username="equipe", password="secret-pass-1", is_staff=True)
    superuser = users.create_superuser(username="root", email="root@example.org", password="secret-pass-1")
    attempt = AccessAttempt.objects.create(
        username="x",
        ip_address="192.0.2.1",
        user_agent="t",
        failures_since_start=1,
        attempt_time=homologated.created_at,
    )
    access_log = AccessLog.objects.create(username="x", ip_address="192.0.2.1", user_agent="t")
    failure_log = AccessFailureLog.objects.create(username="x", ip_address="192.0.2.1", user_agent="t")
    night = schedule_night(season, date=datetime.date(2010, 12, 10), place="Chez Steph", host=member)
    email_change = request_email_change(member.user, "membre.neuf@example.org")
    phone = PushSubscription.objects.create(
        user=member.user, endpoint="https://fcm.googleapis.com/fcm/send/essai", p256dh="x", auth="y"
    )
    news = News.objects.create(
        recipient=member,
        channel="push",
        subscription=phone,
        target=f"push:{phone.pk}",
        key="essai",
        event="seat",
        subject_id=1,
    )
    # Inactive: the acts of the table announce nothing.
    webhook = Webhook.objects.create(
        name="Discussion", url="https://chat.example.org/hook/secret", active=False
    )
    delivery = Delivery.objects.create(webhook=webhook, key="essai", event="night_moved", body={})
    vice = Player.objects.create(
        name="Vice",
        user=users.create_superuser(username="vice", email="v@example.org", password="secret-pass-1"),
    )
    Official.objects.create(season=season, player=vice, role=Official.VICE_PRESIDENT)
    # A second factor, of an account outside the roles tried (the admin lists and removes it).
    holder = users.create_user(username="porteur", password="secret-pass-1")
    totp_device = TOTPDevice.objects.create(user=holder, name="app", confirmed=True)
    static_device = StaticDevice.objects.create(user=holder, name="codes", confirmed=True)
    return SimpleNamespace(
        totp_device=totp_device,
        static_device=static_device,
        season=season,
        night=night,
        webhook=webhook,
        delivery=delivery,
        answer_token=links.answer_token(night, member),
        feed_token=links.feed_token(member),
        unsubscribe_token=reminder_links.unsubscribe_token(member, "night"),
        email_change=email_change,
        phone=phone,
        news=news,
        email_token=reminder_links.email_confirmation_token(email_change),
        homologated=homologated,
        submitted=submitted,
        draft=draft,
        report=report,
        deal=draft.deals.get(number=1),
        adjustment=draft.adjustments.get(),
        line=ChampionshipLine.objects.filter(round=homologated).first(),
        member=member,
        official=Official.objects.get(player=president),
        group=Group.objects.create(name="Direction"),
        attempt=attempt,
        access_log=access_log,
        failure_log=failure_log,
        round_type=ContentType.objects.get_for_model(Round),
        users={
            "anonymous": None,
            "member": member.user,
            "winner": winner.user,
            "secretary": secretary.user,
            "board": president.user,
            "staff": staff,
            "superuser": superuser,
            "by_link": vice.user,
        },
        vice=vice,
        vice_secret=private_links.issue(vice),
    )


def answer_class(response):
    if response.status_code in (301, 302):
        location = response["Location"].split("?")[0]
        return "log" if location in (reverse("login"), reverse("admin:login")) else "302"
    return str(response.status_code)


# Answers by role, in ROLES order: anonymous, member, winner, secretary, board, staff, superuser,
# by_link.
EVERYONE = "200 200 200 200 200 200 200 200"
NOBODY_POSTS = "405 405 405 405 405 405 405 405"
NOT_FOUND = "404 404 404 404 404 404 404 404"  # a format that does not exist
REFUSED = "403 403 403 403 403 403 403 403"
EVERYONE_REDIRECTED = "302 302 302 302 302 302 302 302"
MEMBERS = "log 200 200 200 200 200 200 200"  # any logged-in account
MEMBERS_POST_NOTHING = "log 405 405 405 405 405 405 405"  # login first, then only POST is refused
ENTRY = "log 403 403 200 200 403 200 403"  # the season's secretary and board (a superuser is board)
ENTRY_ACTS = "log 403 403 302 302 403 302 403"  # ... who act and are sent back to the page
ENTRY_NOT_HERE = "log 403 403 404 404 403 404 403"  # ... for whom the page does not exist here
ENTRY_READS = "404 404 404 200 200 404 200 404"  # hidden from everyone else
AUTHOR_READS = "404 404 200 200 200 404 200 404"  # ... except the report's author
SEATED_ACTS = "log 403 302 403 403 403 403 403"  # a player seated at the round (« winner »), sent back
TABLE_OR_ENTRY = "log 403 200 200 200 403 200 403"  # ... or who enters rounds (secretary, board)
BOARD = "log 403 403 403 200 403 200 403"
BOARD_ACTS = "log 403 403 403 302 403 302 403"
AUTHOR_OR_BOARD = "log 403 200 403 200 403 200 403"
STAFF = "log log log log log 200 200 log"  # the admin: staff accounts only
STAFF_POST_NOTHING = "log log log log log 405 405 log"
STAFF_REDIRECTED = "log log log log log 302 302 log"
STAFF_NOT_FOUND = "log log log log log 404 404 log"
SUPERUSER = "log log log log log 403 200 log"  # an admin page needing a right: staff without it is refused
SUPERUSER_ACTS = "log log log log log 403 302 log"
SUPERUSER_404 = "log log log log log 404 200 log"  # an app page of the admin, absent without any right
NO_ONE = "log log log log log 403 403 log"
BOARD_INVALID = "log 403 403 403 400 403 400 403"  # the board's form, refused with its errors
PLAYERS_INVALID = "log 400 400 400 400 403 403 400"  # accounts of a player (staff and root have none)
HOLDER = "200 200 403 403 403 403 403 403"  # a link of the member's: no session, or his own
EVERYONE_INVALID = "400 400 400 400 400 400 400 400"  # read-only in the admin: refused even to a superuser
LOGGED_OUT = "log log log log log log log log"  # sent to the login page, whoever asks
OFFICIALS_ACT = "log 403 403 302 302 302 302 403"  # officials, staff and superusers (the second factor)


def model_rows(app_model, obj, **expected):
    """The six URL patterns the admin gives a registered model (`obj(world)`: one of its objects);
    `expected`: (GET, POST) for changelist, add, history, delete, change and the bare object URL
    (a redirect to its change page)."""
    base = f"admin/{app_model}/"

    def at(suffix):
        return lambda w: f"/{base}{suffix(w) if callable(suffix) else suffix}"

    return {
        base: [(at(""), *expected["changelist"])],
        base + "add/": [(at("add/"), *expected["add"])],
        base + "<path:object_id>/history/": [(at(lambda w: f"{obj(w).pk}/history/"), *expected["history"])],
        base + "<path:object_id>/delete/": [(at(lambda w: f"{obj(w).pk}/delete/"), *expected["delete"])],
        base + "<path:object_id>/change/": [(at(lambda w: f"{obj(w).pk}/change/"), *expected["change"])],
        base + "<path:object_id>/": [(at(lambda w: f"{obj(w).pk}/"), STAFF_REDIRECTED, STAFF_REDIRECTED)],
    }


EDITABLE = {
    "changelist": (SUPERUSER, SUPERUSER),
    "add": (SUPERUSER, SUPERUSER),
    "history": (SUPERUSER, SUPERUSER),
    "delete": (SUPERUSER, SUPERUSER),  # a POST without "post=yes" only asks to confirm
    "change": (SUPERUSER, SUPERUSER),  # an empty form: refused with its errors
}
# Entered on the site only (championship.admin): read, never added, changed or deleted in the admin.
ENTERED_ON_THE_SITE = {
    **EDITABLE,
    "add": (NO_ONE, NO_ONE),
    "change": (SUPERUSER, NO_ONE),
    "delete": (NO_ONE, NO_ONE),
}
# The axes log: read and deleted (to lift a lockout), not added; a bare POST saves nothing to save.
LOGIN_RECORDS = {**EDITABLE, "add": (NO_ONE, NO_ONE), "change": (SUPERUSER, SUPERUSER_ACTS)}
# A second factor (federation.admin.ListAndRemoveOnly): read and removed, never added nor changed.
SECOND_FACTORS = {**ENTERED_ON_THE_SITE, "delete": (SUPERUSER, SUPERUSER)}


def history_row(app_model, obj):
    """django-simple-history's page of one past version of an object: read, never saved back."""
    route = f"admin/{app_model}/([^/]+)/history/([^/]+)/$"
    path = lambda w: f"/admin/{app_model}/{obj(w).pk}/history/{obj(w).history.first().history_id}/"  # noqa: E731
    return {route: [(path, SUPERUSER, NO_ONE)]}


def season_path(suffix=""):
    return lambda w: f"/saisons/{w.season.name}/{suffix}"


def night_path(suffix=""):
    return lambda w: f"/soirees/{w.night.pk}/{suffix}"


def round_path(round_name, suffix=""):
    return lambda w: f"/manches/{getattr(w, round_name).pk}/{suffix}"


TABLE = {
    # --- public pages (a POST to a page without a form is read as a GET, or refused) ---
    "": [(lambda w: "/", EVERYONE, EVERYONE)],
    "saisons/": [(lambda w: "/saisons/", EVERYONE, NOBODY_POSTS)],
    "saisons/<str:name>/": [(season_path(), EVERYONE, NOBODY_POSTS)],
    "saisons/<str:name>/accessits/": [(season_path("accessits/"), EVERYONE, NOBODY_POSTS)],
    "saisons/<str:name>/joueurs/<int:pk>/": [
        (lambda w: f"/saisons/{w.season.name}/joueurs/{w.report.author.pk}/", EVERYONE, NOBODY_POSTS)
    ],
    "joueurs/<int:pk>/": [(lambda w: f"/joueurs/{w.report.author.pk}/", EVERYONE, NOBODY_POSTS)],
    "saisons/<str:name>/coupe/": [(season_path("coupe/"), EVERYONE, NOBODY_POSTS)],
    "saisons/<str:name>/coupe/qualifications/": [
        (season_path("coupe/qualifications/"), EVERYONE, NOBODY_POSTS)
    ],
    "saisons/<str:name>/bulletin.pdf": [(season_path("bulletin.pdf"), EVERYONE, NOBODY_POSTS)],
    # the statistics (issue 25): public, read only
    "joueurs/<int:pk>/statistiques/": [
        (lambda w: f"/joueurs/{w.report.author.pk}/statistiques/", EVERYONE, NOBODY_POSTS)
    ],
    "joueurs/<int:pk>/statistiques/<str:figure>/": [
        (lambda w: f"/joueurs/{w.report.author.pk}/statistiques/take/", EVERYONE, NOBODY_POSTS)
    ],
    "joueurs/<int:a>/face-a-face/<int:b>/": [
        (
            lambda w: f"/joueurs/{w.report.author.pk}/face-a-face/{w.official.player.pk}/",
            EVERYONE,
            NOBODY_POSTS,
        )
    ],
    "saisons/<str:name>/partenaires/": [(season_path("partenaires/"), EVERYONE, NOBODY_POSTS)],
    "saisons/<str:name>/cote/": [(season_path("cote/"), EVERYONE, NOBODY_POSTS)],
    "palmares/": [(lambda w: "/palmares/", EVERYONE, NOBODY_POSTS)],
    # Atom feeds: public, homologated rounds and published reports only (a POST reads them too).
    "manches.atom": [(lambda w: "/manches.atom", EVERYONE, EVERYONE)],
    "comptes-rendus.atom": [(lambda w: "/comptes-rendus.atom", EVERYONE, EVERYONE)],
    "saisons/<str:name>/manches.atom": [(season_path("manches.atom"), EVERYONE, EVERYONE)],
    "saisons/<str:name>/comptes-rendus.atom": [(season_path("comptes-rendus.atom"), EVERYONE, EVERYONE)],
    # The list shows everyone the homologated rounds, and the others to who enters them.
    "saisons/<str:season_name>/manches/": [(season_path("manches/"), EVERYONE, EVERYONE)],
    # --- a round: public once homologated ---
    "manches/<int:pk>/": [
        (round_path("homologated"), EVERYONE, EVERYONE),
        (round_path("submitted"), ENTRY_READS, ENTRY_READS),
        (round_path("draft"), ENTRY_READS, ENTRY_READS),
    ],
    # The live view for the table (views.table, access.may_follow_live): before homologation,
    # the players seated at the round (« winner », Bruno), the secretary and the board (the
    # players at the table sign in once on their phone); once homologated, any logged-in member.
    # Only a seated player signs the sheet, a bare POST sending him back with the form's errors.
    "manches/<int:pk>/direct/": [
        (round_path("draft", "direct/"), TABLE_OR_ENTRY, MEMBERS_POST_NOTHING),
        (round_path("submitted", "direct/"), TABLE_OR_ENTRY, MEMBERS_POST_NOTHING),
        (round_path("homologated", "direct/"), MEMBERS, MEMBERS_POST_NOTHING),
    ],
    "manches/<int:pk>/direct/suivi/": [
        (round_path("draft", "direct/suivi/"), TABLE_OR_ENTRY, MEMBERS_POST_NOTHING),
        (round_path("submitted", "direct/suivi/"), TABLE_OR_ENTRY, MEMBERS_POST_NOTHING),
        (round_path("homologated", "direct/suivi/"), MEMBERS, MEMBERS_POST_NOTHING),
    ],
    "manches/<int:pk>/signature/": [
        (round_path("draft", "signature/"), MEMBERS_POST_NOTHING, SEATED_ACTS),
        (round_path("homologated", "signature/"), MEMBERS_POST_NOTHING, SEATED_ACTS),
    ],
    # The table link (the QR code of the entry page): anyone who holds it, that round only, until
    # homologation; then a page saying the round is published. Signing by code: a phone without
    # an account that opened the table link (test_a_table_link_opens_its_round_only).
    "manches/<int:pk>/table/<str:token>/": [
        (lambda w: table_path(w.draft), EVERYONE_REDIRECTED, NOBODY_POSTS),
        (lambda w: table_path(w.homologated), EVERYONE, NOBODY_POSTS),
        (lambda w: f"/manches/{w.draft.pk}/table/{table_token(w.homologated)}/", NOT_FOUND, NOBODY_POSTS),
    ],
    "manches/<int:pk>/signature/code/": [
        (round_path("draft", "signature/code/"), NOBODY_POSTS, REFUSED),
        (round_path("homologated", "signature/code/"), NOBODY_POSTS, REFUSED),
    ],
    "manches/modele.<str:fmt>": [
        (lambda w: "/manches/modele.xlsx", EVERYONE, NOBODY_POSTS),
        (lambda w: "/manches/modele.ods", EVERYONE, NOBODY_POSTS),
        (lambda w: "/manches/modele.pdf", NOT_FOUND, NOBODY_POSTS),
    ],
    "manches/<int:pk>/classeur.<str:fmt>": [
        (round_path("homologated", "classeur.xlsx"), EVERYONE, NOBODY_POSTS),
        (round_path("draft", "classeur.ods"), ENTRY_READS, NOBODY_POSTS),
    ],
    "saisons/<str:name>/classeur.<str:fmt>": [
        (season_path("classeur.ods"), EVERYONE, NOBODY_POSTS),
        (season_path("classeur.xlsx"), EVERYONE, NOBODY_POSTS),
    ],
    "manches/<int:pk>/feuille.json": [
        (round_path("homologated", "feuille.json"), EVERYONE, NOBODY_POSTS),
        (round_path("draft", "feuille.json"), ENTRY_READS, NOBODY_POSTS),
    ],
    # --- entering rounds: the secretary and the board; a homologated round, the board alone ---
    "saisons/<str:season_name>/manches/nouvelle/": [(season_path("manches/nouvelle/"), ENTRY, ENTRY)],
    "manches/importer/": [(lambda w: "/manches/importer/", ENTRY, ENTRY)],
    # a past season from a totals table: the board of some season (creating one: superusers only)
    "saisons/importer/": [(lambda w: "/saisons/importer/", BOARD, BOARD)],
    "manches/<int:pk>/saisie/": [
        (round_path("draft", "saisie/"), ENTRY, ENTRY),
        (round_path("submitted", "saisie/"), ENTRY, ENTRY),
        (round_path("homologated", "saisie/"), BOARD, BOARD),
    ],
    "manches/<int:pk>/donnes/<int:number>/": [
        (round_path("draft", "donnes/1/"), ENTRY, ENTRY),
        (round_path("homologated", "donnes/1/"), BOARD, BOARD),
    ],
    # The deal scored as it is typed, never stored: a bare POST shows what is missing.
    "manches/<int:pk>/apercu/": [
        (round_path("draft", "apercu/"), MEMBERS_POST_NOTHING, ENTRY),
        (round_path("homologated", "apercu/"), MEMBERS_POST_NOTHING, BOARD),
    ],
    "manches/<int:pk>/donnes/<int:number>/apercu/": [
        (round_path("draft", "donnes/1/apercu/"), MEMBERS_POST_NOTHING, ENTRY),
        (round_path("homologated", "donnes/1/apercu/"), MEMBERS_POST_NOTHING, BOARD),
    ],
    # A deal kept on the phone offline, sent when the network returns: a bare POST is refused in JSON.
    "manches/<int:pk>/donnes/envoi/": [
        # A bare POST names no account: refused as a deal kept by another (409), once rights pass.
        (round_path("draft", "donnes/envoi/"), MEMBERS_POST_NOTHING, "log 403 403 409 409 403 409 403"),
        (round_path("homologated", "donnes/envoi/"), MEMBERS_POST_NOTHING, "log 403 403 403 409 403 409 403"),
    ],
    # The paper sheet's totals: a bare POST shows the entry page with the form's errors.
    "manches/<int:pk>/feuille-papier/": [
        (round_path("draft", "feuille-papier/"), MEMBERS_POST_NOTHING, ENTRY),
        (round_path("homologated", "feuille-papier/"), MEMBERS_POST_NOTHING, BOARD),
    ],
    "manches/<int:pk>/donnes/<int:number>/supprimer/": [
        (round_path("draft", "donnes/1/supprimer/"), MEMBERS_POST_NOTHING, ENTRY_ACTS),
        # On a homologated round a deletion needs a motif: the bare POST shows the form again.
        (round_path("homologated", "donnes/1/supprimer/"), MEMBERS_POST_NOTHING, BOARD),
    ],
    # « Annuler » just after a deal is saved: a bare POST (no version) is sent back to the page.
    "manches/<int:pk>/donnes/<int:number>/annuler/": [
        (round_path("draft", "donnes/1/annuler/"), MEMBERS_POST_NOTHING, ENTRY_ACTS),
        (round_path("homologated", "donnes/1/annuler/"), MEMBERS_POST_NOTHING, BOARD_ACTS),
    ],
    "manches/<int:pk>/bonus/": [
        (round_path("draft", "bonus/"), MEMBERS_POST_NOTHING, ENTRY),  # the form, with its errors
        (round_path("homologated", "bonus/"), MEMBERS_POST_NOTHING, BOARD),
    ],
    "manches/<int:pk>/bonus/<int:adjustment_pk>/supprimer/": [
        (
            lambda w: f"/manches/{w.draft.pk}/bonus/{w.adjustment.pk}/supprimer/",
            MEMBERS_POST_NOTHING,
            ENTRY_ACTS,
        )
    ],
    "manches/<int:pk>/couleurs/": [
        (round_path("draft", "couleurs/"), MEMBERS_POST_NOTHING, ENTRY_ACTS),
        (round_path("homologated", "couleurs/"), MEMBERS_POST_NOTHING, BOARD),
    ],
    # Totals are entered only for a round without deals.
    "manches/<int:pk>/totaux/": [(round_path("draft", "totaux/"), MEMBERS_POST_NOTHING, ENTRY_NOT_HERE)],
    "manches/<int:pk>/soumettre/": [(round_path("draft", "soumettre/"), MEMBERS_POST_NOTHING, ENTRY_ACTS)],
    "manches/<int:pk>/homologuer/": [
        # GET: the confirmation, with the round's totals; a homologated round sends back to its page.
        (round_path("submitted", "homologuer/"), BOARD, BOARD_ACTS),
        (round_path("homologated", "homologuer/"), BOARD_ACTS, BOARD_ACTS),
    ],
    "manches/<int:pk>/brouillon/": [
        (round_path("submitted", "brouillon/"), MEMBERS_POST_NOTHING, ENTRY_ACTS),
        (
            round_path("homologated", "brouillon/"),
            MEMBERS_POST_NOTHING,
            BOARD_ACTS,
        ),  # refused, with a message
    ],
    "manches/<int:pk>/supprimer/": [
        (round_path("draft", "supprimer/"), ENTRY, ENTRY),  # a POST without a reason: the form again
        (round_path("homologated", "supprimer/"), BOARD_ACTS, BOARD_ACTS),  # refused, with a message
    ],
    "saisons/<str:name>/reglement/": [(season_path("reglement/"), BOARD, BOARD)],
    # --- reports: public once the round is homologated; written by its author and the board ---
    "manches/<int:pk>/compte-rendu/": [
        (round_path("homologated", "compte-rendu/"), EVERYONE, NOBODY_POSTS),
        (round_path("submitted", "compte-rendu/"), AUTHOR_READS, NOBODY_POSTS),
        (round_path("draft", "compte-rendu/"), AUTHOR_READS, NOBODY_POSTS),
    ],
    "manches/<int:pk>/compte-rendu.pdf": [
        (round_path("homologated", "compte-rendu.pdf"), EVERYONE, NOBODY_POSTS),
        (round_path("draft", "compte-rendu.pdf"), AUTHOR_READS, NOBODY_POSTS),
    ],
    "manches/<int:pk>/compte-rendu/modifier/": [
        (round_path("homologated", "compte-rendu/modifier/"), AUTHOR_OR_BOARD, AUTHOR_OR_BOARD),
        (round_path("submitted", "compte-rendu/modifier/"), AUTHOR_OR_BOARD, AUTHOR_OR_BOARD),
        (round_path("draft", "compte-rendu/modifier/"), BOARD, BOARD),  # the author waits for the round
    ],
    # --- the calendar (gamenights): public pages and feeds; the board schedules; members answer ---
    "calendrier/": [(lambda w: "/calendrier/", EVERYONE, NOBODY_POSTS)],
    "calendrier.ics": [(lambda w: "/calendrier.ics", EVERYONE, NOBODY_POSTS)],
    "calendrier/membre/<str:token>.ics": [
        (lambda w: f"/calendrier/membre/{w.feed_token}.ics", EVERYONE, NOBODY_POSTS),
        (lambda w: "/calendrier/membre/faux.ics", NOT_FOUND, NOBODY_POSTS),
    ],
    "saisons/<str:name>/calendrier/": [(season_path("calendrier/"), EVERYONE, NOBODY_POSTS)],
    "saisons/<str:name>/calendrier.ics": [(season_path("calendrier.ics"), EVERYONE, NOBODY_POSTS)],
    "saisons/<str:name>/soirees/nouvelle/": [(season_path("soirees/nouvelle/"), BOARD, BOARD)],
    "soirees/<int:pk>/": [(night_path(), EVERYONE, NOBODY_POSTS)],
    "soirees/<int:pk>/modifier/": [(night_path("modifier/"), BOARD, BOARD)],
    # The cup's nights (the seeding of this small world is not known): a POST naming no night
    # shows the page again.
    "saisons/<str:name>/calendrier/coupe/": [(season_path("calendrier/coupe/"), BOARD, BOARD)],
    # A bare POST: the night's page again with the form's errors (400) for who may act.
    "soirees/<int:pk>/annuler/": [(night_path("annuler/"), MEMBERS_POST_NOTHING, BOARD_INVALID)],
    "soirees/<int:pk>/reponse/": [(night_path("reponse/"), MEMBERS_POST_NOTHING, PLAYERS_INVALID)],
    "soirees/<int:pk>/reponse-pour/": [(night_path("reponse-pour/"), MEMBERS_POST_NOTHING, BOARD_INVALID)],
    # The signed link of an e-mail: anyone who holds it (a forged one is not found).
    "soirees/<int:pk>/reponse/<str:token>/": [
        (lambda w: f"/soirees/{w.night.pk}/reponse/{w.answer_token}/", EVERYONE, EVERYONE_INVALID),
        (lambda w: f"/soirees/{w.night.pk}/reponse/faux/", NOT_FOUND, NOT_FOUND),
    ],
    "soirees/<int:pk>/confirmer/": [(night_path("confirmer/"), MEMBERS_POST_NOTHING, BOARD_ACTS)],
    # --- reminders (notifications): the account page, and the one-click link of a reminder ---
    # A bare POST: the choices' form again with its errors; an account without a player has none.
    "compte/": [(lambda w: "/compte/", MEMBERS, "log 400 400 400 400 400 400 400")],
    # « Renouveler l'adresse » of the member's own calendar: a POST of an account of a player.
    "compte/calendrier/renouveler/": [
        (lambda w: "/compte/calendrier/renouveler/", MEMBERS_POST_NOTHING, "log 302 302 302 302 403 403 302")
    ],
    # A phone's push subscription, posted as JSON by « Moi » (a bare POST: unreadable, 400) for
    # an account of a player; removed by its member only (another's is not found).
    "compte/telephones/nouvelles/": [
        (lambda w: "/compte/telephones/nouvelles/", MEMBERS_POST_NOTHING, "log 400 400 400 400 403 403 400")
    ],
    "compte/telephones/nouvelles/<int:pk>/retirer/": [
        (
            lambda w: f"/compte/telephones/nouvelles/{w.phone.pk}/retirer/",
            MEMBERS_POST_NOTHING,
            "log 302 404 404 404 404 404 404",
        )
    ],
    # The signed link of a reminder: anyone who holds it; GET asks, POST unsubscribes (no CSRF).
    "compte/rappels/desinscription/<str:token>/": [
        (lambda w: f"/compte/rappels/desinscription/{w.unsubscribe_token}/", EVERYONE, EVERYONE),
        (lambda w: "/compte/rappels/desinscription/faux/", NOT_FOUND, NOT_FOUND),
    ],
    # His own address: the form (a bare POST: its errors), then the link mailed to the new
    # address, which needs no login but is refused to another account's session (403).
    "compte/adresse/": [(lambda w: "/compte/adresse/", MEMBERS, "log 400 400 400 400 400 400 400")],
    "compte/adresse/confirmer/<str:token>/": [
        (lambda w: f"/compte/adresse/confirmer/{w.email_token}/", HOLDER, HOLDER),
        (lambda w: "/compte/adresse/confirmer/faux/", NOT_FOUND, NOT_FOUND),
    ],
    # --- a member's private link (federation.private_link_views) ---
    # Its page: GET shows the form; a bare POST is an unknown link (404, counted for the address).
    "moi/lien/": [(lambda w: "/moi/lien/", EVERYONE, NOT_FOUND)],
    "compte/lien/renouveler/": [
        (lambda w: "/compte/lien/renouveler/", MEMBERS_POST_NOTHING, "log 200 200 200 200 403 403 200")
    ],
    # One of his phones logged out: the member's own only (the by_link identity's phone here).
    "compte/telephones/<int:pk>/deconnecter/": [
        (
            lambda w: f"/compte/telephones/{w.vice.phone_sessions.get().pk}/deconnecter/",
            MEMBERS_POST_NOTHING,
            "log 404 404 404 404 404 404 302",
        )
    ],
    # The board hands the links out: the current season's board, by its password.
    "direction/liens/": [(lambda w: "/direction/liens/", BOARD, MEMBERS_POST_NOTHING)],
    "direction/liens/<int:pk>/": [
        (
            lambda w: f"/direction/liens/{w.member.pk}/",
            MEMBERS_POST_NOTHING,
            "log 403 403 403 200 403 200 403",
        )
    ],
    # --- accounts ---
    "connexion/": [(lambda w: "/connexion/", EVERYONE, EVERYONE)],
    "deconnexion/": [(lambda w: "/deconnexion/", NOBODY_POSTS, EVERYONE_REDIRECTED)],
    "compte/mot-de-passe/": [(lambda w: "/compte/mot-de-passe/", MEMBERS, MEMBERS)],
    "compte/mot-de-passe/change/": [
        (lambda w: "/compte/mot-de-passe/change/", MEMBERS, MEMBERS_POST_NOTHING)
    ],
    "compte/mot-de-passe-oublie/": [(lambda w: "/compte/mot-de-passe-oublie/", EVERYONE, EVERYONE)],
    "compte/mot-de-passe-oublie/envoye/": [
        (lambda w: "/compte/mot-de-passe-oublie/envoye/", EVERYONE, NOBODY_POSTS)
    ],
    "compte/reinitialiser/<uidb64>/<token>/": [
        (
            lambda w: "/compte/reinitialiser/Mg/lien-invalide/",
            EVERYONE,
            EVERYONE,
        )  # "this link is no longer valid"
    ],
    "compte/reinitialiser/termine/": [(lambda w: "/compte/reinitialiser/termine/", EVERYONE, NOBODY_POSTS)],
    # Officials' second factor (federation.two_step): the code page needs a password given first.
    "connexion/code/": [(lambda w: "/connexion/code/", LOGGED_OUT, LOGGED_OUT)],
    "compte/seconde-verification/ajouter/": [
        (lambda w: "/compte/seconde-verification/ajouter/", MEMBERS_POST_NOTHING, OFFICIALS_ACT)
    ],
    "compte/seconde-verification/": [  # no device being added: back to the account page
        (lambda w: "/compte/seconde-verification/", OFFICIALS_ACT, OFFICIALS_ACT)
    ],
    "compte/seconde-verification/codes/": [  # shown once, after the confirmation
        (
            lambda w: "/compte/seconde-verification/codes/",
            "log 302 302 302 302 302 302 302",
            MEMBERS_POST_NOTHING,
        )
    ],
    "compte/seconde-verification/retirer/": [  # without a code: back with a message
        (lambda w: "/compte/seconde-verification/retirer/", MEMBERS_POST_NOTHING, OFFICIALS_ACT)
    ],
    "i18n/setlang/": [(lambda w: "/i18n/setlang/", EVERYONE_REDIRECTED, EVERYONE_REDIRECTED)],
    # The site on a phone: its service worker and its web app manifest (federation.pwa).
    "sw.js": [(lambda w: "/sw.js", EVERYONE, NOBODY_POSTS)],
    "manifest.webmanifest": [(lambda w: "/manifest.webmanifest", EVERYONE, NOBODY_POSTS)],
    # --- the admin ---
    "admin/": [(lambda w: "/admin/", STAFF, STAFF)],
    # The admin's login is the site's (password, then the second factor: federation.two_step).
    "admin/login/": [(lambda w: "/admin/login/", LOGGED_OUT, LOGGED_OUT)],
    "admin/logout/": [(lambda w: "/admin/logout/", "302 302 302 302 302 405 405 302", EVERYONE_REDIRECTED)],
    "admin/password_change/": [(lambda w: "/admin/password_change/", STAFF, STAFF)],
    "admin/password_change/done/": [(lambda w: "/admin/password_change/done/", STAFF, STAFF_POST_NOTHING)],
    "admin/jsi18n/": [(lambda w: "/admin/jsi18n/", STAFF, STAFF_POST_NOTHING)],
    "admin/autocomplete/": [
        (
            lambda w: (
                "/admin/autocomplete/?app_label=federation&model_name=official&field_name=player&term=a"
            ),
            SUPERUSER,
            STAFF_POST_NOTHING,
        )
    ],
    # "View on site": a redirect to the object's page, which answers as that page does.
    "admin/r/<path:content_type_id>/<path:object_id>/": [
        (lambda w: f"/admin/r/{w.round_type.pk}/{w.draft.pk}/", STAFF_REDIRECTED, STAFF_REDIRECTED)
    ],
    "admin/(?P<app_label>auth|axes|federation|otp_totp|otp_static|championship|notifications|webhooks)/$": [
        (lambda w: "/admin/championship/", SUPERUSER_404, SUPERUSER_404)
    ],
    "admin/(?P<url>.*)$": [(lambda w: "/admin/nulle-part/", STAFF_NOT_FOUND, STAFF_NOT_FOUND)],
    "admin/auth/user/<id>/password/": [
        (lambda w: f"/admin/auth/user/{w.member.user.pk}/password/", SUPERUSER, SUPERUSER)
    ],
    **model_rows("auth/group", lambda w: w.group, **EDITABLE),
    **model_rows("auth/user", lambda w: w.member.user, **EDITABLE),
    **model_rows("otp_totp/totpdevice", lambda w: w.totp_device, **SECOND_FACTORS),
    **model_rows("otp_static/staticdevice", lambda w: w.static_device, **SECOND_FACTORS),
    # Its secret and QR code are never shown in the admin (OTP_ADMIN_HIDE_SENSITIVE_DATA).
    "admin/otp_totp/totpdevice/<int:pk>/config/": [
        (lambda w: f"/admin/otp_totp/totpdevice/{w.totp_device.pk}/config/", NO_ONE, NO_ONE)
    ],
    "admin/otp_totp/totpdevice/<int:pk>/qrcode/": [
        (lambda w: f"/admin/otp_totp/totpdevice/{w.totp_device.pk}/qrcode/", NO_ONE, NO_ONE)
    ],
    **model_rows("axes/accessattempt", lambda w: w.attempt, **LOGIN_RECORDS),
    **model_rows("axes/accesslog", lambda w: w.access_log, **LOGIN_RECORDS),
    **model_rows("axes/accessfailurelog", lambda w: w.failure_log, **LOGIN_RECORDS),
    **model_rows("federation/player", lambda w: w.member, **EDITABLE),
    **model_rows("federation/season", lambda w: w.season, **EDITABLE),
    **model_rows("federation/official", lambda w: w.official, **EDITABLE),
    **model_rows("championship/round", lambda w: w.homologated, **ENTERED_ON_THE_SITE),
    **model_rows("championship/deal", lambda w: w.deal, **ENTERED_ON_THE_SITE),
    **model_rows("championship/adjustment", lambda w: w.adjustment, **ENTERED_ON_THE_SITE),
    **model_rows("championship/championshipline", lambda w: w.line, **ENTERED_ON_THE_SITE),
    **model_rows("championship/report", lambda w: w.report, **ENTERED_ON_THE_SITE),
    # The group chat's webhooks and their outbox (webhooks.admin): the outbox is read, never written.
    **model_rows("webhooks/webhook", lambda w: w.webhook, **EDITABLE),
    **model_rows("webhooks/delivery", lambda w: w.delivery, **ENTERED_ON_THE_SITE),
    **history_row("webhooks/webhook", lambda w: w.webhook),
    # The members' changes of their own address (notifications.admin): read, never written.
    **model_rows("notifications/emailchange", lambda w: w.email_change, **ENTERED_ON_THE_SITE),
    # The members' news (notifications.admin): read by a superuser, never written.
    **model_rows("notifications/news", lambda w: w.news, **ENTERED_ON_THE_SITE),
    **history_row("federation/player", lambda w: w.member),
    **history_row("federation/official", lambda w: w.official),
    **history_row("federation/season", lambda w: w.season),
    **history_row("championship/round", lambda w: w.homologated),
    **history_row("championship/deal", lambda w: w.deal),
    **history_row("championship/adjustment", lambda w: w.adjustment),
    **history_row("championship/report", lambda w: w.report),
}


def test_every_url_answers_every_role_as_the_table_says(world, caplog):
    caplog.set_level(logging.CRITICAL, logger="django.request")  # hundreds of expected 403s and 404s
    site_routes = set(routes())
    unlisted = sorted(site_routes - set(TABLE))
    stale = sorted(set(TABLE) - site_routes)

    clients = {}
    for role in ROLES:
        client = Client()
        if role == "by_link":
            assert client.post("/moi/lien/", {"secret": world.vice_secret}).status_code == 302
        elif world.users[role] is not None:
            client.force_login(world.users[role])
        clients[role] = (client, copy.deepcopy(client.cookies))

    mismatches, wrong_paths, observed, stored = [], [], [], []
    for route, rows in TABLE.items():
        if route not in site_routes:
            continue
        for make_path, expected_get, expected_post in rows:
            path = make_path(world)
            if resolve(path.split("?")[0]).route != route:
                wrong_paths.append(f"{path} does not resolve to {route}")
                continue
            for method, expected in (("GET", expected_get), ("POST", expected_post)):
                expected = expected.split()
                got = []
                for role in ROLES:
                    client, cookies = clients[role]
                    savepoint = transaction.savepoint()
                    response = getattr(client, method.lower())(path)
                    transaction.savepoint_rollback(savepoint)
                    client.cookies = copy.deepcopy(cookies)
                    got.append(answer_class(response))
                    directives = {part.strip() for part in response.get("Cache-Control", "").split(",")}
                    if world.users[role] is not None and not {"private", "no-store"} <= directives:
                        stored.append(
                            f"{method} {path} as {role}: Cache-Control {response.get('Cache-Control')}"
                        )
                observed.append(f"{method:4} {path:70} {' '.join(f'{g:>3}' for g in got)}")
                for role, want, have in zip(ROLES, expected, got, strict=True):
                    if want != have:
                        mismatches.append(f"{method} {path} as {role}: expected {want}, got {have}")

    report = (
        [f"URL pattern missing from TABLE: {route}" for route in unlisted]
        + [f"TABLE row for a pattern the site no longer has: {route}" for route in stale]
        + wrong_paths
        + mismatches
        + stored
    )
    assert report == [], "\n".join(report + ["", "observed:", *observed])


def table_link_answers(w):
    """Where a phone without an account that opened the draft's table link (views.table) answers
    otherwise than an anonymous visitor: that round's live view and its poll, and signing by
    code (a bare POST: back to the live view with the form's errors). Nothing else, no other
    round."""
    draft = f"/manches/{w.draft.pk}/"
    return {
        ("GET", f"{draft}direct/"): "200",
        ("POST", f"{draft}direct/"): "405",
        ("GET", f"{draft}direct/suivi/"): "200",
        ("POST", f"{draft}direct/suivi/"): "405",
        ("POST", f"{draft}signature/code/"): "302",
    }


def test_a_table_link_opens_its_round_only(world, caplog):
    """The « table link » identity: every URL of TABLE answers as to an anonymous visitor
    (its first column), except `table_link_answers`."""
    caplog.set_level(logging.CRITICAL, logger="django.request")
    # The vice's phone, opened by his link, is the one some rows of TABLE name.
    assert Client().post("/moi/lien/", {"secret": world.vice_secret}).status_code == 302
    client = Client()
    assert client.get(table_path(world.draft)).status_code == 302
    cookies = copy.deepcopy(client.cookies)
    differs = table_link_answers(world)
    mismatches, seen = [], set()
    for rows in TABLE.values():
        for make_path, expected_get, expected_post in rows:
            path = make_path(world)
            for method, expected in (("GET", expected_get), ("POST", expected_post)):
                want = differs.get((method, path), expected.split()[0])
                seen.add((method, path))
                savepoint = transaction.savepoint()
                response = getattr(client, method.lower())(path)
                transaction.savepoint_rollback(savepoint)
                client.cookies = copy.deepcopy(cookies)
                if answer_class(response) != want:
                    mismatches.append(f"{method} {path}: expected {want}, got {answer_class(response)}")
    assert set(differs) <= seen
    assert mismatches == []
