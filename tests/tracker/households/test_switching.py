"""A user of several households: choosing the one shown, founding, leaving, deleting."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.factories import GameNightFactory, HouseholdFactory, PlayerFactory, UserFactory
from tracker.evenings.models import GameNight
from tracker.households import membership
from tracker.households.access import HOUSEHOLD_COOKIE
from tracker.households.models import Household, ImportJob, Player
from tracker.table.models import KniffelCell, Play
from tracker.table.recording import start_play, write_cell


@pytest.fixture
def grandparents(host):
    """A second household of the host's, joined after the first one."""
    household = HouseholdFactory(name="Oma und Opa")
    household.members.add(host)
    PlayerFactory(household=household, name="Oma")
    return household


def shown_name(client) -> str:
    page = client.get(reverse("home")).content.decode()
    return page.split("<h1>", 1)[1].split("</h1>", 1)[0]


def switch(client, household):
    return client.post(reverse("household_switch", args=[household.pk]))


# Choosing --------------------------------------------------------------------------------

def test_the_first_household_is_shown_until_another_is_chosen(host_client, household,
                                                               grandparents):
    assert shown_name(host_client) == "Familie Test"
    response = switch(host_client, grandparents)
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert shown_name(host_client) == "Oma und Opa"
    page = host_client.get(reverse("household")).content.decode()
    assert "Oma" in page and "Anna" not in page


def test_the_choice_is_kept_in_a_cookie_of_the_device(host_client, host, grandparents):
    response = switch(host_client, grandparents)
    cookie = response.cookies[HOUSEHOLD_COOKIE]
    assert cookie.value == f"{host.pk}:{grandparents.pk}"
    assert cookie["max-age"] > 365 * 24 * 60 * 60 and cookie["httponly"]
    host_client.logout()  # the test client forgets every cookie; a browser keeps this one
    host_client.cookies[HOUSEHOLD_COOKIE] = cookie.value
    host_client.force_login(host)
    assert shown_name(host_client) == "Oma und Opa"


def test_another_users_choice_on_the_same_device_is_not_theirs(client, host, household,
                                                               grandparents):
    client.force_login(host)
    switch(client, grandparents)
    other = UserFactory(username="cousin")
    household.members.add(other)
    client.force_login(other)
    assert shown_name(client) == "Familie Test"


def test_nobody_switches_to_a_household_they_do_not_belong_to(host_client, household):
    foreign = HouseholdFactory(name="Nachbarn")
    response = switch(host_client, foreign)
    assert response.status_code == 404 and HOUSEHOLD_COOKIE not in response.cookies
    host_client.cookies[HOUSEHOLD_COOKIE] = f"{household.members.get().pk}:{foreign.pk}"
    assert shown_name(host_client) == "Familie Test"


def test_a_link_into_another_household_switches_to_it(host_client, grandparents, family):
    oma = grandparents.players.get()
    opa = PlayerFactory(household=grandparents, name="Opa")
    play = start_play(household=grandparents, game="kniffel", players=[oma, opa],
                      game_night=GameNightFactory(household=grandparents))
    assert shown_name(host_client) == "Familie Test"
    response = host_client.get(reverse("play_detail", args=[play.pk]))
    assert response.status_code == 200
    assert response.cookies[HOUSEHOLD_COOKIE].value.endswith(f":{grandparents.pk}")
    assert "🏠 Oma und Opa" in response.content.decode()
    assert shown_name(host_client) == "Oma und Opa"


def test_a_sheet_page_from_the_cache_switches_too(client, host, grandparents):
    oma, opa = grandparents.players.get(), PlayerFactory(household=grandparents, name="Opa")
    play = start_play(household=grandparents, game="kniffel", players=[oma, opa],
                      game_night=GameNightFactory(household=grandparents))
    opa_user = UserFactory(username="opa")
    grandparents.members.add(opa_user)
    client.force_login(opa_user)
    client.get(reverse("play_detail", args=[play.pk]))  # rendered and kept for every tablet
    client.force_login(host)
    response = client.get(reverse("play_detail", args=[play.pk]))
    assert response.cookies[HOUSEHOLD_COOKIE].value == f"{host.pk}:{grandparents.pk}"
    assert "🏠 Oma und Opa" in response.content.decode()


