"""Filled Kniffel sheets, series standings, tally sheets and certificates, read back."""

import subprocess

import pytest
from django.urls import reverse

from tests.factories import SeriesFactory
from tests.printing.conftest import read_pdf
from tracker.recording import record_result, start_play, write_cell

pytestmark = pytest.mark.django_db
FIELDS = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
          "three_of_a_kind": 22, "four_of_a_kind": 0, "full_house": 25, "small_straight": 30,
          "large_straight": 0, "kniffel": 50, "chance": 24}


def test_a_filled_sheet_shows_values_totals_and_the_winner(host_client, kniffel, family):
    for field, points in FIELDS.items():
        write_cell(kniffel, family[0], field, points, expected_version=None)
        write_cell(kniffel, family[1], field, 0 if field != "chance" else 5,
                   expected_version=None)
    response = host_client.get(reverse("print_play", args=[kniffel.pk]), {"lang": "de"})
    assert response["Content-Type"] == "application/pdf"
    [page], metadata = read_pdf(response.content)
    assert "Anna" in page and "Ben" in page
    assert "Bonus bei 63 oder mehr" in page and " 35 " in page
    assert "Endsumme 249 5" in page
    assert "Sieger: Anna mit 249 Punkten." in page
    assert page.count("✗") == 2 + 12  # the struck fields; sums print 0
    assert metadata["/Title"] == "Kniffel"


def test_a_sheet_in_progress_prints_too(host_client, kniffel, family):
    write_cell(kniffel, family[0], "chance", 20, expected_version=None)
    [page], _ = read_pdf(host_client.get(reverse("print_play", args=[kniffel.pk]),
                                         {"lang": "en"}).content)
    assert "Game in progress." in page and "Grand total 20 0" in page


def test_only_kniffel_plays_print_a_sheet(host_client, household, night, family):
    race = start_play(household=household, game="maus_im_nacken", players=family[:2],
                      game_night=night)
    response = host_client.get(reverse("print_play", args=[race.pk]))
    assert response.status_code == 400
    assert "Only Kniffel games have a score sheet to print." in response.content.decode()


def finished_series(household, family):
    series = SeriesFactory(household=household, name="Winter Cup", races_planned=3)
    series.players.set(family[:3])
    for number, homes in enumerate([(1, 2, 3), (2, 1, 3)], start=1):
        play = start_play(household=household, game="maus_im_nacken", players=family[:3],
                          series=series, race_number=number)
        record_result(play, {"elephants": {
            player.key: [f"home:{home}", "seat:8", "caught", "caught"]
            for player, home in zip(family[:3], homes, strict=True)}}, expected_version=1)
    return series


def test_series_standings_with_race_points_chart_and_rules(host_client, household, family):
    series = finished_series(household, family)
    response = host_client.get(reverse("print_series", args=[series.pk]), {"lang": "en"})
    [page], _ = read_pdf(response.content)
    assert "Winter Cup" in page and "2 of 3 races played" in page
    assert "1. Anna 21 20 41 1. Ben 20 21 41 3. Carla 19 19 38 −3" in page  # a shared lead
    assert "Running totals" in page
    assert "Ties are broken by: Total points, Wins, Elephants home" in page
    html = host_client.get(reverse("print_series", args=[series.pk]),
                           {"format": "html"}).content.decode()
    assert html.count("<polyline") == 3


def test_a_tally_sheet_has_a_block_per_race_and_the_scoring(host_client):
    response = host_client.get(reverse("print_tally"),
                               {"races": "4", "players": "Anna, Ben", "lang": "de"})
    [page], _ = read_pdf(response.content)
    assert page.count("Rennen") >= 4 and "Rennen 4" in page and "Rennen 5" not in page
    assert "13, der zweite 12, der dritte 11, jeder weitere 10" in page
    assert "Anna" in page and "Ben" in page


@pytest.mark.parametrize("params", [{"races": "0"}, {"races": "1000"},
                                    {"races": "5", "players": "a,b,c,d,e"},
                                    {"races": "5", "lang": "xx"}])
def test_a_bad_tally_request_is_explained(host_client, params):
    response = host_client.get(reverse("print_tally"), params)
    assert response.status_code == 400
    assert "Nothing to print" in response.content.decode()


def test_one_certificate_page_per_winner(host_client, household, family):
    series = finished_series(household, family)
    response = host_client.get(reverse("series_certificates", args=[series.pk]),
                               {"lang": "de"})
    pages, _ = read_pdf(response.content)
    assert len(pages) == 2
    assert "Anna" in pages[0] and "Ben" in pages[1]
    assert "hat die Serie „Winter Cup“ gewonnen" in pages[0]


def test_night_certificates_need_a_finished_game(host_client, household, night, family):
    url = reverse("night_certificates", args=[night.pk])
    assert host_client.get(url).status_code == 400
    race = start_play(household=household, game="maus_im_nacken", players=family[:2],
                      game_night=night)
    record_result(race, {"elephants": {family[1].key: ["home:1", "caught", "caught", "caught"],
                                       family[0].key: ["caught"] * 4}}, expected_version=1)
    pages, _ = read_pdf(host_client.get(url, {"lang": "en"}).content)
    assert len(pages) == 1 and "Ben" in pages[0]
    assert "won the most games of the evening" in pages[0]


def test_other_households_sheets_do_not_print(client, stranger, kniffel, household, family):
    series = finished_series(household, family)
    client.force_login(stranger)
    for url in (reverse("print_play", args=[kniffel.pk]),
                reverse("print_series", args=[series.pk]),
                reverse("series_certificates", args=[series.pk])):
        assert client.get(url).status_code == 404


HOSTILE_NAME = ('Winter\f} @import url("file:///etc/passwd"); body { background: '
                'url("http://127.0.0.1:9/x.png") } .x {\r"')


def test_a_hostile_series_name_is_printed_as_text_and_fetches_nothing(host_client, household,
                                                                     family, monkeypatch):
    from weasyprint.urls import URLFetcher

    fetched = []
    monkeypatch.setattr(URLFetcher, "open", lambda self, url, *a, **k: fetched.append(url))
    series = finished_series(household, family)
    series.name = HOSTILE_NAME
    series.save()
    response = host_client.get(reverse("print_series", args=[series.pk]), {"lang": "en"})
    assert response.status_code == 200
    page = subprocess.run(["pdftotext", "-", "-"], input=response.content, check=True,
                          capture_output=True).stdout.decode()
    assert "root:" not in page and "Running totals" in page and "1/1" in page
    assert fetched == []
    html = host_client.get(reverse("print_series", args=[series.pk]),
                           {"format": "html"}).content.decode()
    style = html[html.index("<style>"):html.index("</style>")]
    assert "Winter" not in style and "@import" not in style
    assert '<footer class="running-footer">Scorekeeper · Winter' in html


@pytest.mark.parametrize("url", ["file:///etc/passwd", "http://127.0.0.1:9/x.png",
                                 "file:///work/../etc/hostname", "ftp://127.0.0.1/x"])
def test_printed_sheets_fetch_nothing_outside_the_project(url):
    from tracker.printing import project_files_fetcher

    fetcher = project_files_fetcher()(allowed_protocols={"data", "file"})
    with pytest.raises(ValueError):
        fetcher.fetch(url)


def test_printed_sheets_may_use_the_projects_own_static_files(settings):
    from tracker.printing import project_files_fetcher

    fetcher = project_files_fetcher()(allowed_protocols={"data", "file"})
    css = settings.BASE_DIR / "static" / "css" / "print.css"
    assert b"@page" in fetcher.fetch(css.as_uri()).read()
