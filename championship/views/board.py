"""The board's acts on a round: homologation (GET: what is about to be published; POST: homologate)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext

from championship import services
from championship.forms import (
    HomologateForm,
)
from championship.rounds.display import round_display
from championship.rounds.signoffs import table_signoffs
from championship.rounds.tables import AdjustmentTable, RankingTable
from championship.views.access import (
    attempt,
    get_round,
)
from federation.roles import is_board


@login_required
def round_homologate(request, pk):
    """The board homologates a round: GET shows what is about to be published (the round's
    totals, ranking, bonuses and maluses, and the paper check) and asks to confirm; POST
    homologates, through the service, at the version the confirmation showed."""
    round_ = get_round(pk)
    if not is_board(request.user, round_.season):
        raise PermissionDenied(gettext("Seule la Direction homologue les manches."))
    if round_.is_homologated:
        messages.info(request, gettext("Cette manche est déjà homologuée."))
        return redirect("championship:round", round_.pk)
    signoffs = table_signoffs(round_)
    form = HomologateForm(
        round_, request.POST if request.method == "POST" else None, disputed=bool(signoffs.disputes)
    )
    if request.method == "POST" and form.is_valid():
        done = gettext("Manche homologuée.")

        def homologate():
            services.homologate_round(round_, request.user, version=form.version, reason=form.reason)

        attempt(request, homologate, done)
        if round_.is_homologated:
            return redirect("championship:round", round_.pk)
        return redirect("championship:round_homologate", round_.pk)
    display = round_display(round_)
    balance = sum(total or 0 for total in display.totals)
    return render(
        request,
        "championship/rounds/homologate.html",
        {
            "round": round_,
            "display": display,
            "form": form,
            "balance": balance,
            "ranking": RankingTable(display.ranking),
            "adjustments": AdjustmentTable(display.adjustments),
            "signoffs": signoffs,
        },
    )


urlpatterns = [
    path("manches/<int:pk>/homologuer/", round_homologate, name="round_homologate"),
]
