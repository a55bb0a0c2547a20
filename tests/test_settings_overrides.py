"""What the suite changes of the settings production runs with, and why each change is safe
(issue 36): every setting the tests set — in the environment before Django starts
(`tests/env_plugin.py`), or through pytest-django's ``settings`` fixture, in a fixture or a
test — is listed here with its reason. A new override fails this test until it is listed, so
that none slips in that changes what a page or a static address is.

The settings a page's address and content depend on are never overridden: the suite runs with
``DEBUG`` off, the manifest storage of the static files (hashed names, a missing file an error)
and production's static address (`test_the_pages_are_served_as_production_serves_them`).

Beside the settings, four things are changed in the suite's processes, never in the site's. The
suite's one collectstatic writes no compressed copies (`.gz`, `.br`) beside the files
(tests/static_files.py, `collect`): the same names, manifest and pages, and the site deployed under
gunicorn compresses its own as production does, which its crawl checks. The three others are set in
tests/env_plugin.py: WhiteNoise reads its index of the static folder once per process instead of
once per test client (tests/static_files.py, `index_each_folder_once`), and what it serves is proven
equal to a fresh reading (tests/federation/test_static_index.py); Python's cycle collector runs
after 10,000 new objects instead of 700, which changes when cycles are freed, nothing a page is or
says; each test runs below one large frame, which changes where CPython keeps the test's frames,
nothing it runs (tests/test_stack_chunk.py).
"""

import ast
from pathlib import Path

from django.conf import settings

from federation import settings as production

TESTS = Path(__file__).resolve().parent

# Set in the environment for the whole run (tests/env_plugin.py), with why it is safe.
ENVIRONMENT = {
    "SECRET_KEY": "a throwaway key: production refuses to start without one; no page shows it",
    "DEBUG": "off, as production: the same error pages, templates cached, static files hashed",
    "STATIC_ROOT": "where the suite's one collectstatic writes: production's files, its own folder",
    "SECURE_COOKIES": "the test client and the live server speak HTTP, not HTTPS; cookies' content unchanged",
    "ALLOWED_HOSTS": "the test client's and the live server's host names",
    "CACHE_URL": "a cache per test process, cleared around every test: figures are still cached",
    "WARM_FIGURES": "no background warming but in its own tests: a page computes what it lacks",
}

# Set through the ``settings`` fixture, with why it is safe.
FIXTURES = {
    "PASSWORD_HASHERS": "a fast hash for the tests' passwords: what is checked is who may log in",
    "AXES_ENABLED": "off for the test client's login(); on in the throttling and browser login tests",
    "WEBHOOK_ALLOW_LOOPBACK": "the tests' chat servers listen on 127.0.0.1; production's refusal is tested",
    "WEBHOOK_ALLOWED_PORTS": "the tests' chat servers use a port of the system's choosing",
    "WEBHOOK_ALLOWED_HOSTS": "restored to production's value, to test the address rule itself",
    "WEBHOOK_TIMEOUT": "short deadlines, to test that a slow chat is abandoned",
    "PDF_CACHE_DIR": "a temporary folder per test for the stored PDFs",
    "PDF_RENDER_TIMEOUT": "short, to test that a runaway render is stopped",
    "PDF_RENDER_MEMORY_MB": "small, to test that a render beyond its memory is stopped",
    "EMAIL_BACKEND": "the outbox in memory or a failing backend, to read or break what is sent",
    "EMAIL_HOST": "a closed port on 127.0.0.1, to test a mail server that does not answer",
    "EMAIL_PORT": "a closed port on 127.0.0.1, to test a mail server that does not answer",
    "EMAIL_TIMEOUT": "short, to test a mail server that does not answer",
    "EMAIL_CONFIRMATION_MAX_AGE": "short, to test that a confirmation link expires",
    "EMAIL_CHANGE_CLIENT_LIMIT": "low, to reach the throttle in a few requests",
    "EMAIL_CHANGE_ACCOUNT_LIMIT": "low, to reach the throttle in a few requests",
    "PRIVATE_LINK_FAILURE_LIMIT": "low, to reach the throttle in a few requests",
    "SITE_URL": "a known address, to check the links written in mails and feeds",
    "SECRET_KEY": "a rotated key, to test that old signatures still hold (fallbacks) or not",
    "SECRET_KEY_FALLBACKS": "the old key of a rotation",
    "SECURE_HSTS_SECONDS": "production's HSTS, to test the header it sends",
    "SECURE_HSTS_PRELOAD": "production's HSTS, to test the header it sends",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "production's HSTS, to test the header it sends",
    "AXES_IPWARE_PROXY_COUNT": "a proxy in front, to test the client's address behind it",
    "AXES_IPWARE_META_PRECEDENCE_ORDER": "a proxy in front, to test the client's address behind it",
    "ALLOWED_HOSTS": "a host of the test's own, to test what a request to another host gets",
    "TEMPLATES": "one more template folder, for a report template that fails on purpose",
    "WARM_FIGURES": "on, in the tests of the background warming",
    "VAPID_PRIVATE_KEY": "a key pair made for the run (production has none by default), or a wrong one",
    "VAPID_PUBLIC_KEY": "the public half of the run's key pair: « Moi » offers the phones' news",
    "VAPID_SUBJECT": "a contact address for the tests' VAPID tokens",
    "PUSH_ALLOW_LOOPBACK": "the tests' push service listens on 127.0.0.1; production's refusal is tested",
    "PUSH_ALLOWED_HOSTS": "the tests' push service's host, or production's list restored to test the rule",
    "PUSH_TIMEOUT": "short, to test that a push service that does not answer is cut",
    "STATIC_ROOT": "a folder of the test's own: the suite's memo of WhiteNoise's index reads it anew",
    "WHITENOISE_MAX_AGE": "another cache lifetime: the suite's memo of WhiteNoise's index reads anew",
}


