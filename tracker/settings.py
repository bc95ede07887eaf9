"""Settings for the scorekeeper: one file, sensible without any environment variable.

With nothing set it runs safely on SQLite in ``data/``: DEBUG off, a secret key made once
into ``data/secret_key``, and only this machine's own names and addresses allowed.
``make dev`` turns DEBUG on for development. For a server set:

``DJANGO_DEBUG``          ``true`` for development only (default ``false``)
``DJANGO_SECRET_KEY``     a long random string (default: made once into data/secret_key;
                          required with DJANGO_CACHE_URL)
``DJANGO_ALLOWED_HOSTS``  comma-separated host names (default: this machine's names and
                          addresses; ``*`` while DEBUG is on)
``DATABASE_URL``          e.g. ``postgres://user:password@127.0.0.1:5432/tracker``
``DJANGO_HTTPS``          ``true`` behind a proxy that terminates TLS (default ``false``)
``DJANGO_CACHE_URL``      ``redis://…`` or ``memcached://host:port`` (default: files in data/)
``DJANGO_TASKS_URL``      ``redis://…`` for the queue of background work that several app
                          servers share (default: a queue in the database)
``DJANGO_EVENTS_URL``     ``redis://…`` whose pub/sub tells every app server's open pages of
                          a change (default: DJANGO_CACHE_URL's Redis, else one process)

A malformed value stops the start with an error instead of being guessed at.
"""

import fcntl
import hashlib
import os
import secrets
import socket
import struct
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = BASE_DIR / "data"


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    if value.strip().lower() in {"1", "true", "yes", "on"}:
        return True
    if value.strip().lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    items = [item.strip() for item in value.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfigured(f"{name} must list at least one value")
    return items


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None:
        return default
    if not value.strip().isdecimal():
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}")
    return int(value)


def generated_secret_key(path: Path) -> str:
    """The key kept in ``path``, made on the first start; readable by its owner only."""
    if not path.exists():
        path.parent.mkdir(exist_ok=True)
        # Written aside and linked into place, so that server processes starting together
        # agree on one key and never read a half-written file.
        draft = path.with_name(f"{path.name}.{os.getpid()}")
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as key_file:
            key_file.write(secrets.token_urlsafe(50))
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()


def this_machine() -> list[str]:
    """The names and IPv4 addresses this machine answers to on the home network."""
    names = {"localhost", "127.0.0.1", "[::1]", socket.gethostname(), socket.getfqdn()}
    for _index, interface in socket.if_nameindex():
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                packed = fcntl.ioctl(probe.fileno(), 0x8915,  # SIOCGIFADDR
                                     struct.pack("256s", interface[:15].encode()))
            names.add(socket.inet_ntoa(packed[20:24]))
        except OSError:
            continue  # an interface without an IPv4 address
    return sorted(name for name in names if name)


DEBUG = env_bool("DJANGO_DEBUG", False)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY and os.environ.get("DJANGO_CACHE_URL"):
    # A shared cache is how several app servers share logins: each would make its own key
    # into its data/, and a login signed by one would be refused by the others.
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set with DJANGO_CACHE_URL, and be "
                               "the same on every server sharing the cache")
SECRET_KEY = SECRET_KEY or generated_secret_key(DATA_DIR / "secret_key")

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["*"] if DEBUG else this_machine())

if "DATABASE_URL" in os.environ:
    try:
        DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"],
                                                      conn_max_age=600, conn_health_checks=True)}
    except ValueError as error:
        raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {error}") from error
