"""Round sheets: upload (import) and download (export) of the JSON interchange format and of
its spreadsheet form (XLSX, ODS, CSV: docs/feuille.md §8).

Importing is for the secretary and the board; homologating on import for the board only (the
season of each sheet decides, in `championship.sheets`). An upload may first be previewed: the
round checked and scored, nothing written, then imported on confirmation. A homologated round's
sheet or workbook is public; another round's only for those who enter the season's rounds. The
blank template is public; a season's workbook is public, its unhomologated rounds left out
except for those who enter them. A past season's totals table (§9) is imported by the board or a
superuser, previewed first, then imported exactly as previewed (carried back signed).
"""

import json
from functools import cache

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_GET, require_http_methods

from championship.forms import SeasonConfirmForm, SeasonImportForm, SheetConfirmForm, SheetUploadForm
from championship.sheets import SheetImportError, dumps_sheet, export_sheet, import_sheets, sheet_filename
from championship.sheets.parse import parse_json
from championship.sheets.seasons import apply_previewed, plan_digest, plan_season
from championship.sheets.store import check_source
from championship.sheets.workbooks import (
    CONTENT_TYPES,
    FORMATS,
    round_tables,
    season_tables,
    template_tables,
    workbook_filename,
)
from championship.sheets.workbooks import render as render_workbook
from championship.standings.season import season_standings
from championship.views.access import get_readable_round
from federation.models import Season
from federation.roles import (
    acts_as_superuser,
    board_seasons,
    can_enter_rounds,
    is_board,
    remember_roles,
    with_roles,
)
from scoring.vocabulary import KIND_LABELS, contract_label

FORM_PLAYERS_HINT = "cochez « Inscrire les joueurs inconnus » pour l'inscrire"


def _get_import_rights_for_user(user):
    """(seasons whose rounds the user enters, whether the user is board of one of them): the
    seasons and the user's roles in each read in one query."""
    seasons = list(with_roles(Season.objects.all(), user, season="pk"))
    for season in seasons:
        remember_roles(user, season, season)
    seasons = [season for season in seasons if can_enter_rounds(user, season)]
    if not seasons and not acts_as_superuser(user):
        raise PermissionDenied(
            gettext("Seuls le secrétaire et la Direction d'une saison importent des manches.")
        )
    board = acts_as_superuser(user) or any(is_board(user, season) for season in seasons)
    return seasons, board


def _imported(request, imported):
    round_ = imported[0].round
    messages.success(
        request,
        gettext("%(round)s importée (%(status)s).")
        % {"round": round_, "status": round_.get_status_display()},
    )
    for warning in imported[0].warnings:
        messages.warning(request, gettext("Avertissement : %(warning)s") % {"warning": warning})
    return redirect(round_.get_absolute_url())


def _preview(checked):
    """The scored round of a checked sheet, as the preview shows it: each deal's gains, the totals."""
    names = [name for name, _colour in checked.players]
    deals = []
    for number, outcome in enumerate(checked.result.deals, start=1):
        deal = outcome.deal
        if deal is not None and deal.kind == "played":
            what = f"{contract_label(deal.contract)} — {deal.taker}"
        else:
            what = gettext(KIND_LABELS.get(deal.kind, deal.kind)) if deal is not None else ""
        shares = outcome.result.shares
        deals.append(
            {
                "number": number,
                "dealer": deal.dealer if deal else "",
                "what": what,
                "shares": [shares.get(n, 0) for n in names],
            }
        )
    return {
        "names": names,
        "deals": deals,
        "totals": [checked.result.totals[name] for name in names],
        "warnings": list(checked.result.warnings),
    }


@login_required
@require_http_methods(["GET", "POST"])
def round_import(request):
    """Upload a sheet: « Aperçu » checks and scores it without writing, then « Enregistrer »
    imports it; « Importer » imports it at once. All or nothing either way."""
    seasons, board = _get_import_rights_for_user(request.user)
    action = request.POST.get("action", "import")
    errors = []
    if request.method == "POST" and action == "confirm":
        confirm = SheetConfirmForm(request.POST, board=board)
        form = SheetUploadForm(board=board)
        if confirm.is_valid():
            data = confirm.cleaned_data
            try:
                # the JSON of the previewed sheet, whatever the uploaded file's format was
                sheet = parse_json(data["file_name"], data["sheet_json"])
                imported = import_sheets(
                    [(data["file_name"], sheet)],
                    create_players=data["create_players"],
                    homologate=data.get("homologate", False),
                    user=request.user,
                    players_hint=FORM_PLAYERS_HINT,
                )
            except SheetImportError as error:
                errors = error.errors
            else:
                return _imported(request, imported)
        else:
            errors = [gettext("Aperçu périmé : déposez la feuille de nouveau.")]
    elif request.method == "POST":
        form = SheetUploadForm(request.POST, request.FILES, board=board)
    else:
        form = SheetUploadForm(board=board)
    if request.method == "POST" and action != "confirm" and form.is_valid():
        upload = form.cleaned_data["sheet"]
        options = {
            "create_players": form.cleaned_data["create_players"],
            "homologate": form.cleaned_data.get("homologate", False),
        }
        try:
            if action == "preview":
                checked, sheet = check_source(
                    upload.name, upload.read(), user=request.user, players_hint=FORM_PLAYERS_HINT, **options
                )
            else:
                imported = import_sheets(
                    [(upload.name, upload.read())],
                    user=request.user,
                    players_hint=FORM_PLAYERS_HINT,
                    **options,
                )
        except SheetImportError as error:
            errors = error.errors
        else:
            if action != "preview":
                return _imported(request, imported)
            confirm = SheetConfirmForm(
                initial={
                    "file_name": upload.name,
                    "sheet_json": json.dumps(sheet, ensure_ascii=False),
                    **options,
                },
                board=board,
            )
            context = {"checked": checked, "preview": _preview(checked), "confirm": confirm, **options}
            return render(request, "championship/sheets/preview.html", context)
    context = {"form": form, "errors": errors, "seasons": seasons, "board": board}
    return render(request, "championship/sheets/import.html", context)


