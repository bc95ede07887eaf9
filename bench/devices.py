"""Every device at the table, in real Chromium: tablets that follow each other, TVs, dice
answered on the tablet, and entries made while the Wi-Fi is down.

Run: python bench/devices.py [--quick]

Starts gunicorn on 127.0.0.1 as `make run` does (one uvicorn process, production settings,
a fresh SQLite file) with a 6-player Kniffel game, and opens the game's sheet on eight
tablets and its scoreboard on ten TVs (pages of one headless Chromium, each tablet with a
browser context of its own). Each page is told of changes by its stream (push).

- Idle: nothing is entered for a while; the CPU the server's processes use meanwhile
  (percent of one core, from /proc) is `idle_server_cpu_percent`.
- Following: tablet A enters a cell about every second, through the sheet's own endpoint;
  every other tablet and every TV notes when the cell shows the points. The time from
  sending to showing is `follow_latency_*` for the tablets and `board_latency_*` for the TVs.
- The baseline, asking: the same pages again with their streams refused, so that they ask
  twice a second as every page did before push (`asking_*`: idle CPU and latencies).
- Dice: a tablet opens a cell's editor and enters rolls on its dice pad, five taps a roll,
  each roll then cleared. `dice_tap_ms_*` is the time from a die tap (the click's time
  stamp) to the first frame that shows the die, and after the fifth die the options: the
  editor answers from the roll table it came with. `dice_tap_requests` counts what the taps
  sent to the server meanwhile (0: only the chosen field is ever sent). The baseline,
  `dice_tap_on_server_ms_p95`, is a third as many rolls with the table taken away, every
  tap a round trip as before; on this machine's loopback, without the Wi-Fi a phone adds.
- The number pad: a tablet on an own game's score pad taps cells one after the other;
  `pad_open_ms_*` is the time from the tap to the first frame that shows the cell's number
  pad, `pad_open_requests` what the taps asked of the server meanwhile (0: the pad is drawn
  on the device).
- Offline: two tablets lose the network and enter ten cells each in the sheet's editor,
  one of them reloads while still offline, the network returns. `entries_lost` counts the
  cells missing or wrong on the server, `entries_doubled` the entries applied twice.

`--quick` checks the same with fewer devices and entries, in well under a minute (CI runs it
so that the bench cannot break unnoticed); its figures are not the ones to quote.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from serving import (
    cpu_seconds,
    fresh_sqlite_environment,
    gunicorn_process,
    kniffel_game,
    percentile,
)

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["Julia", "Tobias", "Lena", "Max", "Oma", "Opa"]
#: The cells tablet A enters, with points each field may score.
FOLLOWED_FIELDS = {"chance": 23, "kniffel": 50, "large_straight": 40, "small_straight": 30}
OFFLINE_FIELDS = ["ones", "twos", "threes", "fours", "fives", "sixes"]
TABLET = {"width": 1024, "height": 768}


@dataclass(frozen=True)
class Size:
    tablets: int
    boards: int
    entries: int
    offline_entries_each: int
    idle_seconds: float
    dice_rolls: int


FULL = Size(tablets=8, boards=10, entries=20, offline_entries_each=10, idle_seconds=10.0,
            dice_rolls=60)
QUICK = Size(tablets=3, boards=2, entries=4, offline_entries_each=2, idle_seconds=2.0,
             dice_rolls=12)
#: The cell whose editor the dice are entered in: no other part of the bench fills it.
DICE_FIELD = "full_house"

#: Installed in every follower: the moment (the browser's clock, which is this machine's)
#: each awaited cell first shows its points, whichever way the page was redrawn.
WATCH = """
window.__seen = {};
window.__awaited = {};
const check = () => {
  for (const [id, text] of Object.entries(window.__awaited)) {
    const cell = document.getElementById(id);
    if (!(id in window.__seen) && cell && cell.textContent.trim() === text) {
      window.__seen[id] = Date.now();
    }
  }
};
new MutationObserver(check).observe(document.documentElement,
  {subtree: true, childList: true, characterData: true});
