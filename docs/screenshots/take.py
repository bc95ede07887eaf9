"""Take the README's screenshots of every screen at both tablet sizes.

Run `make run` (the demo family, freshly loaded) in one terminal, then:
    .venv/bin/python docs/screenshots/take.py [http://127.0.0.1:8000] [--lang fr]
        [--screens kniffel-sheet,maus-entry]

Writes <screen>-768x1024.png and <screen>-1024x768.png beside this file, and the
scoreboards of a Kniffel sheet, a race, the evening, the series and the tournament as they
look on a TV, board-<kind>-1920x1080.png (``--screens board`` for those alone); with
``--lang``, the screens as a browser set to that language sees them, as
<screen>-<lang>-768x1024.png. ``--screens`` takes only the named screens (the evening is set
up all the same). It plays the
start of an evening through the pages, as a host would: home and the start page while no
night runs yet, then tonight's night with four players, a three-race series whose first
race is saved and whose second is being entered, the night's scoreboard, and the demo
family's household, invitation, unfinished Kniffel sheet (with the coach's hint on the dice
pads) and tournament, the coach's analysis of the finished Kniffel game, and the history and
statistics pages.
"""

import argparse
import re
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

HERE = Path(__file__).resolve().parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SIZES = [(768, 1024), (1024, 768)]
TONIGHT = ("Julia", "Tobias", "Lena", "Max")


def log_in(page: Page, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "demo")
    page.fill("input[name=password]", "demo")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")


def tablet(browser: Browser, base: str, width: int, height: int, *, logged_in: bool = True,
           language: str = "en-GB") -> Page:
    """A tablet whose browser asks for ``language`` (Accept-Language)."""
    page = browser.new_context(viewport={"width": width, "height": height},
                               locale=language).new_page()
    if logged_in:
        log_in(page, base)
    return page


def shoot(page: Page, name: str, width: int, height: int, language: str = "en") -> None:
    page.wait_for_timeout(400)
    suffix = "" if language == "en" else f"-{language}"
    page.screenshot(path=HERE / f"{name}{suffix}-{width}x{height}.png")


def start_the_evening(page: Page, base: str) -> dict[str, str]:
    """Tonight's night, a series with its first race saved and the second under way."""
    page.goto(base + "/nights/new/")
    for name in TONIGHT:
        page.get_by_role("checkbox", name=name).check()
    page.get_by_role("button", name="Start the evening").click()
    page.wait_for_url(re.compile(r"/nights/\d+/$"))
    night = page.url.removeprefix(base)
    page.get_by_role("button", name="Share a scoreboard").click()
    board = page.locator(".share-url").get_attribute("href")

    page.goto(base + "/series/new/")
    page.get_by_label("Name").fill("Winterrennen")
    page.get_by_label("Races agreed").fill("3")
    page.get_by_role("button", name="Start the series").click()
    page.wait_for_url(re.compile(r"/series/\d+/$"))
    series = page.url.removeprefix(base)
    page.get_by_role("button", name="Record race 1").click()
    page.wait_for_url(re.compile(r"/plays/\d+/$"))
    first_race = page.url.removeprefix(base)
    outcomes = [["Home", "Seat:7", "Caught", "Caught"], ["Home", "Caught", "Pyramid", "Caught"],
                ["Seat:5", "Caught", "Caught", "Caught"], ["Caught", "Caught", "Home", "Seat:4"]]
    cards = page.locator(".player-card")
    for index, taps in enumerate(outcomes):
        for elephant, tap in enumerate(taps):
            box = cards.nth(index).locator(".elephant").nth(elephant)
            button, _, value = tap.partition(":")
            box.get_by_role("button", name=button).click()
            page.wait_for_timeout(150)
            if value:
                box.get_by_role("button", name=value, exact=True).click()
                page.wait_for_timeout(150)
    page.get_by_role("button", name="Save result").click()
    page.wait_for_timeout(500)
    page.get_by_role("button", name="Race 2").click()
    page.wait_for_url(re.compile(r"/plays/\d+/$"))
    second_race = page.url.removeprefix(base)
    cards.nth(1).locator(".elephant").nth(0).get_by_role("button", name="Home").click()
    page.wait_for_timeout(300)
    cards.nth(2).locator(".elephant").nth(0).get_by_role("button", name="Seat").click()
    page.wait_for_timeout(300)

    page.goto(base + "/")
    kniffel = page.locator("a.item-main", has_text=re.compile(r"^\s*Kniffel\b")).first
    return {"night": night, "board": board, "series": series, "result": first_race,
            "race": second_race, "kniffel": kniffel.get_attribute("href")}


def shoot_boards(browser: Browser, base: str, pages: dict[str, str]) -> None:
    """Share each page's scoreboard (where not shared yet) and shoot it at TV size."""
    host = tablet(browser, base, 1024, 768)
    boards = {}
    for kind, path in pages.items():
        host.goto(base + path)
        if host.get_by_role("button", name="Share a scoreboard").count():
            host.get_by_role("button", name="Share a scoreboard").click()
        boards[kind] = host.locator(".share-url").get_attribute("href")
    host.context.close()
    tv = browser.new_context(viewport={"width": 1920, "height": 1080},
                             locale="en-GB").new_page()
    for kind, board in boards.items():
        tv.goto(base + board)
        tv.locator("#board").wait_for()
        tv.screenshot(path=HERE / f"board-{kind}-1920x1080.png")
    tv.context.close()


