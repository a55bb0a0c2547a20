"""Printable PDFs: a Django template rendered to HTML, then to PDF by WeasyPrint.

Nothing is fetched from the network: the URL fetcher serves the site's own static files from
disk (``/static/…``) and refuses every other URL, whatever the template or a report's text holds.

The PDF stylesheet (``PDF_STYLESHEET``, a static file) is not linked from the HTML: it is parsed
once per process into a WeasyPrint ``CSS`` (kept until the file changes on disk, see
``stylesheet``) and given to every layout with one shared ``FontConfiguration``; the render child
inherits it already parsed from the fork server.

Laying out a PDF is the costly part, so:

- **Bounded.** WeasyPrint runs in a render child, with an address-space limit
  (``PDF_RENDER_MEMORY_MB`` above what the child holds when it starts) and a time limit
  (``PDF_RENDER_TIMEOUT`` seconds, after which the child is killed). A document that exceeds
  either fails with ``PdfRenderError`` and the worker carries on; the next render gets a fresh
  child. The child is kept for the following renders, one render at a time per web process. It
  is forked not from the web process, whose freed memory it would inherit as room beyond its
  limit, but from a fork server that each web process starts at its first PDF: a fresh
  interpreter that loads Django, WeasyPrint, the stylesheet and the fonts once
  (``championship.lib.pdf_server``), then only forks.
- **Rendered once.** ``stored_pdf`` keys a PDF by the digest of the HTML it is laid out from (plus
  the static files that HTML names and the WeasyPrint version): the HTML is cheap, and identical
  HTML gives the same PDF, so any change of round, report, standings, date or template gives a
  new key. The PDFs live in ``PDF_CACHE_DIR``, shared by every worker of the machine, each written
  to a temporary file then renamed into place; the oldest are pruned past ``MAX_STORED_FILES``.
  A document that failed is not tried again for ``FAILED_RETRY_SECONDS`` with the same limits.
"""

import contextlib
import errno
import fcntl
import hashlib
import logging
import mimetypes
import multiprocessing
import os
import re
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import weasyprint
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.exceptions import SuspiciousFileOperation
from django.template.loader import render_to_string
from django.utils import translation
from django.utils._os import safe_join
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from championship.lib import pdf_child

logger = logging.getLogger(__name__)

# Documents are laid out as if served from this origin: "/static/css/pdf.css" resolves to it.
BASE_URL = "https://pdf.tarot-biere.invalid/"
# Part of every stored PDF's key: change it when the way HTML becomes a PDF changes.
RENDER_VERSION = f"2 weasyprint {weasyprint.__version__}"
MAX_STORED_FILES = 1000
FAILED_RETRY_SECONDS = 60
RENDERS_PER_CHILD = 100  # then a fresh child, so that no slow growth of its memory accumulates


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
            raise ValueError(f"URL refusée dans un PDF : {url[:80]}")
        mime_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": mime_type})


# --- the stylesheet, parsed once per process --------------------------------------------------------

PDF_STYLESHEET = "css/pdf.css"  # a static file: every PDF's style


@dataclass(frozen=True)
class ParsedStylesheet:
    key: tuple  # (path, modification time, size): the file as it was parsed
    digest: bytes  # SHA-256 of its bytes, part of every stored PDF's key
    css: CSS


_font_config = None
_parsed = {}  # path -> ParsedStylesheet
parses = 0  # stylesheets parsed by this process (its renders reuse them)


def font_config():
    """The process's one ``FontConfiguration`` (fonts of ``@font-face`` rules, none so far)."""
    global _font_config
    if _font_config is None:
        _font_config = FontConfiguration()
    return _font_config


def stylesheet(path=None):
    """The ``PDF_STYLESHEET`` (or the CSS file at ``path``) parsed, from the per-process cache.

    Parsed again only when the file's modification time or size changed: a new stylesheet shows
    in the next PDF without restarting anything (and gives a new key to every stored PDF).
    """
    global parses
    if path is None:
        path = static_file(BASE_URL + settings.STATIC_URL.strip("/") + "/" + PDF_STYLESHEET)
        if path is None:
            raise FileNotFoundError(f"feuille de style des PDF introuvable : {PDF_STYLESHEET}")
    path = Path(path)
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    cached = _parsed.get(key[0])
    if cached is not None and cached.key == key:
        return cached
    text = path.read_bytes()
    css = CSS(
        string=text.decode(),
        base_url=BASE_URL + settings.STATIC_URL.strip("/") + "/" + PDF_STYLESHEET,
        url_fetcher=StaticFilesFetcher(),
        font_config=font_config(),
    )
    parsed = ParsedStylesheet(key, hashlib.sha256(text).digest(), css)
    _parsed[key[0]] = parsed
    parses += 1
    return parsed


