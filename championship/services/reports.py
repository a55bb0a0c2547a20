"""Comptes-rendus: write one (first filing or correction), under the round's lock, with its own
version so that two people editing the same report at once never overwrite each other unseen."""

from django.db import transaction
from django.utils import timezone

from championship import signals
from championship.models import Report
from championship.services.checks import check_text
from championship.services.errors import RoundError
from championship.services.locking import lock_round
from championship.standings.lateness import report_author
from federation.history import audited


def _stale(report):
    record = report.history.select_related("history_user__player").order_by("-history_date").first()
    who = "quelqu'un"
    if record is not None and record.history_user is not None:
        player = getattr(record.history_user, "player", None)
        who = player.name if player is not None else record.history_user.get_username()
    when = timezone.localtime(record.history_date if record is not None else report.updated_at)
    return RoundError(
        "stale",
        f"Le compte-rendu a été modifié pendant que vous l'écriviez, par {who} le "
        f"{when:%d/%m/%Y à %H:%M}. Rien n'est enregistré : son texte enregistré est affiché avec le "
        "vôtre ; reprenez vos changements à partir de lui.",
    )


@transaction.atomic
def save_report(round_, text, *, author=None, filed_on=None, today=None, reason="", version=None, user=None):
    """Write the report of `round_`: the first filing dates it `today` unless `filed_on` is given.

    `author` (required for a first filing) and `filed_on` are a board member's choices; a player
    passes neither. `version`: the report's version the form was read at (0: no report yet);
    refused with `stale` if it changed since, the message saying by whom and when.
    """
    check_text(text)
    lock_round(round_)
    report = Report.objects.filter(round=round_).first()
    if version is not None and int(version) != (report.version if report is not None else 0):
        if report is None:
            raise RoundError("missing", "Le compte-rendu a été supprimé pendant que vous l'écriviez.")
        raise _stale(report)
    today = today or timezone.localdate()
    if report is None:
        if author is None:
            raise RoundError("author", "Auteur : choisissez l'auteur du compte-rendu.")
        report = Report(round=round_, author=author, version=0)
    elif author is not None:
        report.author = author
    report.text = text
    if filed_on is not None:
        report.filed_on = filed_on
    elif report.filed_on is None:
        report.filed_on = today
    report.version += 1
    with audited(user, reason or "compte-rendu rédigé") as audit:
        audit.save(report)
    if report.version == 1 and round_.status == round_.HOMOLOGATED:
        signals.report_published.send(sender=Report, report=report)
    return report


def file_report(round_, text, **options):
    """`save_report`, a first report written by the designated author (``report_author``)
    unless ``author`` is given."""
    if options.get("author") is None and not Report.objects.filter(round=round_).exists():
        options["author"] = report_author(round_)
    return save_report(round_, text, **options)