window.__await = (id, text) => { window.__awaited[id] = text; check(); };
"""

#: Tablet A's entry, sent as its editor sends typed points; the time it was sent.
ENTER = """async ([url, points]) => {
  const token = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
  const sent = Date.now();
  const response = await fetch(url, {method: "POST", headers: {
      "X-CSRFToken": token, "HX-Request": "true",
      "Content-Type": "application/x-www-form-urlencoded"},
    body: new URLSearchParams({points: String(points), save: "1", version: ""})});
  if (!response.ok) throw new Error("entry refused: " + response.status);
  return sent;
}"""


#: Installed in the tablet that enters dice: for the tap awaited (how many dice it leaves),
#: the time from the tap to the first frame in which the editor shows them, with the options
#: once there are five. The frame's callback runs after the tap is handled and before the
#: frame is painted.
DICE_WATCH = """
window.__dice = {times: [], awaited: null, tappedAt: null};
document.addEventListener("click", (event) => {
  if (event.target.closest("#editor button[name=tap]")) window.__dice.tappedAt = event.timeStamp;
}, true);
const shows = (count) => {
  const editor = document.getElementById("editor");
  return editor.querySelectorAll(".dice-slots button.die").length === count
    && (count < 5 || editor.querySelectorAll(".options button[name=choose]").length > 0);
};
const frame = () => {
  const dice = window.__dice;
  if (dice.awaited !== null && dice.tappedAt !== null && shows(dice.awaited)) {
    dice.times.push(performance.now() - dice.tappedAt);
    dice.awaited = null;
  }
  requestAnimationFrame(frame);
};
requestAnimationFrame(frame);
"""
#: Every editor drawn without its roll table, as for a play with the coach's hint.
WITHOUT_TABLE = """() => {
  const drop = () => document.querySelectorAll("#roll-table").forEach((table) => table.remove());
  document.addEventListener("htmx:afterSwap", drop);
  drop();
}"""
#: Resolves once the awaited tap shows (the page's policy forbids wait_for_function's eval).
SHOWN = """() => new Promise((resolve) => {
  const check = () => (window.__dice.awaited === null ? resolve() : requestAnimationFrame(check));
  check();
})"""


def manage(env: dict[str, str], script: str) -> str:
    return subprocess.run([sys.executable, "manage.py", "shell", "-c", script], cwd=ROOT,
                          env=env, check=True, capture_output=True, text=True).stdout


def share_link(env: dict[str, str], play_id: str) -> str:
    return manage(env, f"""
from tracker.room.models import ShareLink
from tracker.table.models import Play
play = Play.objects.get(pk={play_id})
print(ShareLink.objects.create(household=play.household, play=play).token)
""").split()[-1]


#: Installed in the tablet on the score pad: for the cell awaited (its pad's title), the
#: time from the tap to the first frame that shows its number pad.
PAD_WATCH = """
window.__pad = {times: [], tappedAt: null, awaited: null};
document.addEventListener("click", (event) => {
  if (event.target.closest("a.pad-cell")) window.__pad.tappedAt = event.timeStamp;
}, true);
const padFrame = () => {
  const pad = window.__pad;
  const title = document.querySelector("#pad-editor h2");
  if (pad.awaited !== null && pad.tappedAt !== null && title
      && title.textContent.trim() === pad.awaited) {
    pad.times.push(performance.now() - pad.tappedAt);
    pad.awaited = null;
  }
  requestAnimationFrame(padFrame);
};
requestAnimationFrame(padFrame);
"""
#: Resolves once the awaited pad shows.
PAD_SHOWN = """() => new Promise((resolve) => {
  const check = () => (window.__pad.awaited === null ? resolve() : requestAnimationFrame(check));
  check();
})"""


def own_game(env: dict[str, str], game: dict) -> str:
    """An own game kept round by round (a score pad) of the same players: its play's id."""
    return manage(env, f"""
from tracker.table.models import OwnGame, Play
from tracker.table.recording import start_play
first = Play.objects.get(pk={game['play']})
players = [participant.player for participant in first.participants.all()]
rules = OwnGame.objects.create(household=first.household, name="Rommé")
print(start_play(household=first.household, game="generic", own_game=rules, players=players,
                 game_night=first.game_night).pk)
""").split()[-1]


