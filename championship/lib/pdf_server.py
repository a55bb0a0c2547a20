"""What the PDF fork server loads once, before any render child is forked from it.

The render children of ``championship.lib.pdf`` (``pdf_child``) are not forked from the web
process: a child inherits every page its parent has mapped, and a web process keeps much of it
mapped and free (Python's object arenas while one object in each lives, glibc's heap and each
thread's arena). That free memory would be room beyond the child's address-space limit. They are
forked from a fork server (``multiprocessing``'s « forkserver »): a fresh interpreter that runs
this module, then only ever forks. Each child so starts from the same small state: Django set up
(settings from the environment the server inherited), WeasyPrint imported, the PDF stylesheet
parsed and the fonts loaded, so that ``PDF_RENDER_MEMORY_MB`` bounds the layout alone.

One more room is closed first: glibc gives each thread that allocates an arena of its own, 64 Mio
of address space reserved at once, and a process that cannot grow its main heap any more (as under
its limit) allocates from those arenas' reserve, within the address space it already holds.
Pango starts such a thread when it loads the fonts. So the server asks for a single arena
(``mallopt(M_ARENA_MAX, 1)``) before anything starts a thread; its children inherit that.

Threat model: the server forks whatever a connection to its Unix socket asks for (unpickled
code). Python makes that socket a file of mode 0600 in a private folder (0700): only the site's
own system user reaches it, who can already do anything the server would
(``test_only_the_sites_own_user_can_reach_the_render_server``).
"""

import contextlib
import ctypes
import logging

M_ARENA_MAX = -8  # glibc's malloc.h

with contextlib.suppress(OSError, AttributeError):  # not glibc: no such arenas to close
    ctypes.CDLL(None).mallopt(M_ARENA_MAX, 1)

logger = logging.getLogger(__name__)

try:
    import django
    from django.apps import apps

    if not apps.ready:
        django.setup()
    from championship.lib import pdf, pdf_child

    pdf_child.prepare_render_process(pdf.html_to_pdf)
except Exception:  # the child prepares itself then (pdf_child.child_main); the server must live
    logger.exception("Le serveur de mise en page des PDF n'a pas pu se préparer")
