"""Player, game and year-in-review pages: what a family sees, bad addresses, other families."""

import datetime
import re

import pytest

from tests.factories import GameNightFactory, PlayerFactory
from tests.tracker.looking_back.stats_fixtures import build_history, finish_generic, uno_key
from tracker.table.models import Play


@pytest.fixture
def history(household, family):
    return build_history(household, family)


def test_player_page_shows_the_players_numbers(host_client, history, family):
    response = host_client.get(f"/players/{family[0].pk}/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1>" in html and "Anna" in html
    assert response.context["stats"]["wins"] == 3
    assert f'href="/players/{family[2].pk}/"' in html  # head to head links on
    assert 'href="/games/maus_im_nacken/"' in html
    assert "<svg" in html and "60%" in html  # the chart writes each value at its marker


def test_a_player_without_plays_gets_a_page_saying_so(host_client, history, family):
    response = host_client.get(f"/players/{family[3].pk}/")
    assert response.status_code == 200
    assert "No finished game yet." in response.content.decode()


def test_a_renamed_player_keeps_the_page_with_the_new_name(host_client, history, family):
    family[0].name = "Annabel"
    family[0].save()
    response = host_client.get(f"/players/{family[2].pk}/")
    assert "Annabel" in response.content.decode()
    assert response.context["stats"]["head_to_head"][0].together == 4


def test_another_households_player_does_not_exist(host_client, history, stranger):
    foreign = PlayerFactory(household=stranger.households.get(), name="Fremd")
    assert host_client.get(f"/players/{foreign.pk}/").status_code == 404
    assert host_client.get("/players/999999/").status_code == 404


def test_a_stranger_cannot_open_the_households_player(client, stranger, history, family):
    client.force_login(stranger)
    assert client.get(f"/players/{family[0].pk}/").status_code == 404


def test_player_names_in_standings_lead_to_their_pages(host_client, history, family):
    night = history["nights"][1]
    for url in (night.get_absolute_url(), history["series"].get_absolute_url(),
                history["plays"][3].get_absolute_url(), "/household/"):
        assert f'href="/players/{family[0].pk}/"' in host_client.get(url).content.decode()


def test_game_page_shows_records_leaderboard_chart_and_fairness(host_client, household,
                                                                 history):
    response = host_client.get(f"/games/{uno_key(household)}/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Most points" in html and ">10<" in html
    assert "no clear advantage" in html
    assert html.count("<svg") == 1


def test_a_game_without_plays_has_a_page(host_client, history):
    response = host_client.get("/games/mau_mau/")
    assert response.status_code == 200
    assert "0 finished games" in response.content.decode()


@pytest.mark.parametrize("url", ["/games/chess/", "/games/KNIFFEL/"])
def test_an_unknown_game_is_a_404(host_client, history, url):
    assert host_client.get(url).status_code == 404


def test_a_stranger_sees_none_of_the_households_games(client, stranger, household, history):
    client.force_login(stranger)
    response = client.get("/games/maus_im_nacken/")
    assert response.status_code == 200
    assert response.context["stats"]["plays"] == 0
    assert "Anna" not in response.content.decode()
    assert client.get(f"/games/{uno_key(household)}/").status_code == 404


def test_year_review_page_and_pdf(host_client, history):
    response = host_client.get("/review/2024/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "2024 in review" in html and "Die Maus im Nacken" in html
    pdf = host_client.get("/review/2024/print/")
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    preview = host_client.get("/review/2024/print/?format=html&lang=de").content.decode()
    assert "<h2>Meister</h2>" in preview and "2024 im Rückblick" in preview


def test_every_column_of_the_reviews_tables_has_its_header(host_client, history):
    """A screen reader names each cell by its column (axe's td-has-header)."""
    html = host_client.get("/review/2024/").content.decode()
    for table in re.findall(r"<table.*?</table>", html, re.S):
        first_row = re.search(r"<tbody>\s*<tr>(.*?)</tr>", table, re.S)
        if first_row:
            columns = len(re.findall(r"<t[dh][ >]", first_row[1]))
            head = re.search(r"<thead>.*?</thead>", table, re.S)
            assert head and len(re.findall(r"<th[ >]", head[0])) >= columns, table[:200]


@pytest.mark.parametrize("url", ["/review/0/", "/review/99999/", "/review/abc/",
                                 "/review/0/print/"])
def test_a_year_out_of_range_is_a_404(host_client, history, url):
    assert host_client.get(url).status_code == 404


def test_a_year_without_games_says_so(host_client, history):
    response = host_client.get("/review/2019/")
    assert response.status_code == 200
    assert "No game was finished this year." in response.content.decode()


@pytest.mark.parametrize("url", ["/players/{anna}/", "/games/{uno}/", "/review/2024/"])
def test_pages_run_as_many_queries_however_long_the_history(
        host_client, household, family, url, django_assert_max_num_queries):
    build_history(household, family)
    url = url.format(anna=family[0].pk, uno=uno_key(household))
    with django_assert_max_num_queries(30) as few:
        assert host_client.get(url).status_code == 200
    night = GameNightFactory(household=household)
    for index in range(20):
        finish_generic(household, night, [(family[0], index), (family[1], 5), (family[3], 2)],
                       start_seat=index % 3)
    with django_assert_max_num_queries(len(few.captured_queries)):
        host_client.get(url)


def test_a_record_holder_is_named_once_per_record(host_client, household, family):
    night = GameNightFactory(household=household, date=datetime.date(2025, 3, 1))
    anna, ben = family[:2]
    finish_generic(household, night, [(anna, 40), (ben, 3)])
    finish_generic(household, night, [(anna, 40), (ben, 5)])

    html = host_client.get("/review/2025/").content.decode()
    preview = host_client.get("/review/2025/print/?format=html").content.decode()

    for page in (html, preview):
        records = page[page.index('class="standings records"'):]
        records = records[:records.index("</table>")]
        assert records.count(">Anna<") == 1
        assert "Anna</a> &amp; <a" not in records and "Anna & Anna" not in records


def many_games(monkeypatch, count=12, champions=0):
    """The review as if ``count`` games with long names had been played (and ``champions``
    more rows of champions above the chart)."""
    from tracker.looking_back import stats

    real = stats.year_review

    def review(*args, **kwargs):
        found = real(*args, **kwargs)
        found["games"] = [{"name": f"Langer Spielname Nummer {n}", "key": "generic",
                           "plays": n} for n in range(1, count + 1)]
        found["champions"] += found["champions"][:1] * champions
        return found

    monkeypatch.setattr(stats, "year_review", review)


def chart_labels(page):
    import re

    chart = page[page.index('class="chart rows-chart"'):]
    chart = chart[:chart.index("</svg>")]
    return [(float(y), text) for y, text in re.findall(
        r'<text x="[\d.-]+" y="([\d.]+)" text-anchor="end"[^>]*>([^<]+)</text>', chart)]


def test_the_games_chart_reads_with_many_games(host_client, history, monkeypatch):
    many_games(monkeypatch)

    html = host_client.get("/review/2024/").content.decode()

    labels = chart_labels(html)
    assert [text for _y, text in labels] == [
        f"Langer Spielname Nummer {n}" for n in range(1, 13)]
    heights = [y for y, _text in labels]
    assert min(b - a for a, b in zip(heights, heights[1:], strict=False)) >= 20  # font size 14


@pytest.mark.parametrize("champions", range(0, 30))
def test_the_printed_review_keeps_the_chart_with_its_caption(host_client, history,
                                                             monkeypatch, champions):
    from tests.tracker.paper.conftest import read_pdf

    many_games(monkeypatch, champions=champions)

    pages, _ = read_pdf(host_client.get("/review/2024/print/").content)

    [with_caption] = [page for page in pages if "How often each game was played" in page]
    assert "Langer Spielname Nummer 1 " in with_caption
    assert "Langer Spielname Nummer 12" in with_caption


def test_the_year_in_review_remembers_the_plays_with_a_note(host_client, history):
    p1, p2, p3, p4 = history["plays"]
    Play.objects.filter(pk=p2.pk).update(note="Ben's comeback")
    Play.objects.filter(pk=p4.pk).update(note="Oma's first win\nat last")
    # An abandoned play counts nowhere, its note included.
    Play.objects.filter(pk=p3.pk).update(note="Gave up at midnight")
    html = host_client.get("/review/2024/").content.decode()
    assert "Moments to remember" in html and "Gave up at midnight" not in html
    assert html.index("Ben&#x27;s comeback") < html.index("Oma&#x27;s first win<br>at last")
    assert f'href="{p2.get_absolute_url()}"' in html
    preview = host_client.get("/review/2024/print/?format=html").content.decode()
    assert "Ben&#x27;s comeback" in preview and p2.get_absolute_url() not in preview
    assert "Moments to remember" not in host_client.get("/review/2019/").content.decode()
