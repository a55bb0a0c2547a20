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
    inputs = sorted(ROOT.glob("*/static/**/*")) + [ROOT / "requirements.txt", ROOT / "federation/settings.py"]
    for path in inputs:
        if path.is_file():
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def collected_static_root():
    """The folder STATIC_ROOT names during the run (its files are collected by `collect()`)."""
    return Path(tempfile.gettempdir()) / f"tarot-biere-static-{sources_digest()}"


def collect(static_root):
    """Runs `collectstatic` into `static_root` unless a finished collection is there already."""
    from django.core.management import call_command  # noqa: PLC0415

    static_root.mkdir(parents=True, exist_ok=True)
    with open(static_root.parent / f"{static_root.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = static_root / ".collected"
        if not done.exists():
            call_command("collectstatic", interactive=False, verbosity=0)
            done.write_text(str(os.getpid()))
