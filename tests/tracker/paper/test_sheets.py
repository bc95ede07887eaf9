"""Filled Kniffel sheets, series standings, tally sheets and certificates, read back."""

import io
import re
import subprocess

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.factories import GameNightFactory, PlayerFactory, SeriesFactory
from tests.tracker.evenings.test_tournament_pages import finish_round, make
from tests.tracker.paper.conftest import escaping_text, read_pdf, text_sizes
from tracker.common.pdf import render_html
from tracker.evenings.recording import start_tournament_round
from tracker.paper.printing import LINE_CONTRAST, axis_ticks, filled_sheet_context, luminance
from tracker.table.recording import record_result, start_play, write_cell

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


def test_an_undecided_bonus_prints_blank(host_client, kniffel, family):
    for field in ("ones", "twos", "threes", "fours", "fives"):
        write_cell(kniffel, family[0], field, 0, expected_version=None)  # out of reach
    write_cell(kniffel, family[1], "sixes", 24, expected_version=None)  # 39 still missing
    [page], _ = read_pdf(host_client.get(reverse("print_play", args=[kniffel.pk]),
                                         {"lang": "en"}).content)
    assert "Bonus at 63 or more plus 35 0 Upper total" in page


def test_a_sheet_for_ten_players_with_long_names_fits(host_client, household, night):
    players = [PlayerFactory(household=household, name=name) for name in (
        "Maximilian", "Julia", "Anna-Lena Müller-Lüdenscheid 🎲🚀 Sternch",
        ("Wolkenkuckucksheim" * 3)[:40], *[f"Friederike-Charlotte {n}" for n in range(6)])]
    play = start_play(household=household, game="kniffel", players=players, game_night=night)
    for player in players:
        write_cell(play, player, "chance", 23, expected_version=None)
    url = reverse("print_play", args=[play.pk])
    [page], _ = read_pdf(host_client.get(url, {"lang": "de"}).content)
    # Names wrap after their hyphens, and long words inside themselves with a hyphen (U+2010).
    unhyphenated = page.replace("\u2010 ", "").replace("- ", "-")
    assert "Julia" in page and "Maximilian" in unhyphenated and "Full-House" in page
    for word in ("Friederike-", "Charlotte", "Anna-Lena", "Müller-", "Lüdenscheid"):
        assert word in unhyphenated
    # As printed (the web preview frames the page more narrowly than the paper).
    html = render_html("print/filled_sheet.html", filled_sheet_context(play, "de"), "de")
    assert escaping_text(html) == []
    sizes, pages = text_sizes(html, "column")
    assert pages == 1 and len(sizes) >= 10 and min(sizes) >= 8


def test_further_kniffels_print_their_bonus_above_the_lower_total(host_client, kniffel,
                                                                   family):
    from tracker.table.recording import set_extra_kniffels

    anna, ben = family[:2]
    for field, points in (("kniffel", 50), ("sixes", 30), ("fives", 25), ("chance", 25),
                          ("full_house", 25), ("large_straight", 40), ("small_straight", 30),
                          ("four_of_a_kind", 10)):
        write_cell(kniffel, anna, field, points, expected_version=None,
                   dice=[6] * 5 if field == "sixes" else [5] * 5 if field == "fives" else None)
    set_extra_kniffels(kniffel, anna, 2, expected_version=kniffel.version)
    write_cell(kniffel, ben, "ones", 3, expected_version=None)

    [page], _ = read_pdf(host_client.get(reverse("print_play", args=[kniffel.pk]),
                                         {"lang": "en"}).content)

    # Lower fields 50 + 25 + 25 + 40 + 30 + 10 = 180, and two further Kniffels at 50 each.
    assert "Further Kniffels (bonus) 50 points each 100 0 Lower total 280 Upper" in page
    sheet = host_client.get(kniffel.get_absolute_url()).content.decode()
    assert f'<td id="sum-extra-{anna.pk}">100</td>' in sheet


