"""Comptes-rendus: the report page, its editing (the author, or the board), its PDF, and the season's
standings bulletin as a PDF.

Anyone reads the report of a homologated round; before homologation only the author, the
secretary and the board do. The designated author writes and edits his report, on time or late;
the board writes or edits any report and may change its author and filing date.
"""

import datetime
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import content_disposition_header
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods

from championship.forms import BoardReportForm, ReportForm
from championship.models import Round
from championship.reports.access import may_read_report
from championship.reports.bulletin import bulletin_context, bulletin_filename
from championship.reports.display import render_markdown, report_display, report_filename
from championship.services import RoundError, save_report
from championship.standings.lateness import report_author, report_of
from championship.views.access import get_round
from federation.models import Season
from federation.roles import is_board, player_of


def _is_author(user, round_):
    player = player_of(user)
    author = report_author(round_) if player is not None else None
    return author is not None and author.pk == player.pk


def _may_write(user, round_):
    if is_board(user, round_.season):
        return True
    return round_.status != Round.DRAFT and _is_author(user, round_)


def _get_report_round_for_user(request, pk):
    """The round of a report the user may read: homologated, else only for its author and officials."""
    round_ = get_round(pk)
    if may_read_report(request.user, round_, lambda: report_author(round_)):
        return round_
    raise Http404(gettext("Ce compte-rendu n'est pas encore publié."))


def _get_report_round_for_writer(request, pk):
    round_ = get_round(pk)
    if not _may_write(request.user, round_):
        raise PermissionDenied(
            gettext("Seuls l'auteur désigné du compte-rendu et la Direction peuvent l'écrire.")
        )
    return round_


def in_french(view):
    """Comptes-rendus and PDFs are written in French (see the README): `view` answers in French
    whatever the visitor's language, dates and the deals' wording included."""

    @wraps(view)
    def french_view(request, *args, **kwargs):
        with translation.override("fr"):
            return view(request, *args, **kwargs)

    return french_view


