"""One push to one phone (the Push API: RFC 8030, its encryption RFC 8291, VAPID RFC 8292),
for `notifications.news` (docs/exploitation.md, « Les nouvelles sur le téléphone »).

The payload is the message's title, text and link, nothing else, encrypted for the phone
(``aes128gcm``, by pywebpush's `WebPusher.encode` with http_ece) and signed with the site's VAPID
key (py_vapid). It is posted by the webhooks' sender (`webhooks.posting.request`): the address
checked and its name resolved once, connected to the address so checked, and one deadline,
PUSH_TIMEOUT seconds, for the whole post. A phone's push address is given by its browser, so it
is held to rules of its own (`rules`): https, port 443, a host of PUSH_ALLOWED_HOSTS (the browsers'
push services), public addresses only; checked when the phone subscribes (`check`) and again at
each push.

The push service's answer: 201 (or any 2xx) sent; 404 or 410, the phone is gone (unsubscribed,
the app removed): `Result.forgotten`, and `news` deletes it; 429 and 5xx, later (after its
`Retry-After` if it says one); any other answer, given up. The address is a secret: what this
module says names its host only.
"""

import datetime
import functools
import json
import time
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import timezone

from federation.row_outbox import Result
from webhooks import addresses, posting

TTL = 12 * 60 * 60  # seconds a push service keeps a news for a phone that is off
VAPID_LIFE = 12 * 60 * 60  # the VAPID token's own life (at most 24 h, RFC 8292)


def rules():
    loopback = settings.PUSH_ALLOW_LOOPBACK
    return addresses.Rules(
        ("https", "http") if loopback else ("https",),
        None if loopback else (443,),
        tuple(settings.PUSH_ALLOWED_HOSTS),
        loopback,
        "PUSH_ALLOWED_HOSTS",
    )


def check(endpoint):
    """`addresses.Refused` if a phone may not subscribe with `endpoint` (its form only: its name
    is resolved and checked at each push)."""
    addresses.parse(endpoint, rules())


def host(endpoint):
    return urlsplit(endpoint or "").hostname or "?"


@functools.cache
def signer(private_key):
    from py_vapid import Vapid02  # noqa: PLC0415 (imported on the first push: every command starts faster)

    vapid = Vapid02.from_string(private_key)
    vapid.conf["no-strict"] = True  # a subject in http:// (a site on localhost) signs too
    return vapid


def vapid_headers(endpoint):
    parts = urlsplit(endpoint)
    claims = {
        "aud": f"{parts.scheme}://{parts.netloc}",
        "sub": settings.VAPID_SUBJECT,
        "exp": int(time.time()) + VAPID_LIFE,
    }
    return signer(settings.VAPID_PRIVATE_KEY).sign(claims)


def payload(message):
    """What the phone receives: the title, the text and the link, nothing else."""
    found = {"title": message["title"], "text": message["text"], "url": message["url"]}
    return json.dumps(found, ensure_ascii=False).encode()


def encrypt(subscription, data):
    """`data` encrypted for `subscription`'s phone (``aes128gcm``)."""
    from pywebpush import WebPusher  # noqa: PLC0415 (with aiohttp, 0.3 s to import: on the first push)

    info = {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    return WebPusher(info).encode(data, "aes128gcm")["body"]


def retry_after(headers):
    """The push service's `Retry-After` (seconds or a date) as a wait, or None."""
    value = (headers or {}).get("Retry-After")
    if not value:
        return None
    try:
        return datetime.timedelta(seconds=max(int(value), 0))
    except ValueError:
        pass
    try:
        return max(parsedate_to_datetime(value) - timezone.now(), datetime.timedelta(0))
    except (TypeError, ValueError):
        return None


def verdict(status, headers):
    if 200 <= status < 300:
        return Result()
    if status in (404, 410):
        return Result(f"HTTP {status} : téléphone désabonné", retry=False, forgotten=True)
    if status == 429 or status >= 500:
        return Result(f"HTTP {status}", later=retry_after(headers))
    return Result(f"HTTP {status}", retry=False)


def push(subscription, message):
    """Push `message` (title, text, url) to `subscription`'s phone: a `Result`."""
    deadline = posting.Deadline(float(settings.PUSH_TIMEOUT))
    try:
        body = encrypt(subscription, payload(message))
        headers = {
            **vapid_headers(subscription.endpoint),
            "TTL": str(TTL),
            "Urgency": "normal",
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
        }
        target = addresses.target(subscription.endpoint, deadline.left(), rules())
        status, answer = posting.request(target, body, headers, deadline)
    except addresses.Refused as refused:
        return Result(f"adresse refusée : {refused.reason}", retry=False)
    except Exception as error:  # noqa: BLE001 — every failure is a failure of this push, in words
        return Result("délai dépassé" if deadline.passed.is_set() else posting.failure(error))
    result = verdict(status, answer)
    if result.done:
        type(subscription).objects.filter(pk=subscription.pk).update(last_sent_at=timezone.now())
    return result
