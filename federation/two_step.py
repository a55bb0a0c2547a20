"""The login in two steps and the pages of the second factor (`federation.second_factor`; the
threat model in docs/exploitation.md, « Comptes et sécurité »).

Login: the password (django-axes throttles it), then, for an account with a confirmed device,
a second page asks for its code or a backup code. Between the two the session is not logged in:
it holds only the pending login (the account, when, how many codes were tried), which dies
after PENDING_SECONDS or MAX_TRIES codes. The admin's own login sends to the site's.
"""

import base64
import logging
import time

import segno
from axes.helpers import get_client_ip_address
from django import forms
from django.contrib import admin, auth, messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from federation import second_factor
from federation.roles import by_link

logger = logging.getLogger(__name__)

PENDING_KEY = "second_factor_pending"
PENDING_SECONDS = 5 * 60  # the code must come within five minutes of the password
MAX_TRIES = 5  # codes tried for one pending login; then the password again
CODES_KEY = "second_factor_codes"  # the backup codes, shown once after the confirmation


class CodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Code"),
        max_length=32,
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "autofocus": True}
        ),
        help_text=gettext_lazy("Les six chiffres de votre application, ou un code de secours."),
    )


# --- login ----------------------------------------------------------------------------------------


class LoginView(auth_views.LoginView):
    """The password step. An account with a confirmed device is not logged in here: the session
    keeps the pending login and the code page follows."""

    def form_valid(self, form):
        user = form.get_user()
        if second_factor.confirmed_device(user) is None:
            return super().form_valid(form)
        self.request.session.cycle_key()
        self.request.session[PENDING_KEY] = {
            "user": user.pk,
            "backend": user.backend,
            "hash": user.get_session_auth_hash(),
            "since": time.time(),
            "tries": 0,
            "next": self.get_success_url(),
        }
        return redirect("login_code")


def _pending_user(request):
    """The account whose password was just given, if its pending login is still alive."""
    pending = request.session.get(PENDING_KEY)
    if not pending:
        return None
    if time.time() - pending["since"] > PENDING_SECONDS:
        del request.session[PENDING_KEY]
        return None
    user = auth.get_user_model().objects.filter(pk=pending["user"], is_active=True).first()
    if user is None or user.get_session_auth_hash() != pending["hash"]:  # the password changed
        del request.session[PENDING_KEY]
        return None
    return user


@require_http_methods(["GET", "POST"])
def login_code(request):
    """The second step: the code of the account's authenticator, or one of its backup codes."""
    user = _pending_user(request)
    if user is None:
        messages.warning(request, gettext("Connexion expirée : saisissez de nouveau votre mot de passe."))
        return redirect("login")
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        pending = request.session[PENDING_KEY]
        pending["tries"] += 1
        request.session.modified = True
        device, wait = second_factor.check_code(user, form.cleaned_data["code"])
        if device is not None:
            del request.session[PENDING_KEY]
            auth.login(request, user, backend=pending["backend"])
            second_factor.verified_login(request, device)
            return HttpResponseRedirect(pending["next"])
        logger.warning(
            "Code de seconde vérification refusé pour le compte %s depuis %s (essai %d%s)",
            user.get_username(),
            get_client_ip_address(request),
            pending["tries"],
            ", appareil en attente" if wait else "",
        )
        if pending["tries"] >= MAX_TRIES:
            del request.session[PENDING_KEY]
            messages.error(
                request, gettext("Trop de codes erronés : saisissez de nouveau votre mot de passe.")
            )
            return redirect("login")
        form.add_error("code", _refusal(wait))
    status = 400 if request.method == "POST" else 200
    return render(request, "registration/login_code.html", {"form": form}, status=status)


def _refusal(wait):
    if wait:
        return ngettext(
            "Trop d'essais : attendez %(seconds)d seconde avant le prochain code.",
            "Trop d'essais : attendez %(seconds)d secondes avant le prochain code.",
            wait,
        ) % {"seconds": wait}
    return gettext("Code erroné.")


