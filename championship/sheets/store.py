"""Writing a checked sheet: the services create the season, the new players and the round with
its seats, deals, adjustments and report (`championship.services.create_round`), and score it.
``import_sheets`` runs all the files of one import in a single transaction: one bad file and
nothing is written.
"""

from dataclasses import dataclass, field
from pathlib import PurePath

from django.db import IntegrityError, transaction

from championship.models import Round
from championship.services import RoundError, create_round, create_season, register_player
from championship.sheets.checks import read_sheet, season_dates
from championship.sheets.errors import SheetError, SheetImportError
from championship.sheets.parse import parse_json
from championship.sheets.spreadsheet import located, prepare_source
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
    """Store a checked sheet through the services: one `create_round` with everything it holds."""
    reason = IMPORT_REASON.format(file=PurePath(sheet.file).name)[:REASON_MAX_LENGTH]
    season = sheet.season
    if season is None:
        start, end = season_dates(sheet.season_name)
        season = create_season(sheet.season_name, start, end, reason=reason, user=user)
    players = dict(sheet.known)
    names = [name for name, _colour in sheet.players] + [name for name, *_rest in sheet.adjustments]
    for name in names:
        if name not in players:
            players[name] = register_player(name, reason=reason, user=user)
    report = None
    if sheet.report is not None:
        report = {
            "author": players[sheet.report["author"]],
            "text": sheet.report["text"],
            "filed_on": sheet.report["filed"],
        }
    round_ = create_round(
        season,
        [players[name] for name, _colour in sheet.players],
        [_deal_spec(deal) for deal in sheet.deals or []],
        totals=sheet.totals,
        colours=[colour or "" for _name, colour in sheet.players],
        number=sheet.number,
        stage=sheet.stage,
        table=sheet.table,
        date=sheet.date,
        place=sheet.place,
        status=Round.HOMOLOGATED if homologate else Round.DRAFT,
        adjustments=[(players[name], code, points, note) for name, code, points, note in sheet.adjustments],
        report=report,
        user=user,
        reason=reason,
        status_reason=HOMOLOGATION_REASON,
        expected_totals=dict(sheet.result.totals),  # the stored inputs must give the checked figures
        paper_totals=sheet.paper_totals,  # checked against the deals: the round's paper check
        # scored once: the check's result, used if the stored inputs are the ones it scored
        scored=([name for name, _colour in sheet.players], sheet.deals, sheet.rulebook, sheet.result)
        if sheet.deals is not None
        else None,
    )
    return round_


def _deal_spec(deal):
    """A checked deal as `create_round` takes it: players by name, codes as stored."""
    return {
        "dealer": deal.dealer,
        "kind": deal.kind,
        "taker": deal.taker,
        "contract": CONTRACT_ALIASES.get(deal.contract, deal.contract) or "",
        "called": deal.called or "",
        "called_rank": deal.called_rank or "roi",
        "partner": deal.partner,
        "bouts": deal.bouts,
        "points": deal.points,
        "poignees": [(item.player, item.size) for item in deal.poignees],
        "miseres": list(deal.miseres),
        "petit_au_bout": deal.petit_au_bout or "",
        "chelem_announced": deal.chelem_announced,
        "chelem_made_by": deal.chelem_made_by or "",
    }


def check_source(file, data, *, create_players=False, homologate=False, user=None, players_hint=None):
    """Check one file (JSON, XLSX, ODS or CSV) without writing: (``CheckedSheet``, the sheet as
    JSON data). The preview of the upload page shows the first and keeps the second to import."""
    source, locator = prepare_source(file, data)
    try:
        checked = read_sheet(
            file,
            source,
            create_players=create_players,
            homologate=homologate,
            user=user,
            players_hint=players_hint,
        )
    except SheetImportError as error:
        raise SheetImportError(located(error.errors, locator)) from None
    if isinstance(source, bytes | str):
        source = parse_json(file, source)
    return checked, source


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
            locator = None  # where a spreadsheet's parts come from (None for JSON)
            try:
                with transaction.atomic():
                    data, locator = prepare_source(file, data)
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
                errors.extend(located(error.errors, locator))
            except RoundError as error:
                message = (
                    "les totaux enregistrés diffèrent du calcul"
                    if error.code == "expected_totals"
                    else error.message
                )
                errors.append(SheetError(file, message))
            except IntegrityError as error:
                errors.append(SheetError(file, f"refusée par la base de données ({error})"))
            else:
                imported.append(ImportedRound(file, round_, list(round_.warnings)))
        if errors:
            raise SheetImportError(errors)
    return imported
