"""The one settings file: runs bare for development, strict for production."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DJANGO_DEBUG": "false",
    "DJANGO_HTTPS": "true",
    "DJANGO_SECRET_KEY": "k3y-for-tests-8f2c9a1e7d6b5a4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7",
    "DJANGO_ALLOWED_HOSTS": "scores.example.org",
    "DATABASE_URL": "sqlite:////tmp/tracker-check.sqlite3",
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, capture_output=True,
                          text=True, env=clean | env, timeout=120)


def test_production_settings_pass_the_deployment_check():
    checked = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert checked.returncode == 0, checked.stderr
    assert "no issues" in checked.stdout


def test_runs_with_no_environment_at_all_and_safely():
    checked = manage("check", "--deploy", "--fail-level", "WARNING")
    assert checked.returncode == 0, checked.stderr
    shown = manage("shell", "-v0", "-c", "from django.conf import settings; "
                   "print(settings.DEBUG, '*' in settings.ALLOWED_HOSTS, "
                   "'localhost' in settings.ALLOWED_HOSTS, len(settings.SECRET_KEY) >= 50)")
    assert shown.stdout.split() == ["False", "False", "True", "True"], shown.stderr
    key = ROOT / "data" / "secret_key"
    assert key.stat().st_mode & 0o077 == 0
    again = manage("shell", "-v0", "-c",
                   "from django.conf import settings; print(settings.SECRET_KEY)")
    assert again.stdout.strip() == key.read_text().strip()


def test_debug_is_for_development_only():
    shown = manage("shell", "-v0", "-c", "from django.conf import settings; "
                   "print(settings.DEBUG, settings.ALLOWED_HOSTS)", DJANGO_DEBUG="true")
    assert shown.stdout.split() == ["True", "['*']"], shown.stderr


@pytest.mark.parametrize("env,message", [
    ({"DJANGO_DEBUG": "perhaps"}, "DJANGO_DEBUG must be true or false"),
    ({"DATABASE_URL": "not a url"}, "DATABASE_URL"),
    ({"DJANGO_ALLOWED_HOSTS": " , "}, "DJANGO_ALLOWED_HOSTS must list at least one value"),
    ({"DJANGO_CACHE_URL": "redis://127.0.0.1:6379/0"}, "DJANGO_SECRET_KEY must be set"),
])
def test_malformed_settings_fail_loudly(env, message):
    checked = manage("check", **env)
    assert checked.returncode != 0
    assert message in checked.stderr


@pytest.mark.parametrize("env", [{}, {"DATABASE_URL": "sqlite:////tmp/tracker-check.sqlite3"}],
                         ids=["embedded default", "sqlite url"])
def test_sqlite_serves_several_server_processes_and_keeps_its_connections(env):
    shown = manage("shell", "-v0", "-c", "from django.conf import settings; "
                   "db = settings.DATABASES['default']; options = db['OPTIONS']; "
                   "print(db['CONN_MAX_AGE'], db['CONN_HEALTH_CHECKS'], "
                   "options['transaction_mode'], options['timeout'], "
                   "'journal_mode=WAL' in options['init_command'])", **env)
    assert shown.stdout.split() == ["600", "True", "IMMEDIATE", "20", "True"], shown.stderr


def test_static_files_are_collected_where_the_site_says(tmp_path):
    collected = manage("collectstatic", "--noinput", "-v0", DJANGO_STATIC_ROOT=str(tmp_path))
    assert collected.returncode == 0, collected.stderr
    assert (tmp_path / "staticfiles.json").is_file()
    assert list(tmp_path.glob("css/app.*.css"))
