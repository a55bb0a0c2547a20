"""Creating a round with everything a sheet holds (seats, deals or totals, adjustments, report,
status), scored once in memory, then every row inserted with its figures and history, all or
nothing."""

from django.db import transaction
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from championship import bounds
from championship.lib.summaries import season_written
from championship.models import Adjustment, ChampionshipLine, Deal, Report, Round, Seat
from championship.rounds.data import (
    RoundData,
    ScoredRound,
    deal_input,
    next_round_number,
)
from championship.services.checks import check_text, checked_adjustment
from championship.services.errors import RoundError
from championship.services.locking import bump, claim_key
from championship.services.rows import write_with_history
from championship.services.scores import (
    ROUND_RESULTS,
    apply_scores,
)
from federation import validators
from federation.history import audited
from federation.models import Season
from scoring.errors import ScoringError
from scoring.french import of_name
from scoring.vocabulary import COLOURS, MAX_PLAYERS, MIN_PLAYERS, TABLE_SIZES

CREATION_REASON = "création de la manche"


@transaction.atomic
def create_round(
    season,
    players,
    deals=(),
    *,
    totals=None,
    colours=None,
    number=None,
    stage=Round.REGULAR,
    table="",
    date,
    place="",
    status=Round.DRAFT,
    adjustments=(),
    report=None,
    user=None,
    reason=CREATION_REASON,
    status_reason=None,
    key=None,
    expected_totals=None,
    paper_totals=None,
    scored=None,
):
    """Store a round with everything a sheet holds, score it, all or nothing; return the Round.

    - `players`: Players in seating order; `colours`: their chip colours in the same order
      (`""` for none; default: the colours in the order of `scoring.vocabulary.COLOURS`);
    - `deals`: dicts of player names, e.g. `{"dealer": "Alice", "taker": "Bruno", "contract":
      "garde", "partner": "David", "bouts": 2, "points": 49, "poignees": [("Bruno", "simple")],
      "miseres": ["Chloé"]}` (any other `Deal` field by its name, `kind` "played" by default);
      or `totals` (name → total) for a round whose deals were not kept;
    - `number`: None for the next free number of the stage (and table);
    - `adjustments`: `(player, code, points or None for the catalogue's, note)`, the player a
      Player or a name of `players`;
    - `report`: `{"author": Player or name, "text": str, "filed_on": date or None}`;
    - `status`: the round is then submitted (or homologated by `user`), `status_reason` (else the
      usual one) going into its history;
    - `user`: the author of every history record (and of the adjustments); `reason` the reason of
      the creation records; `key` a form's one-time key (a double submit creates one round);
    - `expected_totals`: the totals (name → total) the stored inputs must give (a checked sheet's);
    - `paper_totals`: the paper sheet's totals (name → total), kept as the round's paper check;
    - `scored`: `(players, inputs, rulebook, result)`, the round its caller has scored already (a
      checked sheet: the player names in seating order, the `DealInput`s, the rulebook, the
      `scoring.round.RoundResult`); used only if the round's stored inputs are exactly those
      (same names, same `DealInput`s, the season's rulebook, compared), else scored here.

    The round is scored once, from its rows in memory; every row is then inserted with its
    figures and its history record (in bulk). Raises RoundError (a French message naming the
    field) and then stores nothing.
    """
    with audited(user, reason) as audit:
        Season.objects.select_for_update().filter(pk=season.pk).first()  # one creation at a time
        season_written(season)
        by_name = {player.name: player for player in players}
        _check_creation(season, players, colours, totals, deals, date, place, stage, table)
        round_ = _new_round(season, number, stage, table, date, place, totals, paper_totals, by_name)
        audit.save(round_)
        claim_key(round_, key)
        seats = _seats(round_, players, colours, totals)
        stored_deals = [
            _deal_from_spec(round_, number_, spec, by_name) for number_, spec in enumerate(deals, 1)
        ]
        stored_adjustments = [
            _checked_adjustment(round_, who, code, points, note, by_name, user)
            for who, code, points, note in adjustments
        ]
        _set_status(round_, status, stored_deals, user)
        # Scored once, in memory: every row is then inserted with its figures and history.
        data = RoundData(seats, stored_deals, stored_adjustments, round_.version)
        changes = _scored(round_, data, _same_inputs(round_, seats, stored_deals, totals, scored))
        if expected_totals is not None and changes.scored.result.totals != expected_totals:
            raise RoundError(
                "expected_totals", "Totaux attendus : les totaux enregistrés diffèrent du calcul."
            )
        _insert(audit, seats, stored_deals, stored_adjustments)
        if report is not None:
            _store_report(round_, report, by_name, audit)
        _write_status(round_, status, status_reason, changes, reason)
    return round_


