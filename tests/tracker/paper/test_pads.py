"""Kniffel pads, printed from the command line and the web, read back from the PDF."""

import io
from itertools import product

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.factories import PlayerFactory
from tests.tracker.paper.conftest import boxes, escaping_text, has_class, laid_out, read_pdf
from tracker.common.pdf import render_html
from tracker.paper.printing import MAX_COLUMNS, Pad, pad_context, render_pad

pytestmark = pytest.mark.django_db


#: 40 characters, the longest name a player can have, with emoji among them.
LONGEST_NAME = "Anna-Lena Müller-Lüdenscheid 🎲🚀 Sternch"
#: 40 of the widest letters: the name line takes two lines.
WIDEST_NAME = "W" * 38 + "🎲🚀"
MM = 96 / 25.4  # CSS pixels in a millimetre
#: Every language the site offers: the long French, Italian and Dutch labels must fit too.
LANGUAGES = [code for code, _name in settings.LANGUAGES]


def pad_pdf(tmp_path, *args: str) -> tuple[list[str], dict]:
    output = tmp_path / "pad.pdf"
    call_command("kniffel_pad", *args, "-o", str(output), stdout=io.StringIO())
    return read_pdf(output.read_bytes())


def pad_html(variant: str = "classic", paper: str = "a4", columns: int = 6,
             names: tuple[str, ...] = (LONGEST_NAME,), language: str = "de") -> str:
    pad = Pad(variant, 1, names, paper, language, columns)
    return render_html("print/kniffel_pad.html", pad_context(pad), language)


def test_a_pad_with_names_in_german(tmp_path):
    pages, metadata = pad_pdf(tmp_path, "--variant", "classic", "--sheets", "3",
                              "--players", "Anna,Ben", "--paper", "a4", "--lang", "de")
    assert len(pages) == 6
    assert all("Anna" in page for page in pages[:3]) and all("Ben" in page for page in pages[3:])
    for label in ("Einser", "Sechser", "gesamt", "Bonus bei 63 oder mehr", "gesamt oberer Teil",
                  "Dreierpasch", "Full-House", "Kleine Straße", "Große Straße", "Kniffel",
                  "Chance", "gesamt unterer Teil", "Endsumme", "Spiel 6", "OBERER TEIL",
                  "UNTERER TEIL"):
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
    for label in ("Ones", "Sixes", "Total", "Bonus at 63 or more", "Upper total",
                  "Three of a kind", "Small straight", "Lower total", "Grand total", "Game 4",
                  "UPPER SECTION", "LOWER SECTION"):
        assert label in pages[1], label
    assert "Game 5" not in pages[1]
    assert "upper total" not in pages[1] and "lower total" not in pages[1]


def test_a_pad_in_french_has_the_names_of_french_score_pads(tmp_path):
    pages, metadata = pad_pdf(tmp_path, "--lang", "fr", "--players", "Amélie")
    for label in ("As", "Six", "Prime si 63 ou plus", "Total du haut", "Brelan", "Carré",
                  "Full", "Petite suite", "Grande suite", "Yahtzee", "Chance", "Total du bas",
                  "Total général", "Partie 6", "PARTIE HAUTE", "Amélie"):
        assert label in pages[0], label
    assert metadata["/Title"] == "Bloc Yahtzee"
    pages, _ = pad_pdf(tmp_path, "--lang", "fr", "--variant", "space")
    for label in ("Ovni", "Fusée", "Nébuleuse", "Étoile", "Soleil", "Planète", "Triplés",
                  "Deux paires", "Un triplé + une paire", "Cinq symboles différents",
                  "Kniffel Espace"):
        assert label in pages[0], label


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_command_prints_a_pad_in_every_language(tmp_path, language):
    from pypdf import PdfReader

    pages, _ = pad_pdf(tmp_path, "--lang", language)
    assert len(pages) == 1
    assert PdfReader(tmp_path / "pad.pdf").root_object["/Lang"] == language


@pytest.mark.parametrize("variant,paper,columns", [
    (variant, paper, columns) for variant, paper in product(("classic", "space"),
                                                            ("a4", "a5", "letter"))
    for columns in range(1, MAX_COLUMNS[paper] + 1)])
def test_every_pad_prints_one_page_per_sheet(variant, paper, columns):
    pad = Pad(variant, 2, (WIDEST_NAME,), paper, "de", columns)
    pages, _ = read_pdf(render_pad(pad))
    assert len(pages) == pad.pages == 2
    assert all("WWWWW" in page and "Endsumme" in page for page in pages)


