"""`python manage.py vapid_keys`: a new VAPID key pair for the phones' news, printed as the two
settings to put in the environment (docs/exploitation.md, « Les nouvelles sur le téléphone »).
Nothing is stored: the private key is shown once, here. A new pair makes every phone's
subscription useless (the push services refuse a key they were not given): each member
subscribes his phone again from « Moi »."""

from cryptography.hazmat.primitives import serialization
from django.core.management.base import BaseCommand
from py_vapid import Vapid02
from py_vapid.utils import b64urlencode


def new_pair():
    """(private key, public key), both base64url: the raw 32-byte scalar and the uncompressed
    point (what a browser's `applicationServerKey` takes)."""
    vapid = Vapid02()
    vapid.generate_keys()
    number = vapid.private_key.private_numbers().private_value
    private = b64urlencode(number.to_bytes(32, "big"))
    public = b64urlencode(
        vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    )
    return private, public


class Command(BaseCommand):
    help = (
        "Crée une paire de clés VAPID pour les nouvelles sur les téléphones (à mettre dans l'environnement)."
    )

    def handle(self, *args, **options):
        private, public = new_pair()
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}\nVAPID_PUBLIC_KEY={public}")
        self.stderr.write(
            "Gardez VAPID_PRIVATE_KEY secrète (comme SECRET_KEY) ; en changer oblige chaque membre à "
            "réabonner son téléphone."
        )
