import html
import json
import re

import pytest
from django.urls import reverse

import games
from tests.factories import OwnGameFactory, PlayerFactory
from tracker.table.entry import ENTRIES, MausEntry
from tracker.table.models import Play, PlayChange
from tracker.table.recording import record_result, start_play

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def race(household, night, family):
    return start_play(household=household, game="maus_im_nacken", players=family[:2],
                      game_night=night)


def entry(client, play, draft, **data):
    return client.post(reverse("play_entry", args=[play.pk]),
                       {"draft": json.dumps(draft), "version": play.version, **data}, **HTMX)


def test_every_game_but_kniffel_has_an_entry_form(host_client, household, night, family):
    assert set(ENTRIES) | {"kniffel", "weltraum_kniffel"} == set(games.GAMES)
    for key in ENTRIES:
        own_game = OwnGameFactory(household=household) if key == "generic" else None
        play = start_play(household=household, game=key, players=family[:2], game_night=night,
                          own_game=own_game)
        # An own game with points opens on its score pad; its final scores are a tap away.
        final = "?final=1" if own_game else ""
        page = host_client.get(play.get_absolute_url() + final).content.decode()
        assert 'name="draft"' in page and "Save result" in page, key


def test_a_tap_answers_with_the_form_and_live_points(host_client, race, family):
    draft = {"elephants": {family[0].key: ["", "", "", ""], family[1].key: ["home:1", "", "",
                                                                            ""]}}
    response = entry(host_client, race, draft, tap=f"home:{family[0].key}:2")
    page = response.content.decode()
    assert response.status_code == 200 and "<html" not in page
    assert "home 2." in page and "12 points" in page and "13 points" in page
    assert "HX-Request" in response["Vary"]


def test_saving_records_the_result_and_shows_the_winner(host_client, race, family):
    draft = {"elephants": {family[0].key: ["home:1", "seat:8", "caught", "caught"],
                           family[1].key: ["home:2", "caught", "caught", "pyramid"]}}
    response = entry(host_client, race, draft, save="1")
    page = response.content.decode()
    assert response.status_code == 200
    assert "Anna" in page and "wins!" in page
    race.refresh_from_db()
    assert race.status == Play.Status.FINISHED


def test_saving_without_javascript_redirects(client, host, race, family):
    client.force_login(host)
    draft = {"elephants": {family[0].key: ["home:1", "caught", "caught", "caught"],
                           family[1].key: ["caught"] * 4}}
    response = client.post(reverse("play_entry", args=[race.pk]),
                           {"draft": json.dumps(draft), "version": 1, "save": "1"})
    assert response.status_code == 302 and response["Location"] == race.get_absolute_url()
    page = client.get(race.get_absolute_url()).content.decode()
    assert "wins!" in page
    assert '<td class="num strong">0</td>' in page  # Ben's 0 points are a score, not a blank


def test_an_impossible_result_is_explained_next_to_the_player_and_kept(host_client, race,
                                                                        family):
    draft = {"elephants": {family[0].key: ["home:1", "seat:8", "caught", ""],
                           family[1].key: ["caught"] * 4}}
    response = entry(host_client, race, draft, save="1")
    page = response.content.decode()
    assert response.status_code == 422
    assert "Anna: elephant 4 must be home, on a seat, caught or on the pyramid." in page
    assert page.count("elephant flagged") == 1
    assert "home 1." in page and "seat 8" in page
    race.refresh_from_db()
    assert race.result == {} and race.status == Play.Status.IN_PROGRESS


@pytest.mark.parametrize("draft", ["{not json", "[]", '"text"'])
def test_a_damaged_form_is_reset_with_a_message(host_client, race, draft):
    response = host_client.post(reverse("play_entry", args=[race.pk]),
                                {"draft": draft, "version": 1, "save": "1"}, **HTMX)
    assert response.status_code == 400
    assert "The form was damaged" in response.content.decode()
    race.refresh_from_db()
    assert race.result == {}


def test_a_result_saved_on_another_tablet_meanwhile_is_a_conflict(host_client, race, family):
    first = {"elephants": {family[0].key: ["home:1", "caught", "caught", "caught"],
                           family[1].key: ["caught"] * 4}}
    record_result(race, first, expected_version=1)
    second = {"elephants": {family[0].key: ["caught"] * 4,
                            family[1].key: ["home:1", "caught", "caught", "caught"]}}
    response = host_client.post(reverse("play_entry", args=[race.pk]), {
        "draft": json.dumps(second), "version": 1, "save": "1"}, **HTMX)
    assert response.status_code == 409
    assert "changed on another tablet" in response.content.decode()
    race.refresh_from_db()
    assert race.result == first


