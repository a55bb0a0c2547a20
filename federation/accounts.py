"""Accounts: the page shown to a login that django-axes throttles (settings: AXES_*), the
password reset request, sent off the request and throttled (settings: PASSWORD_RESET_*), the
throttle of a member's new address to confirm (settings: EMAIL_CHANGE_*), and what
keeps an account's pages off a phone passed from hand to hand (`private_when_logged_in`,
`LogoutView`; the threat model in docs/exploitation.md, « Comptes et sécurité »)."""

import logging

from axes.helpers import get_client_ip_address, get_client_username, get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.backends import ModelBackend
from django.contrib.sites.shortcuts import get_current_site
from django.db.models import Max
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control

from federation import outbox
from federation.throttle import within_limit

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


# --- the account of a request ---------------------------------------------------------------------


class AccountBackend(ModelBackend):
    """Django's ModelBackend, whose account of a request comes with its player in one query: most
    pages ask who the reader is as a player (federation.roles.player_of: « Moi », his rows marked,
    the table), none should pay a second query for it. Settings: AUTHENTICATION_BACKENDS, where
    Django's ModelBackend stays after it for the sessions opened before it (their backend is
    named in them)."""

    def get_user(self, user_id):
        try:
            user = get_user_model()._default_manager.select_related("player").get(pk=user_id)
        except get_user_model().DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None


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


def reset_allowed(email, client):
    """Whether a reset link may go out for ``email`` asked from ``client``: at most
    PASSWORD_RESET_EMAIL_LIMIT per address and PASSWORD_RESET_CLIENT_LIMIT per client address in
    a window (both counted for every request, whether a member has the address or not)."""
    window = settings.PASSWORD_RESET_WINDOW
    by_client = within_limit("password-reset:client", client, settings.PASSWORD_RESET_CLIENT_LIMIT, window)
    by_email = within_limit(
        "password-reset:email", email.strip().casefold(), settings.PASSWORD_RESET_EMAIL_LIMIT, window
    )
    if not (by_client and by_email):
        logger.warning(
            "Lien de nouveau mot de passe non envoyé (limite %s atteinte) : adresse %s, client %s",
            "par adresse" if by_client else "par client",
            email,
            client,
        )
    return by_client and by_email


def email_change_allowed(user, client):
    """Whether ``user`` may be mailed one more link confirming a new address, asked from
    ``client``: at most EMAIL_CHANGE_ACCOUNT_LIMIT per account and EMAIL_CHANGE_CLIENT_LIMIT per
    client address in EMAIL_CHANGE_WINDOW (every request counted, refused or not: docs/comptes.md)."""
    window = settings.EMAIL_CHANGE_WINDOW
    by_client = within_limit("email-change:client", client, settings.EMAIL_CHANGE_CLIENT_LIMIT, window)
    by_account = within_limit(
        "email-change:account", str(user.pk), settings.EMAIL_CHANGE_ACCOUNT_LIMIT, window
    )
    if not (by_client and by_account):
        logger.warning(
            "Lien de confirmation d'adresse non envoyé (limite %s atteinte) : compte %s, client %s",
            "par compte" if by_client else "par client",
            user.get_username(),
            client,
        )
    return by_client and by_account


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
