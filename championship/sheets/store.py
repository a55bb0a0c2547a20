"""Writing a checked sheet: season, players, round, seats, deals, adjustments, report, then
``services.rescore_round`` (and ``homologate_round``) store every figure. ``import_sheets`` runs
all the files of one import in a single transaction: one bad file and nothing is written.
"""

from dataclasses import dataclass, field
from pathlib import PurePath

from django.db import IntegrityError, transaction

from championship.models import Adjustment, Deal, Report, Round, Seat
from championship.services import RoundError, homologate_round, rescore_round
from championship.sheets.checks import read_sheet, season_dates
from championship.sheets.errors import SheetError, SheetImportError
from federation.models import Player, Season
from scoring.deal import CONTRACT_ALIASES

IMPORT_REASON = "importée depuis la feuille {file}"
HOMOLOGATION_REASON = "importée et homologuée"
REASON_MAX_LENGTH = 100  # what django-simple-history keeps of a change reason


@dataclass
class ImportedRound:
    file: str
    round: Round
    warnings: list = field(default_factory=list)


def _save(sheet, *, homologate, user):
    reason = IMPORT_REASON.format(file=PurePath(sheet.file).name)[:REASON_MAX_LENGTH]
    season = sheet.season
    if season is None:
        start, end = season_dates(sheet.season_name)
        season = Season(name=sheet.season_name, start_date=start, end_date=end)
        season._change_reason = reason
        season.save()
    players = dict(sheet.known)
    names = [name for name, _colour in sheet.players] + [name for name, *_rest in sheet.adjustments]
    for name in names:
        if name not in players:
            players[name] = Player.objects.create(name=name)
    round_ = Round(
        season=season,
        stage=sheet.stage,
        table=sheet.table,
        number=sheet.number,
        date=sheet.date,
        place=sheet.place,
        totals_only=sheet.totals is not None,
    )
    round_._change_reason = reason
    round_.save()
    for position, (name, colour) in enumerate(sheet.players):
        seat = Seat(
            round=round_,
            player=players[name],
            position=position,
            colour=colour,
            total=sheet.totals[name] if sheet.totals is not None else None,
        )
        seat._change_reason = reason
        seat.save()
    for number, deal in enumerate(sheet.deals or [], start=1):
        row = _deal_row(round_, number, deal, players)
        row._change_reason = reason
        row.save()
    for name, code, points, note in sheet.adjustments:
        if points is None:
            points = sheet.rulebook.championship.catalogue_entry(code).points
        adjustment = Adjustment(
            round=round_, player=players[name], code=code, points=points, note=note, entered_by=user
        )
        adjustment._change_reason = reason
        adjustment.save()
    if sheet.report is not None:
        report = Report(
            round=round_,
            author=players[sheet.report["author"]],
            filed_on=sheet.report["filed"],
            text=sheet.report["text"],
        )
        report._change_reason = reason
        report.save()
    scored = rescore_round(round_, reason=reason)
    if scored.result.totals != sheet.result.totals:  # the stored inputs must give the checked figures
        raise SheetImportError([SheetError(sheet.file, "les totaux enregistrés diffèrent du calcul")])
    if homologate:
        homologate_round(round_, user)
        latest = round_.history.order_by("-history_date", "-history_id").first()
        latest.history_change_reason = HOMOLOGATION_REASON
        latest.save(update_fields=["history_change_reason"])
    round_.refresh_from_db()
    return round_


def _deal_row(round_, number, deal, players):
    def pk(name):
        return players[name].pk

    def player(name):
        return players[name] if name is not None else None

    return Deal(
        round=round_,
        number=number,
        dealer=players[deal.dealer],
        kind=deal.kind,
        taker=player(deal.taker),
        contract=CONTRACT_ALIASES.get(deal.contract, deal.contract) or "",
        called=deal.called or "",
        called_rank=deal.called_rank or "roi",
        partner=player(deal.partner),
        bouts=deal.bouts,
        points=deal.points,
        poignees=[{"player": pk(item.player), "size": item.size} for item in deal.poignees],
        miseres=[pk(name) for name in deal.miseres],
        petit_au_bout=deal.petit_au_bout or "",
        chelem_announced=deal.chelem_announced,
        chelem_made_by=deal.chelem_made_by or "",
    )


def import_sheets(sources, *, create_players=False, homologate=False, user=None, players_hint=None):
    """Import sheets in order, all or nothing: ``sources`` is a list of (file name, bytes or text).

    ``user`` is the person importing through the site (``None`` on the command line: every right);
    ``players_hint`` tells how to register unknown players (the form has a checkbox).
    Returns an ``ImportedRound`` per file; raises ``SheetImportError`` listing every error found,
    in which case the database is left exactly as it was.
    """
    errors, imported = [], []
    with transaction.atomic():
        for file, data in sources:
            try:
                with transaction.atomic():
                    sheet = read_sheet(
                        file,
                        data,
                        create_players=create_players,
                        homologate=homologate,
                        user=user,
                        players_hint=players_hint,
                    )
                    round_ = _save(sheet, homologate=homologate, user=user)
            except SheetImportError as error:
                errors.extend(error.errors)
            except RoundError as error:
                errors.append(SheetError(file, error.message))
            except IntegrityError as error:
                errors.append(SheetError(file, f"refusée par la base de données ({error})"))
            else:
                imported.append(ImportedRound(file, round_, list(round_.warnings)))
        if errors:
            raise SheetImportError(errors)
    return imported
