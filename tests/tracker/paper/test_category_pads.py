"""Printed sheets of games written down by categories: the blank pad with a row per
category, and a play's filled sheet, on one page of every paper in every language."""

import re
from itertools import product

import pytest
from django.urls import reverse

from tests.factories import OwnGameFactory
from tests.tracker.paper.conftest import escaping_text, laid_out, read_pdf
from tests.tracker.paper.test_own_pads import LANGUAGES, LONGEST_NAME, PAPERS
from tracker.common.pdf import render_html
from tracker.paper.own_pads import MAX_SIDES, OwnPad, SideHead, own_pad_context
from tracker.table.recording import start_play
from tracker.table.rounds import finish_own_game, set_round_points

pytestmark = pytest.mark.django_db
WINGSPAN = [{"name": "Birds", "minus": False}, {"name": "Bonus cards", "minus": False},
            {"name": "End-of-round goals", "minus": False}, {"name": "Eggs", "minus": False},
            {"name": "Food on cards", "minus": False}, {"name": "Tucked cards", "minus": False},
            {"name": "Nectar", "minus": False}, {"name": "Penalties", "minus": True}]


@pytest.fixture
def wingspan(household):
    return OwnGameFactory(household=household, name="Flügelschlag", sheet="categories",
                          categories=WINGSPAN, tiebreak="Food on cards")


def labels(html: str) -> list[str]:
    return re.findall(r'<th class="round-no">([^<]+)</th><td', html)


def test_a_blank_pad_has_a_row_per_category(host_client, wingspan, family):
    response = host_client.get(reverse("own_game_pad", args=[wingspan.pk]), {
        "picked": [player.name for player in family], "lang": "en", "format": "pdf"})
    [page], _ = read_pdf(response.content)
    assert "Category Anna Ben Carla David Birds Bonus cards End-of-round goals" in page
    assert "− Penalties Total" in page
    assert "A tie goes to the most Food on cards." in page


def test_a_pad_names_the_count_that_breaks_a_tie(host_client, wingspan, family):
    wingspan.tiebreak, wingspan.tiebreak_count = "", "food tokens left"
    wingspan.save()
    response = host_client.get(reverse("own_game_pad", args=[wingspan.pk]), {
        "picked": [player.name for player in family], "lang": "en", "format": "pdf"})
    [page], _ = read_pdf(response.content)
    assert "A tie goes to the most food tokens left." in page
    wingspan.tiebreak = "Eggs"
    wingspan.save()
    response = host_client.get(reverse("own_game_pad", args=[wingspan.pk]), {
        "picked": [player.name for player in family], "lang": "en", "format": "pdf"})
    [page], _ = read_pdf(response.content)
    assert "A tie goes to the most Eggs, then the most food tokens left." in page


@pytest.mark.parametrize("paper,language", list(product(PAPERS, LANGUAGES)))
def test_every_blank_sheet_by_categories_is_one_page(wingspan, paper, language):
    heads = tuple(SideHead(LONGEST_NAME if n % 2 else f"Spieler {n}")
                  for n in range(MAX_SIDES[paper]))
    html = render_html("print/own_pad.html", own_pad_context(
        OwnPad(wingspan, heads, len(heads), None, 1, paper, language)), language)
    assert labels(html)[:2] == ["Birds", "Bonus cards"] and labels(html)[-2] == "− Penalties"
    assert escaping_text(html) == []
    assert len(laid_out(html).pages) == 1


@pytest.mark.parametrize("paper", PAPERS)
def test_categories_in_each_round_print_whole_rounds_on_one_page(household, paper):
    game = OwnGameFactory(household=household, name="Rundenspiel", sheet="category_rounds",
                          categories=WINGSPAN[:3])
    for rounds in (None, 3, 99):
        html = render_html("print/own_pad.html", own_pad_context(
            OwnPad(game, (), 4, rounds, 1, paper, "de")), "de")
        assert len(labels(html)[:-1]) % 3 == 0 and "Runde 1" in html
        assert len(laid_out(html).pages) == 1
    html = render_html("print/own_pad.html", own_pad_context(
        OwnPad(game, (), 4, 3, 1, paper, "de")), "de")
    assert "Runde 3" in html and "Runde 4" not in html


@pytest.mark.parametrize("paper", PAPERS)
def test_a_finished_play_prints_its_filled_sheet(host_client, household, night, family,
                                                 wingspan, paper):
    play = start_play(household=household, game="generic", own_game=wingspan,
                      players=family[:2], game_night=night)
    anna, ben = family[0].key, family[1].key
    for number, (a, b) in enumerate([(38, 41), (9, 5), (6, 4), (8, 12), (3, 0), (7, 2),
                                     (4, 5), (0, -2)], start=1):
        for side, points in ((anna, a), (ben, b)):
            set_round_points(play, number, side, points, expected_version=play.version)
    finish_own_game(play, expected_version=play.version)
    response = host_client.get(reverse("print_play", args=[play.pk]),
                               {"lang": "en", "paper": paper})
    [page], _ = read_pdf(response.content)
    assert "Birds 38 41" in page and "− Penalties 0 -2" in page
    assert "Total 75 67" in page and "Winner: Anna with 75 points." in page
