"""What the views share: the season or round a request may read or change (federation.roles),
and the one skeleton of a write (POST → service → refusal or success → redirect)."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from championship.models import Deal, Round
from championship.services import RoundError
from federation.models import Season
from federation.roles import can_enter_rounds, is_board, remember_roles, with_roles

HOMOLOGATED_READ_ONLY = _("Cette manche est homologuée : seule la Direction peut la corriger.")


def get_season(name):
    return get_object_or_404(Season, name=name)


def get_season_for_entry(request, season_name):
    season = get_season(season_name)
    if not can_enter_rounds(request.user, season):
        raise PermissionDenied(gettext("Seuls le secrétaire et la Direction saisissent les manches."))
    return season


def get_round(pk):
    return get_object_or_404(Round.objects.select_related("season"), pk=pk)


def get_readable_round(request, pk):
    """A round to read (its page, its export): homologated for anyone, otherwise only for those
    who enter rounds (the secretary and the board)."""
    round_ = get_round(pk)
    if not round_.is_homologated and not can_enter_rounds(request.user, round_.season):
        raise Http404(gettext("Manche introuvable."))
    return round_


def get_round_for_editing(request, pk):
    """A round to change: secretary or board; a homologated one, board only (the round and the
    user's roles in its season read in one query)."""
    round_ = get_object_or_404(with_roles(Round.objects.select_related("season"), request.user), pk=pk)
    remember_roles(request.user, round_.season, round_)
    if not can_enter_rounds(request.user, round_.season):
        raise PermissionDenied(gettext("Seuls le secrétaire et la Direction saisissent les manches."))
    if round_.is_homologated and not is_board(request.user, round_.season):
        raise PermissionDenied(HOMOLOGATED_READ_ONLY)
    return round_


def get_deal_for_editing(request, pk, number):
    round_ = get_round_for_editing(request, pk)
    if round_.totals_only:
        raise Http404(gettext("Cette manche n'a que des totaux."))
    return round_, get_object_or_404(Deal, round=round_, number=number)


def edit_url(round_, number=None, anchor=""):
    """The entry page of `round_`, with deal `number` highlighted, or at `anchor` (« #bonus »)."""
    url = reverse("championship:round_edit", args=[round_.pk])
    return f"{url}?donne={number}#donne-{number}" if number else url + anchor


def attempt(request, write, done):
    """Run `write` (a service call); its refusal (RoundError) shown as an error, else `done` as
    a success. True if it was written."""
    try:
        write()
    except RoundError as error:
        messages.error(request, error.message)
        return False
    messages.success(request, done)
    return True


def written(request, write, done, url, refused_url=None):
    """POST → service → refusal → redirect: the write's refusal on the page read afresh at
    `refused_url` (for a stale form, the message names the other change and the page shows it),
    else `done` and `url`."""
    return redirect(url if attempt(request, write, done) else (refused_url or url))