# --- the admin ------------------------------------------------------------------------------------


class AdminSite(admin.AdminSite):
    """The admin: its login is the site's (password, then the code); neither a session of a
    device holder that did not pass the code nor one a member's private link opened (whatever
    the account's flags, federation.roles) is let in."""

    def login(self, request, extra_context=None):
        target = request.GET.get(auth.REDIRECT_FIELD_NAME) or reverse("admin:index")
        return HttpResponseRedirect(reverse("login") + "?" + urlencode({auth.REDIRECT_FIELD_NAME: target}))

    def has_permission(self, request):
        user = request.user
        return (
            super().has_permission(request)
            and not by_link(user)
            and not second_factor.unverified_holder(user)
        )


# --- the account's pages --------------------------------------------------------------------------


def _eligible(request):
    """The pages of the second factor: for whom the account page shows them, and never from a
    session opened by a member's private link (it may not change how the account logs in)."""
    if request.session.get("by_link") or not second_factor.may_have_second_factor(request.user):
        raise PermissionDenied(gettext("La seconde vérification est réservée aux officiels."))
    if second_factor.unverified_holder(request.user):  # a session older than the device
        raise PermissionDenied(
            gettext("Reconnectez-vous avec votre code pour changer la seconde vérification.")
        )


@login_required
@require_POST
def enrol_start(request):
    """« Ajouter une seconde vérification »: a new device, shown to be added to the app."""
    _eligible(request)
    second_factor.start_enrolment(request.user)
    return redirect("second_factor_enrol")


@login_required
@require_http_methods(["GET", "POST"])
def enrol(request):
    """The QR code and the secret of the new device, and the code that confirms it."""
    _eligible(request)
    device = second_factor.pending_device(request.user)
    if device is None:
        return redirect("notifications:account")
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        wait = second_factor.throttle_delay(device)
        codes = None if wait else second_factor.confirm_enrolment(request, device, form.cleaned_data["code"])
        if codes is not None:
            request.session[CODES_KEY] = codes
            return redirect("second_factor_codes")
        form.add_error("code", _refusal(wait))
    context = {"form": form, "secret": _spaced(device), "qr": _qr(device), "otpauth_url": device.config_url}
    status = 400 if form.errors else 200
    return render(request, "registration/second_factor_enrol.html", context, status=status)


def _spaced(device):
    """The secret as an app asks for it when typed: base32, in groups of four."""
    secret = base64.b32encode(device.bin_key).decode()
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


def _qr(device):
    """The otpauth:// address of the device (issuer: settings.OTP_TOTP_ISSUER) as an inline SVG
    QR code, drawn by segno as the live view's (championship/templatetags/live.py)."""
    qr = segno.make(device.config_url, error="m")
    title = gettext("QR code à scanner avec votre application d'authentification")
    return mark_safe(qr.svg_inline(scale=5, border=3, svgclass="qr", title=title))  # segno's markup


@login_required
@require_safe
def backup_codes(request):
    """The backup codes, shown once: the page after the confirmation, never again."""
    codes = request.session.pop(CODES_KEY, None)
    if not codes:
        return redirect("notifications:account")
    return render(request, "registration/second_factor_codes.html", {"codes": codes})


@login_required
@require_POST
def remove(request):
    """« Retirer »: with a current code (or a backup code), the second factor is removed."""
    _eligible(request)
    form = CodeForm(request.POST)
    if form.is_valid():
        device, wait = second_factor.check_code(request.user, form.cleaned_data["code"])
        if device is not None:
            second_factor.remove(request.user)
            messages.success(request, gettext("La seconde vérification est retirée de votre compte."))
            return redirect("notifications:account")
        messages.error(request, _refusal(wait))
    else:
        messages.error(request, gettext("Saisissez un code pour retirer la seconde vérification."))
    return redirect(reverse("notifications:account") + "#seconde-verification")