def _season_imported(plan, homologated):
    count = len(plan.rounds)
    if homologated:
        text = ngettext(
            "Saison %(season)s : %(count)s manche importée et homologuée.",
            "Saison %(season)s : %(count)s manches importées et homologuées.",
            count,
        )
    else:
        text = ngettext(
            "Saison %(season)s : %(count)s manche importée en brouillon.",
            "Saison %(season)s : %(count)s manches importées en brouillon.",
            count,
        )
    return text % {"season": plan.season, "count": count}


@login_required
@require_http_methods(["GET", "POST"])
def season_import(request):
    """A past season from a totals table: « Aperçu » shows what the import would create, nothing
    stored; « Importer » then imports exactly the previewed file, all or nothing."""
    if not (acts_as_superuser(request.user) or board_seasons(request.user).exists()):
        raise PermissionDenied(gettext("Seule la Direction d'une saison importe une saison passée."))
    form, errors = SeasonImportForm(user=request.user), []
    action = request.POST.get("action")
    try:
        if action == "confirm":
            confirm = SeasonConfirmForm(request.POST, user=request.user)
            if not confirm.is_valid():
                errors = [message for messages_ in confirm.errors.values() for message in messages_]
            else:
                data = confirm.cleaned_data["token"]
                plan = apply_previewed(
                    data["file"],
                    data["data"],
                    data["season"],
                    data["digest"],
                    create_players=data["create_players"],
                    homologate=data["homologate"],
                    user=request.user,
                )
                messages.success(request, _season_imported(plan, data["homologate"]))
                return redirect("championship:season", plan.season)
        elif request.method == "POST":
            form = SeasonImportForm(request.POST, request.FILES, user=request.user)
            if form.is_valid():
                upload = form.cleaned_data["table"]
                content = upload.read()
                options = {key: form.cleaned_data[key] for key in ("create_players", "homologate")}
                plan = plan_season(
                    upload.name,
                    content,
                    form.cleaned_data["season"],
                    apply=False,
                    user=request.user,
                    **options,
                )
                confirm = SeasonConfirmForm(
                    initial={"token": form.token(content, plan_digest(plan))}, user=request.user
                )
                context = {"plan": plan, "confirm": confirm, **options}
                return render(request, "championship/sheets/season_preview.html", context)
    except SheetImportError as error:
        errors = error.errors
    return render(request, "championship/sheets/season_import.html", {"form": form, "errors": errors})


@require_GET
def round_export(request, pk):
    round_ = get_readable_round(request, pk)
    response = HttpResponse(dumps_sheet(export_sheet(round_)), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{sheet_filename(round_)}"'
    return response


def _workbook_response(data, fmt, filename):
    response = HttpResponse(data, content_type=CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _format(fmt):
    if fmt not in FORMATS:
        raise Http404(gettext("Format inconnu."))
    return fmt


@require_GET
def sheet_template(request, fmt):
    """The blank score sheet of a round, to fill in a spreadsheet and import."""
    fmt = _format(fmt)
    return _workbook_response(blank_sheet(fmt), fmt, f"feuille-de-manche.{fmt}")


@cache
def blank_sheet(fmt):
    """The blank score sheet's bytes in `fmt`, rendered once per process: the code alone decides
    them (no season, no player, no language)."""
    return render_workbook(template_tables(), fmt)


@require_GET
def round_workbook(request, pk, fmt):
    fmt = _format(fmt)
    round_ = get_readable_round(request, pk)
    return _workbook_response(render_workbook(round_tables(round_), fmt), fmt, workbook_filename(round_, fmt))


@require_GET
def season_workbook(request, name, fmt):
    """The season in a workbook: standings, rounds with totals, championship lines, deals."""
    fmt = _format(fmt)
    season = get_object_or_404(Season, name=name)
    tables = season_tables(season, season_standings(season), drafts=can_enter_rounds(request.user, season))
    return _workbook_response(render_workbook(tables, fmt), fmt, f"saison-{season.name}.{fmt}")


urlpatterns = [
    path("manches/importer/", round_import, name="round_import"),
    path("saisons/importer/", season_import, name="season_import"),  # before saisons/<name>/
    path("manches/modele.<str:fmt>", sheet_template, name="sheet_template"),
    path("manches/<int:pk>/feuille.json", round_export, name="round_export"),
    path("manches/<int:pk>/classeur.<str:fmt>", round_workbook, name="round_workbook"),
    path("saisons/<str:name>/classeur.<str:fmt>", season_workbook, name="season_workbook"),
]
