"""PDFs laid out once per version and served from the store, within a time and memory limit."""

import datetime
import logging
import os
import stat
import threading
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from championship.lib import pdf, pdf_child
from championship.lib.pdf import RENDERER, render_pdf
from championship.models import Report, Round
from championship.reports.display import report_display
from championship.services.reports import file_report as save_report
from tests.factories import make_round, player

from .test_reports_pdf import pdf_text


@pytest.fixture(autouse=True)
def store(settings, tmp_path):
    settings.PDF_CACHE_DIR = tmp_path / "pdf"
    settings.PDF_RENDER_TIMEOUT = 60
    settings.PDF_RENDER_MEMORY_MB = 768
    return settings.PDF_CACHE_DIR


@pytest.fixture
def homologated(season):
    round_ = make_round(season, status=Round.HOMOLOGATED)
    Report.objects.create(
        round=round_, author=player("Bruno"), text="Bruno a tout raflé.", filed_on=datetime.date(2010, 11, 24)
    )
    return round_


def report_url(round_):
    return reverse("championship:report_pdf", args=[round_.pk])


def bulletin_url():
    return reverse("championship:bulletin_pdf", args=["2010-2011"])


def test_it_lays_out_a_report_once_for_two_visits(client, homologated, store):
    before = RENDERER.renders
    first = client.get(report_url(homologated))
    second = client.get(report_url(homologated))
    assert first.status_code == second.status_code == 200
    assert RENDERER.renders - before == 1
    assert first.content == second.content and first.content.startswith(b"%PDF")
    assert first["ETag"] == second["ETag"]
    digest = first["ETag"].strip('"')
    assert (store / f"{digest}.pdf").read_bytes() == first.content
    assert "public" in first["Cache-Control"] and "no-cache" in first["Cache-Control"]
    assert 'filename="compte-rendu-2010-2011-manche-1.pdf"' in second["Content-Disposition"]


