"""The language menu: every language in its own name, big enough to tap, and a top bar that
still fits a tablet held upright in the longest of them."""

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from tests.browser.conftest import log_in
from tests.factories import PlayerFactory
from tracker.table.recording import start_play

pytestmark = pytest.mark.browser

OWN_NAMES = {"de": "Deutsch", "en": "English", "fr": "Français", "it": "Italiano",
             "nl": "Nederlands"}

#: Controls of the top bar that reach past the right edge of the window.
CUT_OFF = """() => [...document.querySelectorAll('.topbar a, .topbar button, .topbar summary')]
  .filter(control => control.checkVisibility())
  .filter(control => control.getBoundingClientRect().right > window.innerWidth + 0.5)
  .map(control => control.innerText.trim())"""


@pytest.fixture
def staff_page(page: Page, live_server, table) -> Page:
    """The site's owner: the top bar carries the admin link as well."""
    table["host"].is_staff = True
    table["host"].save()
    page.set_viewport_size({"width": 768, "height": 1024})
    log_in(page, live_server)
    return page


def test_the_menu_offers_every_language_in_its_own_name(staff_page: Page):
    menu = staff_page.locator("details.language")
    menu.locator("summary").click()
    buttons = menu.get_by_role("button")
    assert buttons.all_inner_texts() == [OWN_NAMES[code] for code, _name in settings.LANGUAGES]
    for button in buttons.all():
        box = button.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
    menu.get_by_role("button", name="Français").click()
    expect(staff_page.locator("html")).to_have_attribute("lang", "fr")
    expect(staff_page.locator(".topnav")).to_contain_text("Historique")
    expect(staff_page.locator("details.language summary")).to_have_text("Langue: FR")


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_top_bar_fits_an_upright_tablet(staff_page: Page, live_server, language):
    staff_page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language,
                                     "url": live_server.url}])
    staff_page.goto(live_server.url + "/")
    expect(staff_page.locator("html")).to_have_attribute("lang", language)
    assert staff_page.evaluate(CUT_OFF) == []
    assert staff_page.evaluate("document.documentElement.scrollWidth") <= 768


#: Words wider than the button that holds them: the browser would break them inside.
BROKEN_WORDS = """() => {
  const broken = [];
  for (const button of document.querySelectorAll('.choice')) {
    const style = getComputedStyle(button);
    const room = button.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight);
    for (const word of button.innerText.split(/\\s+/).filter(Boolean)) {
      const probe = document.createElement('span');
      probe.textContent = word;
      button.append(probe);
      probe.style.cssText = 'position:absolute;white-space:nowrap;visibility:hidden';
      if (probe.getBoundingClientRect().width > room + 0.5) broken.push(word);
      probe.remove();
    }
  }
  return [...new Set(broken)];
}"""


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_elephant_buttons_keep_their_words_whole_on_an_upright_tablet(
        staff_page: Page, live_server, table, language):
    anna, ben = table["players"]
    race = start_play(household=table["household"], game="maus_im_nacken", players=[anna, ben],
                      game_night=table["night"], user=table["host"])
    staff_page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language,
                                     "url": live_server.url}])
    staff_page.goto(live_server.url + race.get_absolute_url())
    assert staff_page.locator(".choice").count() == 2 * 4 * 4  # players, elephants, places
    assert staff_page.evaluate(BROKEN_WORDS) == []


@pytest.mark.parametrize("game", ["kniffel", "weltraum_kniffel"])
@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_a_three_player_sheet_needs_no_scrolling_on_a_tablet_held_sideways(
        page: Page, live_server, table, language, game):
    anna, ben = table["players"]
    carla = PlayerFactory(household=table["household"], name="Carla")
    sheet = start_play(household=table["household"], game=game, players=[anna, ben, carla],
                       game_night=table["night"], user=table["host"])
    page.set_viewport_size({"width": 1024, "height": 768})
    log_in(page, live_server)
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language,
                               "url": live_server.url}])
    page.goto(live_server.url + sheet.get_absolute_url())
    scroll = page.locator(".sheet-scroll")
    assert scroll.evaluate("box => box.scrollWidth <= box.clientWidth"), language
