"""Round sheets: upload (import) and download (export) of the JSON interchange format.

Importing is for the secretary and the board; homologating on import for the board only (the
season of each sheet decides, in `championship.sheets`). A homologated round's sheet is public;
another round's only for those who enter the season's rounds.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from championship.forms import SheetUploadForm
from championship.models import Round
from championship.sheets import SheetImportError, dumps_sheet, export_sheet, import_sheets, sheet_filename
from federation.models import Season
from federation.roles import can_enter_rounds, is_board, remember_roles, with_roles

FORM_PLAYERS_HINT = "cochez « Inscrire les joueurs inconnus » pour l'inscrire"


def _get_import_rights_for_user(user):
    """(seasons whose rounds the user enters, whether the user is board of one of them): the
    seasons and the user's roles in each read in one query."""
    seasons = list(with_roles(Season.objects.all(), user, season="pk"))
    for season in seasons:
        remember_roles(user, season, season)
    seasons = [season for season in seasons if can_enter_rounds(user, season)]
    if not seasons and not user.is_superuser:
        raise PermissionDenied(
            gettext("Seuls le secrétaire et la Direction d'une saison importent des manches.")
        )
    board = user.is_superuser or any(is_board(user, season) for season in seasons)
    return seasons, board


def _get_round_for_export(request, pk):
    """A homologated round for anyone; another only for the secretary and the board."""
    round_ = get_object_or_404(Round.objects.select_related("season"), pk=pk)
    if not round_.is_homologated and not can_enter_rounds(request.user, round_.season):
        raise Http404(gettext("Manche introuvable."))
    return round_


@login_required
@require_http_methods(["GET", "POST"])
def round_import(request):
    seasons, board = _get_import_rights_for_user(request.user)
    if request.method == "POST":
        form = SheetUploadForm(request.POST, request.FILES, board=board)
    else:
        form = SheetUploadForm(board=board)
    errors = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["sheet"]
        try:
            imported = import_sheets(
                [(upload.name, upload.read())],
                create_players=form.cleaned_data["create_players"],
                homologate=form.cleaned_data.get("homologate", False),
                user=request.user,
                players_hint=FORM_PLAYERS_HINT,
            )
        except SheetImportError as error:
            errors = error.errors
        else:
            round_ = imported[0].round
            messages.success(
                request,
                gettext("%(round)s importée (%(status)s).")
                % {"round": round_, "status": round_.get_status_display()},
            )
            for warning in imported[0].warnings:
                messages.warning(request, gettext("Avertissement : %(warning)s") % {"warning": warning})
            return redirect(round_.get_absolute_url())
    context = {"form": form, "errors": errors, "seasons": seasons, "board": board}
    return render(request, "championship/sheets/import.html", context)


@require_GET
def round_export(request, pk):
    round_ = _get_round_for_export(request, pk)
    response = HttpResponse(dumps_sheet(export_sheet(round_)), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{sheet_filename(round_)}"'
    return response


urlpatterns = [
    path("manches/importer/", round_import, name="round_import"),
    path("manches/<int:pk>/feuille.json", round_export, name="round_export"),
]