def main(base: str, language: str, only: set[str]) -> None:
    """The evening is set up in English, whose button names the set-up taps; the screens
    are then taken in ``language``."""
    def wanted(name: str) -> bool:
        return not only or name in only

    browser_language = "en-GB" if language == "en" else language
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for width, height in SIZES if wanted("home") or wanted("night-new") else []:
            page = tablet(browser, base, width, height, language=browser_language)
            if wanted("home"):
                shoot(page, "home", width, height, language)
            page.goto(base + "/nights/new/")
            if wanted("night-new"):
                shoot(page, "night-new", width, height, language)
            page.context.close()

        setup = tablet(browser, base, 1024, 768)
        paths = start_the_evening(setup, base)
        setup.goto(base + "/household/")
        if not setup.locator(".invitation-url").count():
            setup.get_by_role("button", name="Invite someone").click()
        invitation = setup.locator(".invitation-url").first.input_value().removeprefix(base)
        setup.goto(base + "/series/")
        tournament = setup.locator("a.item-main", has_text="Lenas Geburtstag").get_attribute(
            "href")
        setup.goto(base + "/history/")
        player = setup.locator(".chips a", has_text="Julia").get_attribute("href")
        review = setup.locator(".chips a").last.inner_text().strip()
        setup.goto(base + player)
        analysis = setup.locator(".analysed-list a").first.get_attribute("href")
        setup.context.close()

        screens = {
            "tonight": "/",
            "night": paths["night"],
            "night-players": paths["night"] + "players/",
            "new-game": paths["night"] + "plays/new/",
            "maus-entry": paths["race"],
            "result": paths["result"],
            "series": paths["series"],
            "series-list": "/series/",
            "kniffel-sheet": paths["kniffel"],
            "kniffel-dice": paths["kniffel"],
            "kniffel-out-of-turn": paths["kniffel"],
            "kniffel-coach": paths["kniffel"],
            "analysis": analysis,
            "scoreboard": paths["board"],
            "tournament": tournament,
            "household": "/household/",
            "history": "/history/",
            "player": player,
            "game": "/games/maus_im_nacken/",
            "review": f"/review/{review}/",
        }
        for width, height in SIZES:
            page = tablet(browser, base, width, height, language=browser_language)
            for name, path in screens.items():
                if not wanted(name):
                    continue
                page.goto(base + path)
                if name == "new-game":
                    page.locator("label.game-tile:has(input[value=kniffel])").click()
                    for player in ("Lena", "Max", "Julia"):
                        page.wait_for_timeout(300)
                        page.get_by_role("button", name=player).click()
                    page.wait_for_timeout(300)
                    page.get_by_role("radio", name="Max").check()
                if name == "kniffel-dice":
                    open_cell = "td.in-turn a.cell:not(.filled), a.cell:not(.filled)"
                    page.locator(open_cell).first.click()
                    page.locator(".die-pad, .question").first.wait_for()
                    anyway = page.locator(".question-buttons a[href*='anyway=1']")
                    if anyway.count():
                        anyway.click()
                    page.wait_for_timeout(300)
                    for face in ("5", "5", "2", "2", "2"):
                        page.locator(f".die-pad[aria-label='{face}']").click()
                        page.wait_for_timeout(200)
                if name == "kniffel-coach":
                    page.locator("a.cell:not(.filled)").first.click()
                    page.locator(".die-pad, .question").first.wait_for()
                    if page.get_by_role("link", name=re.compile("^Enter for")).count():
                        page.get_by_role("link", name=re.compile("^Enter for")).click()
                    page.wait_for_timeout(300)
                    for face in ("6", "6", "5", "2", "1"):
                        page.locator(f".die-pad[aria-label='{face}']").click()
                        page.wait_for_timeout(200)
                    page.locator(".rolls-left button", has_text="2").click()
                    page.locator(".coach-says").wait_for()
                if name == "kniffel-out-of-turn":
                    page.locator("a.cell:not(.filled)").last.click()
                shoot(page, name, width, height, language)
            page.context.close()
            if wanted("invitation"):
                visitor = tablet(browser, base, width, height, logged_in=False,
                                 language=browser_language)
                visitor.goto(base + invitation)
                shoot(visitor, "invitation", width, height, language)
                visitor.context.close()
        if wanted("board") and language == "en":
            shoot_boards(browser, base, {"kniffel": paths["kniffel"], "play": paths["result"],
                                         "night": paths["night"], "series": paths["series"],
                                         "tournament": tournament})
        browser.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", nargs="?", default="http://127.0.0.1:8000")
    parser.add_argument("--lang", default="en", help="de, en, fr, it or nl (default: en)")
    parser.add_argument("--screens", default="", help="comma-separated screen names")
    arguments = parser.parse_args()
    main(arguments.base, arguments.lang,
         {name.strip() for name in arguments.screens.split(",") if name.strip()})