def test_the_lower_total_prints_blank_until_a_lower_field_is_filled(host_client, kniffel,
                                                                    family):
    write_cell(kniffel, family[0], "ones", 3, expected_version=None)
    write_cell(kniffel, family[1], "kniffel", 0, expected_version=None)
    [page], _ = read_pdf(host_client.get(reverse("print_play", args=[kniffel.pk]),
                                         {"lang": "en"}).content)
    assert "Lower total 0 Upper total 3 0" in page


def test_only_kniffel_and_own_games_with_points_print_a_sheet(host_client, household, night,
                                                             family):
    race = start_play(household=household, game="maus_im_nacken", players=family[:2],
                      game_night=night)
    response = host_client.get(reverse("print_play", args=[race.pk]))
    assert response.status_code == 400
    assert ("Only Kniffel games and own games with points have a score sheet to print."
            in response.content.decode())


def finished_series(household, family, races_planned=2):
    series = SeriesFactory(household=household, name="Winter Cup", races_planned=races_planned)
    series.players.set(family[:3])
    for number, homes in enumerate([(1, 2, 3), (2, 1, 3)], start=1):
        play = start_play(household=household, game="maus_im_nacken", players=family[:3],
                          series=series, race_number=number)
        record_result(play, {"elephants": {
            player.key: [f"home:{home}", "seat:8", "caught", "caught"]
            for player, home in zip(family[:3], homes, strict=True)}}, expected_version=1)
    return series


def test_series_standings_with_race_points_chart_and_rules(host_client, household, family):
    series = finished_series(household, family, races_planned=3)
    response = host_client.get(reverse("print_series", args=[series.pk]), {"lang": "en"})
    [page], _ = read_pdf(response.content)
    assert "Winter Cup" in page and "2 of 3 races played" in page
    assert "1. Anna 21 20 41 1. Ben 20 21 41 3. Carla 19 19 38 −3" in page  # a shared lead
    assert "Running totals" in page
    assert "Ties are broken by: Total points, Wins, Elephants home" in page
    html = host_client.get(reverse("print_series", args=[series.pk]),
                           {"format": "html"}).content.decode()
    assert html.count("<polyline") == 3


def test_the_chart_reads_in_black_and_white(host_client, household, family):
    for player, colour in zip(family, ("#d62828", "#1d4ed8", "#eab308"), strict=False):
        player.colour = colour  # the yellow is too pale for a line on white
        player.save()
    series = finished_series(household, family, races_planned=3)
    html = host_client.get(reverse("print_series", args=[series.pk]),
                           {"format": "html", "lang": "en"}).content.decode()
    chart = html[html.index("<svg"):html.index("</svg>")]
    lines = re.findall(r"<polyline [^>]*>", chart)
    assert len({re.search(r'stroke-dasharray="([^"]*)"', line) and
                re.search(r'stroke-dasharray="([^"]*)"', line)[1] for line in lines}) == 3
    markers = re.findall(r'<path d="([^"]*)"', chart)
    assert len({re.sub(r"[-\d.,]", "", path) for path in markers}) == 3  # three shapes
    colours = set(re.findall(r'stroke="(#[0-9a-f]{6})" stroke-width="2.2"', chart))
    assert len(colours) == 3 and "#eab308" not in colours
    assert all(1.05 / (luminance(colour) + 0.05) >= LINE_CONTRAST for colour in colours)
    for name in ("Anna", "Ben", "Carla"):
        assert f'dominant-baseline="middle">{name}</text>' in chart  # at the line's end
    assert "Race →" in chart and "Points so far" in chart
    gridlines = re.findall(r'text-anchor="end" dominant-baseline="middle">(\d+)</text>', chart)
    assert gridlines == ["0", "20", "40", "60"]


@pytest.mark.parametrize("top,ticks", [(0, [0, 1, 2]), (1, [0, 1, 2]), (7, [0, 2, 4, 6, 8]),
                                       (41, [0, 20, 40, 60]), (100, [0, 50, 100]),
                                       (249, [0, 100, 200, 300]), (1234, [0, 500, 1000, 1500])])
def test_the_chart_has_three_to_five_round_gridlines(top, ticks):
    assert axis_ticks(top) == ticks


