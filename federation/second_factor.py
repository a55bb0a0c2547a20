"""Officials' second factor: a TOTP device (an authenticator app) and one-time backup codes,
with django-otp (docs/exploitation.md, « Comptes et sécurité » ; docs/utiliser.md).

What the second factor guards: the official roles (`federation.roles`) and the admin. An account
with a confirmed device is logged in only after its code (`federation.two_step`); a session of such
an account that did not pass the code (one opened before the device was added) keeps the
member's rights and loses every official one (`unverified_holder`). This module holds the rules
and the writes; the pages are in `federation.two_step`.
"""

import logging

from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Exists
from django.utils import timezone
from django_otp import login as otp_login
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from federation.models import Official

logger = logging.getLogger(__name__)

BACKUP_CODES = 10  # one-time codes given when the device is confirmed
DEVICE_NAME = "Application d'authentification"
BACKUP_NAME = "Codes de secours"


def may_have_second_factor(user):
    """Who sees « Seconde vérification » on his account page: an official of some season, a
    superuser, a staff account, and whoever already has a device (to remove it)."""
    if not user.is_authenticated:
        return False
    return (
        user.is_superuser
        or user.is_staff
        or Official.objects.filter(player__user=user).exists()
        or TOTPDevice.objects.filter(user=user).exists()
    )


def confirmed_device(user):
    """The account's confirmed TOTP device, or None."""
    if not user.is_authenticated:
        return None
    return TOTPDevice.objects.devices_for_user(user, confirmed=True).first()


KNOWN = "_tarot_second_factor"  # on the request's user: whether the account has a device


def has_second_factor(user):
    """Whether the account has a confirmed device, read once per request (kept on the user, or
    read with its roles: `needs_check`, `device_exists`, `remember`)."""
    if KNOWN not in user.__dict__:
        remember(user, TOTPDevice.objects.filter(user=user, confirmed=True).exists())
    return user.__dict__[KNOWN]


def needs_check(user):
    """Whether the roles' query should also read if the account has a device: a request's user
    whose session did not pass a code, and whose devices are not known yet."""
    is_verified = getattr(user, "is_verified", None)
    return is_verified is not None and not is_verified() and KNOWN not in user.__dict__


def device_exists(user):
    """An EXISTS of the account's confirmed device, to annotate a query with."""
    return Exists(TOTPDevice.objects.filter(user=user, confirmed=True))


def remember(user, value):
    user.__dict__[KNOWN] = bool(value)


def unverified_holder(user):
    """True for a session of an account with a confirmed device that has not passed its code:
    such a session has no official role. A user object that did not come through a request
    (`OTPMiddleware` gives it `is_verified`), as in a management command run on the server,
    is not concerned."""
    is_verified = getattr(user, "is_verified", None)
    if not user.is_authenticated or is_verified is None or is_verified():
        return False
    return has_second_factor(user)


def without_unverified_holder(queryset, user):
    """`queryset`, empty in the same query when `user` is an unverified holder (see above)."""
    is_verified = getattr(user, "is_verified", None)
    if is_verified is None or is_verified():
        return queryset
    return queryset.filter(~Exists(TOTPDevice.objects.filter(user=user, confirmed=True)))


# --- writes ---------------------------------------------------------------------------------------


@transaction.atomic
def start_enrolment(user):
    """A new unconfirmed device for `user` (any earlier unconfirmed one is dropped): it protects
    nothing until a code from it confirms it."""
    TOTPDevice.objects.filter(user=user, confirmed=False).delete()
    return TOTPDevice.objects.create(user=user, name=DEVICE_NAME, confirmed=False)


def pending_device(user):
    return TOTPDevice.objects.filter(user=user, confirmed=False).order_by("-pk").first()


def confirm_enrolment(request, device, code):
    """Confirm `device` with a code it gives now (throttled as every check of a code). On
    success: any earlier device is replaced, new backup codes are made and returned, this
    session counts as verified and every other session of the account is logged out."""
    with transaction.atomic():
        device = TOTPDevice.objects.select_for_update().get(pk=device.pk)
        if device.confirmed or not device.verify_token(code):
            return None
        TOTPDevice.objects.filter(user=device.user).exclude(pk=device.pk).delete()
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        codes = new_backup_codes(device.user)
    otp_login(request, device)
    ended = end_other_sessions(device.user, request.session.session_key)
    logger.warning(
        "Seconde vérification ajoutée au compte %s (%d autre(s) session(s) fermée(s))",
        device.user.get_username(),
        ended,
    )
    return codes


def new_backup_codes(user):
    """Replace the account's backup codes by BACKUP_CODES new ones, returned (each works once)."""
    StaticDevice.objects.filter(user=user).delete()
    backup = StaticDevice.objects.create(user=user, name=BACKUP_NAME, confirmed=True)
    codes = [StaticToken.random_token() for _ in range(BACKUP_CODES)]
    StaticToken.objects.bulk_create(StaticToken(device=backup, token=code) for code in codes)
    return codes


def remove(user):
    """Remove the account's second factor: its devices and its backup codes."""
    with transaction.atomic():
        TOTPDevice.objects.filter(user=user).delete()
        StaticDevice.objects.filter(user=user).delete()
    logger.warning("Seconde vérification retirée du compte %s", user.get_username())


def end_other_sessions(user, keep=None):
    """Log out every session of `user` but the one keyed `keep`; the number ended. Sessions live
    in the database (Django's default engine), read one by one: a federation has few."""
    ended = 0
    for session in Session.objects.filter(expire_date__gt=timezone.now()).exclude(session_key=keep):
        if session.get_decoded().get("_auth_user_id") == str(user.pk):
            session.delete()
            ended += 1
    return ended


# --- checking a code ------------------------------------------------------------------------------


def is_totp_code(code):
    return code.isdigit() and len(code) == 6


def check_code(user, code):
    """Check a code typed by `user`: six digits against his authenticator (throttled by
    django-otp: OTP_TOTP_THROTTLE_FACTOR), anything else against his backup codes (each used
    once, throttled too). Returns (device or None, seconds to wait or 0): a throttled device
    refuses even the right code until its delay has passed."""
    code = "".join(code.split()).lower()
    model = TOTPDevice if is_totp_code(code) else StaticDevice
    with transaction.atomic():
        device = model.objects.select_for_update().filter(user=user, confirmed=True).first()
        if device is None or not code:
            return None, 0
        allowed, data = device.verify_is_allowed()
        if not allowed:
            return None, throttle_delay(device)
        if device.verify_token(code):
            return device, 0
    return None, 0


def throttle_delay(device):
    """Seconds left before `device` checks a code again."""
    if not device.throttling_failure_timestamp or not device.throttling_failure_count:
        return 0
    delay = device.get_throttle_factor() * (2 ** (device.throttling_failure_count - 1))
    elapsed = (timezone.now() - device.throttling_failure_timestamp).total_seconds()
    return max(int(delay - elapsed) + 1, 1)


def verified_login(request, device):
    """Mark this (logged-in) session as verified by `device`."""
    otp_login(request, device)