def test_a_names_sheets_come_together():
    pad = Pad("space", 3, (LONGEST_NAME, "Ben"), "a5", "de", 7)
    pages, _ = read_pdf(render_pad(pad))
    assert len(pages) == pad.pages == 6
    assert [LONGEST_NAME[:20] in page for page in pages] == [True] * 3 + [False] * 3
    assert ["Name: Ben" in page for page in pages] == [False] * 3 + [True] * 3


@pytest.mark.parametrize("variant,paper,columns,language", [
    *[(variant, paper, columns, "de") for variant, paper in product(
        ("classic", "space"), ("a4", "a5", "letter")) for columns in (1, MAX_COLUMNS[paper])],
    # The most columns leave the least room for every label and header: enough for the others.
    *[(variant, paper, MAX_COLUMNS[paper], language) for variant, paper, language in product(
        ("classic", "space"), ("a4", "a5", "letter"),
        [language for language in LANGUAGES if language != "de"])],
])
def test_no_text_leaves_its_cell_or_the_page(variant, paper, columns, language):
    assert escaping_text(pad_html(variant, paper, columns, language=language)) == []


@pytest.mark.parametrize("paper,columns,language",
                         [(paper, columns, language) for paper, columns in [("a4", 7), ("a5", 4)]
                          for language in LANGUAGES if language != "de"])
def test_worded_column_headers_fit(paper, columns, language):
    assert escaping_text(pad_html("classic", paper, columns, language=language)) == []


def test_a_300_character_name_stays_on_its_one_page():
    name = "Wolkenkuckucksheim" * 17
    pad = Pad("classic", 1, (name[:300],), "a5", "de", 7)
    html = render_html("print/kniffel_pad.html", pad_context(pad), "de")
    assert escaping_text(html) == []
    [page], _ = read_pdf(render_pad(pad))
    assert name[:39] + "…" in page and name[:41] not in page


def cell_lines(html: str, text: str) -> int:
    """How many lines the table cell holding ``text`` takes."""
    [page] = laid_out(html).pages
    cells = [box for box in boxes(page._page_box) if type(box).__name__ == "TableCellBox"
             and text in "".join(getattr(b, "text", "") for b in boxes(box))]
    return sum(1 for box in boxes(cells[0]) if type(box).__name__ == "LineBox")


def test_the_label_column_is_wide_enough_and_the_hints_readable():
    html = pad_html(columns=10)
    assert cell_lines(html, "Bonus bei 63 oder mehr") <= 2
    assert cell_lines(html, "Kleine Straße") == 1
    assert cell_lines(html, "gesamt oberer Teil") == 1
    [page] = laid_out(html).pages
    hints = [box for box in boxes(page._page_box)
             if type(box).__name__ == "TextBox" and has_class(box, "hint")]
    assert len(hints) > 13 and min(box.style["font_size"] for box in hints) >= 8 * 96 / 72


@pytest.mark.parametrize("variant", ["classic", "space"])
def test_rows_are_even_and_fill_an_a4_page(variant):
    [page] = laid_out(pad_html(variant, "a4", 6)).pages
    [body] = [box for box in boxes(page._page_box) if box.element_tag == "tbody"]
    rows = [row for row in body.children if not has_class(row, "section")]
    assert len(rows) == (20 if variant == "classic" else 12)  # classic: with further Kniffels
    heights = [row.height for row in rows]
    assert max(heights) - min(heights) < 0.3 * MM  # the thick rules under the sums
    bottom = rows[-1].position_y + rows[-1].height
    assert page.height - bottom < 30 * MM  # 14 mm of it the bottom margin


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
    (["--lang", "es"], "--lang: Select a valid choice."),
])
def test_bad_parameters_are_refused_on_the_command_line(tmp_path, args, message):
    with pytest.raises(CommandError) as refused:
        call_command("kniffel_pad", *args, "-o", str(tmp_path / "pad.pdf"))
    assert message in str(refused.value)
    assert not (tmp_path / "pad.pdf").exists()


def test_a_missing_output_folder_is_refused(tmp_path):
    with pytest.raises(CommandError, match="does not exist"):
        call_command("kniffel_pad", "-o", str(tmp_path / "nowhere" / "pad.pdf"))


def test_a_folder_as_output_is_refused(tmp_path):
    with pytest.raises(CommandError, match="is a folder; give a file name"):
        call_command("kniffel_pad", "-o", str(tmp_path))


@pytest.mark.parametrize("players,message", [
    (",".join(f"Player {n}" for n in range(200)),
     "--players: At most 12 names at once, not 200: print the others as a second pad."),
    ("Anna," + "x" * 41, "--players: A name has at most 40 characters: " + "x" * 40 + "…"),
])
def test_too_many_or_too_long_names_are_explained(tmp_path, players, message):
    with pytest.raises(CommandError) as refused:
        call_command("kniffel_pad", "--players", players, "-o", str(tmp_path / "pad.pdf"))
    assert str(refused.value) == message