@pytest.mark.parametrize("version", ["", "x"])
def test_a_missing_version_is_refused(host_client, race, family, version):
    draft = {"elephants": {family[0].key: ["home:1", "caught", "caught", "caught"],
                           family[1].key: ["caught"] * 4}}
    response = host_client.post(reverse("play_entry", args=[race.pk]), {
        "draft": json.dumps(draft), "version": version, "save": "1"}, **HTMX)
    assert response.status_code == 409
    assert Play.objects.get().result == {}


def test_correcting_a_result_is_kept_in_the_history(host_client, race, family, host):
    record_result(race, {"elephants": {family[0].key: ["home:1", "caught", "caught", "caught"],
                                       family[1].key: ["caught"] * 4}}, expected_version=1)
    race.refresh_from_db()
    form = host_client.get(reverse("play_edit", args=[race.pk]), **HTMX).content.decode()
    assert "home 1." in form and "Save result" in form
    corrected = {"elephants": {family[0].key: ["home:2", "caught", "caught", "caught"],
                               family[1].key: ["home:1", "caught", "caught", "caught"]}}
    assert entry(host_client, race, corrected, save="1").status_code == 200
    actions = list(race.changes.order_by("changed_at", "id").values_list("action", flat=True))
    assert actions == [PlayChange.Action.STARTED, PlayChange.Action.RESULT,
                       PlayChange.Action.EDITED]
    page = host_client.get(race.get_absolute_url()).content.decode()
    assert "Result corrected" in page and "History" in page


def test_abandon_a_play(host_client, race):
    response = host_client.post(reverse("play_abandon", args=[race.pk]), {"version": 1})
    assert response.status_code == 302
    race.refresh_from_db()
    assert race.status == Play.Status.ABANDONED
    assert "counts in no standings" in host_client.get(race.get_absolute_url()).content.decode()


def test_other_households_plays_do_not_exist(client, stranger, race):
    client.force_login(stranger)
    for name in ("play_detail", "play_edit"):
        assert client.get(reverse(name, args=[race.pk])).status_code == 404
    assert client.post(reverse("play_entry", args=[race.pk]), {"save": "1"}).status_code == 404
    assert client.post(reverse("play_abandon", args=[race.pk])).status_code == 404
    race.refresh_from_db()
    assert race.status == Play.Status.IN_PROGRESS


def test_unknown_play_is_a_404_page(host_client):
    response = host_client.get(reverse("play_detail", args=[999]))
    assert response.status_code == 404


@pytest.mark.parametrize("game,draft,data,places", [
    ("mensch_aergere_dich_nicht", {"order": ["{b}"]}, {}, ("2", "1")),
    ("souriciere", {"order": ["{a}", "{b}"]}, {}, ("1", "2")),
    ("entenspiel", {}, {"winner": "{b}", "square_{a}": "40"}, ("2", "1")),
    ("mau_mau", {}, {"winner": "{a}"}, ("1", "2")),
    ("generic", {"scores": {}}, {"score_0": "12", "score_1": "15"}, ("2", "1")),
    ("alles_fuer_die_katz", {"mice": {"{a}": {"home": 2, "trapped": 2},
                                      "{b}": {"home": 1, "trapped": 3}},
                             "first_home": ["{b}", "{a}"]}, {}, ("1", "2")),
    ("mouse_trap", {"captures": [{"mice": ["{a}"], "by": "{b}"}]}, {"cheese_{b}": "20"},
     ("2", "1")),
])
def test_every_entry_form_saves_its_game(host_client, household, night, family, game, draft,
                                         data, places):
    a, b = family[0].key, family[1].key

    def fill(value):
        text = json.dumps(value).replace("{a}", a).replace("{b}", b)
        return json.loads(text)

    play = start_play(household=household, game=game, players=family[:2], game_night=night,
                      own_game=OwnGameFactory(household=household) if game == "generic" else None)
    data = {k.replace("{a}", a).replace("{b}", b): v.replace("{a}", a).replace("{b}", b)
            for k, v in data.items()}
    response = entry(host_client, play, fill(draft), save="1", **data)
    assert response.status_code == 200, response.content.decode()[:2000]
    play.refresh_from_db()
    stored = {p.player.key: str(p.place) for p in play.participants.all()}
    assert (stored[a], stored[b]) == places


