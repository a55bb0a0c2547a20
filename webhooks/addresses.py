"""Where a webhook may post (docs/exploitation.md, « Où un webhook peut poster »). Its address
is typed by a season's board, who are not trusted with the server's own network: a webhook
posts over http or https, to a port of WEBHOOK_ALLOWED_PORTS, to a host of WEBHOOK_ALLOWED_HOSTS
if that is set, and only to public addresses of the internet (`refusal`): every address its name
resolves to must be public, IPv6 forms that wrap an IPv4 address (mapped, 6to4, NAT64) judged by
the address they wrap.

`target(url)` checks an address and resolves its name, once: the board's form calls it when the
webhook is saved, `webhooks.posting` again for each post and connects to the addresses it
returned, never resolving the name a second time (a DNS answer changed in between, « DNS
rebinding », cannot send the post inside). `Refused` says why, naming the rule broken; a name
that does not resolve gets the same words as one that leads inside, so that nothing tells the
board which names, or what listens, inside.
"""

import ipaddress
import socket
import threading
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

PORTS = {"http": 80, "https": 443}
NAT64 = ipaddress.ip_network("64:ff9b::/96")  # the well-known prefix: a public IPv4 inside
LOCAL_NAT64 = ipaddress.ip_network("64:ff9b:1::/48")  # a network's own translator


class Refused(Exception):
    """A webhook's address that is not posted to; `reason` names the rule it breaks."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Rules:
    """What an address may name: its schemes, its ports (None: any), its hosts (empty: any), and
    whether loopback counts as public (the tests' own servers). A webhook's are the WEBHOOK_
    settings (`webhook_rules`); a phone's push address has its own (`notifications.push`)."""

    schemes: tuple
    ports: object
    hosts: tuple
    loopback: bool
    setting: str = "WEBHOOK_ALLOWED_HOSTS"  # named when a host is refused


def webhook_rules():
    return Rules(
        tuple(PORTS),
        settings.WEBHOOK_ALLOWED_PORTS,
        tuple(settings.WEBHOOK_ALLOWED_HOSTS),
        settings.WEBHOOK_ALLOW_LOOPBACK,
    )


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # the name (ASCII, IDNA) or the address, as the request's host and TLS's SNI
    port: int
    path: str  # with its query
    addresses: tuple  # where to connect, each checked


def wrapped(ip):
    """The IPv4 address an IPv6 address stands for (mapped, 6to4, NAT64), or None."""
    if ip.version != 6:
        return None
    if ip.ipv4_mapped:
        return ip.ipv4_mapped
    if ip.sixtofour:
        return ip.sixtofour
    if ip in NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def is_public(ip, loopback=None):
    loopback = settings.WEBHOOK_ALLOW_LOOPBACK if loopback is None else loopback
    inner = wrapped(ip)
    if inner is not None:
        return is_public(inner, loopback)
    if loopback and ip.is_loopback:
        return True  # the tests' chats (federation/settings.py says why it is safe)
    if ip.version == 6 and (ip.teredo or ip in LOCAL_NAT64):
        return False
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_unspecified)


def refusal(address, loopback=None):
    """Why `address` (an IP address) is not posted to, or None if it may be."""
    ip = ipaddress.ip_address(address.split("%")[0])  # an IPv6 scope is no part of the address
    if is_public(ip, loopback):
        return None
    return _("%(address)s n'est pas une adresse publique") % {"address": address}


def host_allowed(host, allowed=None):
    allowed = settings.WEBHOOK_ALLOWED_HOSTS if allowed is None else allowed
    if not allowed:
        return True
    return any(
        host == name or (name.startswith(".") and (host == name[1:] or host.endswith(name)))
        for name in allowed
    )


def parse(url, rules=None):
    """(scheme, host, port, path) of `url`, its host in ASCII; `Refused` if the rules forbid it."""
    rules = rules or webhook_rules()
    parts = urlsplit(url or "")
    scheme = parts.scheme.lower()
    if scheme not in rules.schemes:
        if rules.schemes == ("https",):
            raise Refused(_("seules les adresses https:// sont permises"))
        raise Refused(_("seules les adresses http:// et https:// sont permises"))
    try:
        host = (parts.hostname or "").encode("idna").decode("ascii").lower()
        port = parts.port or PORTS[scheme]
    except (UnicodeError, ValueError):
        raise Refused(_("son hôte ou son port n'est pas lisible")) from None
    if not host:
        raise Refused(_("elle n'a pas d'hôte"))
    ports = rules.ports
    if ports is not None and port not in ports:
        if rules.setting != "WEBHOOK_ALLOWED_HOSTS":
            raise Refused(_("le port %(port)s n'est pas permis") % {"port": port})
        raise Refused(
            _("le port %(port)s n'est pas permis (ports permis : %(ports)s ; réglage WEBHOOK_ALLOWED_PORTS)")
            % {"port": port, "ports": ", ".join(map(str, ports))}
        )
    if not host_allowed(host, rules.hosts):
        if rules.setting != "WEBHOOK_ALLOWED_HOSTS":
            raise Refused(
                _("l'hôte « %(host)s » n'est pas un service de notifications permis (réglage %(setting)s)")
                % {"host": host, "setting": rules.setting}
            )
        raise Refused(
            _("l'hôte « %(host)s » n'est pas permis (réglage WEBHOOK_ALLOWED_HOSTS)") % {"host": host}
        )
    path = parts.path or "/"
    return scheme, host, port, path + (f"?{parts.query}" if parts.query else "")


def lookup(host, port):
    """The addresses of `host`, in the system resolver's order (`socket.gaierror` if none)."""
    found = []
    for *_rest, sockaddr in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        if sockaddr[0] not in found:
            found.append(sockaddr[0])
    return found


def resolve(host, port, timeout):
    """`lookup` within `timeout` seconds (`TimeoutError` past it): on a thread of its own, left to
    end by the resolver's own time limit, so that a slow DNS server cannot hold the post."""
    answer = {}

    def run():
        try:
            answer["addresses"] = lookup(host, port)
        except (OSError, UnicodeError) as error:
            answer["error"] = error

    thread = threading.Thread(target=run, name="tarot-webhook-dns", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise TimeoutError("résolution du nom trop longue")
    return answer.get("addresses") or []


def literal(host):
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def target(url, timeout=None, rules=None):
    """The checked `Target` of `url`: `Refused` if a rule forbids it (`rules`: a webhook's by
    default); `TimeoutError` if its name took more than `timeout` seconds to resolve."""
    rules = rules or webhook_rules()
    scheme, host, port, path = parse(url, rules)
    if literal(host) is not None:
        reason = refusal(host, rules.loopback)
        if reason:
            raise Refused(reason)
        return Target(scheme, host, port, path, (host,))
    timeout = float(settings.WEBHOOK_TIMEOUT) if timeout is None else timeout
    addresses = resolve(host, port, timeout)
    if not addresses or any(refusal(address, rules.loopback) for address in addresses):
        raise Refused(_("« %(host)s » est introuvable ou n'est pas une adresse publique") % {"host": host})
    return Target(scheme, host, port, path, tuple(addresses))