@require_GET
def report(request, pk):
    round_ = _get_report_round_for_user(request, pk)
    # In the visitor's language, the page and the report's facts, tables and highlights alike (issue 35);
    # the narrative stays as its author wrote it, and the PDF in French (`in_french`).
    display = report_display(round_)
    content = render_to_string(
        "championship/reports/_content.html",
        {"display": display, "round_url": reverse("championship:round", args=[round_.pk])},
        request,
    )
    context = {
        "display": display,
        "content": content,
        "can_edit": _may_write(request.user, round_),
        "round_url": reverse("championship:round", args=[round_.pk]),
        "season_url": reverse("championship:season", args=[round_.season.name]),
    }
    return render(request, "championship/reports/report.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def report_edit(request, pk):
    round_ = _get_report_round_for_writer(request, pk)
    board = is_board(request.user, round_.season)
    existing = report_of(round_)
    author = report_author(round_)
    initial = {"text": existing.text if existing else "", "author": author}
    initial["version"] = existing.version if existing else 0
    if existing is not None:
        initial["filed_on"] = existing.filed_on
    form_class = BoardReportForm if board else ReportForm
    extra = {"round_": round_} if board else {}
    form = form_class(request.POST or None, initial=initial, **extra)
    preview = other = None
    if request.method == "POST" and form.is_valid():
        if "preview" in request.POST:
            preview = render_markdown(form.cleaned_data["text"])
        else:
            try:
                save_report(
                    round_,
                    form.cleaned_data["text"],
                    author=form.cleaned_data.get("author") or (None if existing else author),
                    filed_on=form.cleaned_data.get("filed_on"),
                    reason="compte-rendu modifié" if existing else "compte-rendu déposé",
                    version=form.cleaned_data.get("version"),
                    user=request.user,
                )
            except RoundError as error:
                # The writer's text stays in the form, now at the version stored meanwhile,
                # whose text shows above it: sent again, it replaces that text knowingly.
                existing = other = report_of(round_)
                data = request.POST.copy()
                data["version"] = existing.version if existing is not None else 0
                form = form_class(data, initial=initial, **extra)
                form.is_valid()
                form.add_error(None, error.message)
            else:
                messages.success(request, gettext("Compte-rendu enregistré."))
                return redirect("championship:report", pk=round_.pk)
    context = {
        "form": form,
        "round": round_,
        "display": report_display(round_),
        "preview": preview,
        "board": board,
        "existing": existing,
        "other": other,
        "other_html": render_markdown(other.text) if other is not None else "",
        "weekly_malus": -round_.season.rulebook.reports.late_malus_per_week,
    }
    return render(request, "championship/reports/report_edit.html", context)


def _error_page(request, status, title, message, *, hint="", back_url="", back_label=""):
    """A French error page in the site's layout; every value is escaped by the template."""
    context = {"title": title, "message": message, "hint": hint}
    context.update(back_url=back_url, back_label=back_label)
    return render(request, "championship/reports/error.html", context, status=status)


def _shortened(value, length=40):
    return value if len(value) <= length else value[: length - 1] + "…"


PDF_FAILURES = {
    "timeout": _("sa mise en page a dépassé le temps permis"),
    "memory": _("sa mise en page a dépassé la mémoire permise"),
    "crash": _("sa mise en page a dépassé la mémoire permise"),
    "busy": _("le même document est déjà en cours de mise en page"),
    "recent-failure": _("sa mise en page vient d'échouer"),
}


def _pdf_response(request, template_name, context, filename, *, public, back_url, back_label):
    """The stored PDF (laid out on first request), 304 to a client that has it, or a 503 page.

    Served inline: a phone opens it in its browser rather than saving a file (its name stays
    the one offered when it is saved). WeasyPrint (a second to import) is loaded by the first PDF,
    not by every process that imports the views (a management command, a worker at its start)."""
    from championship.lib.pdf import PdfRenderError, stored_pdf  # noqa: PLC0415

    pdf = stored_pdf(template_name, context, request, name=filename)
    response = get_conditional_response(request, etag=pdf.etag)
    if response is None:
        try:
            content = pdf.content()
        except PdfRenderError as error:
            return _pdf_failure_page(request, filename, error, back_url, back_label)
        response = HttpResponse(content, content_type="application/pdf")
        response["Content-Disposition"] = content_disposition_header(False, filename)
    response["ETag"] = pdf.etag
    # Always revalidated (ETag): a correction shows at once; unpublished documents stay private.
    patch_cache_control(response, no_cache=True, **({"public": True} if public else {"private": True}))
    return response


def _pdf_failure_page(request, filename, error, back_url, back_label):
    reason = PDF_FAILURES.get(error.reason, _("sa mise en page a échoué"))
    message = gettext("Le PDF « %(name)s » n'a pas pu être produit : %(reason)s.")
    response = _error_page(
        request,
        503,
        gettext("PDF indisponible"),
        message % {"name": filename, "reason": reason},
        hint=gettext("Réessayez dans quelques minutes ; la page reste consultable en ligne."),
        back_url=back_url,
        back_label=back_label,
    )
    response["Retry-After"] = "60"
    return response


@require_GET
@in_french
def report_pdf(request, pk):
    round_ = _get_report_round_for_user(request, pk)
    return _pdf_response(
        request,
        "championship/reports/report_pdf.html",
        {"display": report_display(round_)},
        report_filename(round_),
        public=round_.is_homologated,
        back_url=reverse("championship:report", args=[round_.pk]),
        back_label=gettext("Lire le compte-rendu en ligne"),
    )


@require_GET
@in_french
def bulletin_pdf(request, name):
    season = get_object_or_404(Season, name=name)
    raw = request.GET.get("as_of", "").strip()
    season_url = reverse("championship:season", args=[season.name])
    try:
        as_of = datetime.date.fromisoformat(raw) if raw else None
    except ValueError:
        message = gettext("Date « as_of » invalide : « %(value)s » (format attendu AAAA-MM-JJ).")
        return _error_page(
            request,
            400,
            gettext("Date invalide"),
            message % {"value": _shortened(raw)},
            back_url=season_url,
            back_label=gettext("Classement de la saison"),
        )
    return _pdf_response(
        request,
        "championship/reports/bulletin_pdf.html",
        bulletin_context(season, as_of),
        bulletin_filename(season),
        public=True,
        back_url=season_url,
        back_label=gettext("Classement de la saison"),
    )


urlpatterns = [
    path("manches/<int:pk>/compte-rendu/", report, name="report"),
    path("manches/<int:pk>/compte-rendu/modifier/", report_edit, name="report_edit"),
    path("manches/<int:pk>/compte-rendu.pdf", report_pdf, name="report_pdf"),
    path("saisons/<str:name>/bulletin.pdf", bulletin_pdf, name="bulletin_pdf"),
]
