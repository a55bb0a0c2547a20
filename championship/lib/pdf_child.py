"""The render child of ``championship.lib.pdf``: what runs in it, under its limits.

It is forked from the fork server that ``pdf_server`` prepares (see there why), with
``child_main`` as its whole life: the address-space limit set, then HTML in, PDF out, laid out by
the ``render`` it is given (``pdf.html_to_pdf``).
"""

import contextlib
import ctypes
import gc
import math
import os
import resource
import signal

import django
from django.apps import apps


def _address_space():
    """Bytes of address space this process holds (Linux), or 0 where that cannot be read."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


MEMORY_MARGIN = 16 * 1024 * 1024


def _out_of_memory(error, limit):
    """Whether a render failed for want of memory: a MemoryError, or what a C library (Pango,
    cairo, HarfBuzz) raises when an allocation fails under the address-space limit (a
    SystemError « error return without exception set »), or any error raised with the process
    near its limit."""
    if isinstance(error, (MemoryError, SystemError)):
        return True
    return _address_space() + MEMORY_MARGIN >= limit


SERVER_MODULE = "championship.lib.pdf_server"  # what the fork server loads before it forks


def prepare_render_process(render):
    """Load in this process what every layout needs, so that a child forked from it starts with
    it: the stylesheet parsed, and the fonts (fontconfig, Pango) by a layout of a short text."""
    render("<p>Tarot-Bière</p>")
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # what was freed goes back to the system
        ctypes.CDLL(None).malloc_trim(0)


def child_main(connection, limits, render):
    """The render loop of the child: HTML in, ("ok", pdf) or ("failed", reason, detail) out.

    After a failure the child ends at once (``os._exit``: no cleanup under a full address space);
    the parent starts a fresh one for the next document.
    """
    if not apps.ready:  # the fork server could not prepare itself: the child does, within no limit
        django.setup()
        prepare_render_process(render)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in a terminal stops the parent, which kills us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    limit = _address_space() + limits.memory_mb * 1024 * 1024
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    while True:
        try:
            html = connection.recv()
        except BaseException:
            os._exit(0)  # the parent is gone, or the document does not even fit in memory
        # Should the parent die without killing us, SIGALRM ends a render that overstays.
        signal.alarm(math.ceil(limits.timeout) + 5)
        try:
            answer = ("ok", render(html))
        except Exception as error:  # anything WeasyPrint raises: reported, then this child ends
            if _out_of_memory(error, limit):
                answer = ("failed", "memory", "")
            else:
                answer = ("failed", "error", f"{type(error).__name__}: {error}"[:500])
        signal.alarm(0)
        del html
        try:
            connection.send(answer)
        except BaseException:
            os._exit(1)
        if answer[0] != "ok":
            os._exit(1)