def test_order_and_penalty_taps(host_client, household, night, family):
    play = start_play(household=household, game="mau_mau", players=family[:2], game_night=night,
                      house_rules={"scoring": "penalty_points"})
    page = host_client.get(play.get_absolute_url()).content.decode()
    assert f'name="hand_0_{family[0].key}"' in page
    response = entry(host_client, play, {"hands": [{family[0].key: 0, family[1].key: 5}]},
                     tap="addhand", **{f"hand_0_{family[0].key}": "0",
                                       f"hand_0_{family[1].key}": "5"})
    assert f'name="hand_1_{family[0].key}"' in response.content.decode()


def test_maus_clearing_a_home_moves_later_arrivals_up():
    maus = MausEntry()
    draft = {"elephants": {"a": ["home:1", "home:3", "", ""], "b": ["home:2", "", "", ""]}}
    maus.tap(draft, "caught:a:0", ["a", "b"])
    assert draft["elephants"] == {"a": ["caught", "home:2", "", ""], "b": ["home:1", "", "", ""]}
    maus.tap(draft, "home:b:3", ["a", "b"])
    assert draft["elephants"]["b"][3] == "home:3"
    maus.tap(draft, "seat:b:1", ["a", "b"])
    assert maus.preview(draft, ["a", "b"])["herds"]["b"][1]["choosing"]
    maus.tap(draft, "seatvalue:b:1:7", ["a", "b"])
    assert draft["elephants"]["b"][1] == "seat:7" and "_choosing" not in draft
    for nonsense in ("home:zoe:1", "home:a:9", "fly:a:1", "home", ""):
        maus.tap(draft, nonsense, ["a", "b"])
    assert draft["elephants"]["a"] == ["caught", "home:2", "", ""]


def tap_through(client, play, taps, draft=None):
    """Post each tap in turn with the draft the form sent back, as a tablet would."""
    draft = draft if draft is not None else ENTRIES[play.game].blank(
        [p.player_key for p in play.participants.all()], play.house_rules)
    for tap in taps:
        page = entry(client, play, draft, tap=tap).content.decode()
        draft = json.loads(html.unescape(re.search(r'name="draft" value="([^"]*)"', page)[1]))
    return draft, page


def test_katz_first_mice_home_are_tapped_in_order_and_decide_a_tie(host_client, household,
                                                                    night, family):
    anna, ben, carl = (p.key for p in family[:3])
    play = start_play(household=household, game="alles_fuer_die_katz", players=family[:3],
                      game_night=night)
    draft, page = tap_through(host_client, play, [
        f"more:{anna}", f"more:{anna}", f"more:{ben}", f"more:{ben}", f"more:{carl}",
        f"first:{carl}", f"first:{ben}", f"first:{anna}"])
    assert draft["first_home"] == [carl, ben, anna]
    assert f'value="first:{ben}" class="tile order-tap first-home chosen"' in page
    draft, _ = tap_through(host_client, play, [f"first:{carl}", f"fewer:{carl}"], draft)
    assert draft["first_home"] == [ben, anna]
    draft, _ = tap_through(host_client, play, [f"more:{carl}"], draft)
    missing = entry(host_client, play, draft, save="1")
    assert missing.status_code == 422
    assert "got a mouse home: tap when their first one got there." in missing.content.decode()
    draft, _ = tap_through(host_client, play, [f"first:{carl}"], draft)
    saved = entry(host_client, play, draft, save="1")
    assert saved.status_code == 200
    places = {p.player.key: p.place for p in play.participants.all()}
    # Ben and Anna both have two mice home; Ben's first one got there before Anna's.
    assert places == {ben: 1, anna: 2, carl: 3}


