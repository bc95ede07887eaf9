"""Score pads of own games: blank from the game's page and the Print page, and a play's pad
with its rounds, read back from the PDF."""

import io
import re
from itertools import product

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, pgettext
from pypdf import PdfReader

from tests.factories import OwnGameFactory
from tests.tracker.paper.conftest import (
    boxes,
    escaping_text,
    has_class,
    laid_out,
    read_pdf,
    text_sizes,
)
from tracker.common.pdf import render_html, render_pdf
from tracker.paper.own_pads import (
    MAX_SIDES,
    OwnPad,
    SideHead,
    default_rounds,
    most_rounds,
    own_pad_context,
    own_sheet_context,
    rows_that_fit,
)
from tracker.table.models import Play
from tracker.table.queries import participants_in_seat_order
from tracker.table.recording import record_result, start_play
from tracker.table.rounds import add_round, finish_own_game

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _name in settings.LANGUAGES]
PAPERS = ("a4", "a5", "letter")
PAGE_SIZES = {"a4": (595, 842), "a5": (420, 595), "letter": (612, 792)}
#: 40 characters, the longest name a player can have.
LONGEST_NAME = "Anna-Lena Müller-Lüdenscheid 🎲🚀 Sternch"


@pytest.fixture
def skyjo(household):
    return OwnGameFactory(household=household, name="Skyjo", scoring="fewest_points",
                          end="target", end_at=100)


def pad_url(own_game):
    return reverse("own_game_pad", args=[own_game.pk])


def page_size(pdf: bytes) -> tuple[int, int]:
    box = PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


def rows_of(html: str) -> list[str]:
    """The round numbers heading the rows, then "Total"."""
    return re.findall(r'<th class="round-no">([^<]+)</th><td', html)


@pytest.mark.parametrize("paper", PAPERS)
def test_a_blank_pad_prints_on_each_paper_with_the_names_typed_and_picked(
        host_client, skyjo, family, paper):
    response = host_client.get(pad_url(skyjo), {
        "picked": [family[0].name, family[1].name], "players": "Oma Gisela, Anna",
        "paper": paper, "lang": "en", "format": "pdf"})
    assert response["Content-Type"] == "application/pdf"
    assert page_size(response.content) == PAGE_SIZES[paper]
    [page], metadata = read_pdf(response.content)
    assert "Skyjo" in page and "Fewest points win." in page
    assert "Ends when someone reaches 100 points." in page
    assert "Round Anna Ben Oma Gisela 1 2 3" in page and page.count("Anna") == 1
    assert "Total" in page and metadata["/Title"] == "Skyjo"


@pytest.mark.parametrize("paper", PAPERS)
def test_rows_fill_the_page_unless_the_game_ends_after_its_rounds(household, skyjo, paper):
    pad = OwnPad(skyjo, (), 4, None, 1, paper, "en")
    rows = rows_of(render_html("print/own_pad.html", own_pad_context(pad), "en"))
    assert rows == [str(n) for n in range(1, default_rounds(skyjo, paper) + 1)] + ["Total"]
    assert len(rows) - 1 >= {"a4": 20, "letter": 19, "a5": 15}[paper]
    eight = OwnGameFactory(household=household, name="Wizard", end="rounds", end_at=8)
    html = render_html("print/own_pad.html", own_pad_context(
        OwnPad(eight, (), 4, None, 1, paper, "en")), "en")
    assert rows_of(html) == [str(n) for n in range(1, 9)] + ["Total"]
    assert "Ends after 8 rounds." in html


@pytest.mark.parametrize("paper,sides,rounds,language", [
    *[(paper, sides, rounds, "de") for paper in PAPERS for sides in (1, MAX_SIDES[paper])
      for rounds in (1, most_rounds(paper))],
    *[(paper, MAX_SIDES[paper], None, language) for paper, language in product(
        PAPERS, LANGUAGES)],
])
def test_every_blank_pad_is_one_page_and_no_text_leaves_its_cell(skyjo, paper, sides, rounds,
                                                                language):
    heads = tuple(SideHead(LONGEST_NAME if n % 2 else f"Spieler {n}") for n in range(sides))
    pad = OwnPad(skyjo, heads, sides, rounds, 1, paper, language)
    html = render_html("print/own_pad.html", own_pad_context(pad), language)
    assert escaping_text(html) == []
    assert len(laid_out(html).pages) == 1


