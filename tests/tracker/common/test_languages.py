"""Five languages: the browser's choice is the default, the switcher overrides it, dates and
numbers read as in that language, and the admin speaks it with Django's own catalogs."""

import io
import re
from datetime import date

import pytest
from django.conf import settings
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from games.i18n import Text
from tests.factories import GameNightFactory
from tests.tracker.looking_back.stats_fixtures import build_history, uno_key
from tests.tracker.paper.conftest import read_pdf
from tracker.paper.printing import certificates_context

pytestmark = pytest.mark.django_db

CODES = [code for code, _name in settings.LANGUAGES]


def test_the_site_offers_the_five_languages_of_the_rule_texts():
    assert CODES == ["de", "en", "fr", "it", "nl"]


@pytest.mark.parametrize("language", CODES)
def test_the_browsers_language_is_the_default(client, language):
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=f"{language};q=0.9,en;q=0.5")
    assert f'<html lang="{language}">' in page.content.decode()


def test_a_french_browser_gets_french_pages(client):
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9").content.decode()
    assert "<h1>Connexion</h1>" in page and "Mot de passe" in page


def test_the_switcher_overrides_the_browser(client):
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="fr">' in page and "Mot de passe" in page


@pytest.mark.parametrize("language,expected", [
    ("de", "14. März 2026"), ("en", "March 14, 2026"), ("fr", "14 mars 2026"),
    ("it", "14 marzo 2026"), ("nl", "14 maart 2026"),
])
def test_dates_on_pages_and_certificates_read_as_in_the_language(
        host_client, household, language, expected):
    GameNightFactory(household=household, date=date(2026, 3, 14))
    host_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    assert expected in host_client.get(reverse("home")).content.decode()
    assert certificates_context(["Anna"], "", date(2026, 3, 14), language)["date"] == expected


@pytest.mark.parametrize("browser,expected", [
    ("en-GB,en;q=0.9", "14 Mar 2026"), ("en-AU", "14 Mar 2026"),
    ("en-US,en;q=0.9", "March 14, 2026"), ("en", "March 14, 2026"),
    ("en;q=0.9,en-GB;q=0.8", "March 14, 2026"),
    ("en-US,en-GB;q=0.9", "March 14, 2026"),
])
def test_english_dates_follow_the_browsers_region(host_client, household, browser, expected):
    GameNightFactory(household=household, date=date(2026, 3, 14))

    page = host_client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE=browser).content.decode()

    assert expected in page


def test_a_british_browser_still_gets_the_five_languages_with_english_chosen(client):
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9").content.decode()

    menu = page[page.index('class="menu language"'):page.index("</details>")]
    assert re.findall(r'name="language" value="([a-z]+)"', menu) == CODES
    assert ": </span>EN</summary>" in menu
    assert re.findall(r'value="(\w+)" lang="\w+"\s+aria-pressed="true"', menu) == ["en"]
    assert '<html lang="en">' in page and "Password" in page


def test_a_british_browser_prints_british_dates(host_client, kniffel):
    headers = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}
    night = kniffel.game_night
    british = f"{night.date.day} {night.date:%b %Y}"

    [page], _ = read_pdf(host_client.get(reverse("print_play", args=[kniffel.pk]),
                                         {"lang": "en"}, **headers).content)
    [german], _ = read_pdf(host_client.get(reverse("print_play", args=[kniffel.pk]),
                                           {"lang": "de"}, **headers).content)

    assert f"Date: {british}" in page
    assert f"{night.date.day}. " in german and british not in german


@pytest.mark.parametrize("day,expected", [
    (date(2026, 11, 25), "25 novembre 2026"), (date(2026, 1, 6), "06 gennaio 2026"),
    (date(2026, 8, 15), "15 agosto 2026")])
def test_italian_dates_write_the_month_in_lower_case(host_client, household, day, expected):
    from django.utils import translation
    from django.utils.formats import date_format

    night = GameNightFactory(household=household, date=day)
    host_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"

    page = host_client.get(night.get_absolute_url()).content.decode()

    assert expected in page
    assert expected.split()[1].capitalize() not in page
    with translation.override("it"):
        assert date_format(day, "YEAR_MONTH_FORMAT") == expected.split(" ", 1)[1]


