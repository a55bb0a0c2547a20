from django.apps import AppConfig


class GameNightsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "gamenights"
    verbose_name = "Soirées"
