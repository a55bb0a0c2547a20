from django.apps import AppConfig


class GameNightsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "gamenights"
    verbose_name = "Soirées"

    def ready(self):
        """The competition reads the calendar through one door (`championship.lib.calendar`); a
        member's feed key is made with his account (`gamenights.receivers`)."""
        from championship.lib import calendar  # noqa: PLC0415 (applications are loaded)
        from gamenights import receivers  # noqa: F401, PLC0415
        from gamenights.schedule import Calendar  # noqa: PLC0415

        calendar.register(Calendar())
