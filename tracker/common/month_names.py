"""Month names as the app's dates write them ("25 novembre 2026").

Django's own Italian catalog capitalises the months ("25 Novembre 2026"), which Italian
writes in lower case. The app's catalogs are looked up before Django's, so the names
marked here take the place of Django's in every date Django formats for the app: the
``F`` of ``DATE_FORMAT``, ``YEAR_MONTH_FORMAT`` and ``MONTH_DAY_FORMAT`` in every
language. Nothing imports this module; ``make messages`` reads it.
"""

from django.utils.translation import gettext_noop

MONTHS = [
    # Translators: a month as a date writes it; Italian in lower case ("25 novembre 2026").
    gettext_noop("January"), gettext_noop("February"), gettext_noop("March"),
    gettext_noop("April"), gettext_noop("May"), gettext_noop("June"), gettext_noop("July"),
    gettext_noop("August"), gettext_noop("September"), gettext_noop("October"),
    gettext_noop("November"), gettext_noop("December"),
]
