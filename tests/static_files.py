"""The suite's collected static files, as production has them (docs/exploitation.md, « Déployer »).

`collectstatic` with the manifest storage takes some seconds: the folder is named after a digest
of everything that decides its content (the project's static folders, the pinned requirements
that bring the other apps' files, the settings), built once for a run and shared by its xdist
workers under a file lock, and reused by the next run while nothing changed.
"""

import fcntl
import hashlib
import os
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = "staticfiles.json"


def sources_digest():
    digest = hashlib.sha256()
    inputs = sorted(ROOT.glob("*/static/**/*")) + [
        ROOT / "requirements.txt",
        ROOT / "federation/settings.py",
        ROOT / "tests/static_files.py",  # how the suite collects them
    ]
    for path in inputs:
        if path.is_file():
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def collected_static_root():
    """The folder STATIC_ROOT names during the run (its files are collected by `collect()`)."""
    return Path(tempfile.gettempdir()) / f"tarot-biere-static-{sources_digest()}"


def collect(static_root):
    """Runs `collectstatic` into `static_root` unless a finished collection is there already.

    It writes every file and the manifest as production's does, but not the compressed copies
    (`.gz`, `.br`) WhiteNoise adds beside each: they took 8.7 of the command's 9.1 s of processor,
    at the start of every clean run, before any test (docs/mesures.md). Nothing in the suite's
    processes needs them: the test client asks for no compression, a browser gets the same file
    uncompressed, and a file's name, the manifest and every page are the same without them. The
    site deployed under gunicorn collects its own, compressed as in production, and its crawl
    checks they are served (tests/production/test_gunicorn_crawl.py)."""
    from unittest import mock  # noqa: PLC0415

    from django.core.management import call_command  # noqa: PLC0415
    from whitenoise.storage import CompressedManifestStaticFilesStorage  # noqa: PLC0415

    static_root.mkdir(parents=True, exist_ok=True)
    with open(static_root.parent / f"{static_root.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = static_root / ".collected"
        if not done.exists():
            uncompressed = mock.patch.object(
                CompressedManifestStaticFilesStorage, "compress_files", lambda storage, paths: iter(())
            )
            with uncompressed:
                call_command("collectstatic", interactive=False, verbosity=0)
            done.write_text(str(os.getpid()))


def index_each_folder_once():
    """WhiteNoise reads the whole static folder (1,200 files: a `stat` and a set of headers each,
    some 30 ms) each time Django builds its middleware. Production builds it once per process; the
    suite builds it for every test `Client` (thousands in a run, a tenth of its time). So, in the
    suite's processes only, the index of a folder is read once and each middleware gets a copy of
    it: keyed on the folder, its modification time (a collection that adds files changes it) and
    every attribute the headers of a file depend on, it is what a fresh reading gives
    (tests/federation/test_static_index.py)."""
    from whitenoise.base import WhiteNoise  # noqa: PLC0415

    read_folder = WhiteNoise.update_files_dictionary
    indexes = {}

    def update_files_dictionary(self, root, prefix):
        key = (
            root,
            os.stat(root).st_mtime_ns,
            prefix,
            self.max_age,
            self.allow_all_origins,
            self.charset,
            self.index_file,
            self.add_headers_function,
            getattr(self.immutable_file_test, "__func__", self.immutable_file_test),
            tuple(sorted(self.media_types.types_map.items())),
        )
        if key not in indexes:
            added_before, self.files = self.files, {}
            try:
                read_folder(self, root, prefix)
                indexes[key] = self.files
            finally:
                self.files = {**added_before, **self.files}  # the folder's files win, as in WhiteNoise
            return
        self.files.update(indexes[key])

    update_files_dictionary.read_folder = read_folder
    WhiteNoise.update_files_dictionary = update_files_dictionary
