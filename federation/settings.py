"""Settings of the Tarot-Bière site, read from environment variables (see README)."""

import datetime
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default=False):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on", "oui"}


def env_list(name, default=""):
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_ports(name, default):
    """A list of TCP ports, « 443,80 », as a tuple of numbers; « * »: any port (None)."""
    raw = os.environ.get(name, "").strip() or default
    if raw == "*":
        return None
    ports = []
    for item in filter(None, (part.strip() for part in raw.split(","))):
        if not item.isdigit() or not 0 < int(item) < 65536:
            raise ImproperlyConfigured(f"{name} : « {item} » n'est pas un port (1 à 65535, ou * pour tous).")
        ports.append(int(item))
    return tuple(ports)


def env_int(name, default, minimum=0):
    raw = os.environ.get(name, "").strip()
    try:
        value = int(raw) if raw else default
    except ValueError:
        raise ImproperlyConfigured(f"{name} : « {raw} » n'est pas un nombre entier.") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name} : {value} est inférieur au minimum, {minimum}.")
    return value


DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY manquante : définissez la variable d'environnement SECRET_KEY "
            "(obligatoire quand DEBUG est désactivé)."
        )
    SECRET_KEY = "django-insecure-development-only-key"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "federation.admin_apps.FederationAdminConfig",  # django.contrib.admin, its login the site's
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "django_htmx",
    "simple_history",
    "csp",
    "axes",
    # Officials' second factor (TOTP) and its one-time backup codes (federation.second_factor)
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "federation",
    "championship",
    "gamenights",  # the calendar of game nights (issue 24)
    "notifications",  # reminders by e-mail and the account page (issue 24)
    "webhooks",  # news posted to the group chat (issue 24)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A session opened by a member's private link: request.user.by_link (federation.roles).
    "federation.private_links.link_sessions",
    # request.user.is_verified(): whether this session passed the second factor (django-otp).
    "django_otp.middleware.OTPMiddleware",
    # Every answer to a logged-in account: Cache-Control: private, no-store (a shared phone).
    "federation.accounts.private_when_logged_in",
    # The reader's own rows marked in every table of an HTML page (« Moi », federation.my_rows).
    "federation.my_rows.mark_my_rows",
    # Every GET reads one state of the database, cached figures included (federation.snapshot).
    "federation.snapshot.ReadSnapshotMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes asks: it turns a lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]
# The admin reads history and never reverts it (see federation.admin.ReadOnlyHistoryAdmin).
SIMPLE_HISTORY_REVERT_DISABLED = True

ROOT_URLCONF = "federation.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "federation.context_processors.federation",
                "championship.context_processors.championship",
            ],
        },
    },
]

WSGI_APPLICATION = "federation.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
    )
}


def cache_settings(url, debug):
    """The cache of the season figures (`championship.lib.summaries`) from `CACHE_URL`. By default:
    local memory in development (one process), files under `media/cache/` otherwise, which every
    server process of the machine shares (`federation.cache.FileCache`). Several machines:
    `redis://HOST:6379/0` (or `rediss://`). Also `file:///DIRECTORY`."""
    url = (url or ("locmem://" if debug else f"file://{BASE_DIR / 'media' / 'cache'}")).strip()
    scheme, _, rest = url.partition("://")
    backends = {
        "locmem": ("django.core.cache.backends.locmem.LocMemCache", rest or "tarot"),
        "redis": ("django.core.cache.backends.redis.RedisCache", url),
        "rediss": ("django.core.cache.backends.redis.RedisCache", url),
        "file": ("federation.cache.FileCache", rest),
    }
    if scheme in ("db", "memcached"):
        raise ImproperlyConfigured(
            f"CACHE_URL : « {scheme}:// » n'est plus pris en charge (le cache de la base partage les "
            "transactions des pages, memcached n'est pas testé) : plusieurs machines partagent un "
            "serveur Redis (redis://HOTE:6379/0), une seule machine le cache de fichiers (par défaut)."
        )
    if scheme not in backends or (scheme != "locmem" and not rest):
        raise ImproperlyConfigured(
            f"CACHE_URL invalide : « {url} » (attendu : locmem://, redis://HOTE:PORT/BASE "
            "ou file:///REPERTOIRE)."
        )
    backend, location = backends[scheme]
    # Local memory and files: at most so many entries besides the figures' generations (locks,
    # throttles); the files of a season's figures go with their generation (federation.cache).
    options = {"MAX_ENTRIES": 5000} if scheme in ("locmem", "file") else {}
    return {"default": {"BACKEND": backend, "LOCATION": location, "TIMEOUT": 300, "OPTIONS": options}}


