"""The tests' own servers on 127.0.0.1 (the chats of tests/webhooks, the push service of
tests/notifications), each served by a thread of its own while a test uses it."""

import threading
from contextlib import contextmanager

# How often the serving thread looks whether it must stop: `shutdown()` waits for that look.
# socketserver's default, half a second, added half a second to every test that used a server.
POLL_SECONDS = 0.01


@contextmanager
def serving(server):
    """`server` (a `socketserver` server) answering in a thread until the block ends, then closed."""
    threading.Thread(target=server.serve_forever, args=(POLL_SECONDS,), daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