def _new_round(season, number, stage, table, date, place, totals, paper_totals, by_name):
    """The unsaved Round, its number the next free one of its stage (and table) unless given."""
    if number is None:
        number = next_round_number(season, stage, table)
    problem = validators.bounds_problem(number, bounds.ROUND_NUMBER)
    if problem:
        raise RoundError("number", validators.field_message("Numéro", problem))
    if Round.objects.filter(season=season, stage=stage, table=table, number=number).exists():
        raise RoundError("number", f"Numéro : la manche {number} existe déjà dans cette phase.")
    return Round(
        season=season,
        stage=stage,
        table=table,
        number=number,
        date=date,
        place=place,
        totals_only=totals is not None,
        paper_totals={str(by_name[name].pk): total for name, total in (paper_totals or {}).items()},
    )


def _seats(round_, players, colours, totals):
    colours = list(colours) if colours is not None else COLOURS[: len(players)]
    return [
        Seat(
            round=round_,
            player=player,
            position=position,
            colour=colours[position] or "",
            total=totals[player.name] if totals is not None else None,
        )
        for position, player in enumerate(players)
    ]


def _set_status(round_, status, stored_deals, user):
    """The status the round is created with (in memory: written with its figures)."""
    if status not in (Round.DRAFT, Round.SUBMITTED, Round.HOMOLOGATED):
        raise RoundError("status", f"Statut : « {status} » inconnu.")
    if status == Round.DRAFT:
        return
    if not round_.totals_only and not stored_deals:
        raise RoundError("deals", "Aucune donne n'est saisie.")
    bump(round_, write=False)  # written below with the status
    round_.status = status
    if status == Round.HOMOLOGATED:
        round_.homologated_at, round_.homologated_by = timezone.now(), user


def _scored(round_, data, scored):
    try:
        return apply_scores(round_, data, scored)
    except ScoringError as error:
        raise RoundError("invalid", f"La manche est incohérente : {error}") from error


def _insert(audit, seats, stored_deals, stored_adjustments):
    """Insert the round's rows, each with its figures and its history record (in bulk)."""
    for model, rows in ((Seat, seats), (Deal, stored_deals), (Adjustment, stored_adjustments)):
        if rows:
            audit.mark(*rows)
        bulk_create_with_history(rows, model, default_change_reason=audit.reason)


def _write_status(round_, status, status_reason, changes, reason):
    """Write the round's figures (and its status, if it is not a draft), then its lines."""
    fields = list(ROUND_RESULTS)
    if status != Round.DRAFT:
        fields += ["status", "homologated_at", "homologated_by", "version"]
        reason = status_reason or (
            "homologation" if status == Round.HOMOLOGATED else "soumise pour homologation"
        )
    if status != Round.DRAFT or changes.round_moved:
        write_with_history(Round, [round_], fields, reason)
    ChampionshipLine.objects.bulk_create(changes.lines)


def _same_inputs(round_, seats, deals, totals, scored):
    """The ScoredRound of `scored` (see `create_round`) if it was scored from exactly the inputs
    of these rows, else None (the round is then scored afresh)."""
    if scored is None or totals is not None:
        return None
    players, inputs, rulebook, result = scored
    names = {seat.player.pk: seat.player.name for seat in seats}
    stored = [deal_input(deal, names) for deal in deals]
    if list(players) != [seat.player.name for seat in seats] or list(inputs) != stored:
        return None
    if rulebook != round_.season.rulebook:
        return None
    return ScoredRound(round_, seats, names, stored, result)


