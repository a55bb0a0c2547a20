"""Where a webhook may post (issue 30): to public addresses of the internet only, on the ports
and hosts the operator allows, checked when the board saves the webhook (a French error on the
form, naming the field) and again when it is posted, on the very address connected to (resolved
once: no second lookup that a DNS server could answer differently). A refused address is never
connected to, and the outbox says only that it is refused: the board cannot probe the inside."""

import shutil
import socket
import ssl
import subprocess

import pytest
from django.urls import reverse

from gamenights import services as nights
from tests.federation.test_security import run_python
from webhooks import addresses, delivery, posting
from webhooks.models import Delivery, Webhook

pytestmark = pytest.mark.django_db(transaction=True)

REFUSED = [
    "127.0.0.1",
    "127.8.9.10",
    "::1",
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::127.0.0.1",  # IPv4-compatible (deprecated)
    "2002:7f00:1::1",  # 6to4 around 127.0.0.1
    "64:ff9b::7f00:1",  # NAT64 around 127.0.0.1
    "64:ff9b::a9fe:a9fe",  # NAT64 around 169.254.169.254
    "64:ff9b:1::a00:1",  # local-use NAT64
    "169.254.169.254",  # the cloud's metadata service
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "100.64.0.1",  # carrier-grade NAT
    "0.0.0.0",
    "224.0.0.1",
    "240.0.0.1",
    "255.255.255.255",
    "fc00::1",
    "fe80::1",
    "ff0e::1",
    "2001:db8::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
]
PUBLIC = ["8.8.8.8", "162.159.128.233", "2606:4700::1111", "::ffff:8.8.8.8", "2002:808:808::1"]


@pytest.mark.parametrize("address", REFUSED)
def test_an_address_that_is_not_public_is_refused(address, production_addresses):
    assert addresses.refusal(address)


@pytest.mark.parametrize("address", PUBLIC)
def test_a_public_address_is_accepted(address, production_addresses):
    assert addresses.refusal(address) is None


def test_the_tests_loopback_allowance_opens_loopback_only():
    """`local_chats_allowed` (the tests' setting) lets 127.0.0.1 and ::1 through, nothing else."""
    assert addresses.refusal("127.0.0.1") is None and addresses.refusal("::1") is None
    assert addresses.refusal("::ffff:127.0.0.1") is None
    for address in ("169.254.169.254", "10.0.0.1", "192.168.1.1", "fc00::1", "0.0.0.0"):
        assert addresses.refusal(address), address


def test_production_refuses_loopback_and_any_other_port(production_addresses):
    assert production_addresses.WEBHOOK_ALLOW_LOOPBACK is False
    assert production_addresses.WEBHOOK_ALLOWED_PORTS == (443, 80)
    assert production_addresses.WEBHOOK_ALLOWED_HOSTS == []


def test_the_loopback_allowance_is_never_read_from_the_environment():
    code = (
        "from django.conf import settings as s; "
        "print(s.WEBHOOK_ALLOW_LOOPBACK, s.WEBHOOK_ALLOWED_PORTS, s.WEBHOOK_ALLOWED_HOSTS)"
    )
    result = run_python({"WEBHOOK_ALLOW_LOOPBACK": "1"}, code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False (443, 80) []"
    result = run_python(
        {"WEBHOOK_ALLOWED_PORTS": "*", "WEBHOOK_ALLOWED_HOSTS": "discord.com,.slack.com"}, code
    )
    assert result.stdout.strip() == "False None ['discord.com', '.slack.com']"
    result = run_python({"WEBHOOK_ALLOWED_PORTS": "443,8448"}, code)
    assert result.stdout.strip() == "False (443, 8448) []"
    result = run_python({"WEBHOOK_ALLOWED_PORTS": "443,https"}, code)
    assert result.returncode != 0 and "WEBHOOK_ALLOWED_PORTS" in result.stderr


# --- when the board saves -------------------------------------------------------------------------


@pytest.fixture
def board(client, board_user):
    board_user.is_staff = True  # a season official with the admin, not a superuser
    board_user.save()
    client.force_login(board_user)
    return client


@pytest.fixture
def dns(monkeypatch):
    """The names the tests resolve, without the network: {name: [addresses]}; each lookup counted."""
    names, calls = {}, []

    def lookup(host, port):
        calls.append(host)
        if host not in names:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return list(names[host])

    monkeypatch.setattr(addresses, "lookup", lookup)
    names["calls"] = calls
    return names


def save(board, url):
    return board.post(
        reverse("admin:webhooks_webhook_add"),
        {"name": "Discussion", "url": url, "format": "discord", "active": "on"},
    )


def url_errors(response):
    assert response.status_code == 200, "saved"
    return response.context["adminform"].form.errors["url"]


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/hook",
        "http://localhost/hook",
        "http://[::1]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://10.1.2.3/hook",
    ],
)
def test_the_form_refuses_an_address_inside(board, production_addresses, url):
    [error] = url_errors(save(board, url))
    assert error.startswith("Adresse du webhook refusée :")
    assert "n'est pas une adresse publique" in error
    assert not Webhook.objects.exists()