def test_mouse_trap_a_capture_takes_several_mice_by_taps(host_client, household, night,
                                                         family):
    anna, ben, carl, dora = (p.key for p in family[:4])
    play = start_play(household=household, game="mouse_trap", players=family[:4],
                      game_night=night)
    draft, page = tap_through(host_client, play, [f"pick:{carl}", f"pick:{dora}"])
    assert f'value="capture:{anna}"' in page and f'value="capture:{carl}"' not in page
    draft, page = tap_through(host_client, play, [f"capture:{anna}"], draft)
    assert draft["captures"] == [{"mice": [carl, dora], "by": anna}]
    assert f'value="pick:{carl}"' not in page
    draft, _ = tap_through(host_client, play, [f"pick:{ben}", f"pick:{ben}", f"pick:{anna}",
                                               f"capture:{ben}"], draft)
    assert draft["captures"][-1] == {"mice": [anna], "by": ben}
    assert entry(host_client, play, draft, save="1").status_code == 200
    play.refresh_from_db()
    assert play.status == Play.Status.FINISHED
    places = {p.player.key: p.place for p in play.participants.all()}
    assert places == {ben: 1, anna: 2, carl: 3, dora: 3}


def test_mouse_trap_saved_without_a_capture_says_what_is_missing_and_keeps_the_cheese(
        host_client, household, night, family):
    anna, ben = (p.key for p in family[:2])
    play = start_play(household=household, game="mouse_trap", players=family[:2],
                      game_night=night)
    response = entry(host_client, play, {"captures": [], "cheese": {}}, save="1",
                     **{f"cheese_{anna}": "17"})
    assert response.status_code == 422
    page = response.content.decode()
    assert "Enter the captures: tap the mice the trap caught and who turned the crank." in page
    assert f'name="cheese_{anna}" min="0" max="52" inputmode="numeric" value="17"' in page
    play.refresh_from_db()
    assert play.result == {} and play.status == Play.Status.IN_PROGRESS


def own_play(household, night, players, **definition):
    own_game = OwnGameFactory(household=household, name="Ours", **definition)
    return start_play(household=household, game="generic", own_game=own_game, players=players,
                      game_night=night)


def test_a_team_game_s_teams_are_formed_by_taps_and_score_as_teams(host_client, household,
                                                                  night, family):
    anna, ben, carla, dora = (p.key for p in family[:4])
    play = own_play(household, night, family[:4], teams=True)
    page = host_client.get(play.get_absolute_url()).content.decode()
    assert "Each team's final score" in page and "Team 1" in page and "Team 2" in page
    draft, page = tap_through(host_client, play, [f"team:{ben}", f"team:{carla}"])
    assert draft["teams"] == {"Team 1": [anna, ben], "Team 2": [carla, dora]}
    saved = entry(host_client, play, draft, save="1", score_0="80", score_1="120")
    assert saved.status_code == 200
    places = {p.player.key: p.place for p in play.participants.all()}
    assert places == {carla: 1, dora: 1, anna: 2, ben: 2}
    assert play.participants.get(player=family[0]).details["team"] == "Team 1"


@pytest.mark.parametrize("won,place,said", [("yes", 1, "We won"), ("no", 2, "We lost")])
def test_a_cooperative_game_is_won_or_lost_by_the_whole_table(host_client, household, night,
                                                            family, won, place, said):
    play = own_play(household, night, family[:3], scoring="cooperative")
    page = host_client.get(play.get_absolute_url()).content.decode()
    assert said in page and "Score (optional)" in page
    assert entry(host_client, play, {}, save="1", won=won, score="23").status_code == 200
    assert {p.place for p in play.participants.all()} == {place}
    assert {p.points for p in play.participants.all()} == {23}


def test_a_cooperative_game_saved_without_an_answer_says_what_is_missing(
        host_client, household, night, family):
    play = own_play(household, night, family[:3], scoring="cooperative")
    response = entry(host_client, play, {}, save="1", score="23")
    assert response.status_code == 422
    page = response.content.decode()
    assert "Say whether the table won or lost." in page and 'value="23"' in page


def test_a_game_without_points_is_entered_by_finishing_order(host_client, household, night,
                                                            family):
    anna, ben, carla = (p.key for p in family[:3])
    play = own_play(household, night, family[:3], scoring="places")
    draft, _ = tap_through(host_client, play, [f"order:{carla}", f"order:{anna}"])
    assert entry(host_client, play, draft, save="1").status_code == 200
    places = {p.player.key: p.place for p in play.participants.all()}
    assert places == {carla: 1, anna: 2, ben: 3}
    page = host_client.get(play.get_absolute_url()).content.decode()
    assert "Ours" in page


