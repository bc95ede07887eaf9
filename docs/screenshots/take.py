"""Take the README's screenshots of every screen at both tablet sizes.

Run `make run` (the demo family) in one terminal, then:
    .venv/bin/python docs/screenshots/take.py [http://127.0.0.1:8000]

Writes <screen>-768x1024.png and <screen>-1024x768.png beside this file. It starts a
Die Maus im Nacken race tonight (through the pages, as a host would) to show its form, and
opens the demo family's invitation link without logging in.
"""

import re
import sys
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

HERE = Path(__file__).resolve().parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SIZES = [(768, 1024), (1024, 768)]


def log_in(page: Page, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "demo")
    page.fill("input[name=password]", "demo")
    page.click("main button[type=submit]")


def main(base: str) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        setup = browser.new_page()
        log_in(setup, base)
        setup.goto(base + "/")
        tonight = setup.get_by_role("link", name="Tonight's games").get_attribute("href")
        setup.goto(base + tonight)
        kniffel = setup.locator("a.row-link", has_text="Kniffel").last.get_attribute("href")
        setup.goto(base + tonight + "plays/new/")
        setup.get_by_text("Die Maus im Nacken").click()
        for name in ("Lena", "Max", "Oma Gisela"):
            setup.get_by_role("button", name=name).click()
            setup.wait_for_timeout(200)
        setup.get_by_role("button", name="Start the game").click()
        setup.wait_for_url(re.compile(r"/plays/\d+/$"))
        race = setup.url.removeprefix(base)
        cards = setup.locator(".player-card")
        cards.nth(0).locator(".elephant").nth(0).get_by_role("button", name="Home").click()
        setup.wait_for_timeout(300)
        cards.nth(1).locator(".elephant").nth(0).get_by_role("button", name="Seat").click()
        setup.wait_for_timeout(300)
        board = setup.goto(base + tonight) and setup.locator(".share-url").get_attribute("href")
        setup.goto(base + "/household/")
        if not setup.locator(".invitation-url").count():
            setup.get_by_role("button", name="Invite someone").click()
        invitation = setup.locator(".invitation-url").first.input_value().removeprefix(base)
        setup.goto(base + "/history/")
        player = setup.locator(".chips a", has_text="Julia").get_attribute("href")
        review = setup.locator(".chips a").last.inner_text().strip()

        screens = {
            "home": ("/", None),
            "night-new": ("/nights/new/", None),
            "night": (tonight, None),
            "new-game": (tonight + "plays/new/", "new-game"),
            "maus-entry": (race, None),
            "kniffel-sheet": (kniffel, None),
            "kniffel-dice": (kniffel, "dice"),
            "scoreboard": (board, None),
            "household": ("/household/", None),
            "invitation": (invitation, "logged-out"),
            "history": ("/history/", None),
            "player": (player, None),
            "game": ("/games/maus_im_nacken/", None),
            "review": (f"/review/{review}/", None),
        }
        for width, height in SIZES:
            context = browser.new_context(viewport={"width": width, "height": height},
                                          locale="en-GB")
            page = context.new_page()
            log_in(page, base)
            for name, (path, action) in screens.items():
                if action == "logged-out":
                    visitor = browser.new_context(viewport={"width": width, "height": height},
                                                  locale="en-GB").new_page()
                    visitor.goto(base + path)
                    visitor.wait_for_timeout(300)
                    visitor.screenshot(path=HERE / f"{name}-{width}x{height}.png")
                    visitor.context.close()
                    continue
                page.goto(base + path)
                if action == "new-game":
                    page.get_by_text("Kniffel", exact=True).first.click()
                    page.wait_for_timeout(300)
                if action == "dice":
                    page.locator("a.cell:not(.filled)").last.click()
                    for face in ("5", "5", "2", "2", "2"):
                        page.locator(f".die-pad[aria-label='{face}']").click()
                        page.wait_for_timeout(150)
                page.wait_for_timeout(300)
                page.screenshot(path=HERE / f"{name}-{width}x{height}.png")
            context.close()
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