@pytest.mark.parametrize("paper", PAPERS)
def test_long_names_wrap_at_a_readable_size_on_one_page(skyjo, paper):
    """A 38-character name in every column wraps (inside its words where it must) at 8 pt
    or more, and the pad keeps to one page."""
    heads = tuple(SideHead(f"Wolkenkuckucksheim-Kartenspieler{n:06}") for n in
                  range(MAX_SIDES[paper]))
    pad = OwnPad(skyjo, heads, 0, None, 1, paper, "de")
    html = render_html("print/own_pad.html", own_pad_context(pad), "de")
    sizes, pages = text_sizes(html, "side")
    assert pages == 1 and len(sizes) >= MAX_SIDES[paper] and min(sizes) >= 8
    assert escaping_text(html) == []


def test_a_team_game_prints_its_teams_with_their_players(host_client, household):
    canasta = OwnGameFactory(household=household, name="Canasta", teams=True, end="target",
                             end_at=5000)
    form = host_client.get(pad_url(canasta)).content.decode()
    assert 'name="teams"' in form and 'name="picked"' not in form
    response = host_client.get(pad_url(canasta), {
        "teams": "Red: Anna, Carla\nBlue: Ben,  David\n\n", "lang": "en", "format": "pdf",
        "sheets": "3"})
    pages, _ = read_pdf(response.content)
    assert len(pages) == 3
    assert "Red Anna, Carla Blue Ben, David" in pages[0] and "Most points win." in pages[0]


def test_picked_players_need_no_columns_without_names(host_client, skyjo, family):
    response = host_client.get(pad_url(skyjo), {
        "picked": [family[0].name, family[1].name], "columns": "0", "lang": "en",
        "format": "pdf"})
    assert response.status_code == 200
    [page], _ = read_pdf(response.content)
    assert "Round Anna Ben 1 2 3" in page
    form = host_client.get(pad_url(skyjo), {"lang": "en"}).content.decode()
    assert "For a pad without names: with names, each name gets its column." in form


def test_a_pad_without_names_needs_a_column(host_client, skyjo):
    response = host_client.get(pad_url(skyjo), {"columns": "0", "lang": "en",
                                                "format": "pdf"})
    assert response.status_code == 400
    assert "A pad without names needs at least one column." in response.content.decode()


def test_the_form_previews_and_explains_what_does_not_fit(host_client, skyjo):
    page = host_client.get(pad_url(skyjo), {"lang": "en"}).content.decode()
    assert "The PDF has 1 page." in page and "format=preview" in page
    preview = host_client.get(pad_url(skyjo), {"lang": "en", "players": "Mia",
                                               "format": "preview"}).content.decode()
    assert "Mia" in preview and "size: A4" in preview
    too_many = host_client.get(pad_url(skyjo), {
        "paper": "a5", "players": ",".join(f"P{n}" for n in range(9)), "format": "pdf"})
    assert too_many.status_code == 400
    assert "room for 8 columns, not 9" in too_many.content.decode()
    long = host_client.get(pad_url(skyjo), {"paper": "a5", "rounds": "30", "format": "pdf"})
    assert long.status_code == 400 and "at most 22 rounds" in long.content.decode()


def test_the_pad_is_offered_on_the_game_page_and_the_print_page(host_client, skyjo):
    assert pad_url(skyjo) in host_client.get(
        reverse("own_game_edit", args=[skyjo.pk])).content.decode()
    assert pad_url(skyjo) in host_client.get(reverse("print_pad")).content.decode()