def _check_creation(season, players, colours, totals, deals, date, place, stage, table):
    count = len(players)
    if count not in TABLE_SIZES:
        raise RoundError(
            "players", f"Joueurs : une manche se joue à {MIN_PLAYERS} ou {MAX_PLAYERS} joueurs (ici {count})."
        )
    names = [player.name for player in players]
    if len(set(names)) != count:
        raise RoundError("players", "Joueurs : un joueur ne s'assoit qu'une fois à la table.")
    if colours is not None:
        chosen = [colour for colour in colours if colour]
        if len(colours) != count or any(colour not in COLOURS for colour in chosen):
            raise RoundError("colours", "Couleurs : une couleur de jetons connue (ou aucune) par joueur.")
        if len(set(chosen)) != len(chosen):
            raise RoundError("colours", "Couleurs : deux joueurs ont les mêmes jetons.")
    if stage not in (Round.REGULAR, Round.PLAYOFF, Round.FINAL) or (stage == Round.PLAYOFF) != bool(table):
        raise RoundError("stage", "Phase : une table de play-off pour un play-off, et seulement pour lui.")
    problem = bounds.round_date_problem(date, season.name, season.start_date, season.end_date)
    if problem:
        raise RoundError("date", validators.field_message("Date", problem))
    problem = validators.name_problem(place) if place else None
    if problem:
        raise RoundError("place", validators.field_message("Lieu", problem))
    if totals is not None:
        if deals:
            raise RoundError("totals", "Totaux : une manche a ses donnes ou ses totaux, pas les deux.")
        if set(totals) != set(names):
            raise RoundError("totals", "Totaux : un total par joueur assis, et pour eux seuls.")
        for name, total in totals.items():
            problem = validators.bounds_problem(total, bounds.ROUND_TOTAL)
            if problem:
                raise RoundError("totals", validators.field_message(f"Total {of_name(name)}", problem))
        if sum(totals.values()) != 0:
            raise RoundError(
                "totals",
                f"Totaux : ils doivent s'annuler, or leur somme fait {sum(totals.values())} (et non 0).",
            )
    problem = bounds.deal_number_problem(len(deals))
    if problem:
        raise RoundError("deals", validators.field_message("Donnes", problem))


def _deal_from_spec(round_, number, spec, by_name):
    spec = dict(spec)

    def player(name):
        try:
            return by_name[name]
        except KeyError:
            raise RoundError("deals", f"Donne {number} : {name} n'est pas à cette table.") from None

    fields = {"round": round_, "number": number, "dealer": player(spec.pop("dealer"))}
    fields["kind"] = spec.pop("kind", Deal.PLAYED)
    for role in ("taker", "partner"):
        name = spec.pop(role, None)
        fields[role] = player(name) if name else None
    fields["poignees"] = [
        {"player": player(name).pk, "size": size} for name, size in spec.pop("poignees", [])
    ]
    fields["miseres"] = [player(name).pk for name in spec.pop("miseres", [])]
    for name in ("contract", "called", "petit_au_bout", "chelem_made_by"):
        if name in spec and spec[name] is None:
            spec[name] = ""
    if spec.get("called_rank") is None:
        spec.pop("called_rank", None)
    return Deal(**fields, **spec)


def _checked_adjustment(round_, who, code, points, note, by_name, user):
    player = by_name.get(who) if isinstance(who, str) else who
    if player is None:
        raise RoundError("player", f"Bonus ou malus : {who} n'est pas un joueur inscrit.")
    return checked_adjustment(round_, player, code, points, note or "", user)


def _store_report(round_, report, by_name, audit):
    author = report["author"]
    author = by_name.get(author) if isinstance(author, str) else author
    if author is None:
        raise RoundError("author", f"Compte-rendu, auteur : {report['author']} n'est pas à la table.")
    text, filed_on = report.get("text") or "", report.get("filed_on")
    stored = Report(round=round_, author=author, text=text, filed_on=filed_on)
    check_text(stored.text)
    audit.save(stored)
