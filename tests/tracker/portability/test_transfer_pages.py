"""The Household page's downloads, and bringing an export back through the upload page."""

import csv
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import OwnGameFactory, PlayerFactory
from tests.tracker.portability.transfer_fixtures import build_everything, run_imports
from tracker.evenings.models import GameNight
from tracker.households.models import Household, ImportJob
from tracker.portability.export import export_household
from tracker.table.models import Play
from tracker.table.recording import record_result, start_play

pytestmark = pytest.mark.django_db


@pytest.fixture
def everything(household, night, family, host):
    return build_everything(household, night, family, host)


def upload(client, data, **fields):
    return client.post(reverse("household_import"), {
        "document": SimpleUploadedFile("family.json", data, "application/json"), **fields})


def test_the_household_page_offers_the_downloads_and_the_import(host_client, household):
    page = host_client.get(reverse("household")).content.decode()

    for name in ("household_export", "household_export_csv", "household_import"):
        assert f'href="{reverse(name)}"' in page


def test_the_download_is_the_households_document(host_client, everything):
    response = host_client.get(reverse("household_export"))

    assert response["Content-Disposition"].startswith('attachment; filename="familie-test-')
    document = json.loads(response.content)
    assert document["household"] == {"name": "Familie Test"}
    assert len(document["plays"]) == Play.objects.filter(household=everything).count()


def test_a_stranger_downloads_only_their_own_household(client, everything, stranger):
    PlayerFactory(household=stranger.households.get(), name="Stranger Sam")
    client.force_login(stranger)

    document = json.loads(client.get(reverse("household_export")).content)
    table = client.get(reverse("household_export_csv")).content.decode()

    assert [player["name"] for player in document["players"]] == ["Stranger Sam"]
    assert document["plays"] == []
    assert "Anna" not in table


def test_the_downloads_need_a_login(client, household):
    for name in ("household_export", "household_export_csv", "household_import"):
        assert client.get(reverse(name)).status_code == 302


def test_the_csv_has_a_row_per_participant(host_client, household, night, family):
    play = start_play(household=household, game="maus_im_nacken", players=family[:2],
                      game_night=night)
    record_result(play, {"elephants": {family[0].key: ["home:1", "seat:8", "caught", "caught"],
                                       family[1].key: ["caught"] * 4}}, expected_version=1)

    Play.objects.filter(pk=play.pk).update(note="-Oma's first win\nat last", length_minutes=25)
    GameNight.objects.filter(pk=night.pk).update(place="Bei Oma in Kassel")

    response = host_client.get(reverse("household_export_csv"))

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["Date", "Game", "Series or tournament", "Round", "Player", "Seat",
                       "Points", "Place", "Status", "In the statistics", "Note",
                       "Length in minutes", "Where"]
    anna = play.participants.get(player=family[0])
    assert rows[1] == [night.date.isoformat(), "Die Maus im Nacken", "", "", "Anna", "1",
                       str(anna.points), "1", "Finished", "yes", "'-Oma's first win\nat last",
                       "25", "Bei Oma in Kassel"]
    assert [row[4] for row in rows[1:]] == ["Anna", "Ben"]


def test_a_play_at_home_without_a_note_or_length_leaves_the_new_columns_empty(
        host_client, household, night, family):
    start_play(household=household, game="maus_im_nacken", players=family[:2],
               game_night=night)

    table = host_client.get(reverse("household_export_csv")).content.decode("utf-8-sig")

    assert list(csv.reader(io.StringIO(table)))[1][-3:] == ["", "", ""]


def test_a_csv_name_that_looks_like_a_formula_stays_text(host_client, household, night):
    sly = PlayerFactory(household=household, name="=1+1")
    other = PlayerFactory(household=household, name="Zoe")
    start_play(household=household, game="maus_im_nacken", players=[sly, other],
               game_night=night)

    table = host_client.get(reverse("household_export_csv")).content.decode("utf-8-sig")

    assert "'=1+1" in table


def test_the_csv_names_series_and_race(host_client, everything):
    table = host_client.get(reverse("household_export_csv")).content.decode("utf-8-sig")

    rows = list(csv.DictReader(io.StringIO(table)))
    assert {(row["Series or tournament"], row["Round"]) for row in rows} >= {
        ("Summer cup", "1"), ("Party", "1"), ("Party", "2")}
    assert {row["Status"] for row in rows} == {"Finished", "Abandoned", "In progress"}


def test_an_uploaded_export_becomes_a_new_household_of_the_user(host_client, host, everything):
    data = host_client.get(reverse("household_export")).content

    response = upload(host_client, data)
    job = ImportJob.objects.get()
    assert response.url == reverse("household_import_progress", args=[job.pk])
    run_imports()
    shown = host_client.get(response.url)

    assert shown.url == reverse("household")
    imported = Household.objects.get(name="Familie Test (imported)")
    assert list(imported.members.all()) == [host]
    assert imported.plays.count() == everything.plays.count()


def test_the_upload_takes_the_name_given(host_client, everything):
    data = json.dumps(export_household(everything)).encode()

    upload(host_client, data, name="Grandma's copy")
    run_imports()

    assert Household.objects.filter(name="Grandma's copy").exists()


@pytest.mark.parametrize(("data", "message"), [
    (b"not json at all", "neither JSON nor XML"),
    (b'{"format": "family-scorekeeper", "version": 3}', "newer version"),
    (b"[" * 200_000, "neither JSON nor XML"),
])
def test_a_bad_upload_is_refused_on_the_page(host_client, household, data, message):
    response = upload(host_client, data)

    assert response.status_code == 422
    assert message in response.content.decode()
    assert Household.objects.count() == 1


def test_a_bad_upload_is_refused_in_german(host_client, household):
    host_client.cookies["django_language"] = "de"

    response = upload(host_client, b"kaputt")

    assert response.status_code == 422
    assert "weder JSON noch XML" in response.content.decode()


def test_an_upload_without_a_file_asks_for_one(host_client, household):
    response = host_client.post(reverse("household_import"), {})

    assert response.status_code == 422
    assert Household.objects.count() == 1


def test_an_upload_the_app_could_not_have_made_is_refused_by_name(host_client, everything):
    document = export_household(everything)
    document["series"][0]["house_rules"] = {"bogus": 1}

    response = upload(host_client, json.dumps(document).encode())
    run_imports()
    page = host_client.get(response.url).content.decode()

    assert "Series “Summer cup”: Die Maus im Nacken has no house rule called “bogus”." in page
    assert Household.objects.count() == 1


def test_the_csv_names_own_games_in_a_constant_number_of_queries(
        host_client, household, night, family, django_assert_max_num_queries):
    for name in ("Uno", "Skyjo", "Wizard"):
        play = start_play(household=household, game="generic", players=family[:2],
                          own_game=OwnGameFactory(household=household, name=name),
                          game_night=night)
        record_result(play, {"scores": {family[0].key: 5, family[1].key: 3}},
                      expected_version=play.version)
    with django_assert_max_num_queries(8):
        response = host_client.get(reverse("household_export_csv"))
    games = {row[1] for row in csv.reader(io.StringIO(response.content.decode("utf-8-sig")))}
    assert games >= {"Uno", "Skyjo", "Wizard"}