def test_another_familys_game_has_no_pad(client, skyjo, stranger):
    client.force_login(stranger)
    assert client.get(pad_url(skyjo)).status_code == 404


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_blank_pad_speaks_every_language(host_client, skyjo, language):
    response = host_client.get(pad_url(skyjo), {"lang": language, "format": "pdf"})
    reader = PdfReader(io.BytesIO(response.content))
    assert reader.root_object["/Lang"] == language


@pytest.fixture
def skyjo_play(household, night, family, skyjo):
    play = start_play(household=household, game="generic", own_game=skyjo,
                      players=family[:3], game_night=night)
    a, b, c = (p.key for p in family[:3])
    for number, points in enumerate([{a: 24, b: 12, c: 31}, {a: 18, b: 27, c: 22}], start=1):
        play.refresh_from_db()
        add_round(play, number, points, expected_version=play.version)
    play.refresh_from_db()
    return play


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_play_under_way_prints_its_rounds_and_rows_to_play_on(host_client, skyjo_play,
                                                                 paper):
    pad = host_client.get(skyjo_play.get_absolute_url()).content.decode()
    assert reverse("print_play", args=[skyjo_play.pk]) in pad
    response = host_client.get(reverse("print_play", args=[skyjo_play.pk]),
                               {"lang": "en", "paper": paper})
    assert page_size(response.content) == PAGE_SIZES[paper]
    [page], _ = read_pdf(response.content)
    assert "Round Anna Ben Carla 1 24 12 31 2 18 27 22 3 4" in page
    assert "Total 42 39 53" in page and "Game in progress." in page
    html = host_client.get(reverse("print_play", args=[skyjo_play.pk]),
                           {"lang": "en", "format": "html"}).content.decode()
    assert len(rows_of(html)) - 1 == default_rounds(skyjo_play.own_game, "a4")


def test_a_finished_play_prints_its_rounds_and_winner(host_client, skyjo_play):
    finish_own_game(skyjo_play, expected_version=skyjo_play.version)
    [page], _ = read_pdf(host_client.get(reverse("print_play", args=[skyjo_play.pk]),
                                         {"lang": "de"}).content)
    assert "Runde Anna Ben Carla 1 24 12 31 2 18 27 22 Gesamt 42 39 53" in page
    assert "Sieger: Ben mit 39 Punkten." in page


def test_final_scores_only_print_their_totals(host_client, household, night, family, skyjo):
    play = start_play(household=household, game="generic", own_game=skyjo, players=family[:2],
                      game_night=night)
    record_result(play, {"scores": {family[0].key: 80, family[1].key: 95}},
                  expected_version=play.version)
    assert reverse("print_play", args=[play.pk]) in host_client.get(
        play.get_absolute_url()).content.decode()
    [page], _ = read_pdf(host_client.get(reverse("print_play", args=[play.pk]),
                                         {"lang": "en"}).content)
    assert "Round Anna Ben Total 80 95" in page and "Winner: Anna with 80 points." in page


def test_a_team_play_prints_a_column_per_team(host_client, household, night, family):
    canasta = OwnGameFactory(household=household, name="Canasta", teams=True, end="target",
                             end_at=5000)
    play = start_play(household=household, game="generic", own_game=canasta, players=family,
                      game_night=night)
    a, b, c, d = (p.key for p in family)
    record_result(play, {"teams": {"Red": [a, c], "Blue": [b, d]},
                         "rounds": [{"Red": 1200, "Blue": 800}], "finished": False},
                  expected_version=play.version)
    [page], _ = read_pdf(host_client.get(reverse("print_play", args=[play.pk]),
                                         {"lang": "en"}).content)
    assert "Red Anna, Carla Blue Ben, David 1 1200 800" in page


def test_a_long_play_goes_on_to_a_second_page(household, night, family):
    endless = OwnGameFactory(household=household, name="Rommé", end="host")
    play = start_play(household=household, game="generic", own_game=endless,
                      players=family[:2], game_night=night)
    rounds = [{family[0].key: n, family[1].key: 2 * n} for n in range(1, 61)]
    record_result(play, {"rounds": rounds, "finished": True}, expected_version=play.version)
    play = Play.objects.prefetch_related(participants_in_seat_order()).get(pk=play.pk)
    pages, _ = read_pdf(render_pdf("print/own_pad.html", own_sheet_context(play, "en"), "en"))
    assert len(pages) == 2 and "Total 1830 3660" in pages[1]


