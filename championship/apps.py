from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class ChampionshipConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "championship"
    verbose_name = "Championnat"

    def ready(self):
        from federation.models import Player, Season  # noqa: PLC0415 (models are ready now)

        for signal in (post_save, post_delete):
            # A season edited (dates, calendar, rulebook) or a player renamed in the admin: the
            # cached figures they appear in go (`championship.summaries`).
            signal.connect(_season_saved, sender=Season, dispatch_uid="summaries-season")
            signal.connect(_player_saved, sender=Player, dispatch_uid="summaries-player")


def _season_saved(sender, instance, **kwargs):
    from championship.summaries import season_changed  # noqa: PLC0415

    season_changed(instance)


def _player_saved(sender, instance, **kwargs):
    from championship.summaries import season_changed  # noqa: PLC0415

    season_changed(None)