else:
    DATA_DIR.mkdir(exist_ok=True)
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3",
                             "NAME": DATA_DIR / "tracker.sqlite3",
                             "CONN_MAX_AGE": 600, "CONN_HEALTH_CHECKS": True}}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several tablets write at once through several server processes. Every transaction
    # takes SQLite's write lock when it begins, so two writers queue up instead of failing
    # halfway with "database is locked", and writers take turns in the order they come
    # (tracker/common/sqlite); the write-ahead log lets pages read meanwhile.
    DATABASES["default"]["ENGINE"] = "tracker.common.sqlite"
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        **DATABASES["default"].get("OPTIONS", {}),
    }

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "csp",
    "django_tasks",
    "django_tasks_db",
    "tracker",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "tracker.common.regions.RegionalFormatsMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "tracker.households.middleware.EntryOnceMiddleware",
    "tracker.households.middleware.HouseholdChoiceMiddleware",
    "csp.middleware.CSPMiddleware",
    "tracker.households.middleware.PrivatePagesMiddleware",
    # Below the headers' middleware: the page it makes gets them on the way out.
    "tracker.common.pages.NotAllowedPageMiddleware",
    "axes.middleware.AxesMiddleware",
]

# Only the site's own scripts, styles and images: no inline code and no style attributes
# anywhere (player colours are classes), so nothing needs 'unsafe-inline'. Printed sheets'
# HTML previews carry their paper's CSS inline and allow inline styles for themselves.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [SELF],
    },
}

# Logins are throttled with django-axes, for the app's login page and the admin's alike:
# after five wrong passwords for one account from one address, that address waits 15
# minutes before trying that account again. Someone guessing from another device does not
# lock the family out of its own tablets: each address has its own count. Every address
# may also fail FAILED_LOGINS_PER_HOUR times an hour, whatever the accounts, before it
# waits for the rest of the hour (tracker.households.auth.LoginThrottleHandler). (Behind a
# proxy, every visitor shares the proxy's address, and the proxy's own limits apply.)
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend",
                           "tracker.households.auth.CachedUserBackend"]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# A client that already waits is refused without a row for each further try.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_HANDLER = "tracker.households.auth.LoginThrottleHandler"
AXES_LOCKOUT_CALLABLE = "tracker.households.auth.locked_out"
AXES_VERBOSE = False
FAILED_LOGINS_PER_HOUR = env_int("DJANGO_FAILED_LOGINS_PER_HOUR", 20)

# Who may make an account (DJANGO_SIGNUP): "open", anyone, from the login page ("Start your
# own family": an account and a household in one form); "invitation", only through a
# household's invitation link; "closed", nobody (the site's owner makes accounts in the
# admin). New accounts from one address are limited to SIGNUPS_PER_HOUR, sign-up forms
# sent back with a mistake (a name taken, say) to FAILED_SIGNUPS_PER_HOUR, so that nobody
# lists the site's user names by trying them. Counted in the database: tracker.households.limits.
SIGNUP = os.environ.get("DJANGO_SIGNUP", "invitation")
if SIGNUP not in {"open", "invitation", "closed"}:
    raise ImproperlyConfigured("DJANGO_SIGNUP must be open, invitation or closed.")
SIGNUPS_PER_HOUR = env_int("DJANGO_SIGNUPS_PER_HOUR", 5)
FAILED_SIGNUPS_PER_HOUR = env_int("DJANGO_FAILED_SIGNUPS_PER_HOUR", 10)
# An account that belongs to HOUSEHOLDS_PER_ACCOUNT households founds or imports no more
# (an invitation still lets it join one).
HOUSEHOLDS_PER_ACCOUNT = env_int("DJANGO_HOUSEHOLDS_PER_ACCOUNT", 10)

