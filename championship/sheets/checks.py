"""What a sheet needs the database for, then the rules of the game: ``read_sheet``.

The structure is ``schema``'s (through ``parse``); here, by hand: the season exists or will be
created (and who may import into it), the round number is free, the date lies in the season, the
players are registered (or ``--create-players``), the adjustments are in the season's catalogue
and within the importer's rights. These checks run on every part whose structure is valid, so
that the errors of a file are reported together. Then each deal is scored by ``scoring``, whose
field names are mapped back to the sheet's (``chelem_made_by`` → ``chelem.made_by``), then the
round and ``expected_totals``.
"""

import datetime
import difflib
from dataclasses import dataclass

from django.utils import translation

from championship import bounds
from championship.models import Round
from championship.sheets.errors import SheetError, SheetImportError, stage_phrase
from championship.sheets.parse import error_rank, parse_sheet
from federation.models import Player, Season
from federation.roles import acts_as_superuser, can_enter_rounds, is_board
from scoring.deal import score_deal
from scoring.errors import ScoringError
from scoring.round import score_round, totals_only_round
from scoring.rulebook import load_default_rulebook

CREATE_PLAYERS_HINT = "l'option --create-players l'inscrit"

# Field names of the scoring engine that the sheet spells differently.
ENGINE_FIELDS = {"chelem_made_by": "chelem.made_by", "chelem_announced": "chelem.announced"}


@dataclass
class CheckedSheet:
    """A checked sheet, ready to be written: names everywhere, players not yet created."""

    file: str
    season_name: str
    season: Season | None
    rulebook: object
    number: int
    date: datetime.date
    place: str
    stage: str
    table: str
    players: list  # [(name, colour)] in seating order
    known: dict  # name -> Player for the players already registered (seated or adjusted)
    deals: list | None  # [DealInput]
    totals: dict | None
    adjustments: list  # [(name, code, points or None, note)]
    report: dict | None  # {"author", "filed", "text"}
    result: object  # scoring.round.RoundResult
    paper_totals: dict | None = None  # the sheet's `expected_totals` (name -> total), checked


def season_dates(name):
    """Sept 1 of the first year to June 30 of the second: ``2010-2011`` → 2010-09-01, 2011-06-30."""
    first, second = (int(part) for part in name.split("-"))
    return datetime.date(first, 9, 1), datetime.date(second, 6, 30)


def rights(user, season):
    """(may enter rounds, is board) for ``user`` in ``season``; ``None`` is the command line."""
    if user is None:
        return True, True
    if season is None:
        return acts_as_superuser(user), acts_as_superuser(user)
    return can_enter_rounds(user, season), is_board(user, season)


def read_sheet(file, data, *, create_players=False, homologate=False, user=None, players_hint=None):
    """Check one sheet (bytes, text or parsed JSON) without writing: a ``CheckedSheet`` or
    SheetImportError listing every error, in the order of the sheet's keys."""
    with translation.override("fr"):  # a sheet's errors are French, the shared rules' included
        checker = _Checker(file, create_players, homologate, user, players_hint)
        checked = checker.check(parse_sheet(file, data))
    if checker.errors:
        raise SheetImportError(sorted(checker.errors, key=error_rank))
    return checked