def test_it_answers_not_modified_to_a_visitor_who_has_the_pdf(client, homologated):
    etag = client.get(report_url(homologated))["ETag"]
    before = RENDERER.attempts
    response = client.get(report_url(homologated), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304 and response.content == b""
    assert response["ETag"] == etag
    assert RENDERER.attempts == before


def test_it_lays_out_again_when_the_report_changes(client, homologated):
    first = client.get(report_url(homologated))
    save_report(homologated, "Alice a pris sa revanche.")
    before = RENDERER.renders
    second = client.get(report_url(homologated), HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and second["ETag"] != first["ETag"]
    assert RENDERER.renders - before == 1
    assert "Alice a pris sa revanche." in pdf_text(second.content)[0]


def test_it_keeps_the_pdf_of_an_unpublished_round_private(client, season, secretary):
    round_ = make_round(season, status=Round.SUBMITTED)
    client.force_login(secretary.user)
    response = client.get(report_url(round_))
    assert response.status_code == 200 and "private" in response["Cache-Control"]


def test_it_lays_out_the_bulletin_once_per_date(client, homologated):
    before = RENDERER.renders
    for _ in range(2):
        assert client.get(bulletin_url()).status_code == 200
    assert RENDERER.renders - before == 1
    later = client.get(bulletin_url(), {"as_of": "2010-12-31"})
    assert later.status_code == 200 and "Classement au 31 décembre 2010" in pdf_text(later.content)[0]
    assert RENDERER.renders - before == 2


def failed_page(response, cause):
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html") and response["Retry-After"]
    html = response.content.decode()
    assert 'class="site-header"' in html and "PDF indisponible" in html
    assert "n&#x27;a pas pu être produit" in html and cause in html
    return html


@pytest.mark.parametrize(
    ("setting", "tiny", "cause"),
    [("PDF_RENDER_TIMEOUT", 0.001, "le temps permis"), ("PDF_RENDER_MEMORY_MB", 1, "la mémoire permise")],
)
def test_it_stops_a_layout_over_its_limit_and_then_lays_out_the_next(
    client, homologated, settings, caplog, setting, tiny, cause
):
    normal = getattr(settings, setting)
    setattr(settings, setting, tiny)
    with caplog.at_level(logging.ERROR, logger="championship.lib.pdf"):
        html = failed_page(client.get(report_url(homologated)), cause)
    assert "Lire le compte-rendu en ligne" in html
    assert [record.levelno for record in caplog.records if record.name == "championship.lib.pdf"] == [
        logging.ERROR
    ]
    assert "compte-rendu-2010-2011-manche-1.pdf" in caplog.text
    setattr(settings, setting, normal)
    response = client.get(report_url(homologated))
    assert response.status_code == 200 and "Bruno a tout raflé." in pdf_text(response.content)[0]


def test_it_does_not_try_a_failed_document_again_at_once(client, homologated, settings, caplog):
    settings.PDF_RENDER_TIMEOUT = 0.001
    failed_page(client.get(bulletin_url()), "le temps permis")
    before = RENDERER.attempts
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="championship.lib.pdf"):
        failed_page(client.get(bulletin_url()), "vient d&#x27;échouer")
    assert RENDERER.attempts == before
    levels = [record.levelno for record in caplog.records if record.name == "championship.lib.pdf"]
    assert levels == [logging.WARNING]


def test_it_renders_again_after_its_child_was_killed(homologated):
    display = report_display(homologated)
    render_pdf("championship/reports/report_pdf.html", {"display": display})
    RENDERER._process.kill()  # as the kernel's OOM killer would
    RENDERER._process.join()
    content = render_pdf("championship/reports/report_pdf.html", {"display": display})
    assert "Bruno a tout raflé." in pdf_text(content)[0]


def test_it_explains_a_failed_layout_in_the_command(homologated, settings, tmp_path):
    settings.PDF_RENDER_TIMEOUT = 0.001
    with pytest.raises(CommandError, match="PDF n'a pas pu être produit \\(timeout"):
        call_command("report_pdf", "2010-2011", "1", "-o", str(tmp_path / "cr.pdf"))
    assert not (tmp_path / "cr.pdf").exists()


def test_it_tells_a_failure_for_want_of_memory_from_another_error():
    far = pdf_child._address_space() + 1024 * 1024 * 1024  # a limit far above what the process holds
    near = pdf_child._address_space() + 1024  # a limit the process has all but reached
    # A C library that cannot allocate under the limit raises SystemError, not MemoryError.
    assert pdf_child._out_of_memory(SystemError("error return without exception set"), far)
    assert pdf_child._out_of_memory(MemoryError(), far)
    assert not pdf_child._out_of_memory(ValueError("CSS invalide"), far)
    assert pdf_child._out_of_memory(ValueError("n'importe quoi"), near)


def test_it_stops_a_layout_over_its_memory_whatever_the_web_process_did_before(homologated, settings):
    """The limit holds however much freed memory the process asking for the PDF keeps: a child
    forked from it would inherit that memory as room beyond its limit (Python keeps an arena of
    objects mapped while one object in it lives, glibc keeps freed heap and each thread's arena),
    so the render child must not start from the web process."""
    # Some 200 Mio of small objects (Python's arenas) and of 2 Kio buffers (glibc's heap): one in
    # 200 lives on, so that the arenas and the heap stay mapped, nearly empty.
    objects = [(number, str(number)) for number in range(2_000_000)]
    buffers = [bytes(2048) for _ in range(100_000)]
    survivors = objects[::200] + buffers[::200]
    del objects, buffers
    worker = threading.Thread(target=pdf.html_to_pdf, args=("<p>Une mise en page dans un fil.</p>",))
    worker.start()
    worker.join()
    RENDERER._stop()  # the next render gets a child started after all that
    settings.PDF_RENDER_MEMORY_MB = 1
    display = report_display(homologated)
    with pytest.raises(pdf.PdfRenderError) as failure:
        render_pdf("championship/reports/report_pdf.html", {"display": display})
    assert failure.value.reason in ("memory", "crash")
    settings.PDF_RENDER_MEMORY_MB = 768
    content = render_pdf("championship/reports/report_pdf.html", {"display": display})
    assert "Bruno a tout raflé." in pdf_text(content)[0]
    assert len(survivors) == 10_500


def test_only_the_sites_own_user_can_reach_the_render_server(homologated):
    """The fork server forks whatever a connection to its socket asks for (unpickled code): its
    socket must be reachable by the site's own system user alone, who can already do anything the
    server would. Python makes it a file of mode 0600 in a private folder (0700)."""
    from multiprocessing import forkserver  # noqa: PLC0415

    render_pdf("championship/reports/report_pdf.html", {"display": report_display(homologated)})
    socket = Path(forkserver._forkserver._forkserver_address)
    assert stat.S_ISSOCK(socket.stat().st_mode)
    assert stat.S_IMODE(socket.stat().st_mode) == 0o600
    assert stat.S_IMODE(socket.parent.stat().st_mode) == 0o700
    assert socket.stat().st_uid == socket.parent.stat().st_uid == os.getuid()