ROOT_URLCONF = "tracker.urls"
WSGI_APPLICATION = "tracker.wsgi.application"
ASGI_APPLICATION = "tracker.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tracker.households.context_processors.shown_household",
            ],
            "builtins": ["tracker.templatetags.tracker_tags"],
        },
    },
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Nothing the tablets send comes near this; an uploaded household file is read apart from it.
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
# The languages of the rule texts the families play by. The browser's Accept-Language picks
# one (LocaleMiddleware) until the switcher in the top bar sets another.
# Dates and numbers then follow the browser's region in that language (en-GB writes
# 27 Nov 2026), through RegionalFormatsMiddleware.
LANGUAGES = [("de", _("German")), ("en", _("English")), ("fr", _("French")),
             ("it", _("Italian")), ("nl", _("Dutch"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Rendered score sheets (keyed by the play's version, so never stale) and sessions are
# cached where every server process sees them: in files under data/ by default, needing no
# cache server; DJANGO_CACHE_URL names Redis or memcached instead. Keys carry the database's
# name, so two databases used from one checkout never read each other's sheets.
CACHE_URL = os.environ.get("DJANGO_CACHE_URL", "")

# Email only where the owner names a server: without one the site sends none, and so offers
# no password reset by email (the site's owner sets a new password in the admin instead).
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "")
EMAIL_PORT = env_int("DJANGO_EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_PASSWORD", "")
EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_EMAIL_FROM", "scorekeeper@localhost")
CACHE_PREFIX = hashlib.sha256(
    f"{DATABASES['default'].get('HOST', '')}/{DATABASES['default']['NAME']}".encode()
).hexdigest()[:12]
if CACHE_URL.startswith(("redis://", "rediss://")):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": CACHE_URL, "KEY_PREFIX": CACHE_PREFIX}}
elif CACHE_URL.startswith("memcached://"):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.memcached.PyMemcacheCache",
                          "LOCATION": CACHE_URL.removeprefix("memcached://"),
                          "KEY_PREFIX": CACHE_PREFIX}}
elif CACHE_URL:
    raise ImproperlyConfigured(
        f"DJANGO_CACHE_URL must start with redis:// or memcached://, not {CACHE_URL!r}")
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                          "LOCATION": DATA_DIR / "cache", "KEY_PREFIX": CACHE_PREFIX,
                          "OPTIONS": {"MAX_ENTRIES": 2000}}}
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# What tells the open pages of a change the moment it is committed (tracker/common/live.py):
# within one process, or through a Redis that several processes and servers share.
LIVE_EVENTS_URL = os.environ.get("DJANGO_EVENTS_URL", "") or (
    CACHE_URL if CACHE_URL.startswith(("redis://", "rediss://")) else "")
if LIVE_EVENTS_URL and not LIVE_EVENTS_URL.startswith(("redis://", "rediss://")):
    raise ImproperlyConfigured(
        f"DJANGO_EVENTS_URL must start with redis://, not {LIVE_EVENTS_URL!r}")

# Background work (imports, the coach's tables) runs on Django's task framework in the
# worker that `make run` starts beside the server (`manage.py run_worker`). Its queue is a
# table of the database by default, nothing more to run; DJANGO_TASKS_URL names a Redis
# instead, whose RQ workers several app servers share.
TASKS_URL = os.environ.get("DJANGO_TASKS_URL", "")
if TASKS_URL.startswith(("redis://", "rediss://")):
    INSTALLED_APPS += ["django_rq", "django_tasks_rq"]
    TASKS = {"default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": ["default"]}}
    RQ_QUEUES = {"default": {"URL": TASKS_URL}}
elif TASKS_URL:
    raise ImproperlyConfigured(f"DJANGO_TASKS_URL must start with redis://, not {TASKS_URL!r}")
else:
    TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}

# The Kniffel coach's tables (``manage.py coach_tables``), computed once and read from here.
COACH_TABLES_DIR = DATA_DIR / "coach"

if not DEBUG:
    HTTPS = env_bool("DJANGO_HTTPS", False)
    if not HTTPS:
        # Served over plain HTTP on the home network: the HTTPS-only settings do not apply.
        SILENCED_SYSTEM_CHECKS = ["security.W004", "security.W008", "security.W012",
                                  "security.W016"]
    SECURE_SSL_REDIRECT = HTTPS
    SESSION_COOKIE_SECURE = HTTPS
    CSRF_COOKIE_SECURE = HTTPS
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365 if HTTPS else 0
    SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
    SECURE_HSTS_PRELOAD = HTTPS
    # gunicorn runs behind a proxy that terminates TLS and says so in this header.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    CSRF_TRUSTED_ORIGINS = [f"https://{host}" for host in ALLOWED_HOSTS if host != "*"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
