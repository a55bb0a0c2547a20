from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebhooksConfig(AppConfig):
    name = "webhooks"
    verbose_name = _("annonces (webhooks)")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from webhooks import receivers  # noqa: F401, PLC0415 — connects the receivers