def add_player(client, name: str, **sent: str):
    return client.post(reverse("household_player_add"),
                       {"new-name": name, "new-colour": "#7c3aed", **sent})


def test_a_form_lands_in_the_household_its_page_showed(host_client, household, grandparents):
    """A tab still showing the family while another tab switched to the grandparents: a
    player added there joins the family, and the device shows the family again."""
    switch(host_client, grandparents)
    response = add_player(host_client, "Carla", shown_household=str(household.pk))
    assert response.status_code == 302
    assert household.players.filter(name="Carla").exists()
    assert not grandparents.players.filter(name="Carla").exists()
    assert response.cookies[HOUSEHOLD_COOKIE].value.endswith(f":{household.pk}")
    assert shown_name(host_client) == "Familie Test"


def test_an_htmx_form_names_its_household_in_a_header(host_client, household, grandparents):
    switch(host_client, grandparents)
    response = host_client.post(reverse("household_player_add"),
                                {"new-name": "Carla", "new-colour": "#7c3aed"},
                                headers={"HX-Request": "true", "X-Household": str(household.pk)})
    assert response.status_code == 200 and "Carla" in response.content.decode()
    assert household.players.filter(name="Carla").exists()


def test_a_form_naming_a_household_of_others_lands_in_the_one_shown(host_client, household,
                                                                     grandparents):
    foreign = HouseholdFactory(name="Nachbarn")
    switch(host_client, grandparents)
    response = add_player(host_client, "Carla", shown_household=str(foreign.pk))
    assert response.status_code == 302 and HOUSEHOLD_COOKIE not in response.cookies
    assert grandparents.players.filter(name="Carla").exists()
    assert not foreign.players.exists()


@pytest.mark.parametrize("named", ["", "abc", "²", "-3", "9" * 40, "1.5"])
def test_a_form_and_a_cookie_naming_no_readable_household_show_the_first(
        host_client, host, household, grandparents, named):
    host_client.cookies[HOUSEHOLD_COOKIE] = f"{host.pk}:{named}"
    response = add_player(host_client, "Carla", shown_household=named)
    assert response.status_code == 302
    assert household.players.filter(name="Carla").exists()


def test_choosing_in_the_menu_goes_before_the_household_the_page_showed(host_client, household,
                                                                        grandparents):
    switch(host_client, grandparents)
    response = host_client.post(reverse("household_switch", args=[grandparents.pk]),
                                {"shown_household": str(household.pk)})
    assert response.cookies[HOUSEHOLD_COOKIE].value.endswith(f":{grandparents.pk}")
    assert shown_name(host_client) == "Oma und Opa"


def test_exports_are_of_the_household_shown(host_client, grandparents):
    switch(host_client, grandparents)
    document = json.loads(host_client.get(reverse("household_export")).content)
    assert document["household"]["name"] == "Oma und Opa"
    assert [player["name"] for player in document["players"]] == ["Oma"]


def test_the_menu_lists_every_household_the_one_shown_first(host_client, household,
                                                            grandparents):
    switch(host_client, grandparents)
    menu = host_client.get(reverse("household_menu"), HTTP_HX_REQUEST="true").content.decode()
    assert menu.index("Oma und Opa") < menu.index("Familie Test")
    assert 'aria-current="true">Oma und Opa<' in menu
    assert reverse("household_switch", args=[household.pk]) in menu
    assert reverse("household_import") in menu


def test_the_menu_opened_at_its_own_address_is_the_page_of_the_choice(host_client):
    response = host_client.get(reverse("household_menu"))
    assert response.status_code == 302 and response["Location"] == reverse("household_choose")


def test_the_top_bar_names_the_household_shown(host_client, household):
    page = host_client.get(reverse("history")).content.decode()
    assert "🏠 Familie Test" in page and reverse("household_menu") in page


# Founding another ------------------------------------------------------------------------

def test_a_member_founds_another_household_and_sees_it_at_once(host_client, household, host):
    response = host_client.post(reverse("household_create"), {"name": "Schachklub"})
    assert response.status_code == 302
    club = Household.objects.get(name="Schachklub")
    assert list(club.members.all()) == [host]
    assert shown_name(host_client) == "Schachklub"
    assert set(host.households.all()) == {household, club}


