"""The history page: everything newest first, filters, pages, bad input, other households."""

import datetime

import pytest

from tests.factories import GameNightFactory, PlayerFactory
from tests.tracker.looking_back.stats_fixtures import build_history, finish_generic, uno_key
from tracker.evenings.models import GameNight
from tracker.looking_back.stats import history_entries
from tracker.table.models import Play


@pytest.fixture
def history(household, family):
    return build_history(household, family)


def shown(response) -> list[tuple[str, int]]:
    return [(entry["kind"], entry["object"].pk) for entry in response.context["entries"]]


def test_everything_newest_first_each_linking_to_its_page(host_client, history):
    response = host_client.get("/history/")
    assert response.status_code == 200
    nights, (p1, p2, p3, p4), (r1, r2) = history["nights"], history["plays"], history["races"]
    entries = shown(response)
    assert entries[0] == ("series", history["series"].pk)
    assert entries[1:] == [("night", nights[1].pk), ("play", p4.pk), ("play", r2.pk),
                           ("play", r1.pk), ("night", nights[0].pk), ("play", p3.pk),
                           ("play", p2.pk), ("play", p1.pk)]
    html = response.content.decode()
    for url in (nights[0].get_absolute_url(), p1.get_absolute_url(),
                history["series"].get_absolute_url()):
        assert f'href="{url}"' in html


@pytest.mark.parametrize("query,expected", [
    ("game=maus_im_nacken", {"series", "night", "play:r1", "play:r2"}),
    ("series={series}", {"series", "night", "play:r1", "play:r2"}),
    ("player={ben}", {"night", "play:p1", "play:p2", "play:p3", "play:p4"}),
    ("player={ben}&game={uno}&until=2024-03-01", {"night", "play:p1", "play:p2", "play:p3"}),
    ("since=2024-03-02&until=2024-03-08", {"night", "play:r1", "play:r2", "play:p4"}),
])
def test_filters_narrow_the_list(host_client, household, history, family, query, expected):
    names = {"r1": history["races"][0], "r2": history["races"][1],
             **{f"p{n}": play for n, play in enumerate(history["plays"], start=1)}}
    query = query.format(series=history["series"].pk, ben=family[1].pk,
                         uno=uno_key(household))
    labels = set()
    for kind, pk in shown(host_client.get(f"/history/?{query}")):
        found = [name for name, play in names.items() if kind == "play" and play.pk == pk]
        labels.add(f"play:{found[0]}" if found else kind)
    assert labels == expected


def test_series_created_this_year_is_left_out_of_a_past_date_range(host_client, history):
    kinds = [kind for kind, _ in shown(host_client.get("/history/?until=2024-12-31"))]
    assert "series" not in kinds


