"""What the spreadsheet reader costs on the hostile workbooks of issue 21: an ODS of a few
kilobytes whose repeated rows and columns expand to millions of cells, and an XLSX that lists one
sheet part a thousand times (and more).

Not part of the suite (timings vary with the machine): run it by hand and report the figures.

    .venv/bin/python -m tests.benchmarks.hostile_workbooks [--cases ods-300,xlsx-1000] [--limit-s 300]

Each file is written by this process, then read in a fresh child process, through the two entry
points that read a workbook: the round import (``prepare_source``, behind ``/manches/importer/``
and ``import_round``) and the past-season import (``read_totals_table``, behind
``/saisons/importer/`` and ``import_season``).
The child's address space is capped (``--memory-gib``, 4 by default: beyond it, ``MemoryError``)
and it is stopped after ``--limit-s`` seconds; its reading time, peak resident memory (and the
same before the reading: Django and the file) and answer are printed, one line per case.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

CASES = {
    "ods-300": ("ods_bomb", {"tables": 300}, "bombe.ods"),
    "ods-1000": ("ods_bomb", {"tables": 1000}, "bombe.ods"),
    "xlsx-1000": ("xlsx_bomb", {"sheets": 1000}, "bombe.xlsx"),
    "xlsx-20000": ("xlsx_bomb", {"sheets": 20000}, "bombe.xlsx"),
    # within the sheet count (issue 21's files once there are no more than 100 sheets)
    "ods-large-100": ("ods_wide_bomb", {}, "bombe.ods"),
    "ods-tall-100": ("ods_tall_bomb", {}, "bombe.ods"),
    "xlsx-sparse-100": ("xlsx_sparse_bomb", {}, "bombe.xlsx"),
    # the most the reader accepts, and the most XML it parses
    "ods-100000-cells": ("ods_at_the_cell_limit", {}, "limite.ods"),
    "xlsx-100000-cells": ("xlsx_at_the_cell_limit", {}, "limite.xlsx"),
    "ods-29-mb-blank": ("ods_blank_cells", {}, "vide.ods"),
}
PATHS = ("manche", "saison")


def peak_rss():
    """The process's peak resident memory so far, in MiB (``VmHWM``: unlike ``ru_maxrss``, not
    inherited from the parent that started it)."""
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def child(case, path, file, memory_gib):
    """Run in the child: read the file, print what it cost as JSON."""
    if memory_gib:
        limit = int(memory_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
    os.environ.setdefault("DEBUG", "1")
    os.environ["DATABASE_URL"] = "sqlite://:memory:"  # a table read in full looks its season up
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from championship.sheets.errors import SheetImportError
    from championship.sheets.seasons import read_totals_table
    from championship.sheets.spreadsheet import prepare_source

    name = CASES[case][2]
    with open(file, "rb") as stream:
        data = stream.read()
    before = peak_rss()
    start, cpu = time.perf_counter(), time.process_time()
    try:
        if path == "manche":
            prepare_source(name, data)
        else:
            read_totals_table(name, data, "2005-2006")
        outcome = "lu"
    except SheetImportError as error:
        outcome = " / ".join(error.messages)
    except MemoryError:
        outcome = "MemoryError"
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = peak_rss()
    cost = {"bytes": len(data), "seconds": seconds, "cpu": cpu, "before_mib": before, "peak_mib": peak}
    print(json.dumps({**cost, "outcome": outcome}))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--paths", default=",".join(PATHS))
    parser.add_argument("--limit-s", type=float, default=300)
    parser.add_argument("--memory-gib", type=float, default=4)
    parser.add_argument("--child", nargs=3, metavar=("CASE", "PATH", "FILE"))
    options = parser.parse_args()
    if options.child:
        child(*options.child, options.memory_gib)
        return
    from tests.championship.sheets import hostile_workbooks

    folder = tempfile.mkdtemp(prefix="hostile-")
    for case in options.cases.split(","):
        maker, arguments, name = CASES[case]
        file = os.path.join(folder, name)
        with open(file, "wb") as stream:
            stream.write(getattr(hostile_workbooks, maker)(**arguments))
        for path in options.paths.split(","):
            command = [sys.executable, "-m", "tests.benchmarks.hostile_workbooks"]
            command += ["--child", case, path, file, "--memory-gib", str(options.memory_gib)]
            start = time.perf_counter()
            try:
                done = subprocess.run(command, capture_output=True, text=True, timeout=options.limit_s)
            except subprocess.TimeoutExpired:
                print(f"{case} ({path}) : arrêté après {options.limit_s:.0f} s", flush=True)
                continue
            lines = done.stdout.strip().splitlines()
            if done.returncode or not lines:
                tail = done.stderr.strip().splitlines()[-1:] or ["?"]
                print(f"{case} ({path}) : échec du processus ({tail[0]})", flush=True)
                continue
            result = json.loads(lines[-1])
            outcome = result["outcome"]
            print(
                f"{case} ({path}) : {result['bytes'] / 1024:.1f} Kio, {result['seconds']:.2f} s "
                f"(processeur {result['cpu']:.2f} s), "
                f"pic {result['peak_mib']:.0f} Mio (avant la lecture : {result['before_mib']:.0f} Mio ; "
                f"{time.perf_counter() - start:.1f} s avec le démarrage) "
                f"— {outcome[:160]}",
                flush=True,
            )


if __name__ == "__main__":
    main()
