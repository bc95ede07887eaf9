"""A fewest-points own game on the score pad, round by round to its end, on a tablet."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import cell_named
from tests.factories import OwnGameFactory
from tracker.table.models import Play
from tracker.table.recording import start_play

pytestmark = pytest.mark.browser

TOUCH = 44


def type_points(page: Page, points: int) -> None:
    pad = page.locator("#pad-editor")
    for key in str(abs(points)):
        pad.locator(f".numpad button[value='{key}']").click()
    if points < 0:
        pad.get_by_role("button", name="Minus").click()
    expect(pad.locator("input[name=points]")).to_have_value(str(points))
    pad.get_by_role("button", name="Save", exact=True).click()


@pytest.mark.parametrize("width,height", [(768, 1024), (1024, 768)])
def test_a_skyjo_game_round_by_round_to_its_target(host_page: Page, live_server, table,
                                                   width, height):
    host_page.set_viewport_size({"width": width, "height": height})
    skyjo = OwnGameFactory(household=table["household"], name="Skyjo",
                           scoring="fewest_points", end="target", end_at=100)
    play = start_play(household=table["household"], game="generic", own_game=skyjo,
                      players=table["players"], game_night=table["night"], user=table["host"])
    host_page.goto(live_server.url + play.get_absolute_url())
    pad = host_page.locator("#pad-editor")
    expect(pad.locator("h2")).to_have_text("Anna · Round 1")
    for key in pad.locator(".numpad button").all() + [pad.get_by_role("button", name="Save",
                                                                        exact=True)]:
        box = key.bounding_box()
        assert box["width"] >= TOUCH and box["height"] >= TOUCH

    rounds = [(30, 12), (-5, 40), (45, 20), (40, 10)]
    totals = [0, 0]
    for number, (anna, ben) in enumerate(rounds, start=1):
        type_points(host_page, anna)
        expect(pad.locator("h2")).to_have_text(f"Ben · Round {number}")
        type_points(host_page, ben)
        totals = [totals[0] + anna, totals[1] + ben]
        expect(host_page.locator("#total-0")).to_contain_text(str(totals[0]))
        expect(host_page.locator("#total-1")).to_contain_text(str(totals[1]))
        if number < len(rounds):
            expect(pad.locator("h2")).to_have_text(f"Anna · Round {number + 1}")
    # Ben leads with the fewest; Anna passed 100.
    expect(host_page.locator("#pad-standing")).to_contain_text("Ben leads with 82")
    expect(host_page.locator("#total-1.leader")).to_be_visible()
    expect(pad.locator(".end-question")).to_contain_text("Anna reached 110. Finish the game?")
    assert host_page.evaluate("document.documentElement.scrollWidth") <= width

    # A reload loses nothing, and a cell of an earlier round is corrected in place.
    host_page.reload()
    cell_named(host_page, "Ben", "round 2").click()
    expect(pad.locator("h2")).to_have_text("Ben · Round 2")
    pad.get_by_role("button", name="Take back the last digit").click()
    pad.get_by_role("button", name="Take back the last digit").click()
    type_points(host_page, 35)
    expect(host_page.locator("#total-1")).to_contain_text("77")
    expect(host_page.locator("#pad-history-list li").first).to_contain_text(
        "Round 2 · Ben: 40 → 35")

    pad.get_by_role("button", name="Finish the game").click()
    expect(host_page.locator(".celebrate")).to_contain_text("Ben")
    expect(host_page.locator(".status")).to_have_text("Finished")
    play.refresh_from_db()
    assert play.status == Play.Status.FINISHED
    assert {p.player.name: p.place for p in play.participants.all()} == {"Anna": 2, "Ben": 1}
