from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = "Rappels"

    def ready(self):
        from notifications import receivers  # noqa: F401, PLC0415 — connects the receivers
