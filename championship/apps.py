from django.apps import AppConfig
from django.db.models.signals import post_migrate, pre_save


class ChampionshipConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "championship"
    verbose_name = "Championnat"

    def ready(self):
        from championship.lib import summaries  # noqa: PLC0415 (models are ready now)
        from championship.models import FigureToken  # noqa: PLC0415
        from championship.views import warming  # noqa: PLC0415 (models are ready now)

        post_migrate.connect(_install_triggers, sender=self, dispatch_uid="figure-tokens-triggers")
        pre_save.connect(_fresh_loaded_token, sender=FigureToken, dispatch_uid="figure-tokens-loaded")
        summaries.written.connect(warming.season_written, dispatch_uid="figures-warming")


def _install_triggers(sender, using, **kwargs):
    """After every `migrate` (and `flush`): SQLite drops a table's triggers when a migration
    rebuilds it, and a new model needs its own (`championship.lib.figure_tokens`)."""
    from championship.lib.figure_tokens import install_triggers  # noqa: PLC0415

    install_triggers(using)


def _fresh_loaded_token(sender, instance, raw=False, **kwargs):
    """A token read from a fixture (`loaddata`) is replaced by a new one: the rows loaded with
    it may not be the state it was the token of."""
    if raw:
        from championship.lib.figure_tokens import new_token  # noqa: PLC0415

        instance.token = new_token()
