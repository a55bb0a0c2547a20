"""Accounts: the page shown to a login that django-axes throttles (settings: AXES_*)."""

from axes.helpers import get_client_username, get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max
from django.shortcuts import render
from django.utils import timezone


def lockout_response(request, original_response=None, credentials=None):
    """The lockout page (HTTP 429), in the site's layout, saying when to try again.

    Failures are counted for an account from an address; the lock lifts once the last recorded
    failure is older than the cool-off (a login tried during the lock is not recorded, so the time
    shown stays true).
    """
    username = get_client_username(request, credentials)
    cool_off = get_cool_off(request)
    last_failure = AccessAttempt.objects.filter(
        username=username, ip_address=getattr(request, "axes_ip_address", None)
    ).aggregate(last=Max("attempt_time"))["last"]
    retry_at = (last_failure or timezone.now()) + cool_off
    context = {
        "failure_limit": get_failure_limit(request, credentials),
        "cool_off_minutes": int(cool_off.total_seconds() // 60),
        "retry_at": retry_at,
        "retry_today": timezone.localdate(retry_at) == timezone.localdate(),
    }
    return render(request, "registration/lockout.html", context, status=settings.AXES_HTTP_RESPONSE_CODE)
