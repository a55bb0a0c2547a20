"""`manage.py send_reminders`: what it sends, once; what --dry-run shows; the mail itself."""

import datetime
import io

import pytest
from django.core import mail
from django.core.management import CommandError, call_command

from notifications.models import SentReminder
from notifications.services import set_preferences

from .conftest import DEADLINE, NIGHT_DATE

DAY = datetime.timedelta(days=1)


def run(today, *options):
    out = io.StringIO()
    call_command("send_reminders", "--today", today.isoformat(), *options, stdout=out)
    return out.getvalue()


def test_a_dry_run_lists_who_what_why_and_sends_and_records_nothing(night, members, mailoutbox):
    output = run(NIGHT_DATE - 3 * DAY, "--dry-run")
    assert "à envoyer : soirée sans réponse → Chloé <chloe@example.org> : soirée du 10/12/2010" in output
    assert "5 rappel(s) à envoyer le 07/12/2010, 0 déjà envoyé(s) (essai : rien d'envoyé)." in output
    assert mailoutbox == []
    assert not SentReminder.objects.exists()
    run(NIGHT_DATE - 3 * DAY)
    again = run(NIGHT_DATE - 3 * DAY, "--dry-run")  # what is sent is no longer listed
    assert "à envoyer :" not in again
    assert "0 rappel(s) à envoyer le 07/12/2010, 5 déjà envoyé(s)" in again
    assert len(mailoutbox) == 5


def test_a_run_sends_each_reminder_once_and_a_second_run_nothing(night, homologated, members, mailoutbox):
    today = DEADLINE - 2 * DAY  # the report due; the night is further than 3 days
    output = run(today)
    assert "1 rappel(s) envoyé(s), 0 déjà envoyé(s)." in output
    assert [m.to for m in mailoutbox] == [["bruno@example.org"]]
    assert mailoutbox[0].subject == "Tarot-Bière : votre compte-rendu est attendu le vendredi 26 novembre"
    assert "Il est attendu au plus tard le vendredi 26 novembre 2010" in mailoutbox[0].body
    assert f"/manches/{homologated.pk}/compte-rendu/modifier/" in mailoutbox[0].body
    assert run(today).endswith("0 rappel(s) envoyé(s), 1 déjà envoyé(s).\n")
    assert len(mailoutbox) == 1
    on_night = run(NIGHT_DATE - 3 * DAY)  # then the night, and the report overdue (week 2)
    assert "6 rappel(s) envoyé(s)" in on_night
    assert sorted(m.to[0] for m in mailoutbox[1:]) == sorted(
        [f"{name}@example.org" for name in ["alice", "bruno", "chloe", "david", "emile"]]
        + ["bruno@example.org"]
    )
    assert SentReminder.objects.count() == 7
    run(NIGHT_DATE - 2 * DAY)
    assert len(mailoutbox) == 7


def test_the_night_mail_carries_the_signed_answer_links_and_one_click_unsubscribe(night, members, mailoutbox):
    run(NIGHT_DATE - 3 * DAY)
    message = next(m for m in mailoutbox if m.to == ["chloe@example.org"])
    assert message.subject == "Tarot-Bière : venez-vous le vendredi 10 décembre ?"
    assert "Bonjour Chloé," in message.body
    assert f"http://localhost:8000/soirees/{night.pk}/reponse/" in message.body
    assert "?reponse=yes" in message.body and "?reponse=no" in message.body
    unsubscribe = message.extra_headers["List-Unsubscribe"]
    assert unsubscribe.startswith("<http://localhost:8000/compte/rappels/desinscription/")
    assert unsubscribe.endswith("/>")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe[1:-1] in message.body
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in message.message().as_string()


def test_the_night_mail_says_what_its_answer_links_do(night, members, mailoutbox):
    """A link opens the answer's page with that answer ticked; « Répondre » records it (a GET
    changes nothing, tests/gamenights/test_answers.py): the mail says so, and no longer
    « Répondez d'un clic »."""
    run(NIGHT_DATE - 3 * DAY)
    message = next(m for m in mailoutbox if m.to == ["chloe@example.org"])
    assert "d'un clic" not in message.body
    assert "la réponse déjà cochée, à confirmer par « Répondre »" in message.body


def test_the_mail_is_in_the_members_language(homologated, members, mailoutbox, settings):
    settings.SITE_URL = "https://tarot.example.org/"
    set_preferences(members["Bruno"], language="en")
    run(DEADLINE + 8 * DAY)
    (message,) = mailoutbox
    assert message.subject == "Tarot-Bière: overdue report (round of 19 November)"
    assert "it costs you 2 points of malus (2 started weeks late)" in message.body
    assert f"https://tarot.example.org/manches/{homologated.pk}/compte-rendu/modifier/" in message.body
    set_preferences(members["Bruno"], language="fr")
    run(DEADLINE + 15 * DAY)
    assert "il vous coûte 3 points de malus (3 semaines entamées de retard)" in mailoutbox[1].body


def test_the_preferences_are_respected_by_the_run(night, members, mailoutbox):
    set_preferences(members["Chloé"], night=False)
    run(NIGHT_DATE - 3 * DAY)
    assert "chloe@example.org" not in [m.to[0] for m in mailoutbox]
    assert len(mailoutbox) == 4


def test_a_mail_that_cannot_leave_is_tried_again_next_run(homologated, members, mailoutbox, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 9, 2  # nobody there
    with pytest.raises(CommandError, match="1 courriel\\(s\\) non envoyé\\(s\\)"):
        run(DEADLINE + DAY)
    assert not SentReminder.objects.exists()
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    run(DEADLINE + DAY)
    assert len(mail.outbox) == 1 and SentReminder.objects.count() == 1


def test_a_wrong_date_is_refused_in_french(db):
    with pytest.raises(CommandError, match="--today : « 2010-13-01 » n'est pas une date AAAA-MM-JJ."):
        call_command("send_reminders", "--today", "2010-13-01")