def test_a_team_game_s_teams_go_on_to_the_score_pad(host_client, household, night, family):
    anna, ben, carla, dora = (p.key for p in family[:4])
    play = own_play(household, night, family[:4], teams=True)
    draft, page = tap_through(host_client, play, [f"team:{ben}", f"team:{carla}"])
    assert "Keep the score round by round, on the score pad" in page
    response = entry(host_client, play, draft, save="rounds")
    assert response["HX-Redirect"] == play.get_absolute_url()
    play.refresh_from_db()
    assert play.result == {"teams": {"Team 1": [anna, ben], "Team 2": [carla, dora]},
                           "rounds": []}
    assert play.status == Play.Status.IN_PROGRESS
    pad = host_client.get(play.get_absolute_url()).content.decode()
    assert 'id="pad"' in pad and "Team 1" in pad and "Team 2" in pad


def test_a_teams_players_are_listed_with_commas(host_client, household, night, family):
    mama, papa = (PlayerFactory(household=household, name=name)
                  for name in ("Mama Katrin", "Papa Jörg"))
    play = own_play(household, night, [mama, papa, *family[:2]], teams=True)
    draft, page = tap_through(host_client, play, [f"team:{papa.key}", f"team:{family[0].key}"])
    assert draft["teams"]["Team 1"] == [mama.key, papa.key]
    assert "(Mama Katrin, Papa Jörg)" in page and "(Anna, Ben)" in page


def test_teams_tapped_in_finishing_order_show_their_players(host_client, household, night,
                                                           family):
    play = own_play(household, night, family[:4], teams=True, scoring="places")
    page = host_client.get(play.get_absolute_url()).content.decode()
    assert "(Anna, Carla)" in page and "(Ben, David)" in page


def test_a_tap_from_a_form_older_than_the_saved_result_keeps_no_draft(host_client, household,
                                                                      night, family):
    """Tablet B still shows the race form when A saves the result: B's tap is refused and
    leaves no draft; the correction form (of the result as saved) keeps its taps."""
    race = start_play(household=household, game="maus_im_nacken", players=family[:2],
                      game_night=night)
    stale = race.version
    a, b = family[0].key, family[1].key
    record_result(race, {"elephants": {a: ["home:1", "caught", "caught", "caught"],
                                       b: ["caught"] * 4}}, expected_version=stale)
    url = reverse("play_entry", args=[race.pk])
    blank = ENTRIES[race.game].blank([a, b], race.house_rules)
    response = host_client.post(url, {"draft": json.dumps(blank), "version": stale,
                                      "tap": f"caught:{b}:0"}, **HTMX)
    assert response.status_code == 422
    assert "finished on another tablet in the meantime" in response.content.decode()
    race.refresh_from_db()
    assert race.draft == {} and race.draft_revision == 0
    correcting = host_client.post(url, {"draft": json.dumps(blank), "version": race.version,
                                        "tap": f"caught:{b}:0"}, **HTMX)
    assert correcting.status_code == 200
    race.refresh_from_db()
    assert race.draft_revision == 1


def finished(race, family):
    record_result(race, {"elephants": {family[0].key: ["home:1", "caught", "caught", "caught"],
                                       family[1].key: ["caught"] * 4}},
                  expected_version=race.version)


def test_a_result_says_where_it_was_played_and_abandoning_is_said_as_such(host_client, race,
                                                                          family, night):
    """The evening's place shows on the play's result too; the button that abandons the
    game says so ("Abbrechen" alone read like a number pad's cancel)."""
    night.place = "Bei Oma"
    night.save()
    page = host_client.get(race.get_absolute_url()).content.decode()
    assert "Abandon the game" in page and ">Abandon<" not in page
    finished(race, family)

    page = host_client.get(race.get_absolute_url()).content.decode()

    assert "Played at Bei Oma" in page


def test_the_story_and_place_pages_have_a_main_heading_and_no_hidden_refresh_is_read(
        host_client, race, family, night):
    pages = [host_client.get(race.get_absolute_url()).content.decode()]
    finished(race, family)
    for address in (reverse("play_story", args=[race.pk]),
                    reverse("night_place", args=[night.pk])):
        page = host_client.get(address).content.decode()
        assert re.search(r"<h1[ >]", page), address
    pages.append(host_client.get(reverse("play_edit", args=[race.pk])).content.decode())
    refreshes = [button for page in pages
                 for button in re.findall(r'<button[^>]*name="tap" value=""[^>]*>', page)]
    assert refreshes and all('aria-hidden="true"' in button for button in refreshes)
