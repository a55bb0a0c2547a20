"""The site deployed as docs/exploitation.md (« Déployer ») deploys it, in a folder of its own:
the demo's database on a SQLite file and `migrate`, `collectstatic` with the manifest storage, then
`gunicorn federation.wsgi --bind 127.0.0.1:PORT --workers 2` (a longer watchdog timeout and a
control socket of its own: see served()), stopped with its process group.

Every command runs in a fresh environment: the suite's own variables (tests/env_plugin.py: no
secure cookies, a cache in memory, no background warming, its static folder) are not passed on.
What is set is `ENVIRONMENT`, each variable with why it is what a deployment sets (the same list
with the reasons it is safe: tests/test_settings_overrides.py); everything else keeps the default
a deployment gets.
"""

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.databases import sqlite_copy

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 2
WORKER_TIMEOUT = 120  # seconds; the docs' default is 30 (see served())
READY_SECONDS = 180  # a loaded machine: gunicorn's workers import Django, WeasyPrint, the apps
SETUP_SECONDS = 600  # migrate and collectstatic, on a loaded machine
GUNICORN = shutil.which("gunicorn", path=str(Path(sys.executable).parent)) or shutil.which("gunicorn")
requires_gunicorn = pytest.mark.skipif(
    GUNICORN is None,
    reason="gunicorn introuvable : installez les dépendances (pip install -r requirements.txt) "
    "pour servir le site comme en production.",
)

# What the deployment's commands and server are given (docs/exploitation.md, « Configuration »).
ENVIRONMENT = (
    "DEBUG",  # 0, explicitly, for manage.py as for the server
    "SECRET_KEY",  # a fresh random key
    "ALLOWED_HOSTS",  # the loopback names the crawler and the browser ask for
    "CSRF_TRUSTED_ORIGINS",  # the public https origin the proxy stands for
    "DATABASE_URL",  # a SQLite file of the folder
    "STATIC_ROOT",  # where collectstatic writes, in the folder
    "CACHE_URL",  # files shared by the workers, as the default, but in the folder
    "PDF_CACHE_DIR",  # the stored PDFs, in the folder
    "PROXY_COUNT",  # 1: one proxy (nginx) in front, which writes X-Forwarded-For
)
# Passed on from the test's own environment: what any program needs to run.
PASSED_ON = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TZ")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Site:
    folder: Path
    environment: dict
    port: int = 0
    process: subprocess.Popen | None = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    @property
    def database(self):
        return self.folder / "db.sqlite3"

    @property
    def static_root(self):
        return self.folder / "static"

    def log(self, name="gunicorn"):
        path = self.folder / f"{name}.log"
        return path.read_text(errors="replace")[-6000:] if path.exists() else ""


def environment(folder):
    env = {name: os.environ[name] for name in PASSED_ON if name in os.environ}
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        CSRF_TRUSTED_ORIGINS="",  # set with the port, for the server
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        STATIC_ROOT=str(folder / "static"),
        CACHE_URL=f"file://{folder / 'cache'}",
        PDF_CACHE_DIR=str(folder / "pdf"),
        PROXY_COUNT="1",
    )
    assert set(env) - set(PASSED_ON) == set(ENVIRONMENT)
    return env


def start(site, name, *command):
    log = open(site.folder / f"{name}.log", "w")  # noqa: SIM115 (closed by finish())
    process = subprocess.Popen(
        command, cwd=ROOT, env=site.environment, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    process.log_file = log
    return process


def finish(site, name, process):
    try:
        code = process.wait(timeout=SETUP_SECONDS)
    finally:
        process.log_file.close()
    assert code == 0, f"« {name} » a échoué ({code}) :\n{site.log(name)}"


def prepare(folder):
    """The database (the demo's, then migrate) and the static files (collectstatic, meanwhile).

    The database starts as a copy of the one `manage.py migrate` and `manage.py demo` built for the
    whole run (tests/databases.py: the same commands, their own process, DEBUG=0); `migrate` then
    runs as at every deployment, with nothing left to do. The commands' output does not depend on
    the variables set here (a cache, folders, hosts), and the figures are computed afresh on the
    empty cache."""
    site = Site(folder=folder, environment=environment(folder))
    manage = (sys.executable, "manage.py")
    collect = start(site, "collectstatic", *manage, "collectstatic", "--noinput", "-v0")
    try:
        sqlite_copy("demo", site.database)
        finish(site, "migrate", start(site, "migrate", *manage, "migrate", "--noinput", "-v0"))
    finally:
        finish(site, "collectstatic", collect)
    assert (site.static_root / "staticfiles.json").exists(), "collectstatic n'a pas écrit son manifeste"
    return site


def answers(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status == 200
    except (OSError, urllib.error.URLError):
        return False


def stop(process):
    """The server and its workers: the whole process group, politely then not."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
    process.log_file.close()


@contextmanager
def served(site):
    """gunicorn on a free port of 127.0.0.1, once it answers; stopped at the end of the block. A port
    taken meanwhile by another program (it was free when chosen) means another try."""
    for _ in range(3):
        site.port = free_port()
        site.environment["CSRF_TRUSTED_ORIGINS"] = f"https://127.0.0.1:{site.port}"
        bind = f"127.0.0.1:{site.port}"
        # Its control socket in the folder, not the default one under HOME, which two servers of
        # the machine (two runs of the suite) would share.
        options = ("--control-socket", str(site.folder / "gunicorn.ctl"))
        # And a longer watchdog: gunicorn's (30 s by default) kills a worker
        # that has not answered; a cold page on a machine loaded by other work may take that long,
        # and a worker killed for it would fail the test for the machine, not for the site.
        options += ("--timeout", str(WORKER_TIMEOUT))
        site.process = start(
            site, "gunicorn", GUNICORN, "federation.wsgi", "--bind", bind, "--workers", str(WORKERS), *options
        )
        deadline = time.monotonic() + READY_SECONDS
        while (
            site.process.poll() is None and time.monotonic() < deadline and not answers(f"{site.url}/sw.js")
        ):
            time.sleep(0.5)
        if site.process.poll() is None:
            break
        stop(site.process)
        if "in use" not in site.log():  # gunicorn: « Connection in use: (host, port) »
            break
    try:
        assert site.process.poll() is None, f"gunicorn s'est arrêté :\n{site.log()}"
        assert answers(f"{site.url}/sw.js"), f"gunicorn ne répond pas après {READY_SECONDS} s :\n{site.log()}"
        yield site
    finally:
        stop(site.process)
