import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


PRINT_DATABASE = (
    "from django.conf import settings; d = settings.DATABASES['default']; print(d['ENGINE'], d['NAME'])"
)


def run_settings(extra_env, code=PRINT_DATABASE):
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "DATABASE_URL"}}
    env.update(extra_env)
    env["DJANGO_SETTINGS_MODULE"] = "federation.settings"
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
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
