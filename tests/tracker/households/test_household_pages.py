"""A family sets itself up: household, players, members, invitations and the first account."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tests.factories import (
    GameNightFactory,
    InvitationFactory,
    PlayerFactory,
    UserFactory,
)
from tracker.households.membership import InvitationClosed, accept_invitation
from tracker.households.models import COLOURS, Household, Invitation, Player
from tracker.table.models import Participant
from tracker.table.recording import record_result, start_play

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
RED, BLUE, YELLOW, GREEN = (value for value, _label in COLOURS[:4])
PASSWORD = "kiwi-sunset-42"


@pytest.fixture
def coloured(household):
    """Anna in Red and Ben in Blue."""
    return [PlayerFactory(household=household, name="Anna", colour=RED),
            PlayerFactory(household=household, name="Ben", colour=BLUE)]


@pytest.fixture
def newcomer(db):
    """Logged in, with an account but no household yet."""
    return UserFactory(username="newcomer")


def add_player(client, name, colour, **extra):
    return client.post(reverse("household_player_add"),
                       {"new-name": name, "new-colour": colour}, **extra)


def edit_player(client, player, name, colour, **extra):
    return client.post(reverse("player_edit", args=[player.pk]),
                       {f"player-{player.pk}-name": name, f"player-{player.pk}-colour": colour},
                       **extra)


# Creating a household ----------------------------------------------------------------------

def test_someone_without_a_household_is_offered_to_create_one(client, newcomer):
    client.force_login(newcomer)
    page = client.get(reverse("home")).content.decode()
    assert "does not belong to a household" in page
    assert f'action="{reverse("household_create")}"' in page


def test_create_a_household(client, newcomer):
    client.force_login(newcomer)
    response = client.post(reverse("household_create"), {"name": "  Familie   Neu "})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    household = Household.objects.get()
    assert household.name == "Familie Neu"
    assert list(household.members.all()) == [newcomer]
    page = client.get(reverse("home")).content.decode()
    assert "Familie Neu" in page and "Start a game night" in page


@pytest.mark.parametrize("data", [{"name": "   "}, {"name": "x" * 101}, {}, {"other": "1"}])
def test_a_household_needs_a_sensible_name(client, newcomer, data):
    client.force_login(newcomer)
    response = client.post(reverse("household_create"), data)
    assert response.status_code == 422
    assert 'class="error"' in response.content.decode()
    assert not Household.objects.exists()


def test_creating_a_household_needs_a_login(client, db):
    response = client.post(reverse("household_create"), {"name": "Anyone"})
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert not Household.objects.exists()


# The household page ------------------------------------------------------------------------

def test_the_top_bar_links_to_the_household_page(host_client):
    page = host_client.get(reverse("home")).content.decode()
    assert f'href="{reverse("household")}"' in page and ">Household<" in page


def test_household_page_shows_players_and_members(host_client, host, coloured):
    page = host_client.get(reverse("household")).content.decode()
    assert "<h1>Familie Test</h1>" in page
    assert "Anna" in page and "Ben" in page and f"colour-{BLUE.removeprefix('#')}" in page
    assert "<strong>host</strong>" in page
    assert reverse("player_edit", args=[coloured[0].pk]) in page


def test_household_page_needs_a_login_and_a_household(client, newcomer):
    response = client.get(reverse("household"))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    client.force_login(newcomer)
    response = client.get(reverse("household"))
    assert response.status_code == 302 and response["Location"] == reverse("home")


@pytest.mark.parametrize("players", [1, 12])
def test_household_page_runs_a_constant_number_of_queries(host_client, household, players,
                                                          django_assert_max_num_queries):
    for number in range(players):
        PlayerFactory(household=household, colour=COLOURS[number % len(COLOURS)][0])
    InvitationFactory(household=household)
    with django_assert_max_num_queries(8):
        assert host_client.get(reverse("household")).status_code == 200


def test_rename_the_household(host_client, household):
    response = host_client.post(reverse("household_rename"), {"name": " Die  Tests "})
    assert response.status_code == 302
    household.refresh_from_db()
    assert household.name == "Die Tests"


@pytest.mark.parametrize("name", ["   ", "x" * 101])
def test_a_household_keeps_its_name_when_the_new_one_is_refused(host_client, household, name):
    response = host_client.post(reverse("household_rename"), {"name": name})
    assert response.status_code == 422
    household.refresh_from_db()
    assert household.name == "Familie Test"


# Players -----------------------------------------------------------------------------------

def test_the_first_free_colour_is_proposed(host_client, coloured):
    form = host_client.get(reverse("household")).context["add_form"]
    assert form["colour"].value() == YELLOW
    assert [swatch.value for swatch in form.swatches() if swatch.checked] == [YELLOW]
    assert {swatch.value: swatch.taken_by for swatch in form.swatches()}[BLUE] == "Ben"


def test_add_a_player(host_client, household, coloured):
    response = add_player(host_client, " Carla ", YELLOW)
    assert response.status_code == 302 and response["Location"].endswith("#players")
    carla = Player.objects.get(name="Carla")
    assert carla.household == household and carla.colour == YELLOW


def test_add_a_player_with_htmx_offers_the_next_free_colour(host_client, coloured):
    response = add_player(host_client, "Carla", YELLOW, **HTMX)
    page = response.content.decode()
    assert response.status_code == 200
    assert 'id="players"' in page and "<html" not in page and "Carla" in page
    assert f'name="new-colour" value="{GREEN}" checked' in page


def test_a_taken_colour_is_refused(host_client, coloured):
    response = add_player(host_client, "Carla", BLUE, **HTMX)
    assert response.status_code == 422
    assert "Ben already plays in Blue." in response.content.decode()
    assert not Player.objects.filter(name="Carla").exists()


def test_a_taken_colour_is_shared_once_every_colour_is_taken(host_client, household):
    for number, (colour, _label) in enumerate(COLOURS):
        PlayerFactory(household=household, name=f"Kid {number}", colour=colour)
    assert add_player(host_client, "One more", RED).status_code == 302
    assert Player.objects.get(name="One more").colour == RED


def test_the_inline_add_on_the_night_page_proposes_a_free_colour_too(host_client, coloured):
    form = host_client.get(reverse("night_new")).context["player_form"]
    assert form["colour"].value() == YELLOW


@pytest.mark.parametrize("name", ["anna", " ANNA "])
def test_a_duplicate_name_is_refused(host_client, coloured, name):
    response = add_player(host_client, name, YELLOW, **HTMX)
    assert response.status_code == 422
    assert "There is already a player with this name." in response.content.decode()
    assert Player.objects.count() == 2


@pytest.mark.parametrize("name,stored", [
    ("José", None),
    ("Jose\u0301", None),
    ("José ", None),
    ("Jo\u200bsé", None),
    ("\u200b\u2060", None),
    ("Jose\u0301 Maria\u00a0", "José Maria"),
    ("Léa\u200d", "Léa"),
])
def test_names_that_look_the_same_are_the_same_name_and_invisible_ones_are_refused(
        host_client, household, coloured, name, stored):
    PlayerFactory(household=household, name="José", colour=GREEN)
    response = add_player(host_client, name, YELLOW, **HTMX)
    if stored is None:
        assert response.status_code == 422
        page = response.content.decode()
        assert ("There is already a player with this name." in page
                or "Enter a name." in page)
        assert Player.objects.count() == 3
    else:
        assert response.status_code == 200
        assert Player.objects.filter(name=stored).exists()


def finished_race(household, players):
    night = GameNightFactory(household=household)
    play = start_play(household=household, game="maus_im_nacken", players=players,
                      game_night=night)
    elephants = {player.key: ["caught"] * 4 for player in players}
    elephants[players[0].key] = ["home:1", "caught", "caught", "caught"]
    record_result(play, {"elephants": elephants}, expected_version=1)
    return play


def test_rename_a_player_keeps_their_games(host_client, household, coloured):
    anna = coloured[0]
    play = finished_race(household, coloured)
    before = list(Participant.objects.filter(player=anna).values_list("play", "points", "place"))
    response = edit_player(host_client, anna, "Anne", GREEN)
    assert response.status_code == 302 and response["Location"].endswith(f"#player-{anna.pk}")
    anna.refresh_from_db()
    assert (anna.name, anna.colour) == ("Anne", GREEN)
    after = list(Participant.objects.filter(player=anna).values_list("play", "points", "place"))
    assert after == before and len(after) == 1
    play.refresh_from_db()
    assert anna.key in play.result["elephants"]


def test_a_player_keeps_their_own_colour_and_may_change_capitals(host_client, coloured):
    anna = coloured[0]
    response = edit_player(host_client, anna, "ANNA", RED, **HTMX)
    assert response.status_code == 200 and "<html" not in response.content.decode()
    anna.refresh_from_db()
    assert anna.name == "ANNA"


def test_a_player_cannot_take_another_players_name_or_colour(host_client, coloured):
    anna = coloured[0]
    response = edit_player(host_client, anna, "ben", RED, **HTMX)
    assert response.status_code == 422
    assert "There is already a player with this name." in response.content.decode()
    response = edit_player(host_client, anna, "Anna", BLUE)
    assert response.status_code == 422
    page = response.content.decode()
    assert "Ben already plays in Blue." in page and "<html" in page
    assert f'<li id="player-{anna.pk}">\n        <details class="player-edit" open>' in page
    anna.refresh_from_db()
    assert (anna.name, anna.colour) == ("Anna", RED)


@pytest.mark.parametrize("data", [
    {"new-name": "x" * 41, "new-colour": YELLOW},
    {"new-name": "Zoe", "new-colour": "#000001"},
    {"new-name": "Zoe", "new-colour": ["#d62828", "#1d4ed8"]},
    {"new-name": "\x00", "new-colour": YELLOW},
    {"garbage": "1"},
    {},
])
def test_bad_player_input_gives_form_errors(host_client, coloured, data):
    response = host_client.post(reverse("household_player_add"), data)
    assert response.status_code == 422
    assert 'class="error"' in response.content.decode()
    assert Player.objects.count() == 2
    response = host_client.post(reverse("player_edit", args=[coloured[0].pk]),
                                {key.replace("new-", f"player-{coloured[0].pk}-"): value
                                 for key, value in data.items()})
    assert response.status_code == 422
    assert Player.objects.get(pk=coloured[0].pk).name == "Anna"


def test_a_stranger_cannot_see_or_change_the_households_players(client, stranger, coloured):
    client.force_login(stranger)
    page = client.get(reverse("household")).content.decode()
    assert "Other family" in page and "Anna" not in page
    response = edit_player(client, coloured[0], "Hacked", GREEN)
    assert response.status_code == 404
    assert Player.objects.get(pk=coloured[0].pk).name == "Anna"
    add_player(client, "Mine", GREEN)
    assert not coloured[0].household.players.filter(name="Mine").exists()


# Invitations -------------------------------------------------------------------------------

def test_invite_someone_shows_the_full_link(host_client, host, household):
    response = host_client.post(reverse("invitation_create"), follow=True)
    invitation = Invitation.objects.get()
    assert invitation.household == household and invitation.created_by == host
    assert invitation.is_open
    page = response.content.decode()
    assert f">http://testserver/invite/{invitation.token}/</textarea>" in page
    assert "Valid until" in page


def test_invite_with_htmx_answers_the_members_section(host_client):
    response = host_client.post(reverse("invitation_create"), **HTMX)
    page = response.content.decode()
    invitation = Invitation.objects.get()
    assert response.status_code == 200 and "<html" not in page and 'id="members"' in page
    assert f"/invite/{invitation.token}/" in page and 'class="new"' in page


def test_revoke_an_invitation(host_client, household):
    invitation = InvitationFactory(household=household)
    response = host_client.post(reverse("invitation_revoke", args=[invitation.pk]))
    assert response.status_code == 302
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None and not invitation.is_open
    assert invitation.token not in host_client.get(reverse("household")).content.decode()


def test_used_expired_and_revoked_invitations_are_not_offered(host_client, household):
    now = timezone.now()
    closed = [InvitationFactory(household=household, accepted_at=now),
              InvitationFactory(household=household, revoked_at=now),
              InvitationFactory(household=household, expires_at=now - timedelta(minutes=1))]
    open_one = InvitationFactory(household=household)
    page = host_client.get(reverse("household")).content.decode()
    assert open_one.token in page
    assert all(invitation.token not in page for invitation in closed)


def test_a_used_invitation_cannot_be_revoked(host_client, household):
    invitation = InvitationFactory(household=household, accepted_at=timezone.now())
    host_client.post(reverse("invitation_revoke", args=[invitation.pk]))
    invitation.refresh_from_db()
    assert invitation.revoked_at is None


def test_a_stranger_cannot_see_or_revoke_the_households_invitations(client, stranger,
                                                                    household):
    invitation = InvitationFactory(household=household)
    client.force_login(stranger)
    assert invitation.token not in client.get(reverse("household")).content.decode()
    response = client.post(reverse("invitation_revoke", args=[invitation.pk]))
    assert response.status_code == 404
    invitation.refresh_from_db()
    assert invitation.is_open
    client.post(reverse("invitation_create"))
    assert household.invitations.count() == 1


# Accepting ---------------------------------------------------------------------------------

def test_join_while_logged_in(client, newcomer, household):
    invitation = InvitationFactory(household=household)
    client.force_login(newcomer)
    page = client.get(invitation.get_absolute_url()).content.decode()
    assert "Join Familie Test" in page
    response = client.post(invitation.get_absolute_url())
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert newcomer in household.members.all()
    invitation.refresh_from_db()
    assert invitation.accepted_by == newcomer and invitation.accepted_at is not None
    assert "Familie Test" in client.get(reverse("home")).content.decode()


def test_sign_up_through_an_invitation(client, household):
    invitation = InvitationFactory(household=household)
    page = client.get(invitation.get_absolute_url()).content.decode()
    assert 'name="password2"' in page
    assert f'{reverse("login")}?next={invitation.get_absolute_url()}' in page
    response = client.post(invitation.get_absolute_url(), {
        "username": "grandma", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    grandma = get_user_model().objects.get(username="grandma")
    assert grandma.check_password(PASSWORD) and not grandma.is_staff
    assert grandma in household.members.all()
    invitation.refresh_from_db()
    assert invitation.accepted_by == grandma
    assert "Familie Test" in client.get(reverse("home")).content.decode()


@pytest.mark.parametrize("data", [
    {"username": "grandma", "password1": PASSWORD, "password2": "something-else-7"},
    {"username": "grandma", "password1": "12345678", "password2": "12345678"},
    {"username": "host", "password1": PASSWORD, "password2": PASSWORD},
    {"username": "x" * 151, "password1": PASSWORD, "password2": PASSWORD},
    {"username": "bad name!", "password1": PASSWORD, "password2": PASSWORD},
    {"garbage": "1"},
])
def test_a_refused_sign_up_changes_nothing(client, host, household, data):
    invitation = InvitationFactory(household=household)
    response = client.post(invitation.get_absolute_url(), data)
    assert response.status_code == 422
    assert 'class="error"' in response.content.decode()
    assert list(get_user_model().objects.all()) == [host]
    invitation.refresh_from_db()
    assert invitation.is_open


def closed_invitation(household, how):
    now = timezone.now()
    return InvitationFactory(household=household, **{
        "used": {"accepted_at": now},
        "expired": {"expires_at": now - timedelta(seconds=1)},
        "revoked": {"revoked_at": now},
    }[how])


@pytest.mark.parametrize("how", ["used", "expired", "revoked"])
def test_a_closed_invitation_lets_nobody_in(client, newcomer, household, how):
    invitation = closed_invitation(household, how)
    for response in (client.get(invitation.get_absolute_url()),
                     client.post(invitation.get_absolute_url(), {
                         "username": "grandma", "password1": PASSWORD, "password2": PASSWORD})):
        assert response.status_code == 410
        assert "cannot be used any more" in response.content.decode()
    client.force_login(newcomer)
    assert client.post(invitation.get_absolute_url()).status_code == 410
    assert not household.members.exists()
    assert not get_user_model().objects.filter(username="grandma").exists()


def test_an_unknown_invitation_is_not_found(client, db):
    response = client.get(reverse("invitation_accept", args=["no-such-token"]))
    assert response.status_code == 404
    assert "Unknown invitation" in response.content.decode()


def test_an_invitation_works_once(client, household):
    invitation = InvitationFactory(household=household)
    first, second = UserFactory(), UserFactory()
    accept_invitation(invitation, first)
    with pytest.raises(InvitationClosed) as closed:
        accept_invitation(invitation, second)
    assert closed.value.reason == "used"
    assert list(household.members.all()) == [first]


def test_signing_up_with_a_link_used_meanwhile_creates_no_account(client, household):
    invitation = InvitationFactory(household=household)
    client.get(invitation.get_absolute_url())
    accept_invitation(invitation, UserFactory(username="quicker"))
    response = client.post(invitation.get_absolute_url(), {
        "username": "grandma", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 410
    assert not get_user_model().objects.filter(username="grandma").exists()


def test_a_member_who_opens_an_invitation_changes_nothing(host_client, household):
    invitation = InvitationFactory(household=household)
    page = host_client.get(invitation.get_absolute_url()).content.decode()
    assert "You already belong to Familie Test." in page and "Join Familie Test" not in page
    response = host_client.post(invitation.get_absolute_url(), follow=True)
    assert "You already belong to Familie Test." in response.content.decode()
    invitation.refresh_from_db()
    assert invitation.is_open and household.members.count() == 1


def test_a_member_of_another_household_is_told_before_joining(client, stranger, household):
    invitation = InvitationFactory(household=household)
    client.force_login(stranger)
    page = client.get(invitation.get_absolute_url()).content.decode()
    assert "You belong to Other family already." in page and "Join Familie Test" in page


# The first account -------------------------------------------------------------------------

def test_the_first_account_on_a_fresh_install(client, db):
    login_page = client.get(reverse("login")).content.decode()
    assert reverse("first_account") in login_page
    assert client.get(reverse("first_account")).status_code == 200
    response = client.post(reverse("first_account"), {
        "username": "owner", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    owner = get_user_model().objects.get()
    assert owner.username == "owner" and owner.is_superuser and owner.is_staff
    assert f'action="{reverse("household_create")}"' in client.get(reverse("home")).content.decode()


def test_the_first_account_page_is_gone_once_an_account_exists(client, newcomer):
    assert reverse("first_account") not in client.get(reverse("login")).content.decode()
    assert client.get(reverse("first_account")).status_code == 404
    response = client.post(reverse("first_account"), {
        "username": "intruder", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 404
    assert list(get_user_model().objects.all()) == [newcomer]


@pytest.mark.parametrize("data", [
    {"username": "owner", "password1": PASSWORD, "password2": "other-password-9"},
    {"username": "", "password1": PASSWORD, "password2": PASSWORD},
    {"garbage": "1"},
])
def test_a_refused_first_account_creates_nothing(client, db, data):
    response = client.post(reverse("first_account"), data)
    assert response.status_code == 422
    assert not get_user_model().objects.exists()


# Garbage -----------------------------------------------------------------------------------

@pytest.mark.parametrize("url_name,args", [
    ("household_create", []), ("household_rename", []), ("household_player_add", []),
    ("invitation_create", []), ("invitation_revoke", [999999]), ("player_edit", [999999]),
])
def test_garbage_never_gives_a_server_error(host_client, household, url_name, args):
    for data in ({"name": ["a", "b"], "colour": "\x00"}, {"new-name": "😀" * 50},
                 {"csrfmiddlewaretoken": "x"}):
        response = host_client.post(reverse(url_name, args=args), data)
        assert response.status_code < 500


def test_the_household_pages_answer_get_only_where_they_show_something(host_client):
    assert host_client.get(reverse("household_player_add")).status_code == 405
    assert host_client.get(reverse("invitation_create")).status_code == 405
    assert host_client.post(reverse("household")).status_code == 405
    assert not Invitation.objects.exists()


def test_a_players_form_is_read_when_their_row_is_opened(host_client, coloured):
    anna = coloured[0]
    page = host_client.get(reverse("household")).content.decode()
    assert f'hx-get="{reverse("player_edit", args=[anna.pk])}"' in page
    assert f'name="player-{anna.pk}-name"' not in page
    fragment = host_client.get(reverse("player_edit", args=[anna.pk]), **HTMX).content.decode()
    assert f'name="player-{anna.pk}-name"' in fragment and "<html" not in fragment
    assert 'value="Anna"' in fragment and "Blue, taken by Ben" in fragment
    whole = host_client.get(reverse("player_edit", args=[anna.pk])).content.decode()
    assert "<html" in whole and f'name="player-{anna.pk}-name"' in whole


def test_the_household_page_of_a_club_runs_constant_queries(host_client, household,
                                                            django_assert_max_num_queries):
    PlayerFactory.create_batch(300, household=household)
    with django_assert_max_num_queries(12):
        response = host_client.get(reverse("household"))
    assert response.content.decode().count('class="player-edit"') == 300


def test_several_players_come_in_at_once_each_in_a_colour_of_its_own(host_client, household):
    response = host_client.post(reverse("household_players_add"),
                                {"names": "Oma\n Opa \n\nTante  Gosia\n"}, **HTMX)

    assert response.status_code == 200
    players = list(household.players.order_by("id"))
    assert [player.name for player in players] == ["Oma", "Opa", "Tante Gosia"]
    assert len({player.colour for player in players}) == 3
    assert "Tante Gosia" in response.content.decode()


@pytest.mark.parametrize(("names", "problems"), [
    ("Oma\nOpa\noma", ["oma: This name is on the list twice."]),
    ("Lena\nAnna", ["Anna: There is already a player with this name."]),
    ("\n  \n", ["Enter at least one name."]),
    ("Ann\u0430", ["looks just like"]),
], ids=["twice", "taken", "empty", "confusable"])
def test_a_list_with_a_name_that_cannot_be_added_adds_nobody_and_says_which(
        host_client, household, names, problems):
    PlayerFactory(household=household, name="Anna")
    before = household.players.count()

    response = host_client.post(reverse("household_players_add"), {"names": names}, **HTMX)

    page = response.content.decode().replace("&#x27;", "'")
    assert response.status_code == 422
    assert household.players.count() == before
    for problem in problems:
        assert problem in page
    assert 'aria-invalid="true"' in page


def test_a_new_family_is_shown_the_way_to_its_players(client, newcomer):
    client.force_login(newcomer)
    client.post(reverse("household_create"), {"name": "Familie Brandt"})

    home = client.get(reverse("home")).content.decode()

    assert "Add your players" in home and f'href="{reverse("household")}#players"' in home
    household = Household.objects.get(name="Familie Brandt")
    PlayerFactory(household=household, name="Oma")
    assert "Add your players" not in client.get(reverse("home")).content.decode()