def test_a_tally_sheet_has_a_block_per_race_and_the_scoring(host_client):
    response = host_client.get(reverse("print_tally"),
                               {"races": "4", "players": "Anna, Ben", "lang": "de"})
    [page], _ = read_pdf(response.content)
    assert page.count("Rennen") >= 4 and "Rennen 4" in page and "Rennen 5" not in page
    assert "13, der zweite 12, der dritte 11, jeder weitere 10" in page
    assert "Anna" in page and "Ben" in page


def test_the_tally_sheet_prints_names_and_numbers_at_8_pt_or_more(host_client):
    from tests.tracker.paper.conftest import has_class, laid_out

    html = host_client.get(reverse("print_tally"), {"races": "8", "players": "Anna, Ben",
                                                    "format": "html"}).content.decode()
    [page] = laid_out(html).pages
    sizes = set()

    def walk(box, inside):
        inside = inside or has_class(box, "tally")
        if inside and type(box).__name__ == "TextBox" and box.text.strip():
            sizes.add(round(box.style["font_size"] * 72 / 96, 1))
        for child in getattr(box, "children", []):
            walk(child, inside)

    walk(page._page_box, False)
    assert sizes and min(sizes) >= 8


def test_eight_races_for_four_long_names_fit_one_page(host_client):
    names = ",".join(f"Anna-Lena Müller-Lüdenscheid {n} 🐘🐭 Stern"[:40] for n in range(4))
    params = {"races": "8", "players": names, "lang": "en"}
    [page], _ = read_pdf(host_client.get(reverse("print_tally"), params).content)
    assert "Race 8" in page and "Total over all races" in page
    html = host_client.get(reverse("print_tally"), params | {"format": "html"}).content.decode()
    assert escaping_text(html) == []


@pytest.mark.parametrize("params,field,message", [
    ({"races": "0"}, "races", "Ensure this value is greater than or equal to 1."),
    ({"races": "1000"}, "races", "Ensure this value is less than or equal to 20."),
    ({"races": "5", "players": "a,b,c,d,e"}, "players",
     "Die Maus im Nacken is for at most 4 players, not 5."),
    ({"races": "5", "lang": "xx"}, "lang", "Select a valid choice."),
])
def test_a_bad_tally_request_is_explained_at_the_field(host_client, params, field, message):
    response = host_client.get(reverse("print_tally"), params)
    assert response.status_code == 400
    page = response.content.decode()
    form = page[page.index('id="tally"'):]
    tag = form.index(f'name="{field}"')
    assert message in form[tag:]  # under its field
    assert form[tag:].index(message) < form[tag:].index("</label>") + 200
    if "players" in params:
        assert 'value="a,b,c,d,e"' in form


@pytest.mark.parametrize("params,race_word", [({}, "Rennen"), ({"races": "3"}, "Rennen"),
                                              ({"lang": "EN"}, "Race"),
                                              ({"players": "Anna"}, "Rennen")])
def test_missing_tally_parameters_take_their_defaults(client, host, params, race_word):
    client.force_login(host)
    response = client.get(reverse("print_tally"), params, HTTP_ACCEPT_LANGUAGE="de")
    [page], _ = read_pdf(response.content)
    assert f"{race_word} {params.get('races', '5')}" in page


def test_the_tally_language_can_be_chosen(host_client):
    page = host_client.get(reverse("print_pad")).content.decode()
    tally = page[page.index('id="tally"'):]
    assert '<select name="lang"' in tally and 'value="de"' in tally