def pad_run(browser: Browser, base: str, game: dict, play_id: str, taps: int
            ) -> tuple[list[float], int]:
    """A tablet taps ``taps`` cells of the score pad: the time each pad takes to show, and
    how many requests the taps sent."""
    page = open_tablet(browser, base, game["session"], f"/plays/{play_id}/", ready="#pad")
    page.evaluate(PAD_WATCH)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    cells = page.locator("#pad-rounds a.pad-cell")
    for number in range(taps):
        cell = cells.nth(number % cells.count())
        page.evaluate("name => { window.__pad.awaited = name; }", cell.get_attribute("data-name"))
        cell.click()
        page.evaluate(PAD_SHOWN)
    times = page.evaluate("window.__pad.times")
    page.context.close()
    return times, len(asked)


def another_game(env: dict[str, str], game: dict) -> dict:
    """A new Kniffel game of the same players in the same household and night."""
    play_id = manage(env, f"""
from tracker.table.models import Play
from tracker.table.recording import start_play
first = Play.objects.get(pk={game['play']})
players = [participant.player for participant in first.participants.all()]
print(start_play(household=first.household, game="kniffel", players=players,
                 game_night=first.game_night).pk)
""").split()[-1]
    return {**game, "play": play_id}


def stored_cells(env: dict[str, str], play_id: str) -> tuple[dict[str, int], int]:
    """The play's cells on the server ("<player>-<field>": points) and how many times a
    cell was written (entered or corrected)."""
    output = manage(env, f"""
from tracker.table.models import KniffelCell, PlayChange
for cell in KniffelCell.objects.filter(play_id={play_id}):
    print("cell", f"{{cell.player_id}}-{{cell.field}}", cell.points)
print("writes", PlayChange.objects.filter(play_id={play_id},
                                          action__in=["cell", "cell_corrected"]).count())
""")
    cells, writes = {}, 0
    for line in output.splitlines():
        parts = line.split()
        if parts and parts[0] == "cell":
            cells[parts[1]] = int(parts[2])
        elif parts and parts[0] == "writes":
            writes = int(parts[1])
    return cells, writes


#: The baseline: a page whose stream is refused asks instead, here twice a second, as every
#: page did before push.
ASK_TWICE_A_SECOND = """
new MutationObserver(() => {
  document.querySelectorAll("#main[data-every], #board[data-every]").forEach((element) => {
    if (element.dataset.every !== "500") element.dataset.every = "500";
  });
}).observe(document, {subtree: true, childList: true, attributes: true,
                      attributeFilter: ["data-every"]});
"""


def asking_only(context: BrowserContext) -> None:
    """The context's pages get no stream, and ask twice a second instead."""
    context.route("**/live/**", lambda route: route.abort())
    context.add_init_script(ASK_TWICE_A_SECOND)


def open_tablet(browser: Browser, base: str, session: str, path: str, *,
                asking: bool = False, ready: str = "#turn") -> Page:
    context = browser.new_context(viewport=TABLET, base_url=base)
    context.add_cookies([{"name": "sessionid", "value": session, "url": base}])
    if asking:
        asking_only(context)
    page = context.new_page()
    page.goto(path)
    page.wait_for_selector(ready)
    return page


def open_board(browser: Browser, base: str, path: str, *, asking: bool = False) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 720}, base_url=base)
    if asking:
        asking_only(context)
    page = context.new_page()
    page.goto(path)
    page.wait_for_selector("#board")
    return page


@dataclass
class Following:
    """What a set of devices following the game measured."""

    idle_cpu_percent: float
    tablets: list[float]
    boards: list[float]
    hidden: int


def following(browser: Browser, base: str, game: dict, board_path: str, server_pid: int,
              size: Size, *, asking: bool) -> Following:
    """Open the tablets and boards, measure the idle server, then follow tablet A's entries;
    ``asking``: the baseline, every page asking twice a second instead of being told."""
    path = f"/plays/{game['play']}/"
    tablets = [open_tablet(browser, base, game["session"], path, asking=asking)
               for _ in range(size.tablets)]
    boards = [open_board(browser, base, board_path, asking=asking) for _ in range(size.boards)]
    hidden = sum(page.evaluate("document.hidden") for page in (*tablets, *boards))
    # Asking starts once a page has seen its stream refused three times (live.js).
    time.sleep(12.0 if asking else 2.0)
    cpu_before, started = cpu_seconds(server_pid), time.perf_counter()
    time.sleep(size.idle_seconds)
    idle_cpu = (cpu_seconds(server_pid) - cpu_before) / (time.perf_counter() - started)
    followed, boarded = follow(tablets[0], tablets[1:], boards, game, size)
    for page in (*tablets, *boards):
        page.context.close()
    return Following(idle_cpu * 100, followed, boarded, hidden)


