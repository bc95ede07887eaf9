from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TrackerConfig(AppConfig):
    name = "tracker"
    verbose_name = _("Game nights")

    def ready(self) -> None:
        from tracker.households.auth import connect_signals

        connect_signals()
