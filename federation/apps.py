from django.apps import AppConfig


class FederationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "federation"
    verbose_name = "Fédération"

    def ready(self):
        # The receivers: « par son lien » in the history, and the phones' sessions at login and logout.
        from federation import history, private_links  # noqa: F401, PLC0415