# The environment of the site served by gunicorn (tests/production/deployment.py): a fresh one, the
# suite's own variables above not passed on; each variable as a deployment sets it, with why the
# test's value is safe. Everything else keeps production's default (SECURE_COOKIES on, the file
# cache, background warming, SECURE_SSL_REDIRECT off as behind the docs' HTTPS proxy). gunicorn's
# own options: the docs' command, plus a longer watchdog (--timeout 120: a worker is killed only
# after that long without an answer; a loaded machine, not the site, would otherwise fail the test)
# and a control socket of its own (--control-socket: two runs on a machine would share the default).
DEPLOYMENT = {
    "DEBUG": "off, written explicitly as docs/exploitation.md asks for manage.py",
    "SECRET_KEY": "a random key made for the run, as a deployment makes its own",
    "ALLOWED_HOSTS": "the loopback names the crawler and the browser ask for",
    "CSRF_TRUSTED_ORIGINS": "the https origin the proxy stands for; the Origin still has to match it",
    "DATABASE_URL": "a SQLite file of the run's folder (PostgreSQL: tests/federation/test_postgresql.py)",
    "STATIC_ROOT": "the run's folder: collectstatic writes there with the manifest storage",
    "CACHE_URL": "the default file cache shared by the workers, in the run's folder rather than media/",
    "PDF_CACHE_DIR": "the run's folder rather than media/pdf",
    "PROXY_COUNT": "1, the nginx of « Déployer », whose headers the crawler sends",
}


def test_the_deployment_sets_only_the_listed_variables():
    from tests.production import deployment  # noqa: PLC0415

    assert set(deployment.ENVIRONMENT) == set(DEPLOYMENT)
    assert set(deployment.environment(TESTS)) - set(deployment.PASSED_ON) == set(DEPLOYMENT)


def environment_overrides():
    tree = ast.parse((TESTS / "env_plugin.py").read_text(encoding="utf-8"))
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "attr", "") == "setdefault"
        and isinstance(node.args[0], ast.Constant)
    }


def fixture_overrides():
    """``{setting: [file, …]}`` of every ``settings.NAME = …`` and ``override_settings(NAME=…)``."""
    found = {}
    for path in sorted(TESTS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Assign):
                targets = []
                for target in node.targets:
                    targets += target.elts if isinstance(target, ast.Tuple) else [target]
                names = [
                    target.attr
                    for target in targets
                    if isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "settings"
                ]
            elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "override_settings":
                names = [keyword.arg for keyword in node.keywords]
            for name in names:
                found.setdefault(name, []).append(str(path.relative_to(TESTS)))
    return found


def test_every_environment_override_is_listed_with_its_reason():
    assert environment_overrides() == set(ENVIRONMENT)


def test_every_settings_override_is_listed_with_its_reason():
    found = fixture_overrides()
    unlisted = {name: files for name, files in found.items() if name not in FIXTURES}
    assert not unlisted, f"settings changed by the tests without a reason here: {unlisted}"
    assert set(FIXTURES) <= set(found), f"listed but no longer set: {set(FIXTURES) - set(found)}"


def test_no_override_touches_what_a_page_or_a_static_address_is():
    untouchable = {"DEBUG", "STATIC_URL", "STORAGES", "MIDDLEWARE", "ROOT_URLCONF", "LANGUAGE_CODE"}
    assert untouchable.isdisjoint(fixture_overrides())
    assert "DEBUG" not in FIXTURES and ENVIRONMENT["DEBUG"].startswith("off")


def test_the_pages_are_served_as_production_serves_them():
    assert settings.DEBUG is False
    assert "/" + production.STATIC_URL.lstrip("/") == settings.STATIC_URL
    backend = settings.STORAGES["staticfiles"]["BACKEND"]
    assert "Manifest" in backend, backend
    assert settings.MIDDLEWARE == production.MIDDLEWARE