class _Checker:
    def __init__(self, file, create_players, homologate, user, players_hint):
        self.file = file
        self.create_players = create_players
        self.homologate = homologate
        self.user = user
        self.players_hint = players_hint or CREATE_PLAYERS_HINT
        self.errors = []
        self.adjustments = []

    def fail(self, field, message, deal=None):
        self.errors.append(SheetError(self.file, message, deal=deal, field=field))

    def check(self, parsed):
        self.errors += parsed.errors
        season_name, season, rulebook = self.check_season(parsed)
        self.check_round(parsed, season_name, season)
        known = None
        if parsed.valid("players"):
            seated = [player["name"] for player in parsed.get("players")]
            known = self.resolve_players(seated)
            self.check_adjustments(parsed, seated, known, rulebook or load_default_rulebook(), season)
        sheet = parsed.sheet
        if sheet is None:
            return None
        rulebook = rulebook or load_default_rulebook()
        result = self.score(sheet, rulebook)
        if self.errors:
            return None
        if sheet.expected_totals is not None:
            for name in sheet.seated:
                if sheet.expected_totals[name] != result.totals[name]:
                    self.fail(
                        "expected_totals",
                        f"{name} : attendu {sheet.expected_totals[name]}, calculé {result.totals[name]}",
                    )
        if self.errors:
            return None
        return CheckedSheet(
            file=self.file,
            season_name=season_name,
            season=season,
            rulebook=rulebook,
            number=sheet.number,
            date=sheet.date,
            place=sheet.place or "",
            stage=sheet.stage,
            table=sheet.table,
            players=[(player.name, player.colour or "") for player in sheet.players],
            known=known,
            deals=[deal.to_input() for deal in sheet.deals] if sheet.deals is not None else None,
            totals=sheet.totals,
            adjustments=self.adjustments,
            report=(
                {"author": sheet.report.author, "filed": sheet.report.filed, "text": sheet.report.text or ""}
                if sheet.report is not None
                else None
            ),
            result=result,
            paper_totals=dict(sheet.expected_totals) if sheet.expected_totals is not None else None,
        )

    def check_season(self, parsed):
        """(name, Season or None, rulebook) of a season the importer may enter; (None, None, None)
        after an error."""
        if not parsed.valid("season"):
            return None, None, None
        name = parsed.get("season")
        season = Season.objects.filter(name=name).first()
        may_enter, board = rights(self.user, season)
        if not may_enter:
            if season is None:
                message = (
                    f"la saison {name} n'existe pas (seul un administrateur peut la créer par un import)"
                )
            else:
                message = f"seuls le secrétaire et la Direction de la saison {name} importent ses manches"
            self.fail("season", message)
            return None, None, None
        if parsed.valid("date"):
            start, end = (season.start_date, season.end_date) if season else season_dates(name)
            date = datetime.date.fromisoformat(parsed.get("date"))
            if problem := bounds.round_date_problem(date, name, start, end):
                self.fail("date", problem)
        if self.homologate and not board:
            self.fail("season", f"seule la Direction de la saison {name} peut homologuer une manche")
        return name, season, season.rulebook if season is not None else load_default_rulebook()

    def check_round(self, parsed, season_name, season):
        """A round of that number, stage and table must not exist yet."""
        if season is None or not all(parsed.valid(key) for key in ("number", "stage", "table")):
            return
        stage = parsed.get("stage", default=Round.REGULAR)
        table = parsed.get("table") if stage == Round.PLAYOFF else ""
        number = parsed.get("number")
        if Round.objects.filter(season=season, stage=stage, table=table, number=number).exists():
            self.fail(
                "number", f"{stage_phrase(stage, table, number)} de la saison {season_name} existe déjà"
            )

    def resolve_players(self, seated):
        """The registered players among ``seated``; the others refused unless --create-players."""
        known = {player.name: player for player in Player.objects.filter(name__in=seated)}
        if self.create_players:
            return known
        registered = None
        for index, name in enumerate(seated, start=1):
            if name in known:
                continue
            if registered is None:
                registered = list(Player.objects.values_list("name", flat=True))
            close = difflib.get_close_matches(name, registered, n=1, cutoff=0.75)
            hint = f" ; vouliez-vous dire « {close[0]} » ?" if close else ""
            self.fail(
                f"players[{index}].name",
                f"« {name} » n'est pas un joueur inscrit ({self.players_hint}){hint}",
            )
        return known

    def check_adjustments(self, parsed, seated, known, rulebook, season):
        """Bonuses and maluses: a code of the season's catalogue, a player seated or registered
        (an absence, for instance), points and board-only codes from the board only."""
        entries = parsed.get("adjustments")
        if not isinstance(entries, list):
            return
        board = rights(self.user, season)[1]
        for index, raw in enumerate(entries):
            prefix = f"adjustments[{index + 1}]."
            if not isinstance(raw, dict):
                continue
            ok = {
                key: parsed.valid("adjustments", index, key) for key in ("player", "code", "points", "note")
            }
            name, code, points = raw.get("player"), raw.get("code"), raw.get("points")
            if ok["player"] and name is not None and name not in seated:
                ok["player"] = self.registered(name, f"{prefix}player", known)
            if ok["code"] and code is not None:
                try:
                    entry = rulebook.championship.catalogue_entry(code)
                except KeyError:
                    codes = ", ".join(item.code for item in rulebook.championship.catalogue)
                    self.fail(
                        f"{prefix}code", f"« {code} » n'est pas dans le catalogue de la saison ({codes})"
                    )
                    ok["code"] = False
                else:
                    if entry.board_only and not board:
                        self.fail(f"{prefix}code", f"« {entry.label} » est réservé à la Direction")
                        ok["code"] = False
            if ok["points"] and points is not None and not board:
                self.fail(f"{prefix}points", "seule la Direction fixe des points hors catalogue")
                ok["points"] = False
            if all(ok.values()) and name is not None and code is not None:
                self.adjustments.append((name, code, points, raw.get("note") or ""))

    def registered(self, name, field, known):
        """A registered player's name (added to ``known``), or with --create-players any name
        (the player is created on saving unless registered)."""
        if name in known:
            return True
        player = Player.objects.filter(name=name).first()
        if player is not None:
            known[name] = player
        elif not self.create_players:
            self.fail(field, f"« {name} » n'est pas un joueur inscrit ({self.players_hint})")
            return False
        return True

    def score(self, sheet, rulebook):
        """The round scored by the engine, or None after recording each deal's first error."""
        seated = sheet.seated
        if sheet.totals is not None:
            try:
                return totals_only_round(seated, sheet.totals)
            except ScoringError as error:
                self.engine_error(error)
                return None
        deals = [deal.to_input() for deal in sheet.deals]
        try:
            return score_round(seated, deals, rulebook)  # once, when the sheet is right
        except ScoringError as round_error:
            # Each deal's own error, so that a sheet's errors are reported together.
            for number, deal in enumerate(deals, start=1):
                try:
                    score_deal(deal, seated, rulebook, number)
                except ScoringError as error:
                    self.engine_error(error)
            if not self.errors:
                self.engine_error(round_error)
            return None

    def engine_error(self, error):
        self.fail(ENGINE_FIELDS.get(error.field, error.field), error.message, error.deal_number)
