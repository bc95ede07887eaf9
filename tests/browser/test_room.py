"""The room: every scoreboard fits a TV without scrolling at 720p, 1080p and 4K with ten
players; the app installs (manifest, icons, service worker) and works offline honestly; and
nothing the boards load comes from outside this computer."""

from __future__ import annotations

import io
import re
from urllib.parse import urlparse

import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from tests.factories import OwnGameFactory, PlayerFactory
from tracker.evenings.models import Series, Tournament, TournamentEntry
from tracker.evenings.recording import start_series_race, start_tournament_round
from tracker.households.models import Household
from tracker.room.models import ShareLink
from tracker.table.recording import record_result, start_play, write_cell
from tracker.table.rounds import add_round

pytestmark = pytest.mark.browser

TV_SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]
NAMES = ["Julia", "Tobias", "Lena", "Max", "Oma Gisela", "Opa Heinz", "Paul", "Emma",
         "Noah", "Maximiliane-Sophie"]
CLASSIC = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 24,
           "three_of_a_kind": 22, "four_of_a_kind": 0, "full_house": 25, "small_straight": 30,
           "large_straight": 40, "kniffel": 50, "chance": 23}
SPACE = {"ufo": 3, "rocket": 2, "nebula": 4, "star": 1, "sun": 5, "planet": 2,
         "three_alike": 2, "two_pairs": 3, "three_and_pair": 4, "all_different": 0}
LOCAL_HOSTS = {"127.0.0.1", "localhost"}


def fill_sheet(play, players, points: dict[str, int], leave_open: int) -> None:
    """Every player's sheet filled row by row, but the last ``leave_open`` rows: the sheet
    shows big numbers in every row it has, totals and bonuses included."""
    fields = list(points)[: len(points) - leave_open]
    for field in fields:
        for index, player in enumerate(players):
            value = points[field] if (index + len(field)) % 5 else 0
            write_cell(play, player, field, value, expected_version=None)


def ten_player_boards(household: Household) -> dict[str, str]:
    """A share link of each kind of board, each showing ten players, by name of the board."""
    players = [PlayerFactory(household=household, name=name) for name in NAMES]
    night = household.game_nights.first()
    night.players.set(players)
    sheet = start_play(household=household, game="kniffel", players=players, game_night=night)
    fill_sheet(sheet, players, CLASSIC, leave_open=1)
    space = start_play(household=household, game="weltraum_kniffel", players=players,
                       game_night=night)
    fill_sheet(space, players, SPACE, leave_open=1)
    scores = {player.key: 180 - 13 * index for index, player in enumerate(players)}
    other = start_play(household=household, game="generic",
                      own_game=OwnGameFactory(household=household),
                      players=players, game_night=night)
    record_result(other, {"scores": scores}, expected_version=other.version)
    skyjo = OwnGameFactory(household=household, name="Skyjo", scoring="fewest_points",
                           end="target", end_at=100)
    rounds = start_play(household=household, game="generic", own_game=skyjo, players=players,
                        game_night=night)
    for number in range(1, 16):
        rounds.refresh_from_db()
        add_round(rounds, number, {player.key: (number * 7 + index * 5) % 31 - 2
                                   for index, player in enumerate(players)},
                  expected_version=rounds.version)
    canasta = OwnGameFactory(household=household, name="Canasta", teams=True, end="target",
                             end_at=5000)
    teams = start_play(household=household, game="generic", own_game=canasta, players=players,
                       game_night=night)
    record_result(teams, {"teams": {f"Team {index + 1}": [players[index].key,
                                                          players[index + 5].key]
                                    for index in range(5)},
                          "rounds": [{f"Team {index + 1}": 1200 - 115 * index - 40 * number
                                      for index in range(5)} for number in range(6)],
                          "finished": False}, expected_version=teams.version)
    series = Series.objects.create(household=household, name="Winterrennen", game="generic",
                                   own_game=other.own_game, races_planned=8)
    series.players.set(players)
    for race_number in range(5):
        race = start_series_race(series, night=night)
        record_result(race, {"scores": {key: (points * (race_number + 3)) % 97
                                        for key, points in scores.items()}},
                      expected_version=race.version)
    tournament = Tournament.objects.create(household=household, name="Lenas Geburtstag",
                                           game="maus_im_nacken", rounds_planned=3)
    for player in players:
        TournamentEntry.objects.create(tournament=tournament, player=player)
    first_table = start_tournament_round(tournament)[0]
    record_result(first_table, {"elephants": {
        participant.player_key: ["home:1", "caught", "caught", "caught"] if seat == 0
        else ["caught"] * 4
        for seat, participant in enumerate(first_table.participants.order_by("seat"))}},
        expected_version=first_table.version)
    links = {"kniffel": ShareLink.objects.create(household=household, play=sheet),
             "space-kniffel": ShareLink.objects.create(household=household, play=space),
             "play": ShareLink.objects.create(household=household, play=other),
             "own-rounds": ShareLink.objects.create(household=household, play=rounds),
             "own-teams": ShareLink.objects.create(household=household, play=teams),
             "night": ShareLink.objects.create(household=household, game_night=night),
             "series": ShareLink.objects.create(household=household, series=series),
             "tournament": ShareLink.objects.create(household=household,
                                                    tournament=tournament)}
    return {name: f"/board/{link.token}/" for name, link in links.items()}