def test_the_form_refuses_another_scheme_and_another_port(board, production_addresses):
    [error] = url_errors(save(board, "ftp://8.8.8.8/hook"))
    assert error == "Adresse du webhook refusée : seules les adresses http:// et https:// sont permises."
    [error] = url_errors(save(board, "https://8.8.8.8:8443/hook"))
    assert error == (
        "Adresse du webhook refusée : le port 8443 n'est pas permis "
        "(ports permis : 443, 80 ; réglage WEBHOOK_ALLOWED_PORTS)."
    )
    assert not Webhook.objects.exists()


def test_the_form_takes_a_public_address(board, production_addresses, dns):
    dns["discord.example"] = ["162.159.128.233", "2606:4700::6810:1"]
    assert save(board, "https://discord.example/api/webhooks/1/abc").status_code == 302
    assert save(board, "https://8.8.8.8/hook").status_code == 302
    assert Webhook.objects.count() == 2


def test_the_form_refuses_a_name_that_leads_inside_or_nowhere_alike(board, production_addresses, dns):
    """A name is refused if any of its addresses is not public; a name that does not resolve gets
    the same words, so that the form tells nothing of the inside's names."""
    dns["mixte.example"] = ["162.159.128.233", "10.0.0.7"]
    dns["interne.example"] = ["192.168.0.10"]
    errors = [
        url_errors(save(board, f"https://{name}/hook")) for name in ("mixte.example", "interne.example")
    ]
    nowhere = url_errors(save(board, "https://introuvable.example/hook"))
    expected = "Adresse du webhook refusée : « {} » est introuvable ou n'est pas une adresse publique."
    assert [errors[0], errors[1], nowhere] == [
        [expected.format("mixte.example")],
        [expected.format("interne.example")],
        [expected.format("introuvable.example")],
    ]
    assert not Webhook.objects.exists()


def test_the_hosts_may_be_limited(board, production_addresses, dns, settings):
    settings.WEBHOOK_ALLOWED_HOSTS = ["discord.example", ".slack.example"]
    dns.update(
        {name: ["162.159.128.233"] for name in ("discord.example", "hooks.slack.example", "x.example")}
    )
    assert save(board, "https://discord.example/api/webhooks/1/abc").status_code == 302
    assert save(board, "https://hooks.slack.example/services/x").status_code == 302
    for url in ("https://x.example/hook", "https://8.8.8.8/hook", "https://evilslack.example/hook"):
        [error] = url_errors(save(board, url))
        assert "n'est pas permis (réglage WEBHOOK_ALLOWED_HOSTS)" in error, url
    assert Webhook.objects.count() == 2


# --- when it is posted ----------------------------------------------------------------------------


def test_production_posts_nothing_to_the_tests_chat(chat, night, production_addresses, settings):
    """The webhook saved before the rule (or written past the form): refused when posted, the
    chat never connected to; refused for its port, and with every port allowed, for its address."""
    Webhook.objects.create(name="json", url=chat.url("/hook"), format="json")
    nights.cancel_night(night, reason="salle prise")
    assert delivery.wait(10)
    row = Delivery.objects.get()
    assert row.last_error == (
        f"adresse refusée : le port {chat.port} n'est pas permis "
        "(ports permis : 443, 80 ; réglage WEBHOOK_ALLOWED_PORTS)"
    )
    settings.WEBHOOK_ALLOWED_PORTS = None
    Delivery.objects.update(next_attempt_at=row.created_at)
    assert delivery.deliver_all(delivery.due()) == ["pending"]
    row.refresh_from_db()
    assert row.last_error == "adresse refusée : 127.0.0.1 n'est pas une adresse publique"
    assert (chat.connections, chat.posts) == (0, [])


