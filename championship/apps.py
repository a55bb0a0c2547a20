from django.apps import AppConfig


class ChampionshipConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "championship"
    verbose_name = "Championnat"