def test_an_htmx_request_gets_only_the_entries(host_client, household, history):
    response = host_client.get(f"/history/?game={uno_key(household)}",
                               headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="card" id="entries">')
    assert "<h1>" not in html
    assert response["Vary"] == "HX-Request" or "HX-Request" in response["Vary"]


@pytest.mark.parametrize("query", ["game=chess", "player=999999", "player=abc", "series=x",
                                   "since=2024-13-01", "since=2024-03-09&until=2024-03-01"])
def test_a_bad_filter_is_a_400_with_the_reason(host_client, history, query):
    response = host_client.get(f"/history/?{query}")
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()


def test_another_households_player_is_refused(host_client, history, stranger):
    foreign = PlayerFactory(household=stranger.households.get(), name="Fremd")
    assert host_client.get(f"/history/?player={foreign.pk}").status_code == 400


@pytest.mark.parametrize("page", ["0", "99", "x"])
def test_a_page_that_does_not_exist_is_a_404(host_client, history, page):
    assert host_client.get(f"/history/?page={page}").status_code == 404


def test_pages_of_25_keep_the_filters(host_client, household, family):
    night = GameNightFactory(household=household, date=datetime.date(2024, 5, 1))
    for _ in range(30):
        finish_generic(household, night, [(family[0], 3), (family[1], 2)])
    uno = uno_key(household)
    first = host_client.get(f"/history/?game={uno}")
    assert len(first.context["entries"]) == 25
    assert f'href="?game={uno}&amp;page=2"' in first.content.decode()
    second = host_client.get(f"/history/?game={uno}&page=2")
    assert len(second.context["entries"]) == 6


def test_a_stranger_sees_nothing_of_another_household(client, stranger, history):
    client.force_login(stranger)
    response = client.get("/history/")
    assert response.status_code == 200
    assert response.context["entries"] == []
    assert "Anna" not in response.content.decode()


def test_logged_out_visitors_are_sent_to_log_in(client, history):
    assert client.get("/history/").status_code == 302


def test_the_number_of_queries_does_not_grow_with_the_history(
        host_client, household, family, django_assert_max_num_queries):
    build_history(household, family)
    with django_assert_max_num_queries(20) as few:
        host_client.get("/history/")
    night = GameNightFactory(household=household)
    for _ in range(30):
        finish_generic(household, night, [(family[0], 3), (family[1], 2), (family[2], 1)])
    with django_assert_max_num_queries(len(few.captured_queries)):
        host_client.get("/history/")


def test_entries_union_counts_all_four_kinds(history, household):
    assert history_entries(household).count() == 2 + 6 + 1


def test_the_filters_chosen_stay_chosen_and_every_series_can_be_picked(host_client, history,
                                                                     family):
    series = history["series"]
    html = host_client.get(f"/history/?series={series.pk}&player={family[1].pk}"
                           "&since=2024-03-02").content.decode()
    assert f'<option value="{series.pk}" selected>Elefantenrennen</option>' in html
    assert f'<option value="{family[1].pk}" selected>Ben</option>' in html
    assert '<option value="" selected>All games</option>' in html
    assert 'name="since" id="id_since" value="2024-03-02"' in html


def test_a_date_that_is_no_date_is_shown_again_with_its_error(host_client, history):
    response = host_client.get("/history/?since=soon")
    assert response.status_code == 400
    html = response.content.decode()
    assert 'value="soon" aria-invalid="true"' in html
    assert "Enter a valid date." in html


@pytest.mark.parametrize("place,expected", [
    ("Bei Oma in Kassel", {"night:1", "play:p4", "play:r1", "play:r2", "series"}),
    ("+home", {"night:0", "play:p1", "play:p2", "play:p3"}),
])
def test_the_place_filter_keeps_the_nights_there_and_what_was_played_there(
        host_client, history, place, expected):
    first, second = history["nights"]
    GameNight.objects.filter(pk=second.pk).update(place="Bei Oma in Kassel")
    names = {f"night:{n}": ("night", night.pk) for n, night in enumerate(history["nights"])}
    names |= {f"play:p{n}": ("play", play.pk) for n, play in enumerate(history["plays"], 1)}
    names |= {f"play:r{n}": ("play", race.pk) for n, race in enumerate(history["races"], 1)}
    names["series"] = ("series", history["series"].pk)
    response = host_client.get(f"/history/?place={place}")
    assert set(shown(response)) == {names[name] for name in expected}
    page = response.content.decode()
    assert '<option value="Bei Oma in Kassel"' in page and "All places" in page


def test_an_unknown_place_is_a_400_with_the_reason(host_client, history):
    response = host_client.get("/history/?place=Nowhere")
    assert response.status_code == 400 and "not one of the available choices" in (
        response.content.decode())


def test_the_history_shows_a_plays_note_and_length_and_a_nights_place(host_client, history):
    p4, night = history["plays"][3], history["nights"][1]
    Play.objects.filter(pk=p4.pk).update(note="Oma's first win", length_minutes=35)
    GameNight.objects.filter(pk=night.pk).update(place="Ferienhaus Sylt")
    page = host_client.get("/history/").content.decode()
    assert "“Oma&#x27;s first win”" in page and " · 35 min" in page
    assert "📍 Ferienhaus Sylt" in page
