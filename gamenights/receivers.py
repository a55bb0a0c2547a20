"""What the calendar does when the federation changes (registered by `GameNightsConfig.ready`)."""

from django.db.models.signals import post_save
from django.dispatch import receiver

from federation.models import Player
from gamenights import services


@receiver(post_save, sender=Player, dispatch_uid="gamenights.feed_key_with_the_account")
def make_the_feed_key_with_the_account(sender, instance, raw=False, **kwargs):
    """A player given an account gets the key of his own feed in the same write, so that the pages
    showing his address only read it: a page reads in one snapshot (federation.snapshot), and on
    SQLite a write inside it fails (« database is locked ») when another connection committed
    since the page's first read. Players who had an account before: migration 0004."""
    if instance.user_id is not None and not raw:
        services.feed_key(instance)