def follow(tablet_a: Page, followers: list[Page], boards: list[Page], game: dict,
           size: Size) -> tuple[list[float], list[float]]:
    """Tablet A enters ``size.entries`` cells; the latencies seen on the followers and TVs."""
    players = game["players"]
    cells = [(player, field) for field in FOLLOWED_FIELDS for player in players]
    tablets, tvs = [], []
    for page in (*followers, *boards):
        page.evaluate(WATCH)
    for number, (player, field) in enumerate(cells[:size.entries]):
        points = FOLLOWED_FIELDS[field]
        cell_id = f"c-{player}-{field}"
        for page in (*followers, *boards):
            page.evaluate("([id, text]) => window.__await(id, text)", [cell_id, str(points)])
        sent = tablet_a.evaluate(ENTER, [f"/plays/{game['play']}/cells/{player}/{field}/",
                                         points])
        deadline = time.monotonic() + 10
        pending = [*followers, *boards]
        # Each page notes the moment it shows the points by itself: asking the pages only
        # after the usual latency keeps the asking from taking the CPU the pages need.
        time.sleep(0.5)
        while pending and time.monotonic() < deadline:
            time.sleep(0.1)
            pending = [page for page in pending
                       if page.evaluate(f"window.__seen['{cell_id}'] === undefined")]
        if pending:
            raise RuntimeError(f"{len(pending)} devices never showed {cell_id}")
        for page in followers:
            tablets.append(page.evaluate(f"window.__seen['{cell_id}']") - sent)
        for page in boards:
            tvs.append(page.evaluate(f"window.__seen['{cell_id}']") - sent)
        time.sleep(1.0 + (number % 3) * 0.2)
    return tablets, tvs


def dice_run(browser: Browser, base: str, game: dict, rolls: int, *, on_server: bool = False
             ) -> tuple[list[float], int]:
    """A tablet enters ``rolls`` rolls on the dice pad of one cell's editor: the time each
    die tap takes to show, and how many requests the taps sent. ``on_server``: the editor's
    roll table is taken away, so every tap asks the server as without it."""
    page = open_tablet(browser, base, game["session"], f"/plays/{game['play']}/")
    if on_server:
        page.evaluate(WITHOUT_TABLE)
    page.locator(f"#c-{game['players'][0]}-{DICE_FIELD} a").click()
    page.wait_for_selector("#editor .dice-form, #editor .question")
    if page.locator("#editor .question").count():
        page.locator("#editor a[href*='anyway=1']").click()
    editor = page.locator("#editor .dice-form")
    editor.wait_for()
    page.evaluate(DICE_WATCH)
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url)
            if request.method == "POST" else None)
    faces = random.Random(34)
    for _ in range(rolls):
        for count in range(1, 6):
            page.evaluate("count => { window.__dice.awaited = count; }", count)
            editor.locator(f".die-pad[value='die:{faces.randint(1, 6)}']").click()
            page.evaluate(SHOWN)
        editor.locator("button[name=tap][value=clear]").click()
        editor.locator(".dice-slots button.die").first.wait_for(state="detached")
    times = page.evaluate("window.__dice.times")
    page.context.close()
    return times, len(sent)


def type_offline(page: Page, player: str, field: str, points: int) -> None:
    """Tap the cell with the network off: the device's own editor opens; type, save."""
    page.locator(f"#c-{player}-{field} a").click()
    editor = page.locator("#editor .offline-form")
    editor.locator("input[name=points]").fill(str(points))
    editor.get_by_role("button").click()
    page.locator(f"#c-{player}-{field} a.waiting").wait_for()


