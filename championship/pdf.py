"""Printable PDFs: a Django template rendered to HTML, then to PDF by WeasyPrint.

Nothing is fetched from the network: the URL fetcher serves the site's own static files from
disk (``/static/…``) and refuses every other URL, whatever the template or a report's text holds.
"""

import mimetypes
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.exceptions import SuspiciousFileOperation
from django.template.loader import render_to_string
from django.utils import translation
from django.utils._os import safe_join
from weasyprint import HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse

# Documents are laid out as if served from this origin: "/static/css/pdf.css" resolves to it.
BASE_URL = "https://pdf.tarot-biere.invalid/"


def static_file(url):
    """The file on disk behind a static URL of our base origin, or None."""
    parts = urlsplit(url)
    base = urlsplit(BASE_URL)
    prefix = "/" + settings.STATIC_URL.strip("/") + "/"
    if (parts.scheme, parts.netloc) != (base.scheme, base.netloc) or not parts.path.startswith(prefix):
        return None
    name = unquote(parts.path[len(prefix) :])
    if not name or ".." in Path(name).parts:
        return None
    found = finders.find(name)
    if found:
        return Path(found)
    try:
        collected = Path(safe_join(settings.STATIC_ROOT, name))
    except SuspiciousFileOperation:
        return None
    return collected if collected.is_file() else None


class StaticFilesFetcher(URLFetcher):
    """Serves our static files; any other URL (http, file, data…) is refused."""

    def __init__(self):
        super().__init__(allowed_protocols=("https",), allow_redirects=False, fail_on_errors=False)

    def fetch(self, url, headers=None):
        path = static_file(url)
        if path is None:
            raise ValueError(f"URL refusée dans un PDF : {url[:80]}")
        mime_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": mime_type})


def render_pdf(template_name, context, request=None):
    """The PDF bytes of ``template_name`` (which should extend ``print.html``), in French."""
    with translation.override("fr"):
        html = render_to_string(template_name, context, request=request)
    return HTML(string=html, base_url=BASE_URL, url_fetcher=StaticFilesFetcher()).write_pdf()