def test_no_certificates_before_the_series_is_decided(host_client, household, family):
    series = finished_series(household, family, races_planned=5)
    response = host_client.get(reverse("series_certificates", args=[series.pk]),
                               {"lang": "en"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "The series is not decided yet: 2 of 5 races played." in page
    assert "has won" not in page and "won the series" not in page
    certificates = reverse("series_certificates", args=[series.pk])
    assert certificates not in host_client.get(series.get_absolute_url()).content.decode()
    decided = finished_series(household, family, races_planned=2)
    assert (reverse("series_certificates", args=[decided.pk])
            in host_client.get(decided.get_absolute_url()).content.decode())


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
    start_play(household=household, game="maus_im_nacken", players=family[:2],
               game_night=night)
    response = host_client.get(url, {"lang": "en"})
    assert response.status_code == 400
    assert "A game of this evening is still being played" in response.content.decode()
    assert url not in host_client.get(reverse("night_detail", args=[night.pk])).content.decode()


def test_a_round_still_being_played_is_blank_in_the_standings(host_client, household):
    tournament = make(household, 16, rounds=4)
    for _round in range(3):
        finish_round(tournament)
    tables = start_tournament_round(tournament)
    seats = sorted(tables[0].participants.all(), key=lambda p: p.seat)
    record_result(tables[0], {"elephants": {p.player_key: ["home:1"] + ["caught"] * 3
                                            if p is seats[0] else ["caught"] * 4
                                            for p in seats}}, expected_version=1)
    response = host_client.get(reverse("print_tournament", args=[tournament.pk]),
                               {"lang": "en"})
    [page], _ = read_pdf(response.content)  # seating and standings on one page
    assert "Round 4" in page and "Kid 15" in page
    for item in tournament.standings():
        assert (item["rounds"][3] is None) == all(
            p.player_key != item["player"] for p in seats)
    web = host_client.get(tournament.get_absolute_url()).content.decode()
    assert web.count('<td class="num"></td>') == 12  # the three tables still playing
    html = host_client.get(reverse("print_tournament", args=[tournament.pk]),
                           {"format": "html"}).content.decode()
    assert html.count('<td class="num"></td>') == 12
    assert escaping_text(html) == []


def test_other_households_sheets_do_not_print(client, stranger, kniffel, household, family):
    series = finished_series(household, family)
    client.force_login(stranger)
    for url in (reverse("print_play", args=[kniffel.pk]),
                reverse("print_series", args=[series.pk]),
                reverse("series_certificates", args=[series.pk])):
        assert client.get(url).status_code == 404


HOSTILE_NAME = ('Winter\f} @import url("file:///etc/passwd"); * { background: '
                'url("http://127.0.0.1:9/x") }\r"')


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
    from tracker.common.pdf import project_files_fetcher

    fetcher = project_files_fetcher()(allowed_protocols={"data", "file"})
    with pytest.raises(ValueError):
        fetcher.fetch(url)


def test_printed_sheets_may_use_the_projects_own_static_files(settings):
    from tracker.common.pdf import project_files_fetcher

    fetcher = project_files_fetcher()(allowed_protocols={"data", "file"})
    css = settings.BASE_DIR / "static" / "css" / "print.css"
    assert b"@page" in fetcher.fetch(css.as_uri()).read()


def page_sizes(pdf: bytes) -> list[tuple[int, int]]:
    """Each page's width and height in points."""
    return [(round(page.mediabox.width), round(page.mediabox.height))
            for page in PdfReader(io.BytesIO(pdf)).pages]


A4, LETTER = (595, 842), (612, 792)


def ten_player_sheet(household, night):
    players = [PlayerFactory(household=household, name=f"Friederike-Charlotte {n}")
               for n in range(10)]
    play = start_play(household=household, game="kniffel", players=players, game_night=night)
    for player in players:
        write_cell(play, player, "chance", 23, expected_version=None)
    return play


def decided_night(household, night, family):
    race = start_play(household=household, game="maus_im_nacken", players=family[:2],
                      game_night=night)
    record_result(race, {"elephants": {family[0].key: ["home:1", "seat:8", "caught", "caught"],
                                       family[1].key: ["caught"] * 4}}, expected_version=1)
    return night


@pytest.mark.parametrize("sheet", ["filled", "filled-ten", "space", "tally", "certificates",
                                   "review"])
def test_every_sheet_prints_on_letter_as_on_a4(host_client, household, night, family, sheet):
    if sheet == "filled":
        url = reverse("print_play", args=[start_play(
            household=household, game="kniffel", players=family, game_night=night).pk])
    elif sheet == "filled-ten":
        url = reverse("print_play", args=[ten_player_sheet(household, night).pk])
    elif sheet == "space":
        url = reverse("print_play", args=[start_play(
            household=household, game="weltraum_kniffel", players=family, game_night=night).pk])
    elif sheet == "tally":
        url = reverse("print_tally") + "?races=8&players=" + ",".join(
            f"Anna-Lena Müller-Lüdenscheid {n} Stern" for n in range(4))
    elif sheet == "certificates":
        url = reverse("night_certificates", args=[decided_night(household, night, family).pk])
    else:
        decided_night(household, night, family)
        url = reverse("print_year_review", args=[night.date.year])
    joiner = "&" if "?" in url else "?"

    on_a4 = page_sizes(host_client.get(url).content)
    on_letter = page_sizes(host_client.get(f"{url}{joiner}paper=letter").content)

    assert set(on_a4) == {A4} and set(on_letter) == {LETTER}
    assert len(on_letter) == len(on_a4)
    if sheet != "review":
        assert len(on_letter) == 1


def test_the_print_buttons_offer_us_letter(host_client, household, night, family):
    decided_night(household, night, family)
    kniffel = start_play(household=household, game="kniffel", players=family[:2],
                         game_night=GameNightFactory(household=household))
    for page, sheet in ((kniffel.get_absolute_url(), reverse("print_play", args=[kniffel.pk])),
                        (night.get_absolute_url(),
                         reverse("night_certificates", args=[night.pk])),
                        (reverse("year_review", args=[night.date.year]),
                         reverse("print_year_review", args=[night.date.year]))):
        assert f'href="{sheet}?paper=letter">US Letter</a>' in (
            host_client.get(page).content.decode())
    tally_form = host_client.get(reverse("print_pad")).content.decode()
    assert 'value="letter"' in tally_form[tally_form.index('id="tally"'):]


def test_a_refused_certificate_answers_in_the_language_asked_for(host_client, household, night,
                                                               family):
    start_play(household=household, game="maus_im_nacken", players=family[:2], game_night=night)

    response = host_client.get(reverse("night_certificates", args=[night.pk]), {"lang": "fr"})

    assert response.status_code == 400
    page = response.content.decode()
    assert 'lang="fr"' in page
    assert "Une partie de cette soirée est encore en cours" in page
    assert "A game of this evening" not in page


@pytest.mark.parametrize("paper,size", [(None, A4), ("letter", LETTER)])
def test_a_twenty_player_tournament_prints_on_one_page_of_a4_or_letter(
        host_client, household, paper, size):
    tournament = make(household, 20, rounds=3, final_table=4)
    for _round in range(3):
        finish_round(tournament)
    cut = tournament.final_cut()
    [final] = start_tournament_round(tournament, finalists=cut.tied[:cut.open_seats])
    seats = sorted(final.participants.all(), key=lambda p: p.seat)
    record_result(final, {"elephants": {p.player_key: ["home:1", "caught", "caught", "caught"]
                                        if p is seats[0] else ["caught"] * 4 for p in seats}},
                  expected_version=final.version)
    response = host_client.get(reverse("print_tournament", args=[tournament.pk]),
                               {"lang": "de"} | ({"paper": paper} if paper else {}))
    assert page_sizes(response.content) == [size]
    [page], _ = read_pdf(response.content)
    assert "Finaltisch" in page and "Kid 19" in page
    assert 'paper=letter">US Letter</a>' in host_client.get(
        tournament.get_absolute_url()).content.decode()


@pytest.mark.parametrize("paper,size", [(None, A4), ("letter", LETTER)])
def test_series_standings_print_on_a4_or_letter(host_client, household, family, paper, size):
    series = finished_series(household, family)
    response = host_client.get(reverse("print_series", args=[series.pk]),
                               {"lang": "en"} | ({"paper": paper} if paper else {}))
    assert page_sizes(response.content) == [size]
    assert 'paper=letter">US Letter</a>' in host_client.get(
        series.get_absolute_url()).content.decode()