def test_another_household_needs_a_name_too(host_client, household):
    response = host_client.post(reverse("household_create"), {"name": "  "})
    assert response.status_code == 422
    assert 'class="error"' in response.content.decode()
    assert list(Household.objects.all()) == [household]


# Leaving ---------------------------------------------------------------------------------

def test_leaving_keeps_the_household_for_the_others(host_client, host, household, grandparents):
    opa = UserFactory(username="opa")
    grandparents.members.add(opa)
    switch(host_client, grandparents)
    response = host_client.post(reverse("household_leave"))
    assert response.status_code == 302
    assert list(grandparents.members.all()) == [opa]
    assert grandparents.players.exists()
    assert shown_name(host_client) == "Familie Test"


def test_the_last_member_cannot_leave_only_delete(host_client, household, host):
    response = host_client.post(reverse("household_leave"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("household_delete")
    assert "Delete it instead" in response.content.decode()
    assert list(household.members.all()) == [host]


# Deleting --------------------------------------------------------------------------------

def test_the_delete_page_offers_the_export_first(host_client, household):
    page = host_client.get(reverse("household_delete")).content.decode()
    assert page.index(reverse("household_export")) < page.index('name="name"')


@pytest.mark.parametrize("typed", ["", "Familie", "Oma und Opa"])
def test_deleting_needs_the_name_typed(host_client, household, family, typed):
    response = host_client.post(reverse("household_delete"), {"name": typed})
    assert response.status_code == 422
    assert Household.objects.filter(pk=household.pk).exists()
    assert Player.objects.filter(household=household).count() == 4


def test_the_last_member_deletes_everything_of_the_household(host_client, household, kniffel,
                                                            family, grandparents):
    write_cell(kniffel, family[0], "ones", 3, expected_version=None)
    response = host_client.post(reverse("household_delete"), {"name": " familie  test "})
    assert response.status_code == 302
    assert not Household.objects.filter(pk=household.pk).exists()
    assert not Play.objects.exists() and not KniffelCell.objects.exists()
    assert not GameNight.objects.exists()
    assert list(Player.objects.all()) == list(grandparents.players.all())
    assert shown_name(host_client) == "Oma und Opa"


def test_a_household_others_still_use_is_not_deleted(host_client, household):
    household.members.add(UserFactory(username="anna"))
    page = host_client.get(reverse("household_delete")).content.decode()
    assert "only its last member can delete it" in page
    response = host_client.post(reverse("household_delete"), {"name": "Familie Test"})
    assert response.status_code == 422
    assert Household.objects.filter(pk=household.pk).exists()


def test_a_large_household_is_deleted_in_steps(household, family, monkeypatch):
    monkeypatch.setattr(membership, "PLAYS_PER_STEP", 2)
    night = GameNightFactory(household=household)
    for _ in range(5):
        start_play(household=household, game="kniffel", players=family[:2], game_night=night)
    other = HouseholdFactory(name="Keep")
    kept = start_play(household=other, game="kniffel",
                      players=[PlayerFactory(household=other), PlayerFactory(household=other)],
                      game_night=GameNightFactory(household=other))
    membership.delete_household(household.pk)
    assert list(Play.objects.all()) == [kept]
    assert not Household.objects.filter(pk=household.pk).exists()


def test_switching_leaving_and_deleting_need_a_login(client, household):
    for name, args in [("household_switch", [household.pk]), ("household_leave", []),
                       ("household_delete", [])]:
        response = client.post(reverse(name, args=args))
        assert response.status_code == 302 and reverse("login") in response["Location"]
    assert Household.objects.filter(pk=household.pk).exists()


def test_the_menu_leads_back_to_an_import_under_way(host_client, host):
    job = ImportJob.objects.create(user=host, data=b"{}", name="Vereinsabend", notes=[],
                                   runner="r", attempts=1, language="en")
    menu = host_client.get(reverse("household_menu"), HTTP_HX_REQUEST="true").content.decode()
    assert reverse("household_import_progress", args=[job.pk]) in menu
    assert "Importing Vereinsabend…" in menu
    ImportJob.objects.filter(pk=job.pk).update(state=ImportJob.State.DONE)
    menu = host_client.get(reverse("household_menu"), HTTP_HX_REQUEST="true").content.decode()
    assert reverse("household_import_progress", args=[job.pk]) not in menu