CACHES = cache_settings(os.environ.get("CACHE_URL"), DEBUG)
# After a write, its season's figures are computed again in the background (championship.views.warming).
WARM_FIGURES = env_bool("WARM_FIGURES", True)

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers wait for each other instead of failing with « database is locked »: WAL lets pages
    # be read while one connection writes, every transaction takes the write lock when it
    # begins (IMMEDIATE, so none fails later upgrading a read lock), and a writer waits up to
    # 20 s for the lock (the services keep their transactions short).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        transaction_mode="IMMEDIATE",
        timeout=20,
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;",
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# django-axes first: it refuses a locked-out login before any password is checked. Then the
# accounts' backend (Django's, the account read with its player). Django's own stays last for the
# sessions opened before the accounts' backend existed (a session names its backend); a wrong
# password is then checked by both.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "federation.accounts.AccountBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", "Français"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "federation" / "locale"]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG and env_bool("STATIC_MANIFEST", True)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "federation:home"
LOGOUT_REDIRECT_URL = "federation:home"

# --- login throttling (django-axes) ---------------------------------------------------------------
# A login is refused for an account from an address after LOGIN_FAILURE_LIMIT failures there, for
# LOGIN_COOLOFF_MINUTES after the last one (never for good); the same account from another address
# is not affected, so nobody can lock a member out from elsewhere. A successful login forgets the
# failures. Each failure and lockout is logged (logger "axes", on the console).
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = datetime.timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # the page's "try again at" stays true
AXES_LOCKOUT_CALLABLE = "federation.accounts.lockout_response"
AXES_DISABLE_ACCESS_LOG = True  # no record of every successful login
AXES_SENSITIVE_PARAMETERS = []  # the log names the account and the address (never the password)
# The client's address: the connection's; behind PROXY_COUNT reverse proxies, the one the nearest
# proxy writes in CLIENT_IP_HEADER (X-Forwarded-For unless told otherwise).
PROXY_COUNT = env_int("PROXY_COUNT", 0)
CLIENT_IP_HEADER = os.environ.get("CLIENT_IP_HEADER", "").strip()
if PROXY_COUNT and not CLIENT_IP_HEADER:
    CLIENT_IP_HEADER = "X-Forwarded-For"
if CLIENT_IP_HEADER:
    AXES_IPWARE_META_PRECEDENCE_ORDER = ("HTTP_" + CLIENT_IP_HEADER.upper().replace("-", "_"), "REMOTE_ADDR")
    # ipware counts the proxies listed in the header after the client: all but the nearest one
    # (the connection's address). What a client wrote before them is ignored (IPWARE_STRICT off).
    AXES_IPWARE_PROXY_COUNT = max(PROXY_COUNT - 1, 0)
    IPWARE_STRICT = False
else:
    AXES_IPWARE_META_PRECEDENCE_ORDER = ("REMOTE_ADDR",)

# --- e-mail (password reset) ----------------------------------------------------------------------
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = env_int("EMAIL_PORT", 587 if env_bool("EMAIL_USE_TLS", True) else 25, minimum=1)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
# A backend named in the environment wins (the files of a staging site, a provider's backend).
if os.environ.get("EMAIL_BACKEND", "").strip():
    EMAIL_BACKEND = os.environ["EMAIL_BACKEND"].strip()