#: How far the page and each table of the board reach beyond the screen, in pixels.
OVERFLOW = """() => {
  const width = window.innerWidth, height = window.innerHeight;
  const beyond = [];
  const page = document.documentElement;
  if (page.scrollHeight > height) beyond.push(`page height ${page.scrollHeight} > ${height}`);
  if (page.scrollWidth > width) beyond.push(`page width ${page.scrollWidth} > ${width}`);
  for (const part of document.querySelectorAll('#board table, #board .table-card, .board-head')) {
    const box = part.getBoundingClientRect();
    if (box.bottom > height + 0.5 || box.right > width + 0.5) {
      beyond.push(`${part.tagName.toLowerCase()}.${part.className} ends at ${
        Math.round(box.right)}x${Math.round(box.bottom)}`);
    }
  }
  return beyond;
}"""


def watch_requests(page: Page) -> list[str]:
    """Every address the page asks for; any leaving this computer is refused as well."""
    asked: list[str] = []

    def route(request_route, request):
        asked.append(request.url)
        if urlparse(request.url).hostname in LOCAL_HOSTS:
            request_route.continue_()
        else:
            request_route.abort()

    page.route("**/*", route)
    return asked


@pytest.fixture
def boards(table) -> dict[str, str]:
    return ten_player_boards(table["household"])


@pytest.mark.parametrize("width,height", TV_SIZES)
def test_every_board_fits_the_tv_with_ten_players(page: Page, live_server, boards, width,
                                                  height):
    page.set_viewport_size({"width": width, "height": height})
    console_errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and console_errors.append(
        f"{page.url}: {message.text}"))
    asked = watch_requests(page)
    beyond = {}
    for name, path in boards.items():
        response = page.goto(live_server.url + path)
        assert response.ok, name
        beyond[name] = page.evaluate(OVERFLOW)
        expect(page.locator(".board-head")).to_be_visible()
    assert {name: problem for name, problem in beyond.items() if problem} == {}

    page.goto(live_server.url + boards["kniffel"])
    rows = page.locator("#board table.sheet tbody tr")
    expect(rows).to_have_count(13 + 7)  # the thirteen fields and seven rows of totals
    expect(page.locator("#board tr.grand td")).to_have_count(10)
    expect(page.locator(".board-turn .board-big")).to_have_text(re.compile("'s turn$"))
    leader_size = page.locator(".board-leader .board-big").evaluate(
        "element => parseFloat(getComputedStyle(element).fontSize)")
    cell_size = page.locator("#board tr.grand td").first.evaluate(
        "element => parseFloat(getComputedStyle(element).fontSize)")
    assert leader_size >= 1.6 * cell_size >= 1.6 * 11
    assert console_errors == []
    assert [url for url in asked if urlparse(url).hostname not in LOCAL_HOSTS] == []


def test_an_entry_lights_up_on_the_board_within_a_second(page: Page, live_server, table):
    household = table["household"]
    anna, ben = table["players"]
    play = start_play(household=household, game="kniffel", players=[anna, ben],
                      game_night=table["night"])
    link = ShareLink.objects.create(household=household, play=play)
    page.goto(f"{live_server.url}/board/{link.token}/")
    expect(page.locator("#board td.fresh")).to_have_count(0)
    write_cell(play, anna, "chance", 23, expected_version=None)
    expect(page.locator(f"#c-{anna.pk}-chance")).to_have_text("23", timeout=1500)
    expect(page.locator(f"#c-{anna.pk}-chance")).to_have_class("fresh")


