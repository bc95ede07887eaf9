"""The app on the tablet's home screen: manifest, icons, favicon, service worker, offline page."""

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.urls import reverse
from PIL import Image

from tracker.room.views import app

pytestmark = pytest.mark.django_db


def static_file(url: str) -> str:
    return finders.find(url.removeprefix("/static/"))


def test_the_manifest_names_the_app_and_its_icons(client):
    response = client.get(reverse("manifest"))
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Scorekeeper for game nights"
    assert manifest["short_name"] == "Scorekeeper"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/", "/", "standalone")
    assert manifest["theme_color"] == "#1f2328"
    maskable = [icon for icon in manifest["icons"] if icon["purpose"] == "maskable"]
    assert {icon["sizes"] for icon in maskable} == {"192x192", "512x512"}
    for icon in manifest["icons"]:
        path = static_file(icon["src"])
        assert path, icon["src"]
        if icon["type"] == "image/png":
            width, height = Image.open(path).size
            assert icon["sizes"] == f"{width}x{height}"
            if icon["purpose"] == "maskable":  # no transparent corners for the mask to show
                assert Image.open(path).convert("RGBA").getpixel((0, 0))[3] == 255


def test_the_manifest_speaks_the_visitors_language(client):
    client.cookies["django_language"] = "de"
    manifest = json.loads(client.get(reverse("manifest")).content)
    assert manifest["name"] == "Punktezähler für Spieleabende" and manifest["lang"] == "de"


def test_every_page_links_the_manifest_and_the_favicon(client, host_client):
    for page in (client.get(reverse("login")), host_client.get(reverse("home"))):
        html = page.content.decode()
        assert f'<link rel="manifest" href="{reverse("manifest")}">' in html
        assert 'rel="icon" href="/static/img/icon.svg"' in html
        assert f'data-service-worker="{reverse("service_worker")}"' in html


def test_favicon_ico_is_found_where_browsers_look(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and static_file(response["Location"])


def test_the_service_worker_looks_after_the_whole_site(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    script = response.content.decode()
    assert f'const OFFLINE_URL = "{reverse("offline")}";' in script
    assert '"/static/css/app.css"' in script and '"/static/img/icon-maskable-512.png"' in script
    assert f'const CACHE = PREFIX + "{app.offline_cache_version()}";' in script


def test_as_served_the_worker_keeps_the_files_under_their_hashed_names(client, settings,
                                                                         tmp_path):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}}
    call_command("collectstatic", interactive=False, verbosity=0)
    script = client.get("/sw.js").content.decode()
    hashed = re.search(r'"/static/(css/app\.[0-9a-f]{12}\.css)"', script)
    assert hashed and (tmp_path / hashed.group(1)).is_file()
    assert 'const STATIC_PREFIX = "/static/";' in script
    icons = json.loads(client.get(reverse("manifest")).content)["icons"]
    assert all((tmp_path / icon["src"].removeprefix("/static/")).is_file() for icon in icons)
    assert (tmp_path / client.get("/favicon.ico")["Location"].removeprefix("/static/")).is_file()


def test_the_kept_files_get_a_new_cache_when_one_changes(monkeypatch, tmp_path):
    before = app.offline_cache_version()
    changed = tmp_path / "app.css"
    changed.write_text("body { color: red; }")
    original = finders.find
    monkeypatch.setattr(finders, "find", lambda path: str(changed) if path == "css/app.css"
                        else original(path))
    assert app.offline_cache_version() != before


def test_the_offline_page_shows_no_scores(client):
    response = client.get(reverse("offline"))
    html = response.content.decode()
    assert response.status_code == 200 and "The scorekeeper cannot be reached" in html
    assert 'data-health="/health/"' in html and "board" not in html
