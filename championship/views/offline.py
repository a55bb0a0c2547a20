"""A deal kept on the secretary's phone while the network was down, sent when it returns
(federation/static/js/offline-entry.js): the same form and the same write as the entry page's
« Enregistrer la donne », answered in JSON for the phone's queue.

The queue sends each deal with its one-time key and the round's version it was entered at:
- stored → 200 `{"stored": true, "number", "version", "message"}`, the queue drops the deal;
- sent again after a lost answer (its key stored already) → 200 as well, `"replay": true`: the
  deal was stored once, the queue drops it;
- refused (the round changed meanwhile, was submitted, the deal does not validate) → 409 or 422
  `{"stored": false, "code", "errors": [French messages], "version"}`: the queue keeps the deal
  with these messages until the secretary corrects or deletes it.
Without a session (expired), the login redirect is left to the queue, which keeps the deal.
"""

from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.urls import path
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from championship.forms import DealForm
from championship.rounds import data as round_data
from championship.services import RoundError
from championship.views.access import get_round_for_editing
from championship.views.desk import store_deal


@login_required
@require_POST
def deal_send(request, pk):
    round_ = get_round_for_editing(request, pk)
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
            round_.refresh_from_db()
            return JsonResponse(
                {"stored": True, "replay": True, "version": round_.version, "message": error.message}
            )
        return _refused(round_, error.code, [error.message], status=409)
    message = gettext("Donne %(number)s enregistrée.") % {"number": deal.number}
    return JsonResponse(
        {"stored": True, "number": deal.number, "version": round_.version, "message": message}
    )


def _refused(round_, code, errors, *, status):
    round_.refresh_from_db(fields=["version"])  # a refused write may have raised it in memory only
    return JsonResponse(
        {
            "stored": False,
            "code": code,
            "errors": [str(error) for error in errors],
            "version": round_.version,
        },
        status=status,
    )


urlpatterns = [
    path("manches/<int:pk>/donnes/envoi/", deal_send, name="deal_send"),
]
