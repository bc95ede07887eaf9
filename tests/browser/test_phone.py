"""A parent's phone at the table: every page fits 360 to 430 pixels without sideways
scrolling of the page, every control a finger taps is 44 pixels or more, and the Kniffel cell
editor is a sheet at the bottom of the screen."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import TOO_SMALL, choose_game, log_in, maus_result
from tests.factories import InvitationFactory, OwnGameFactory, PlayerFactory
from tests.kniffel_games import finished_kniffel
from tracker.evenings.models import Series, Tournament, TournamentEntry
from tracker.evenings.recording import start_series_race, start_tournament_round
from tracker.room.models import ShareLink
from tracker.table.recording import record_result, start_play, write_cell
from tracker.table.rounds import add_round

pytestmark = pytest.mark.browser

TOUCH = 44
PHONE = {"width": 390, "height": 844}
#: The page's width once every collapsed part (a result's history, a player's form, the
#: language menu) is unfolded, as a finger would.
PAGE_WIDTH = """() => {
  document.querySelectorAll('details').forEach((part) => { part.open = true; });
  return document.documentElement.scrollWidth;
}"""
#: The pages also checked on the narrowest and the widest phone.
NARROW_AND_WIDE = ("home", "a night's page", "the new-game screen", "the Kniffel sheet",
                   "the score pad", "a player's page", "the coach's analysis",
                   "the board of the night", "the board of the Kniffel sheet")


@pytest.fixture
def pages(table, settings, coach_tables) -> dict[str, str]:
    """An evening of eight at the table, with every kind of page the family opens on a phone,
    by name: the forms of each game, a Kniffel and a Weltraum-Kniffel sheet of six, the score
    pad of eight, a corrected result, a series, a tournament, the boards and the coach."""
    settings.COACH_TABLES_DIR = coach_tables
    household, night, host = table["household"], table["night"], table["host"]
    players = table["players"] + [
        PlayerFactory(household=household, name=name)
        for name in ("Carla", "David", "Großmutter Hildegard", "Finn", "Greta", "Hannes")]
    night.players.set(players)
    four, six = players[:4], players[:6]

    def play(game, seated, **setup):
        return start_play(household=household, game=game, players=seated, game_night=night,
                          user=host, **setup)

    def own(name, **rules):
        return OwnGameFactory(household=household, name=name, **rules)

    forms = {f"the {name} form": play(game, four if game != "mau_mau" else six)
             for name, game in (("Die Maus im Nacken", "maus_im_nacken"),
                                ("Mouse Trap", "mouse_trap"),
                                ("Alles für die Katz", "alles_fuer_die_katz"),
                                ("Mensch ärgere dich nicht", "mensch_aergere_dich_nicht"),
                                ("Entenspiel", "entenspiel"), ("Mau Mau", "mau_mau"))}
    forms |= {f"the form of an own game {kind}": play("generic", six, own_game=game)
              for kind, game in (("by order", own("Carcassonne", scoring="places")),
                                 ("together", own("Hanabi", scoring="cooperative")),
                                 ("in teams", own("Codenames", teams=True)))}
    kniffel = play("kniffel", six)
    for player in six:
        write_cell(kniffel, player, "sixes", 24, expected_version=None)
    space = play("weltraum_kniffel", six)
    pad = play("generic", players, own_game=own("Wizard"))
    add_round(pad, 1, {player.key: 10 * index - 20 for index, player in enumerate(players)},
              expected_version=pad.version)
    finished = play("maus_im_nacken", players[:2])
    record_result(finished, maus_result(players[:2]), expected_version=finished.version)
    finished.refresh_from_db()
    corrected = maus_result(players[:2])
    corrected["elephants"][players[1].key][1] = "seat:4"
    record_result(finished, corrected, expected_version=finished.version, user=host)
    analysed = finished_kniffel(household, night, players[:2])
    series = Series.objects.create(household=household, name="Winterrennen",
                                   game="maus_im_nacken", races_planned=3, created_by=host)
    series.players.set(players[:2])
    race = start_series_race(series, user=host)
    record_result(race, maus_result(players[:2]), expected_version=race.version)
    tournament = Tournament.objects.create(household=household, name="Greta's birthday",
                                           game="maus_im_nacken", rounds_planned=2,
                                           created_by=host)
    for player in players:
        TournamentEntry.objects.create(tournament=tournament, player=player)
    start_tournament_round(tournament, user=host)

    def board(**shared):
        return f"/board/{ShareLink.objects.create(household=household, **shared).token}/"

    return {
        "login": "/accounts/login/",
        "sign-up": f"/invite/{InvitationFactory(household=household).token}/",
        "home": "/",
        "a night's page": night.get_absolute_url(),
        "who is here": f"{night.get_absolute_url()}players/",
        "the new-game screen": f"{night.get_absolute_url()}plays/new/",
        **{name: form.get_absolute_url() for name, form in forms.items()},
        "the final scores form of an own game": f"{pad.get_absolute_url()}?final=1",
        "the Kniffel sheet": kniffel.get_absolute_url(),
        "the Weltraum-Kniffel sheet": space.get_absolute_url(),
        "the score pad": pad.get_absolute_url(),
        "a corrected result": finished.get_absolute_url(),
        "the history": "/history/",
        "a player's page": f"/players/{players[4].pk}/",
        "a game's statistics": "/games/kniffel/",
        "the year review": f"/review/{night.date.year}/",
        "the household": "/household/",
        "the households": "/households/",
        "deleting the household": "/household/delete/",
        "the series": "/series/",
        "a new series": "/series/new/",
        "a series": series.get_absolute_url(),
        "a new tournament": "/tournaments/new/",
        "a tournament": tournament.get_absolute_url(),
        "the print page": "/print/pad/",
        "the import": "/household/import/",
        "the coach's analysis": f"/plays/{analysed.pk}/coach/{players[0].pk}/",
        "the board of the night": board(game_night=night),
        "the board of the Kniffel sheet": board(play=kniffel),
        "the board of the score pad": board(play=pad),
    }


def choose_kniffel_for_three(page: Page) -> None:
    """Kniffel on the new-game screen, three players seated: who starts and the house rules
    with their long choices show."""
    choose_game(page, page.locator("label.game-tile:has(input[value=kniffel])"))
    for name in ("Anna", "Großmutter Hildegard", "Ben"):
        tile = page.locator("button.seat-tap", has_text=name)
        tile.click()
        expect(tile.locator(".seat-number")).to_be_visible()
    expect(page.get_by_label("Bonus for each further Kniffel")).to_be_visible()


def page_width(page: Page, url: str, name: str) -> int:
    """The width of the page called ``name``, opened as at the table."""
    response = page.goto(url)
    assert response.ok, name
    if name == "the new-game screen":
        choose_kniffel_for_three(page)
    return page.evaluate(PAGE_WIDTH)


def test_every_page_fits_a_phone_and_every_control_a_finger(page: Page, live_server, pages):
    page.set_viewport_size(PHONE)
    too_wide, too_small = {}, {}
    for name, path in pages.items():
        if name == "home":
            log_in(page, live_server)
        width = page_width(page, live_server.url + path, name)
        if width > PHONE["width"]:
            too_wide[name] = width
        too_small[name] = page.evaluate(TOO_SMALL, TOUCH)
    assert too_wide == {}, "pages wider than a 390-pixel phone"
    assert {name: small for name, small in too_small.items() if small} == {}

    for phone in (360, 430):
        page.set_viewport_size({**PHONE, "width": phone})
        for name in NARROW_AND_WIDE:
            width = page_width(page, live_server.url + pages[name], name)
            if width > phone:
                too_wide[f"{name} at {phone}"] = width
    assert too_wide == {}, "pages wider than the phone"


def test_the_first_account_fits_a_phone(page: Page, live_server, transactional_db):
    for width in (360, 390, 430):
        page.set_viewport_size({**PHONE, "width": width})
        page.goto(live_server.url + "/accounts/first/")
        expect(page.locator("input[name=username]")).to_be_visible()
        assert page.evaluate(PAGE_WIDTH) <= width, width
        assert page.evaluate(TOO_SMALL, TOUCH) == [], width


def test_the_kniffel_editor_is_a_sheet_at_the_bottom_of_a_phone(host_page: Page, live_server,
                                                                table):
    household, night = table["household"], table["night"]
    players = table["players"] + [PlayerFactory(household=household, name=name)
                                  for name in ("Carla", "David", "Emma", "Finn")]
    sheet = start_play(household=household, game="kniffel", players=players,
                       game_night=night, user=table["host"])
    host_page.set_viewport_size(PHONE)
    host_page.goto(live_server.url + sheet.get_absolute_url())
    editor = host_page.locator("#editor")
    assert editor.bounding_box() is None  # nothing open: it takes no room

    host_page.get_by_label("Anna · Chance", exact=True).click()
    for entered, die in enumerate([5, 5, 2, 2, 2], start=1):
        editor.locator(f".die-pad[aria-label='{die}']").click()
        expect(editor.locator(".dice-slots button.die")).to_have_count(entered)
    expect(editor.locator("button[name=choose]")).to_have_count(13)
    box = editor.bounding_box()
    assert box["x"] == 0 and box["width"] == PHONE["width"]
    assert abs(box["y"] + box["height"] - PHONE["height"]) <= 1, "not at the bottom"
    assert box["y"] >= 0.35 * PHONE["height"] - 1, "higher than two thirds of the screen"
    controls = editor.locator("button:visible, a:visible, input:visible")
    for control in controls.all():
        part = control.bounding_box()
        assert part["width"] >= TOUCH and part["height"] >= TOUCH, control
        assert part["y"] >= box["y"] and part["y"] + part["height"] <= PHONE["height"], control

    # Scrolled to its end the editor keeps its close button; the sheet's grand total, and
    # the end of the page below it, scroll up above the editor.
    editor.evaluate("element => { element.scrollTop = element.scrollHeight; }")
    close = editor.get_by_role("link", name="Close").bounding_box()
    assert box["y"] <= close["y"] and close["y"] + close["height"] <= PHONE["height"]
    for part in (host_page.locator("#sum-total"), host_page.locator("main > :last-child")):
        part.evaluate("(element, top) => window.scrollBy(0, "
                      "element.getBoundingClientRect().bottom - top)", box["y"])
        seen = part.bounding_box()
        assert seen["y"] + seen["height"] <= box["y"] + 1, "hidden under the editor"
    assert host_page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    editor.get_by_role("link", name="Close").click()
    expect(editor).to_have_class(re.compile(r"\bempty\b"))
    assert editor.bounding_box() is None


@pytest.mark.parametrize("width", [360, 390, 430])
def test_the_maus_form_fits_a_phone_with_four_elephants_each(host_page: Page, live_server,
                                                             table, width):
    host_page.set_viewport_size({"width": width, "height": 844})
    race = start_play(household=table["household"], game="maus_im_nacken",
                      players=table["players"], game_night=table["night"])
    host_page.goto(live_server.url + race.get_absolute_url())
    assert host_page.evaluate("document.documentElement.scrollWidth") <= width
    buttons = host_page.locator(".player-card").first.locator(".choice")
    assert buttons.count() == 16
    for button in buttons.all():
        box = button.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert box["width"] >= TOUCH and box["height"] >= TOUCH


@pytest.mark.parametrize("width", [360, 390, 430])
def test_the_owners_top_bar_with_admin_fits_a_phone(host_page: Page, live_server, table,
                                                    width):
    table["host"].is_staff = table["host"].is_superuser = True
    table["host"].save()
    host_page.set_viewport_size({"width": width, "height": 844})
    for path in ("/", table["night"].get_absolute_url(), "/history/", "/household/"):
        host_page.goto(live_server.url + path)
        assert host_page.locator(".topbar").get_by_role("link", name="Admin").count() == 1
        assert host_page.evaluate("document.documentElement.scrollWidth") <= width, path
        for link in host_page.locator(
                ".topbar a:visible, .topbar .link:visible, .topbar summary:visible").all():
            box = link.bounding_box()
            assert box["x"] + box["width"] <= width, path
            assert box["height"] >= TOUCH, path
