"""The templates as Django reads them."""

from pathlib import Path

import pytest

TEMPLATES = sorted((Path(__file__).parents[2] / "templates").rglob("*.html"))


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: path.name)
def test_a_comment_in_braces_ends_on_its_own_line(template):
    """Django's ``{# #}`` comment is one line only: one over two lines shows on the page."""
    for number, line in enumerate(template.read_text().splitlines(), start=1):
        opened = line.find("{#")
        assert opened == -1 or "#}" in line[opened:], f"{template.name}:{number}: {line}"
