"""Kniffel pads, printed from the command line and the web, read back from the PDF."""

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.printing.conftest import read_pdf

pytestmark = pytest.mark.django_db


def pad_pdf(tmp_path, *args: str) -> tuple[list[str], dict]:
    output = tmp_path / "pad.pdf"
    call_command("kniffel_pad", *args, "-o", str(output), stdout=open("/dev/null", "w"))
    return read_pdf(output.read_bytes())


def test_a_pad_with_names_in_german(tmp_path):
    pages, metadata = pad_pdf(tmp_path, "--variant", "classic", "--sheets", "3",
                              "--players", "Anna,Ben", "--paper", "a4", "--lang", "de")
    assert len(pages) == 6
    assert all("Anna" in page for page in pages[:3]) and all("Ben" in page for page in pages[3:])
    for label in ("Einser", "Sechser", "gesamt", "Bonus bei 63 oder mehr", "gesamt oberer Teil",
                  "Dreierpasch", "Full House", "Kleine Straße", "Große Straße", "Kniffel",
                  "Chance", "gesamt unterer Teil", "Endsumme", "Spiel 6"):
        assert label in pages[0], label
    assert metadata["/Title"] == "Kniffel-Block"
    assert metadata["/Author"] == "Punktezähler"
    from pypdf import PdfReader

    assert PdfReader(tmp_path / "pad.pdf").root_object["/Lang"] == "de"
    assert "Punktezähler · Kniffel-Block" in pages[5]


def test_a_blank_pad_in_english_on_letter(tmp_path):
    pages, _ = pad_pdf(tmp_path, "--sheets", "2", "--lang", "en", "--paper", "letter",
                       "--columns", "4")
    assert len(pages) == 2
    for label in ("Ones", "Sixes", "Bonus at 63 or more", "upper total", "Three of a kind",
                  "Small straight", "Grand total", "Game 4"):
        assert label in pages[1], label
    assert "Game 5" not in pages[1]


def test_the_space_pad_has_its_eleven_rows(tmp_path):
    pages, _ = pad_pdf(tmp_path, "--variant", "space", "--sheets", "1", "--lang", "de",
                       "--players", "Mia")
    for label in ("Ufo", "Rakete", "Galaktischer Nebel", "Stern", "Sonne", "Planet", "Drilling",
                  "Zwei Paare", "Drilling + Paar", "Fünf verschiedene Symbole",
                  "Weltraum-Kniffel", "Endsumme", "Mia"):
        assert label in pages[0], label


@pytest.mark.parametrize("args,message", [
    (["--sheets", "0"], "--sheets: Ensure this value is greater than or equal to 1."),
    (["--sheets", "10000"], "--sheets: Ensure this value is less than or equal to 500."),
    (["--sheets", "many"], "--sheets: Enter a whole number."),
    (["--paper", "a3"], "--paper: Select a valid choice. a3 is not one of the available"),
    (["--variant", "yahtzee"], "--variant: Select a valid choice."),
    (["--lang", "fr"], "--lang: Select a valid choice."),
])
def test_bad_parameters_are_refused_on_the_command_line(tmp_path, args, message):
    with pytest.raises(CommandError) as refused:
        call_command("kniffel_pad", *args, "-o", str(tmp_path / "pad.pdf"))
    assert message in str(refused.value)
    assert not (tmp_path / "pad.pdf").exists()


def test_a_missing_output_folder_is_refused(tmp_path):
    with pytest.raises(CommandError, match="does not exist"):
        call_command("kniffel_pad", "-o", str(tmp_path / "nowhere" / "pad.pdf"))


def test_the_web_form_previews_and_downloads(host_client):
    url = reverse("print_pad")
    form = host_client.get(url).content.decode()
    assert "Download the PDF" in form and "format=preview" in form
    params = {"variant": "classic", "sheets": "2", "players": "Anna", "paper": "a5",
              "lang": "en", "columns": "6"}
    preview = host_client.get(url, params | {"format": "preview"}).content.decode()
    assert "Anna" in preview and "Full House" in preview and "size: A5" in preview
    download = host_client.get(url, params | {"format": "pdf"})
    assert download["Content-Type"] == "application/pdf"
    assert "attachment" in download["Content-Disposition"]
    pages, _ = read_pdf(download.content)
    assert len(pages) == 2 and "Anna" in pages[0]


@pytest.mark.parametrize("params,message", [
    ({"sheets": "0"}, "Ensure this value is greater than or equal to 1."),
    ({"sheets": "10000"}, "Ensure this value is less than or equal to 500."),
    ({"paper": "a3"}, "Select a valid choice."),
])
def test_bad_parameters_are_explained_on_the_web(host_client, params, message):
    response = host_client.get(reverse("print_pad"), params | {"format": "pdf"})
    assert response.status_code == 400
    assert message in response.content.decode()


def test_printing_needs_a_login(client):
    assert client.get(reverse("print_pad")).status_code == 302


def test_the_print_page_offers_the_tally_sheet_below_the_pad(host_client):
    page = host_client.get(reverse("print_pad")).content.decode()
    title = page[page.index("<title>"):page.index("</title>")]
    assert "<section" not in title
    assert page.count(reverse("print_tally")) == 1


def test_the_first_visit_previews_the_default_pad(host_client):
    page = host_client.get(reverse("print_pad")).content.decode()
    preview = page.split('class="preview"')[1].split('src="')[1].split('"')[0]
    response = host_client.get(preview.replace("&amp;", "&"))
    assert response.status_code == 200
    assert "Full House" in response.content.decode() or "Dreierpasch" in response.content.decode()