def test_the_app_installs_and_says_when_the_server_is_gone(page: Page, live_server, table):
    household = table["household"]
    play = start_play(household=household, game="kniffel", players=table["players"],
                      game_night=table["night"])
    link = ShareLink.objects.create(household=household, play=play)
    asked = watch_requests(page)
    console_errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and console_errors.append(
        message.text))
    board = f"{live_server.url}/board/{link.token}/"
    page.goto(board)

    manifest_url = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = page.request.get(live_server.url + manifest_url)
    assert manifest.ok and manifest.headers["content-type"] == "application/manifest+json"
    fields = manifest.json()
    assert fields["name"] and fields["short_name"] and fields["display"] == "standalone"
    assert fields["start_url"] == "/" and fields["theme_color"].startswith("#")
    purposes = set()
    for icon in fields["icons"]:
        drawn = page.request.get(live_server.url + icon["src"])
        assert drawn.ok and drawn.headers["content-type"] == icon["type"], icon["src"]
        if icon["type"] == "image/png":
            width, height = Image.open(io.BytesIO(drawn.body())).size
            assert icon["sizes"] == f"{width}x{height}"
        purposes.add(icon["purpose"])
    assert purposes == {"any", "maskable"}
    assert {icon["sizes"] for icon in fields["icons"]} >= {"192x192", "512x512"}
    assert page.request.get(live_server.url + "/favicon.ico").ok

    scope = page.evaluate("navigator.serviceWorker.ready.then(worker => worker.scope)")
    assert scope == f"{live_server.url}/"
    page.reload()  # now looked after by the worker
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    expect(page.locator("#board tr.grand td").first).to_have_text("0")

    page.context.set_offline(True)
    expect(page.locator(".board-stale")).to_contain_text("No connection since", timeout=3000)
    expect(page.locator("#board")).to_have_class(re.compile(r"\bstale\b"))
    page.goto(board)  # kept static files, but the board itself only from the server
    expect(page.locator("h1")).to_have_text("The scorekeeper cannot be reached")
    expect(page.locator("#board")).to_have_count(0)
    page.context.set_offline(False)
    expect(page.locator("#board tr.grand td").first).to_have_text("0", timeout=10_000)
    assert [url for url in asked if urlparse(url).hostname not in LOCAL_HOSTS] == []
    assert [error for error in console_errors if "ERR_INTERNET_DISCONNECTED" not in error] == []


def test_a_board_without_connection_greys_out_and_keeps_the_grand_total_in_sight(
        page: Page, live_server, boards):
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(live_server.url + boards["kniffel"])
    page.context.set_offline(True)
    expect(page.locator(".board-stale")).to_contain_text("No connection since", timeout=3000)
    bar = page.locator(".board-stale").bounding_box()
    for total in page.locator("#board tr.grand td").all():
        box = total.bounding_box()
        assert box["y"] + box["height"] <= bar["y"], "the bar covers a grand total"
    assert bar["y"] + bar["height"] <= 1080
    for part in (".board-leader", ".board-turn", ".board-body"):
        assert page.locator(part).evaluate(
            "element => parseFloat(getComputedStyle(element).opacity)") < 0.5, part
    page.context.set_offline(False)


def test_a_round_of_an_own_game_shows_on_the_board_within_a_second(page: Page, live_server,
                                                                    table):
    household = table["household"]
    anna, ben = table["players"]
    skyjo = OwnGameFactory(household=household, name="Skyjo", scoring="fewest_points",
                           end="target", end_at=100)
    play = start_play(household=household, game="generic", own_game=skyjo, players=[anna, ben],
                      game_night=table["night"])
    add_round(play, 1, {anna.key: 12, ben.key: 20}, expected_version=play.version)
    link = ShareLink.objects.create(household=household, play=play)
    page.goto(f"{live_server.url}/board/{link.token}/")
    expect(page.locator("#board tr.grand td")).to_have_text(["★12", "20"])
    play.refresh_from_db()
    add_round(play, 2, {anna.key: 15, ben.key: 3}, expected_version=play.version)
    expect(page.locator("#board tr.grand td")).to_have_text(["27", "★23"], timeout=1500)
    expect(page.locator("#board tbody tr.fresh th")).to_have_text("2")
    expect(page.locator(".board-leader .board-big")).to_contain_text("Ben · 23")
