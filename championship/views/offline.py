"""A deal kept on the secretary's phone while the network was down, sent when it returns
(federation/static/js/offline-entry.js): the same form and the same write as the entry page's
« Enregistrer la donne », answered in JSON for the phone's queue.

The queue sends each deal with its one-time key, the round's version it was entered at and the
account that kept it (the id of the user logged in then):
- kept by another account than the session's (a phone passed from hand to hand), or without its
  account → 409 `{"stored": false, "code": "account", "errors": [French message]}`, nothing
  written: a deal is stored in the name of the account that kept it, or not at all;
- stored → 200 `{"stored": true, "number", "version", "next", "message"}`, the queue drops the
  deal;
- sent again after a lost answer (its key stored already) → 200 as well, `"replay": true`: the
  deal was stored once, the queue drops it;
- refused (the round changed meanwhile, was submitted, the deal does not validate) → 409 or 422
  `{"stored": false, "code", "errors": [French messages], "version", "next"}` (`next`: the number
  the deal would have now, which the phone shows): the queue keeps the deal with these messages
  until the secretary corrects or deletes it.
Without a session (expired), the login redirect is left to the queue, which keeps the deal.
The threat model of a shared phone is in docs/exploitation.md (« Comptes et sécurité »).
"""

from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import Http404, JsonResponse
from django.urls import path
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from championship.forms import DealForm
from championship.models import Round
from championship.rounds import data as round_data
from championship.services import RoundError
from championship.views.access import get_round_for_editing
from championship.views.desk import store_deal


@login_required
@require_POST
def deal_send(request, pk):
    round_ = get_round_for_editing(request, pk)
    if request.POST.get("account", "") != str(request.user.pk):
        message = gettext(
            "Cette donne a été gardée sur ce téléphone par un autre compte : elle ne part que depuis "
            "la session de ce compte. Rien n'est enregistré."
        )
        return JsonResponse({"stored": False, "code": "account", "errors": [message]}, status=409)
    if round_.totals_only:
        raise Http404(gettext("Cette manche n'a que des totaux."))
    data = round_data.read_round_data(round_, adjustments=False)
    form = DealForm(round_, request.POST, data=data)
    if not form.is_valid():
        errors = [error for errors in form.errors.values() for error in errors]
        return _refused(round_, "invalid", errors, status=422)
    try:
        deal = store_deal(request, round_, form, data)
    except RoundError as error:
        if error.code == "duplicate":
            answer = {"stored": True, "replay": True, **_state(round_), "message": error.message}
            return JsonResponse(answer)
        return _refused(round_, error.code, [error.message], status=409)
    message = gettext("Donne %(number)s enregistrée.") % {"number": deal.number}
    answer = {"version": round_.version, "next": deal.number + 1}
    return JsonResponse({"stored": True, "number": deal.number, **answer, "message": message})


def _state(round_):
    """The round's version and the number its next deal would have, as stored, in one read (a
    refused write may have raised the version in memory only): the phone keeps them together."""
    version, deals = (
        Round.objects.filter(pk=round_.pk)
        .annotate(deal_count=Count("deals"))
        .values_list("version", "deal_count")[0]
    )
    return {"version": version, "next": deals + 1}


def _refused(round_, code, errors, *, status):
    errors = [str(error) for error in errors]
    return JsonResponse({"stored": False, "code": code, "errors": errors, **_state(round_)}, status=status)


urlpatterns = [
    path("manches/<int:pk>/donnes/envoi/", deal_send, name="deal_send"),
]