def render_html(template_name, context, request=None):
    """The HTML of ``template_name`` (which should extend ``print.html``), in French."""
    with translation.override("fr"):
        return render_to_string(template_name, context, request=request)


def html_to_pdf(html):
    """The PDF bytes of ``html``, laid out in this process: no limit (see ``Renderer``)."""
    document = HTML(string=html, base_url=BASE_URL, url_fetcher=StaticFilesFetcher())
    return document.write_pdf(stylesheets=[stylesheet().css], font_config=font_config())


# --- the render child ---------------------------------------------------------------------------


class PdfRenderError(Exception):
    """A PDF could not be produced: ``reason`` is timeout, memory, crash (the child died, in
    practice for want of memory), error (WeasyPrint raised), busy (another worker's layout of the
    same document outlasted our wait) or recent-failure."""

    def __init__(self, reason, detail=""):
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True)
class Limits:
    memory_mb: int
    timeout: float

    @classmethod
    def from_settings(cls):
        return cls(int(settings.PDF_RENDER_MEMORY_MB), float(settings.PDF_RENDER_TIMEOUT))


class Renderer:
    """One render child per process, started on demand, killed on timeout, replaced after any
    failure, after ``RENDERS_PER_CHILD`` renders, or when the limits change."""

    def __init__(self):
        self._lock = threading.Lock()
        self._process = None
        self._connection = None
        self._limits = None
        self._renders_by_child = 0
        self.attempts = 0  # documents sent to a child
        self.renders = 0  # PDFs produced

    def render(self, html):
        """The PDF bytes of ``html``, or PdfRenderError; at most one render at a time."""
        limits = Limits.from_settings()
        with self._lock:
            self.attempts += 1
            try:
                answer = self._exchange(html, limits)
            except BaseException:
                self._stop()  # never leave a child with an answer nobody read
                raise
            if answer[0] != "ok":
                self._stop()
                raise PdfRenderError(answer[1], answer[2])
            self.renders += 1
            self._renders_by_child += 1
            return answer[1]

    def _exchange(self, html, limits):
        self._ensure_child(limits)
        try:
            self._connection.send(html)
        except (BrokenPipeError, ConnectionResetError, EOFError):
            self._stop()  # the child died since its last render: one more try with a new one
            self._ensure_child(limits)
            self._connection.send(html)
        if not self._connection.poll(limits.timeout):
            raise PdfRenderError("timeout", f"plus de {limits.timeout:g} s")
        try:
            return self._connection.recv()
        except (EOFError, OSError):
            self._process.join(1)
            raise PdfRenderError("crash", f"code de sortie {self._process.exitcode}") from None

    def _ensure_child(self, limits):
        alive = self._process is not None and self._process.is_alive()
        if alive and limits == self._limits and self._renders_by_child < RENDERS_PER_CHILD:
            return
        self._stop()
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([pdf_child.SERVER_MODULE])  # read when this process starts it
        parent_end, child_end = context.Pipe()
        process = context.Process(
            target=pdf_child.child_main, args=(child_end, limits, html_to_pdf), daemon=True, name="pdf-render"
        )
        process.start()
        child_end.close()
        self._process, self._connection, self._limits = process, parent_end, limits
        self._renders_by_child = 0

    def _stop(self):
        """Kill the child if there is one; its exit code (None if there was none)."""
        process, self._process = self._process, None
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        if process is None:
            return None
        if process.is_alive():
            process.kill()
        process.join()
        return process.exitcode


RENDERER = Renderer()


def render_pdf(template_name, context, request=None):
    """The PDF bytes of ``template_name``, laid out within the limits (not stored)."""
    return RENDERER.render(render_html(template_name, context, request))


# --- stored PDFs ----------------------------------------------------------------------------------