def test_a_pad_has_at_most_500_pages(tmp_path):
    with pytest.raises(CommandError, match="That would be 1000 pages; at most 500 pages"):
        call_command("kniffel_pad", "--sheets", "500", "--players", "Anna,Ben",
                     "-o", str(tmp_path / "pad.pdf"))


def test_the_command_takes_capitals_and_reports_the_pages(tmp_path):
    output = io.StringIO()
    call_command("kniffel_pad", "--paper", "A5", "--variant", "Space", "--lang", "EN",
                 "--players", "Anna,Ben", "--sheets", "3", "-o", str(tmp_path / "pad.pdf"),
                 stdout=output)
    assert output.getvalue().strip() == f"Wrote {tmp_path / 'pad.pdf'} (6 pages)."
    pages, _ = read_pdf((tmp_path / "pad.pdf").read_bytes())
    assert len(pages) == 6 and "Space Kniffel" in pages[0]


def test_the_web_form_previews_and_downloads(host_client):
    url = reverse("print_pad")
    form = host_client.get(url).content.decode()
    assert "Download the PDF" in form and "format=preview" in form
    params = {"variant": "classic", "sheets": "2", "players": "Anna", "paper": "a5",
              "lang": "en", "columns": "6"}
    page = host_client.get(url, params).content.decode()
    assert "The PDF has 2 pages." in page
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
    ({"sheets": "50", "players": ",".join(f"P{n}" for n in range(12))},
     "That would be 600 pages; at most 500 pages at once."),
    ({"players": ",".join(f"P{n}" for n in range(200))}, "At most 12 names at once, not 200"),
])
def test_bad_parameters_are_explained_on_the_web(host_client, params, message):
    response = host_client.get(reverse("print_pad"), params | {"format": "pdf"})
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page and "Download the PDF" not in page


def test_the_print_page_offers_the_household_players_one_sheet_each(host_client, family,
                                                                     household):
    PlayerFactory(household=household, name="Zoë 🦄")
    url = reverse("print_pad")
    page = host_client.get(url).content.decode()
    for player in family:
        assert f'name="picked" value="{player.name}"' in page
    assert 'value="Zoë 🦄"' in page
    page = host_client.get(url, {"picked": [family[0].name, family[1].name],
                                 "players": "Oma, " + family[0].name}).content.decode()
    assert "The PDF has 3 pages." in page
    pdf = host_client.get(url, {"picked": [family[0].name, family[1].name],
                                "players": "Oma", "format": "pdf"})
    pages, _ = read_pdf(pdf.content)
    assert [page.split("Name: ")[1].split(" ")[0] for page in pages] == [
        family[0].name, family[1].name, "Oma"]


def test_missing_parameters_take_their_defaults(host_client):
    pages, _ = read_pdf(host_client.get(reverse("print_pad"),
                                        {"paper": "A5", "format": "pdf"}).content)
    assert len(pages) == 1 and "Name: 1 2 3 4 5 6 UPPER SECTION" in pages[0]


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
    assert "Full-House" in response.content.decode() or "Full House" in response.content.decode()


@pytest.mark.parametrize("variant,paper", product(("classic", "space"), ("a4", "a5", "letter")))
def test_game_columns_have_room_for_three_handwritten_digits(variant, paper):
    html = pad_html(variant, paper, MAX_COLUMNS[paper])
    [page] = laid_out(html).pages
    widths = {round(box.border_width() / MM, 1) for box in boxes(page._page_box)
              if has_class(box, "value")}
    assert widths and min(widths) >= 10


def test_an_a5_pad_of_ten_columns_is_refused_with_the_reason(host_client):
    response = host_client.get(reverse("print_pad"), {
        "variant": "classic", "paper": "a5", "columns": "10", "format": "pdf", "lang": "en"})

    assert response.status_code == 400
    assert "An A5 sheet has room for at most 7 game columns" in response.content.decode()
    ok = host_client.get(reverse("print_pad"), {
        "variant": "classic", "paper": "a5", "columns": "7", "format": "pdf", "lang": "en"})
    assert ok["Content-Type"] == "application/pdf"


def test_a_blank_classic_pad_has_a_row_for_further_kniffels(tmp_path):
    [page], _ = pad_pdf(tmp_path, "--variant", "classic", "--lang", "en")
    assert "Further Kniffels (bonus) 50 points each Lower total" in page
