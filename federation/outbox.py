"""E-mails sent off the request (the password reset link, the reminders): a page never waits
for the mail server, so that it answers as fast whether or not a message leaves, and a slow
server holds no worker.

Each job runs on the mails' own small pool of threads (``WORKERS``, a `federation.workers.Workers`;
the group chat's webhooks have theirs, so that a slow chat never holds a mail), started in the
order given (so two may be under way at once and finish in either order), with the configured
e-mail backend (``EMAIL_TIMEOUT`` bounds each exchange). A job that fails is logged (logger
``federation.workers``), never shown to the visitor. Jobs still waiting when the process stops
are run before it exits. ``wait`` lets the tests, and anything else that must, wait for the jobs
handed over so far.
"""

from federation.workers import Workers

WORKERS = 2  # messages sent at once by one process

workers = Workers("tarot-outbox", WORKERS, "courriel non envoyé")


def send_later(job, *args):
    """Run ``job(*args)`` off the request, on the mails' threads; returns at once."""
    return workers.send_later(job, *args)


def wait(timeout=None):
    """Wait until every mail handed over so far has been sent; False if ``timeout`` (seconds) ran out."""
    return workers.wait(timeout)
