"""The table's pages: the live view of a round, which the players at the table open from the QR
code of the entry page and follow while the secretary enters the deals, and their sign-off.

Who: until the round is homologated, the players seated at it, the secretary and the board, and
whoever opened its table link (the QR code: `round_table`, a token for that round only, read-only,
remembered by the visitor's session, with or without an account); once homologated, any
logged-in member, and the table link answers that the round is published. One rule for the page
and its poll, `access.may_follow_live`; a dispute's comment is read by the board and its author
only (`access.readable_signoffs`). Only the players seated at the round sign it: with their
account (`services.sign_sheet`), or, from a phone without it, with the code the secretary's
screen shows them (`services.sign_sheet_by_code`; guesses throttled per round and player).
The threat model: docs/exploitation.md, « Comptes et sécurité ».

The live view polls a small fragment every few seconds (htmx) with the stamp of what it shows
(`rounds.live.stamp_of`, read with the access check in one query, `access.get_live_round`):
while nothing changed, the answer is an empty 204 (a poll with `?v=<stamp>`) or a 304 (a client
sending the ETag back in If-None-Match), rendered from nothing; else the fragment, with its new
stamp for the next poll.
"""

import dataclasses
import datetime
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from championship import services
from championship.forms import CodeSignoffForm, SignoffForm
from championship.models import Signoff
from championship.rounds.live import live_view, stamp_of
from championship.rounds.signoffs import table_signoffs
from championship.rounds.table_link import is_table_token
from championship.views.access import (
    TableLinkEnded,
    attempt,
    forget_table_link,
    get_live_round,
    get_round,
    holds_table_link,
    readable_signoffs,
    remember_table_link,
)
from federation.roles import can_enter_rounds, player_of
from federation.throttle import within_limit

POLL_SECONDS = 3  # how often a live view asks whether the round changed
CODE_GUESSES = 5  # signing codes tried for one player of one round…
CODE_WINDOW = datetime.timedelta(minutes=15)  # … in this window


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


def _signs_by_code(request, round_):
    """Whether this visitor signs by code: no account, the round's table link, not homologated."""
    return (
        not request.user.is_authenticated
        and holds_table_link(request, round_.pk)
        and not round_.is_homologated
    )


def for_the_table(view):
    """The live view and its poll: a logged-in account, or a visitor holding the round's table
    link; anyone else goes to the login page (a poll of htmx: the whole page, HX-Redirect). A
    visitor whose table link ended with homologation goes to the published round."""

    @wraps(view)
    def checked(request, pk):
        if not request.user.is_authenticated and not holds_table_link(request, pk):
            live = reverse("championship:round_live", args=[pk])
            if request.htmx:
                return HttpResponse(status=204, headers={"HX-Redirect": redirect_to_login(live)["Location"]})
            return redirect_to_login(live)
        try:
            return view(request, pk)
        except TableLinkEnded:
            published = reverse("championship:round", args=[pk])
            if request.htmx:
                return HttpResponse(status=204, headers={"HX-Redirect": published})
            return redirect(published)

    return checked


@for_the_table
@require_GET
def round_live(request, pk):
    """The live view: the round as the table follows it, and the sign-off of a seated player (or
    « Signer pour moi » by code); for the secretary and the board, the players' signing codes."""
    stamp = stamp_of(get_live_round(request, pk))
    round_ = get_round(pk)
    context = _context(request, round_, stamp)
    context["can_enter"] = can_enter_rounds(request.user, round_.season)
    if context["mine"] is not None and not round_.is_homologated:
        context["signoff_form"] = SignoffForm(round_)
    elif _signs_by_code(request, round_):
        context["code_form"] = CodeSignoffForm(round_, context["live"].signoffs)
    response = render(request, "championship/rounds/live.html", context)
    patch_cache_control(response, private=True, no_store=True)  # a table link's page too
    return response


@for_the_table
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
        signs = context["mine"] is not None or _signs_by_code(request, round_)
        context["oob_version"] = signs and not round_.is_homologated
        response = render(request, "championship/rounds/_live.html", context)
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


@require_GET
def round_table(request, pk, token):
    """The table's link (the QR code of the entry page): the session remembers the round and goes
    to its live view; once the round is homologated, a page says so and links to the published
    round. A wrong token: not found."""
    round_ = get_round(pk)
    if not is_table_token(round_.pk, token):
        raise Http404(gettext("Manche introuvable."))
    if round_.is_homologated:
        forget_table_link(request, round_.pk)
        response = render(request, "championship/rounds/table_ended.html", {"round": round_})
    else:
        remember_table_link(request, round_.pk)
        response = redirect("championship:round_live", round_.pk)
    patch_cache_control(response, private=True, no_store=True)
    return response


def _refused(request, form):
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, error)


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
        _refused(request, form)
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


@require_POST
def round_signoff_by_code(request, pk):
    """« Signer pour moi »: a seated player, on a phone without his account that opened the
    table link, signs with his name and the code the secretary's screen shows him; guesses are
    counted per round and player (CODE_GUESSES in CODE_WINDOW, whoever tries them)."""
    round_ = get_round(pk)
    if not _signs_by_code(request, round_):
        raise PermissionDenied(gettext("Seuls les joueurs assis à cette manche signent sa feuille."))
    form = CodeSignoffForm(round_, table_signoffs(round_), request.POST)
    if not form.is_valid():
        _refused(request, form)
        return redirect("championship:round_live", round_.pk)
    data = form.cleaned_data
    if not within_limit("table-code", f"{round_.pk}:{data['player']}", CODE_GUESSES, CODE_WINDOW):
        messages.error(
            request, gettext("Code : trop d'essais pour ce joueur ; réessayez dans un quart d'heure.")
        )
        return redirect("championship:round_live", round_.pk)
    confirmed = data["verdict"] == Signoff.CONFIRMED
    done = gettext("Feuille confirmée.") if confirmed else gettext("Contestation enregistrée.")
    player = round_.seats.get(player_id=data["player"]).player
    attempt(
        request,
        lambda: services.sign_sheet_by_code(
            round_,
            player,
            data["code"],
            data["verdict"],
            version=data.get("version"),
            comment=data.get("comment", ""),
        ),
        done,
    )
    return redirect("championship:round_live", round_.pk)


urlpatterns = [
    path("manches/<int:pk>/direct/", round_live, name="round_live"),
    path("manches/<int:pk>/direct/suivi/", round_live_poll, name="round_live_poll"),
    path("manches/<int:pk>/signature/", round_signoff, name="round_signoff"),
    path("manches/<int:pk>/signature/code/", round_signoff_by_code, name="round_signoff_code"),
    path("manches/<int:pk>/table/<str:token>/", round_table, name="round_table"),
]