if os.environ.get("EMAIL_FILE_PATH"):  # django.core.mail.backends.filebased.EmailBackend
    EMAIL_FILE_PATH = os.environ["EMAIL_FILE_PATH"]
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Tarot-Bière <webmaster@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The site's public address, for the links of what is sent off a request: the reminders by mail
# (send_reminders has no request to ask) and the news posted to the group chat (webhooks).
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000").rstrip("/")
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # a reset link works for one day
# Reset links are mailed off the request (federation.outbox), and at most RESET_EMAIL_LIMIT per
# address and RESET_CLIENT_LIMIT requests per client address (PROXY_COUNT, CLIENT_IP_HEADER) go out
# in RESET_WINDOW_MINUTES, counted in the cache (CACHES); beyond, the page answers the same and
# nothing is sent (federation.accounts).
PASSWORD_RESET_EMAIL_LIMIT = env_int("RESET_EMAIL_LIMIT", 3, minimum=1)
PASSWORD_RESET_CLIENT_LIMIT = env_int("RESET_CLIENT_LIMIT", 15, minimum=1)
PASSWORD_RESET_WINDOW = datetime.timedelta(minutes=env_int("RESET_WINDOW_MINUTES", 60, minimum=1))
# A member's new address is his only once he opens the link mailed to it (notifications): the link
# is signed under this salt and works EMAIL_CONFIRMATION_DAYS; at most EMAIL_CHANGE_ACCOUNT_LIMIT
# links per account and EMAIL_CHANGE_CLIENT_LIMIT requests per client address in
# EMAIL_CHANGE_WINDOW_MINUTES (federation.accounts.email_change_allowed; docs/comptes.md).
EMAIL_CONFIRMATION_SALT = "notifications.email-confirmation"
EMAIL_CONFIRMATION_MAX_AGE = 60 * 60 * 24 * env_int("EMAIL_CONFIRMATION_DAYS", 2, minimum=1)
EMAIL_CHANGE_ACCOUNT_LIMIT = env_int("EMAIL_CHANGE_ACCOUNT_LIMIT", 3, minimum=1)
EMAIL_CHANGE_CLIENT_LIMIT = env_int("EMAIL_CHANGE_CLIENT_LIMIT", 10, minimum=1)
EMAIL_CHANGE_WINDOW = datetime.timedelta(minutes=env_int("EMAIL_CHANGE_WINDOW_MINUTES", 60, minimum=1))

# --- a member's private link (federation.private_links; docs/exploitation.md, « Comptes et
# sécurité ») ------------------------------------------------------------------------------------
# A client address whose guesses of a link failed LINK_FAILURE_LIMIT times in LINK_WINDOW_MINUTES
# (counted in the cache, from the first of them) is answered 429 until the window ends, no link
# checked meanwhile; a phone the link opened stays identified LINK_SESSION_DAYS days.
PRIVATE_LINK_FAILURE_LIMIT = env_int("LINK_FAILURE_LIMIT", 10, minimum=1)
PRIVATE_LINK_WINDOW = datetime.timedelta(minutes=env_int("LINK_WINDOW_MINUTES", 60, minimum=1))
PRIVATE_LINK_SESSION_AGE = datetime.timedelta(days=env_int("LINK_SESSION_DAYS", 365, minimum=1))

# The play-off outlook (docs/regles.md §6.4): the seconds the search for what one player needs may
# take on an unusual calendar (several confirmed nights with answers in surplus) before the page
# says a total proved enough, not proved the fewest. The other answers are always exact.
OUTLOOK_NEED_SECONDS = env_int("OUTLOOK_NEED_SECONDS", 1, minimum=1)

# --- headers --------------------------------------------------------------------------------------
# No inline script, style or event handler anywhere: every script and style is a file of the site.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
    },
}
PERMISSIONS_POLICY = {
    feature: []
    for feature in [
        "accelerometer",
        "autoplay",
        "bluetooth",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "hid",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "serial",
        "usb",
        "xr-spatial-tracking",
    ]
}
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    LANGUAGE_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # Failed logins and lockouts (django-axes logs them as warnings) reach the console whatever
    # LOG_LEVEL says: a logger's records go to the root's handlers whatever the root's level.
    "loggers": {"axes": {"level": "WARNING"}},
}

