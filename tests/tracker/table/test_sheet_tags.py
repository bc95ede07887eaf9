"""The sheet's cells are written in Python, as the templates would write them."""

import pytest
from django.utils import translation
from django.utils.formats import localize

from tracker.templatetags.sheet_tags import whole


@pytest.mark.parametrize("language", ["de", "en", "fr", "it", "nl"])
def test_the_sheet_writes_whole_numbers_as_every_language_does(language):
    with translation.override(language):
        for number in (0, 7, 375, 1575, 12345):
            assert whole(number) == localize(number)