def test_a_refused_address_tells_nothing_of_what_listens_there(chat, night, production_addresses, settings):
    """An open port and a closed one on the inside: the same words, and neither connected to."""
    settings.WEBHOOK_ALLOWED_PORTS = None
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    Webhook.objects.create(name="ouvert", url=chat.url("/hook"), format="json")
    Webhook.objects.create(name="fermé", url=f"http://127.0.0.1:{port}/hook", format="json")
    nights.cancel_night(night, reason="salle prise")
    assert delivery.wait(10)
    errors = set(Delivery.objects.values_list("last_error", flat=True))
    assert errors == {"adresse refusée : 127.0.0.1 n'est pas une adresse publique"}
    assert chat.connections == 0


def test_a_name_that_turns_inside_after_the_form_is_refused_when_posted(
    board, chat, night, production_addresses, dns, settings
):
    """DNS rebinding: public when the board saved it, the inside when it is posted."""
    settings.WEBHOOK_ALLOWED_PORTS = None
    dns["chat.example"] = ["162.159.128.233"]
    assert save(board, f"http://chat.example:{chat.port}/hook").status_code == 302
    Webhook.objects.update(format="json")
    dns["chat.example"] = ["127.0.0.1"]
    nights.cancel_night(night, reason="salle prise")
    assert delivery.wait(10)
    assert Delivery.objects.get().last_error == (
        "adresse refusée : « chat.example » est introuvable ou n'est pas une adresse publique"
    )
    assert chat.connections == 0


def test_the_name_is_resolved_once_and_its_address_connected_to(chat, night, dns):
    """The post goes to the address checked (here loopback, as the tests allow), the name sent
    as the request's host."""
    dns["chat.example"] = ["127.0.0.1"]
    Webhook.objects.create(name="json", url=f"http://chat.example:{chat.port}/hook", format="json")
    nights.cancel_night(night, reason="salle prise")
    assert delivery.wait(10)
    assert Delivery.objects.get().status == "delivered"
    assert chat.headers[0]["Host"] == f"chat.example:{chat.port}"
    assert dns["calls"] == ["chat.example"]


@pytest.mark.parametrize(
    "host",
    [
        "2130706433",  # 127.0.0.1 written as one number…
        "0x7f000001",  # …in hexadecimal…
        "127.1",  # …or shortened: the resolver reads them all (the form refuses them as URLs)
    ],
)
def test_loopback_written_otherwise_is_refused_when_posted(host, production_addresses):
    assert posting.post(f"http://{host}/hook", {}) == (
        f"adresse refusée : « {host} » est introuvable ou n'est pas une adresse publique"
    )


def test_only_http_addresses_are_posted_to(tmp_path):
    target = tmp_path / "cible.txt"
    target.write_text("rien")
    refused = "adresse refusée : seules les adresses http:// et https:// sont permises"
    assert posting.post(target.as_uri(), {"text": "x"}) == refused
    assert posting.post("ftp://127.0.0.1/x", {}) == refused


# --- HTTPS: the name checked in the certificate, sent in the TLS handshake ------------------------


def certificate(folder, name):
    key, cert = folder / f"{name}.key", folder / f"{name}.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={name}"]
        + ["-addext", f"subjectAltName=DNS:{name}", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    return cert, key


@pytest.fixture
def tls_chat(chat, tmp_path):
    """`chat` behind TLS, with a certificate for « chat.example »; records the name each handshake
    asked for (SNI)."""
    cert, key = certificate(tmp_path, "chat.example")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    chat.server_names = []
    context.sni_callback = lambda sock, name, ctx: chat.server_names.append(name)
    chat.socket = context.wrap_socket(chat.socket, server_side=True)
    chat.certificate = cert
    return chat


@pytest.mark.skipif(not shutil.which("openssl"), reason="openssl manque pour faire un certificat")
def test_https_checks_the_names_certificate_on_the_address_connected_to(tls_chat, night, dns, monkeypatch):
    trusted = ssl.create_default_context(cafile=str(tls_chat.certificate))
    monkeypatch.setattr(posting, "tls_context", lambda: trusted)
    dns["chat.example"] = ["127.0.0.1"]
    dns["autre.example"] = ["127.0.0.1"]
    Webhook.objects.create(name="bon", url=f"https://chat.example:{tls_chat.port}/hook", format="json")
    Webhook.objects.create(name="autre", url=f"https://autre.example:{tls_chat.port}/hook", format="json")
    nights.cancel_night(night, reason="salle prise")
    assert delivery.wait(10)
    rows = dict(Delivery.objects.values_list("webhook__name", "last_error"))
    assert rows == {"bon": "", "autre": "certificat refusé"}
    assert Delivery.objects.get(webhook__name="bon").status == "delivered"
    assert sorted(tls_chat.server_names) == ["autre.example", "chat.example"]
    assert [path for path, _body in tls_chat.posts] == ["/hook"]
