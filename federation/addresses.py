"""The site's public address, `SITE_URL` (docs/exploitation.md): a command or a task in the
background has no request to ask, so the mails and the posts to a group chat build their links
from it."""

from django.conf import settings


def absolute(path):
    """The address of `path` (``/…``) on the site."""
    return settings.SITE_URL.rstrip("/") + path