# Printable PDFs (championship.lib.pdf): where they are kept once laid out (shared by the workers),
# and the limits of one layout: memory it may add to its process, and seconds before it is stopped
# (keep it under gunicorn's --timeout, 30 s by default).
PDF_CACHE_DIR = Path(os.environ.get("PDF_CACHE_DIR") or BASE_DIR / "media" / "pdf")
PDF_RENDER_MEMORY_MB = int(os.environ.get("PDF_RENDER_MEMORY_MB", "768"))
PDF_RENDER_TIMEOUT = float(os.environ.get("PDF_RENDER_TIMEOUT", "20"))

# --- the group chat's webhooks (webhooks/; docs/exploitation.md, « Annonces dans la discussion de
# groupe », and what a webhook's address may reach, « Où un webhook peut poster ») ----------------
# The seconds one post may take in all (resolving the name, connecting, sending, reading the
# answer) before it is given up and retried.
WEBHOOK_TIMEOUT = env_int("WEBHOOK_TIMEOUT", 5, minimum=1)
# A webhook posts to public addresses of the internet only, and only to these ports (« * »: any)
# and, if WEBHOOK_ALLOWED_HOSTS is set, these hosts (« discord.com,.slack.com »: a name, or with a
# leading dot the name and its subdomains); checked when saved and again when posted.
WEBHOOK_ALLOWED_PORTS = env_ports("WEBHOOK_ALLOWED_PORTS", "443,80")
WEBHOOK_ALLOWED_HOSTS = [host.lower() for host in env_list("WEBHOOK_ALLOWED_HOSTS")]
# Loopback (127.0.0.0/8, ::1) allowed as a webhook's address: the tests turn it on, to post to
# chats of their own on 127.0.0.1 without the internet. Safe because it is never read from the
# environment (no deployment can turn it on by a variable) and opens loopback only: private
# networks, link-local addresses and the cloud's metadata service stay refused.
WEBHOOK_ALLOW_LOOPBACK = False

# --- web push: the news on a member's phone (notifications.push; docs/exploitation.md, « Les
# nouvelles sur le téléphone ») ----------------------------------------------------------------------
# The site's VAPID key pair (`manage.py vapid_keys` makes one): the private key (base64url, raw or
# DER) signs each push, the public one (base64url, uncompressed point) is what a phone subscribes
# with. Without them, « Moi » offers no push and nothing is pushed. VAPID_SUBJECT: a contact the
# push services may write to (mailto: or https:), by default the site's address.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "") or SITE_URL
# The seconds one push may take in all (resolving, connecting, TLS, sending, the answer).
PUSH_TIMEOUT = env_int("PUSH_TIMEOUT", 5, minimum=1)
# The hosts a phone's push address may name (a name, or with a leading dot the name and its
# subdomains): the browsers' push services. An address elsewhere is refused when the phone
# subscribes, and again when pushed to, over https (port 443) and to public addresses only.
PUSH_ALLOWED_HOSTS = [
    host.lower()
    for host in env_list(
        "PUSH_ALLOWED_HOSTS",
        ".googleapis.com,.push.services.mozilla.com,.push.apple.com,.notify.windows.com",
    )
]
# Plain http to loopback allowed as a push address: the tests' push service on 127.0.0.1. Never
# read from the environment (as WEBHOOK_ALLOW_LOOPBACK).
PUSH_ALLOW_LOOPBACK = False

# --- officials' second factor (django-otp; federation.second_factor, federation.two_step) ----------
OTP_TOTP_ISSUER = "Tarot-Bière"  # the name the authenticator app shows
OTP_TOTP_THROTTLE_FACTOR = 1  # after n wrong codes in a row, wait 2^(n-1) s before the next
OTP_STATIC_THROTTLE_FACTOR = 1
OTP_ADMIN_HIDE_SENSITIVE_DATA = True  # the admin never shows a device's secret nor its QR code
