import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


PRINT_DATABASE = (
    "from django.conf import settings; d = settings.DATABASES['default']; print(d['ENGINE'], d['NAME'])"
)


def run_settings(extra_env, code=PRINT_DATABASE):
    """`code` in a new Python process, with `extra_env` instead of the suite's SECRET_KEY, DEBUG
    and DATABASE_URL: the first setting it reads runs `federation.settings`, as the first read of
    any process of the site does (before its applications are loaded, which these tests need not
    wait for)."""
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "DATABASE_URL"}}
    env.update(extra_env)
    env["DJANGO_SETTINGS_MODULE"] = "federation.settings"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_refuses_to_start_without_secret_key_when_debug_is_off():
    result = run_settings({"DEBUG": "0"})
    assert result.returncode != 0
    assert "SECRET_KEY manquante" in result.stderr


def test_it_refuses_to_start_without_secret_key_when_debug_is_unset():
    result = run_settings({})
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_it_starts_in_debug_without_secret_key():
    result = run_settings({"DEBUG": "1"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == "django.db.backends.sqlite3"
    assert result.stdout.split()[1].endswith("db.sqlite3")


def test_it_honours_database_url_for_sqlite():
    result = run_settings({"SECRET_KEY": "x" * 40, "DATABASE_URL": "sqlite:////tmp/autre-base.sqlite3"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["django.db.backends.sqlite3", "/tmp/autre-base.sqlite3"]


def test_it_honours_database_url_for_postgresql():
    result = run_settings(
        {"SECRET_KEY": "x" * 40, "DATABASE_URL": "postgres://fftb:motdepasse@db.example:5433/tarot"},
        code="from django.conf import settings; d = settings.DATABASES['default']; "
        "print(d['ENGINE'], d['NAME'], d['HOST'], d['PORT'], d['USER'])",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "tarot",
        "db.example",
        "5433",
        "fftb",
    ]


def test_it_speaks_french_in_paris_by_default():
    from django.conf import settings

    assert settings.LANGUAGE_CODE == "fr"
    assert settings.TIME_ZONE == "Europe/Paris"
    assert ("en", "English") in settings.LANGUAGES


PRINT_MAIL = (
    "from django.conf import settings; "
    "print(settings.EMAIL_BACKEND, getattr(settings, 'EMAIL_FILE_PATH', '-'))"
)


def test_the_email_backend_is_set_from_the_environment():
    """EMAIL_BACKEND (docs/exploitation.md): a staging site writes its mails to files, a test
    site keeps them in memory, whatever EMAIL_HOST says."""
    files = "django.core.mail.backends.filebased.EmailBackend"
    result = run_settings(
        {"SECRET_KEY": "x" * 40, "EMAIL_BACKEND": files, "EMAIL_FILE_PATH": "/srv/courriels"}, code=PRINT_MAIL
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [files, "/srv/courriels"]
    result = run_settings(
        {"SECRET_KEY": "x" * 40, "EMAIL_HOST": "smtp.example.org", "EMAIL_BACKEND": files}, code=PRINT_MAIL
    )
    assert result.stdout.split()[0] == files


def test_without_email_backend_the_mails_follow_email_host():
    smtp = "django.core.mail.backends.smtp.EmailBackend"
    result = run_settings({"SECRET_KEY": "x" * 40, "EMAIL_HOST": "smtp.example.org"}, code=PRINT_MAIL)
    assert result.stdout.split()[0] == smtp
    result = run_settings({"DEBUG": "1"}, code=PRINT_MAIL)
    assert result.stdout.split()[0] == "django.core.mail.backends.console.EmailBackend"
    result = run_settings({"SECRET_KEY": "x" * 40}, code=PRINT_MAIL)
    assert result.stdout.split()[0] == smtp  # Django's default: localhost:25