_STATIC_REFERENCE = re.compile(r"""(?:href|src)\s*=\s*["']([^"']+)["']""")


def document_digest(html):
    """The key of the PDF of ``html``: its text, the stylesheet, the static files it names, the
    renderer."""
    digest = hashlib.sha256(RENDER_VERSION.encode())
    digest.update(stylesheet().digest)
    digest.update(html.encode())
    for reference in sorted(set(_STATIC_REFERENCE.findall(html))):
        path = static_file(BASE_URL + reference.lstrip("/"))
        if path is not None:
            digest.update(reference.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _cache_dir():
    directory = Path(settings.PDF_CACHE_DIR)
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def _read(path):
    try:
        content = path.read_bytes()
    except FileNotFoundError:
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # recently used: pruned last
    return content


def _write_atomically(path, content):
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(content)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _prune(directory):
    files = []
    for path in directory.iterdir():
        if path.suffix in (".pdf", ".failed"):
            with contextlib.suppress(OSError):
                files.append((path.stat().st_mtime, path))
    if len(files) <= MAX_STORED_FILES:
        return
    files.sort()
    for _mtime, path in files[: len(files) - MAX_STORED_FILES * 9 // 10]:
        with contextlib.suppress(OSError):
            path.unlink()


@contextlib.contextmanager
def _render_lock(directory, digest, timeout):
    """Hold the lock of ``digest`` (shared by the workers), or raise PdfRenderError("busy")."""
    locks = directory / ".locks"
    locks.mkdir(exist_ok=True)
    with open(locks / digest[:2], "a") as file:  # 256 lock files, whatever the number of PDFs
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as error:
                if error.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
                if time.monotonic() > deadline:
                    raise PdfRenderError("busy", "une autre mise en page du même document dure") from None
                time.sleep(0.05)
        try:
            yield
        finally:
            fcntl.flock(file, fcntl.LOCK_UN)


def _recent_failure(path, limits):
    try:
        stat = path.stat()
        recorded = path.read_text()
    except (FileNotFoundError, OSError):
        return False
    return recorded == repr(limits) and time.time() - stat.st_mtime < FAILED_RETRY_SECONDS


@dataclass(frozen=True)
class StoredPdf:
    """A document's PDF: its key is known at once, its bytes are read or laid out on demand."""

    html: str
    digest: str
    name: str

    @property
    def etag(self):
        return f'"{self.digest}"'

    def content(self):
        """The PDF bytes, from the store or laid out now (then stored).

        Raise PdfRenderError (and log it, with the document's name) when it cannot be produced
        within the limits.
        """
        directory = _cache_dir()
        path = directory / f"{self.digest}.pdf"
        content = _read(path)
        if content is not None:
            return content
        limits = Limits.from_settings()
        failed = directory / f"{self.digest}.failed"
        try:
            # Another worker laying out this document finishes or is stopped within the timeout.
            with _render_lock(directory, self.digest, limits.timeout + 5):
                content = _read(path)  # laid out by another worker while we waited
                if content is not None:
                    return content
                if _recent_failure(failed, limits):
                    raise PdfRenderError("recent-failure", f"échec il y a moins de {FAILED_RETRY_SECONDS} s")
                try:
                    content = RENDERER.render(self.html)
                except PdfRenderError:
                    _write_atomically(failed, repr(limits).encode())
                    raise
                _write_atomically(path, content)
        except PdfRenderError as error:
            # A layout that failed now is an error; one refused after a failure, a warning.
            level = logging.WARNING if error.reason in ("busy", "recent-failure") else logging.ERROR
            logger.log(
                level,
                "PDF non produit (%s) : %s, clé %s, limites %s Mio / %s s%s",
                error.reason,
                self.name,
                self.digest[:16],
                limits.memory_mb,
                limits.timeout,
                f" — {error.detail}" if error.detail else "",
            )
            raise
        with contextlib.suppress(OSError):
            failed.unlink()
        _prune(directory)
        return content


def stored_pdf(template_name, context, request=None, *, name=""):
    """The PDF of ``template_name`` as stored (or to be laid out): see ``StoredPdf``."""
    html = render_html(template_name, context, request)
    return StoredPdf(html, document_digest(html), name or template_name)
