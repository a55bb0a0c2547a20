"""Accounts: the page shown to a login that django-axes throttles (settings: AXES_*), the
password reset request, sent off the request and throttled (settings: PASSWORD_RESET_*), and what
keeps an account's pages off a phone passed from hand to hand (`private_when_logged_in`,
`LogoutView`; the threat model in docs/exploitation.md, « Comptes et sécurité »)."""

import hashlib
import logging

from axes.helpers import get_client_ip_address, get_client_username, get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.sites.shortcuts import get_current_site
from django.core.cache import cache
from django.db.models import Max
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control

from federation import outbox

logger = logging.getLogger(__name__)


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


# --- a shared phone ------------------------------------------------------------------------------


def private_when_logged_in(get_response):
    """Every answer to a logged-in account (or to the request that logs it in or out):
    `Cache-Control: private, no-store`, so that neither a shared cache nor the browser's keeps a
    copy of a page meant for one account (the account page shows the calendar's secret address).
    The service worker's copy of the entry page for offline use is apart from this: it keeps it
    itself, and empties it when someone logs in or out (federation.pwa). After
    AuthenticationMiddleware; static files (WhiteNoise, above it) keep their long cache."""

    def middleware(request):
        before = request.user.is_authenticated
        response = get_response(request)
        if before or request.user.is_authenticated:
            patch_cache_control(response, private=True, no_store=True)
        return response

    return middleware


class LogoutView(auth_views.LogoutView):
    """Logging out also asks the browser to empty its cache of the site (`Clear-Site-Data:
    "cache"`, honoured on HTTPS and localhost), even for a session that expired meanwhile; never
    `"storage"`, which would erase the deals kept on the phone until they are sent."""

    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache"'
        return response


# --- password reset -------------------------------------------------------------------------------


def _throttle_key(kind, value):
    return f"{kind}:{hashlib.sha256(value.encode()).hexdigest()}"


def within_limit(kind, value, limit, window):
    """Count one request of ``kind`` for ``value`` (an e-mail address, a client address) in the
    current window, in the site's cache; False once more than ``limit`` came in the window, which
    starts with the first of them and lasts ``window`` (a timedelta). Also the throttle of the
    private links' failed guesses (federation.private_links)."""
    seconds = int(window.total_seconds())
    key = _throttle_key(kind, value)
    if cache.add(key, 0, timeout=seconds):
        cache.set(f"{key}:since", timezone.now(), timeout=seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between the two calls
        cache.set(key, 1, timeout=seconds)
        cache.set(f"{key}:since", timezone.now(), timeout=seconds)
        count = 1
    return count <= limit


def counted(kind, value):
    """How many requests of ``kind`` ``within_limit`` counted for ``value`` in the current window
    (nothing is counted by asking)."""
    return cache.get(_throttle_key(kind, value), 0)


def window_start(kind, value):
    """When the current window of ``kind`` for ``value`` began (None: no window)."""
    return cache.get(f"{_throttle_key(kind, value)}:since")


def reset_allowed(email, client):
    """Whether a reset link may go out for ``email`` asked from ``client``: at most
    PASSWORD_RESET_EMAIL_LIMIT per address and PASSWORD_RESET_CLIENT_LIMIT per client address in
    a window (both counted for every request, whether a member has the address or not)."""
    window = settings.PASSWORD_RESET_WINDOW
    by_client = within_limit("password-reset:client", client, settings.PASSWORD_RESET_CLIENT_LIMIT, window)
    address = email.strip().casefold()
    by_email = within_limit("password-reset:email", address, settings.PASSWORD_RESET_EMAIL_LIMIT, window)
    if not (by_client and by_email):
        logger.warning(
            "Lien de nouveau mot de passe non envoyé (limite %s atteinte) : adresse %s, client %s",
            "par adresse" if by_client else "par client",
            email,
            client,
        )
    return by_client and by_email


def _send_reset(form, options, language):
    """Run on the outbox's thread: find the accounts of the address and mail each its link (the
    form of Django, which logs a failed sending)."""
    with translation.override(language):
        form.save(**options)


class PasswordResetView(auth_views.PasswordResetView):
    """« Mot de passe oublié » : the same page follows, at once, whether a member has the address
    or not, a message leaves or not (the lookup of the account and the mail happen off the
    request, ``outbox``), and whether the request is within the limits or not (beyond them,
    nothing is sent: ``reset_allowed``)."""

    def form_valid(self, form):
        request = self.request
        client = get_client_ip_address(request) or "inconnu"
        if reset_allowed(form.cleaned_data["email"], client):
            site = get_current_site(request)
            options = {
                "domain_override": site.domain,
                "use_https": request.is_secure(),
                "token_generator": self.token_generator,
                "from_email": self.from_email,
                "email_template_name": self.email_template_name,
                "subject_template_name": self.subject_template_name,
                "html_email_template_name": self.html_email_template_name,
                "extra_email_context": {"site_name": site.name, **(self.extra_email_context or {})},
            }
            outbox.send_later(_send_reset, form, options, translation.get_language())
        return HttpResponseRedirect(self.get_success_url())
