"""What every answer says about itself: a Content-Security-Policy, no caching of household
data, and HEAD wherever GET works."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db
TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


def test_pages_allow_only_the_sites_own_scripts_and_styles(host_client, kniffel):
    policy = host_client.get(kniffel.get_absolute_url())["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert "unsafe" not in policy


def test_no_page_template_needs_inline_styles_or_scripts():
    inline = re.compile(r'\sstyle="|\son[a-z]+="|<script(?![^>]*\ssrc=)|<style')
    offenders = [str(path.relative_to(TEMPLATES)) for path in TEMPLATES.rglob("*.html")
                 if path.parts[len(TEMPLATES.parts)] != "print"
                 and inline.search(path.read_text())]
    assert offenders == []


def test_household_pages_and_pdfs_are_never_stored(host_client, kniffel):
    for url in (reverse("home"), kniffel.get_absolute_url(),
                reverse("print_play", args=[kniffel.pk])):
        response = host_client.get(url)
        assert response.status_code == 200, url
        assert "private" in response["Cache-Control"] and "no-store" in response[
            "Cache-Control"], url


def test_a_printed_sheets_preview_may_use_its_inline_paper_css(host_client, kniffel):
    response = host_client.get(reverse("print_play", args=[kniffel.pk]), {"format": "html"})
    policy = response["Content-Security-Policy"]
    assert "style-src 'self' 'unsafe-inline'" in policy and "script-src 'self'" in policy


@pytest.mark.parametrize("name", ["home", "history", "household", "series_list", "print_pad"])
def test_head_works_wherever_get_does(host_client, name):
    assert host_client.head(reverse(name)).status_code == 200


def test_head_works_for_visitors_too(client):
    assert client.head(reverse("home")).status_code == 200
    assert client.head(reverse("login")).status_code == 200


def test_an_oversized_request_body_is_refused_before_any_work(host_client, household, night,
                                                              family):
    from tracker.table.recording import start_play

    play = start_play(household=household, game="mau_mau", players=family[:2],
                      game_night=night)
    response = host_client.post(reverse("play_entry", args=[play.pk]),
                                {"draft": "x" * (300 * 1024)})
    assert response.status_code == 400
    play.refresh_from_db()
    assert play.status == "in_progress" and play.result == {}
