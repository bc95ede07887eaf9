import io

import pytest
from pypdf import PdfReader


def read_pdf(data: bytes) -> tuple[list[str], dict]:
    """The text of each page (white space folded, as lines wrap), and the metadata."""
    reader = PdfReader(io.BytesIO(data))
    pages = [" ".join(page.extract_text().split()) for page in reader.pages]
    return pages, dict(reader.metadata or {})


@pytest.fixture
def pdf_text():
    return read_pdf