@pytest.mark.parametrize("language,expected", [
    ("de", "12,5"), ("en", "12.5"), ("fr", "12,5"), ("it", "12,5"), ("nl", "12,5")])
def test_averages_use_the_languages_decimal_mark(language, expected):
    with translation.override(language):
        shown = Template("{{ average|floatformat:1 }}").render(Context({"average": 12.46}))
    assert shown == expected


@pytest.mark.parametrize("language,expected", [
    ("de", "42\u202f%"), ("en", "42%"), ("fr", "42\u202f%")])
def test_percentages_are_written_as_in_the_language(language, expected):
    with translation.override(language):
        shown = Template("{{ wins|share:plays }}").render(Context({"wins": 21, "plays": 50}))
    assert shown == expected


@pytest.mark.parametrize("language,expected", [
    ("fr", "Site d’administration"), ("it", "Amministrazione sito"), ("nl", "Websitebeheer")])
def test_the_admin_speaks_the_language_with_djangos_own_catalog(client, admin_user, language,
                                                                expected):
    client.force_login(admin_user)
    page = client.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE=language)
    assert expected in page.content.decode()


def test_engine_texts_and_problems_in_french():
    problem = Text("{game} is for {low} to {high} players.", game=Text("Entenspiel"), low=2,
                   high=4)
    assert problem.in_language("fr-FR") == "Le jeu du canard se joue de 2 à 4 joueurs."
    assert Text("Kniffel").in_language("fr") == "Yahtzee"
    assert Text("Space Kniffel").in_language("fr") == "Kniffel Espace"


def test_a_french_tally_sheet(host_client):
    response = host_client.get(reverse("print_tally"),
                               {"races": "3", "players": "Amélie, Léon", "lang": "fr"})
    [page], metadata = read_pdf(response.content)
    assert "Die Maus im Nacken : feuille de marque" in metadata["/Title"].replace("\u00a0", " ")
    assert "Total de toutes les courses" in page and "Amélie" in page


@pytest.mark.parametrize("language", CODES)
def test_every_printed_sheet_takes_every_language(host_client, household, family, language):
    from pypdf import PdfReader

    history = build_history(household, family)
    series, night = history["series"], history["nights"][1]
    sheets = [reverse("print_tally"), reverse("print_series", args=[series.pk]),
              reverse("series_certificates", args=[series.pk]),
              reverse("night_certificates", args=[night.pk]),
              reverse("print_year_review", args=[2024])]
    for url in sheets:
        response = host_client.get(url, {"lang": language})
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
        assert PdfReader(io.BytesIO(response.content)).root_object["/Lang"] == language, url
    form = host_client.get(reverse("print_pad"), {"lang": language, "format": "html"})
    assert f'lang="{language}"' in form.content.decode()


SVG = re.compile(r"<svg.*?</svg>", re.S)


def svg_numbers_with_commas(html: str) -> list[str]:
    """Coordinates written with a decimal comma: the drawing breaks there. (``points`` and
    ``d`` separate x and y with a comma, so they are left out.)"""
    return [value for svg in SVG.findall(html)
            for name, value in re.findall(r'([\w-]+)="([^"]*)"', svg)
            if name not in ("points", "d") and re.search(r"\d,\d", value)]


@pytest.mark.parametrize("language", ["de", "fr", "it", "nl"])
def test_charts_keep_their_coordinates_in_languages_with_a_decimal_comma(
        host_client, household, family, language):
    history = build_history(household, family)
    host_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    pages = [host_client.get(f"/players/{family[0].pk}/"),
             host_client.get(f"/games/{uno_key(household)}/"),
             host_client.get("/review/2024/"),
             host_client.get(reverse("print_series", args=[history["series"].pk]),
                             {"format": "html", "lang": language})]
    for page in pages:
        html = page.content.decode()
        assert page.status_code == 200 and "<svg" in html
        assert svg_numbers_with_commas(html) == []
