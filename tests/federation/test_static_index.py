"""The suite reads WhiteNoise's index of a static folder once per process (tests/static_files.py,
`index_each_folder_once`): what a middleware serves must be what a fresh reading of the folder
gives, and a change of the folder or of a setting the headers depend on must be read anew."""

import pytest
import whitenoise.base
from django.conf import settings
from whitenoise.base import WhiteNoise
from whitenoise.middleware import WhiteNoiseMiddleware

from tests.spies import recorded_calls


def served(middleware):
    """{address: every header and every encoded variant the middleware answers it with}."""
    return {
        url: (
            static_file.etag,
            static_file.last_modified,
            [
                (accept.pattern if accept else None, path, tuple(headers))
                for accept, path, headers in static_file.alternatives
            ],
        )
        for url, static_file in middleware.files.items()
    }


@pytest.fixture
def folder_reads(monkeypatch):
    """The folders read from the disk, in order (a folder, then each of its subfolders)."""
    return recorded_calls(monkeypatch, whitenoise.base, "scantree")


@pytest.fixture
def read_afresh(monkeypatch):
    """A middleware built with WhiteNoise's own reading of the folder."""

    read_folder = WhiteNoise.update_files_dictionary.read_folder

    def build():
        with monkeypatch.context() as patch:
            patch.setattr(WhiteNoise, "update_files_dictionary", read_folder)
            return WhiteNoiseMiddleware(lambda request: None)

    return build


def test_the_static_folder_is_read_once_and_served_as_a_fresh_reading_serves_it(folder_reads, read_afresh):
    WhiteNoiseMiddleware(lambda request: None)  # read now, if no test of this process read it before
    folder_reads.clear()
    kept = WhiteNoiseMiddleware(lambda request: None)
    assert folder_reads == []
    fresh = read_afresh()
    assert folder_reads[0] == str(settings.STATIC_ROOT).rstrip("/") + "/"  # then its subfolders
    assert len(kept.files) > 100  # the site's files, the admin's, htmx's
    assert served(kept) == served(fresh)


def test_a_file_added_to_the_folder_or_another_max_age_is_read_anew(tmp_path, settings, folder_reads):
    settings.STATIC_ROOT = str(tmp_path)
    (tmp_path / "un.css").write_text("body {}")
    first = WhiteNoiseMiddleware(lambda request: None)
    (tmp_path / "deux.css").write_text("p {}")
    second = WhiteNoiseMiddleware(lambda request: None)
    settings.WHITENOISE_MAX_AGE = 7
    third = WhiteNoiseMiddleware(lambda request: None)

    assert folder_reads == [str(tmp_path) + "/"] * 3
    assert sorted(first.files) == ["/static/un.css"]
    assert sorted(second.files) == sorted(third.files) == ["/static/deux.css", "/static/un.css"]
    headers = dict(third.files["/static/un.css"].alternatives[-1][2])
    assert headers["Cache-Control"] == "max-age=7, public"
