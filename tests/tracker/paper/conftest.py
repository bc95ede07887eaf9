import io

import pytest
from pypdf import PdfReader

#: Room for rounding in WeasyPrint's layout, in CSS pixels (a quarter of a millimetre).
SLACK = 1.0


def read_pdf(data: bytes) -> tuple[list[str], dict]:
    """The text of each page (white space folded, as lines wrap), and the metadata."""
    reader = PdfReader(io.BytesIO(data))
    pages = [" ".join(page.extract_text().split()) for page in reader.pages]
    return pages, dict(reader.metadata or {})


def escaping_text(html: str) -> list[str]:
    """Text laid out beyond its table cell or beyond the page, as "page: text" lines.

    Lays ``html`` out with WeasyPrint and compares each piece of text with the
    border box of the cell it is in, and with the page itself.
    """
    from weasyprint import HTML
    from weasyprint.formatting_structure.boxes import TableCellBox, TextBox

    found = []

    def walk(box, cell, page_number, page_width, page_height):
        if isinstance(box, TableCellBox):
            cell = box
        if isinstance(box, TextBox) and box.text.strip():
            right, bottom = box.position_x + box.width, box.position_y + box.height
            outside_page = (box.position_x < -SLACK or right > page_width + SLACK
                            or box.position_y < -SLACK or bottom > page_height + SLACK)
            outside_cell = cell is not None and (
                box.position_x < cell.border_box_x() - SLACK
                or right > cell.border_box_x() + cell.border_width() + SLACK)
            if outside_page or outside_cell:
                found.append(f"{page_number}: {box.text}")
        for child in getattr(box, "children", []):
            walk(child, cell, page_number, page_width, page_height)

    for number, page in enumerate(HTML(string=html).render().pages, start=1):
        walk(page._page_box, None, number, page.width, page.height)
    return found


@pytest.fixture
def pdf_text():
    return read_pdf


def laid_out(html: str):
    """WeasyPrint's layout of ``html``: its pages, each with its tree of boxes."""
    from weasyprint import HTML

    return HTML(string=html).render()


def boxes(box):
    """``box`` and every box inside it."""
    yield box
    for child in getattr(box, "children", []):
        yield from boxes(child)


def has_class(box, name: str) -> bool:
    element = getattr(box, "element", None)
    return element is not None and name in (element.get("class") or "").split()


def text_sizes(html: str, within: str) -> list[float]:
    """The font size (pt) of every piece of text inside boxes of class ``within``, and the
    number of pages: ``(sizes, pages)``."""
    pages = laid_out(html).pages
    sizes = []

    def walk(box, inside):
        inside = inside or has_class(box, within)
        if inside and type(box).__name__ == "TextBox" and box.text.strip():
            sizes.append(round(box.style["font_size"] * 72 / 96, 1))
        for child in getattr(box, "children", []):
            walk(child, inside)

    for page in pages:
        walk(page._page_box, False)
    return sizes, len(pages)
