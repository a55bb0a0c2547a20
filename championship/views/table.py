"""The table's pages: the live view of a round, which the players at the table open from the QR
code of the entry page and follow while the secretary enters the deals, and their sign-off.

Who: until the round is homologated, the players seated at it, the secretary and the board
(a draft is not published; the players sign in once on their phone and the QR code brings them
back); once homologated, any logged-in member. One rule for the page and its poll,
`access.may_follow_live`; a dispute's comment is read by the board and its author only
(`access.readable_signoffs`). Only the players seated at the round sign it
(`services.sign_sheet`).

The live view polls a small fragment every few seconds (htmx) with the stamp of what it shows
(`rounds.live.stamp_of`, read with the access check in one query, `access.get_live_round`):
while nothing changed, the answer is an empty 204 (a poll with `?v=<stamp>`) or a 304 (a client
sending the ETag back in If-None-Match), rendered from nothing; else the fragment, with its new
stamp for the next poll.
"""

import dataclasses
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from championship import services
from championship.forms import SignoffForm
from championship.models import Signoff
from championship.rounds.live import live_view, stamp_of
from championship.views.access import attempt, get_live_round, get_round, readable_signoffs
from federation.roles import can_enter_rounds, player_of

POLL_SECONDS = 3  # how often a live view asks whether the round changed


def _context(request, round_, stamp):
    live = live_view(round_, stamp)
    live = dataclasses.replace(live, signoffs=readable_signoffs(request.user, round_, live.signoffs))
    player = player_of(request.user)
    mine = live.signoffs.of(player.pk) if player is not None else None
    return {
        "round": round_,
        "live": live,
        "display": live.display,
        "poll_seconds": POLL_SECONDS,
        "mine": mine,  # the user's SignoffRow when he sits at the round, else None
    }


@login_required
@require_GET
def round_live(request, pk):
    """The live view: the round as the table follows it, and the sign-off of a seated player."""
    stamp = stamp_of(get_live_round(request, pk))
    round_ = get_round(pk)
    context = _context(request, round_, stamp)
    context["can_enter"] = can_enter_rounds(request.user, round_.season)
    if context["mine"] is not None and not round_.is_homologated:
        context["signoff_form"] = SignoffForm(round_)
    return render(request, "championship/rounds/live.html", context)


def polled_by_members(view):
    """`login_required`, except for a poll of htmx whose session has ended: rather than the
    login page swapped into the live view, the whole page goes to it (HX-Redirect), and back."""
    protected = login_required(view)

    @wraps(view)
    def checked(request, pk):
        if not request.user.is_authenticated and request.htmx:
            live = reverse("championship:round_live", args=[pk])
            return HttpResponse(status=204, headers={"HX-Redirect": redirect_to_login(live)["Location"]})
        return protected(request, pk)

    return checked


@polled_by_members
@require_GET
def round_live_poll(request, pk):
    """htmx, every few seconds: 204 (`?v=` is the current stamp) or 304 (If-None-Match is its
    ETag) while the round is unchanged, else the fragment. Never cached on the way: each poll
    asks afresh."""
    stamp = stamp_of(get_live_round(request, pk))
    etag = f'"{stamp}"'
    if request.GET.get("v") == stamp:
        response = HttpResponse(status=204)
    elif etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponseNotModified()
    else:
        round_ = get_round(pk)
        context = _context(request, round_, stamp)
        # the sign-off form's version follows what the page shows (swapped out of band)
        context["oob_version"] = context["mine"] is not None and not round_.is_homologated
        response = render(request, "championship/rounds/_live.html", context)
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


@login_required
@require_POST
def round_signoff(request, pk):
    """A seated player confirms the sheet, or disputes it with a comment, at the version his
    page showed; back to the live view, with the service's refusal or its confirmation."""
    round_ = get_round(pk)
    player = player_of(request.user)
    if player is None or not round_.seats.filter(player=player).exists():
        raise PermissionDenied(gettext("Seuls les joueurs assis à cette manche signent sa feuille."))
    form = SignoffForm(round_, request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect("championship:round_live", round_.pk)
    verdict = form.cleaned_data["verdict"]
    confirmed = verdict == Signoff.CONFIRMED
    done = gettext("Feuille confirmée.") if confirmed else gettext("Contestation enregistrée.")
    attempt(
        request,
        lambda: services.sign_sheet(
            round_,
            request.user,
            verdict,
            version=form.cleaned_data.get("version"),
            comment=form.cleaned_data.get("comment", ""),
        ),
        done,
    )
    return redirect("championship:round_live", round_.pk)


urlpatterns = [
    path("manches/<int:pk>/direct/", round_live, name="round_live"),
    path("manches/<int:pk>/direct/suivi/", round_live_poll, name="round_live_poll"),
    path("manches/<int:pk>/signature/", round_signoff, name="round_signoff"),
]
