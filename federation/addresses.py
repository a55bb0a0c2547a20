"""The site's public address, `SITE_URL` (docs/exploitation.md): a command or a task in the
background has no request to ask, so the mails and the posts to a group chat build their links
from it; and what must not depend on the name a request used (a night's iCal UID) takes its
host from it."""

from urllib.parse import urlsplit

from django.conf import settings


def absolute(path):
    """The address of `path` (``/…``) on the site."""
    return settings.SITE_URL.rstrip("/") + path


def host():
    """The host name of `SITE_URL` (``tarot.example.org``)."""
    return urlsplit(settings.SITE_URL).hostname or "localhost"