@pytest.mark.parametrize("paper,language", list(product(PAPERS, LANGUAGES)))
def test_the_head_keeps_above_the_table(household, paper, language):
    """The longest line under the name (a fewest-points game ending at a score) stays in the
    head, above the column heads."""
    game = OwnGameFactory(household=household, name="Wolkenkuckucksheim-Kartenspiel",
                          scoring="fewest_points", end="target", end_at=100000)
    html = render_html("print/own_pad.html", own_pad_context(
        OwnPad(game, (), 4, None, 1, paper, language)), language)
    [page] = laid_out(html).pages
    found = {name: box for box in boxes(page._page_box)
             for name in ("subline", "own-table") if has_class(box, name)}
    subline, table = found["subline"], found["own-table"]
    assert subline.position_y + subline.margin_height() <= table.position_y


@pytest.fixture
def hanabi(household):
    return OwnGameFactory(household=household, name="Hanabi", scoring="cooperative")


@pytest.mark.parametrize("paper,language", list(product(PAPERS, LANGUAGES)))
def test_a_co_operative_game_prints_a_row_per_play_to_tick_won_or_lost(
        host_client, hanabi, paper, language):
    response = host_client.get(pad_url(hanabi), {"paper": paper, "lang": language,
                                                 "format": "pdf"})
    assert response.status_code == 200 and page_size(response.content) == PAGE_SIZES[paper]
    [page], _metadata = read_pdf(response.content)
    html = host_client.get(pad_url(hanabi), {"paper": paper, "lang": language,
                                             "format": "preview"}).content.decode()
    with translation.override(language):
        heads = [gettext("Date"), gettext("Players"),
                 pgettext("the table, in a co-operative game", "Won"),
                 pgettext("the table, in a co-operative game", "Lost"),
                 gettext("Score (optional)")]
        total = pgettext("pad", "Total")
    # Heads may wrap, and the PDF's text then runs their lines together.
    assert "".join(heads).replace(" ", "") in page.replace(" ", "") and "Hanabi" in page
    assert html.count('<span class="box"></span>') == 2 * rows_that_fit(paper)
    assert total not in page and "<th class=\"round-no\">" not in html
    # As printed (the web preview frames the page more narrowly than the paper).
    printed = render_html("print/plays_pad.html", OwnPad(
        hanabi, (), 0, None, 1, paper, language).context(), language)
    assert escaping_text(printed) == [] and len(laid_out(printed).pages) == 1


@pytest.mark.parametrize("paper", PAPERS)
def test_a_game_without_points_prints_a_place_per_player_and_game(household, family, paper):
    """Win or lose only: no Total to add up, a row per game with its date, each player's
    place to write in."""
    uno = OwnGameFactory(household=household, name="Uno", scoring="places")
    sides = tuple(SideHead(player.name) for player in family)
    pad = OwnPad(uno, sides, 0, None, 1, paper, "en")
    printed = render_html(pad.template, pad.context(), "en")
    [page], _metadata = read_pdf(render_pdf(pad.template, pad.context(), "en"))
    assert "write each player's place in each game" in page and "Date" in page
    assert pgettext("pad", "Total") not in page and "Round" not in page
    assert escaping_text(printed) == [] and len(laid_out(printed).pages) == 1
    assert printed.count('<td class="value">') == len(family) * rows_that_fit(paper)


def test_a_co_operative_pads_form_asks_for_plays_not_players(host_client, hanabi):
    form = host_client.get(pad_url(hanabi), {"lang": "en"}).content.decode()
    assert 'name="picked"' not in form and 'name="columns"' not in form
    assert "Plays" in form and "The PDF has 1 page." in form
    ten = host_client.get(pad_url(hanabi), {"rounds": "10", "format": "preview"})
    assert ten.content.decode().count('<span class="box"></span>') == 20