def offline_run(browser: Browser, base: str, env: dict[str, str], game: dict,
                size: Size) -> tuple[int, int]:
    """Two tablets enter cells offline, one reloads, the network returns: (lost, doubled)."""
    path = f"/plays/{game['play']}/"
    tablets = [open_tablet(browser, base, game["session"], path) for _ in range(2)]
    cells = [(player, field) for field in OFFLINE_FIELDS for player in game["players"]]
    expected: dict[str, int] = {}
    for tablet in tablets:
        tablet.context.set_offline(True)
    for number in range(size.offline_entries_each * 2):
        player, field = cells[number]
        points = (OFFLINE_FIELDS.index(field) + 1) * (1 + number % 3)  # 1-3 dice of the face
        type_offline(tablets[number % 2], player, field, points)
        expected[f"{player}-{field}"] = points
    try:
        tablets[0].reload(timeout=5000)
    except Exception:  # noqa: BLE001 - offline, the browser may show its own error page
        pass
    for tablet in tablets:
        tablet.context.set_offline(False)
    time.sleep(4)  # the offline page notices the server by itself within 3 s
    if not tablets[0].locator("#sheet").count():
        tablets[0].goto(path)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        stored, writes = stored_cells(env, game["play"])
        if all(key in stored for key in expected):
            break
        time.sleep(1)
    time.sleep(2)  # anything sent twice would arrive by now
    stored, writes = stored_cells(env, game["play"])
    lost = sum(1 for key, points in expected.items() if stored.get(key) != points)
    offline_writes = writes - len([key for key in stored if key not in expected])
    for tablet in tablets:
        tablet.context.close()
    return lost, max(0, offline_writes - (len(expected) - lost))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer devices and entries")
    size = QUICK if parser.parse_args().quick else FULL
    env = fresh_sqlite_environment("devices")
    game = kniffel_game(env, PLAYERS)
    board_path = f"/board/{share_link(env, game['play'])}/"
    with gunicorn_process(env) as (port, server), sync_playwright() as playwright:
        base = f"http://127.0.0.1:{port}"
        browser = playwright.chromium.launch(
            executable_path=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"])
        pushed = following(browser, base, game, board_path, server.pid, size, asking=False)
        baseline = another_game(env, game)
        asked = following(browser, base, baseline,
                          f"/board/{share_link(env, baseline['play'])}/", server.pid, size,
                          asking=True)
        dice_taps, dice_requests = dice_run(browser, base, game, size.dice_rolls)
        server_taps, _ = dice_run(browser, base, game, size.dice_rolls // 3, on_server=True)
        pad_taps, pad_requests = pad_run(browser, base, game, own_game(env, game),
                                         size.dice_rolls)
        lost, doubled = offline_run(browser, base, env, game, size)
        browser.close()
    print(f"tablets: {size.tablets}")
    print(f"boards: {size.boards}")
    print(f"pages_hidden: {pushed.hidden}")
    print(f"entries: {size.entries}")
    for prefix, measured in (("", pushed), ("asking_", asked)):
        print(f"{prefix}follow_latency_p50_ms: {statistics.median(measured.tablets):.0f}")
        print(f"{prefix}follow_latency_p95_ms: {percentile(measured.tablets, 0.95):.0f}")
        print(f"{prefix}follow_latency_max_ms: {max(measured.tablets):.0f}")
        print(f"{prefix}board_latency_p50_ms: {statistics.median(measured.boards):.0f}")
        print(f"{prefix}board_latency_p95_ms: {percentile(measured.boards, 0.95):.0f}")
        print(f"{prefix}idle_server_cpu_percent: {measured.idle_cpu_percent:.1f}")
    print(f"dice_taps: {len(dice_taps)}")
    print(f"dice_tap_ms_p50: {statistics.median(dice_taps):.1f}")
    print(f"dice_tap_ms_p95: {percentile(dice_taps, 0.95):.1f}")
    print(f"dice_tap_requests: {dice_requests}")
    on_server = percentile(server_taps, 0.95)
    print(f"dice_tap_on_server_ms_p95: {on_server:.1f}")
    print(f"dice_tap_vs_on_server: {percentile(dice_taps, 0.95) / on_server:.2f}")
    print(f"pad_opens: {len(pad_taps)}")
    print(f"pad_open_ms_p50: {statistics.median(pad_taps):.1f}")
    print(f"pad_open_ms_p95: {percentile(pad_taps, 0.95):.1f}")
    print(f"pad_open_requests: {pad_requests}")
    print(f"offline_entries: {size.offline_entries_each * 2}")
    print(f"entries_lost: {lost}")
    print(f"entries_doubled: {doubled}")


if __name__ == "__main__":
    main()
