"""No import cycle among the project's modules.

The graph is read with ``ast`` from the sources of ``championship``, ``federation`` and
``scoring`` (migrations aside), with every import: at the top of a module and inside a function,
since an import moved into a function to dodge a cycle is still a cycle of the design. A module
that imports a package depends on its ``__init__``; ``from package import module`` depends on
the module.
"""

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("championship", "federation", "gamenights", "notifications", "scoring", "webhooks")

# Cycles known and left for later, each a sorted tuple of module names, with why: none today.
# (For the lead: a cycle listed here must name who removes it; the test fails if it disappears,
# so that the list never outlives it.)
KNOWN_CYCLES: set[tuple[str, ...]] = set()


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" not in path.relative_to(root).parts:
                modules[module_name(path, root)] = path
    return modules


def parsed(path: Path) -> ast.Module:
    """The syntax tree of the source at ``path``, read once per process while the file stays the
    same (its size and date): the graph's tests and those of tests/test_architecture.py all read
    every module of the project."""
    return _parsed(path, file_state(path))


def file_state(path: Path) -> tuple[int, int]:
    """What tells a file changed: its size and its date."""
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns


@cache
def _parsed(path, _state):
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def imported_names(name: str, path: Path) -> set[str]:
    """Every dotted name ``name`` imports, anywhere in its source."""
    names = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """``{module: the project modules it imports}`` (a copy of its own for each caller), built
    once per process while no module changes."""
    files = tuple((name, path, file_state(path)) for name, path in project_modules(root).items())
    return {name: set(targets) for name, targets in _import_graph(files).items()}


@cache
def _import_graph(files):
    modules = {name: path for name, path, _state in files}
    graph = {}
    for name, path in modules.items():
        targets = set()
        for imported in imported_names(name, path):
            # ``import a.b.c`` also runs ``a`` and ``a.b``: keep the longest project module named.
            parts = imported.split(".")
            for end in range(len(parts), 0, -1):
                candidate = ".".join(parts[:end])
                if candidate in modules:
                    targets.add(candidate)
                    break
        targets.discard(name)
        graph[name] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = iter(range(len(graph) + 1))

    def visit(node):
        index[node] = low[node] = next(counter)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(tuple(sorted(component)))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def path_through(graph, component):
    """One import path around a cycle, for the failure message: ``a -> b -> a``."""
    start = component[0]
    members = set(component)
    previous = {start: None}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in sorted(graph[node] & members):
            if target == start:
                path = [node]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                return " -> ".join([*reversed(path), start])
            if target not in previous:
                previous[target] = node
                queue.append(target)
    return " <-> ".join(component)


def test_the_graph_sees_every_kind_of_import(tmp_path):
    (tmp_path / "scoring").mkdir()
    (tmp_path / "championship").mkdir()
    (tmp_path / "championship" / "views").mkdir()
    (tmp_path / "federation").mkdir()
    files = {
        "scoring/__init__.py": "",
        "scoring/a.py": "import scoring.b\n",
        "scoring/b.py": "def late():\n    from scoring import c\n",
        "scoring/c.py": "from .a import thing\n",
        "championship/__init__.py": "",
        "championship/views/__init__.py": "from . import pages\n",
        "championship/views/pages.py": "from ..models import Round\n",
        "championship/models.py": "def late():\n    from championship.views import pages\n",
        "federation/__init__.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    graph = import_graph(tmp_path)
    assert graph["scoring.a"] == {"scoring.b"}
    assert graph["scoring.b"] == {"scoring", "scoring.c"}  # the package runs first
    assert graph["scoring.c"] == {"scoring.a"}
    assert graph["championship.views.pages"] == {"championship.models"}
    assert cycles(graph) == [
        ("championship.models", "championship.views", "championship.views.pages"),
        ("scoring.a", "scoring.b", "scoring.c"),
    ]
    assert path_through(graph, ("scoring.a", "scoring.b", "scoring.c")) == (
        "scoring.a -> scoring.b -> scoring.c -> scoring.a"
    )


def test_there_is_no_import_cycle_among_the_projects_modules():
    graph = import_graph()
    assert "championship.standings.season" in graph and "scoring.rulebook" in graph
    found = cycles(graph)
    unexpected = [component for component in found if component not in KNOWN_CYCLES]
    assert not unexpected, "import cycles:\n" + "\n".join(path_through(graph, c) for c in unexpected)
    gone = KNOWN_CYCLES - set(found)
    assert not gone, f"cycles gone, remove them from KNOWN_CYCLES: {sorted(gone)}"


# --- the order of the packages (docs/architecture.md) ------------------------------------------------
# scoring < federation < championship, and the demo on top: a package imports only those below it.


def within(name, prefix):
    return name == prefix or name.startswith(prefix + ".")


def imports_of(graph, source, target):
    """``{module of source (None: any): the modules of target it imports}``, for those that
    import any."""
    return {
        name: sorted(t for t in targets if within(t, target))
        for name, targets in graph.items()
        if (source is None or within(name, source)) and any(within(t, target) for t in targets)
    }


def test_scoring_imports_neither_federation_nor_championship():
    graph = import_graph()
    assert imports_of(graph, "scoring", "federation") == {}
    assert imports_of(graph, "scoring", "championship") == {}


def test_federation_imports_nothing_of_championship():
    """The URL conf includes the competition's URLs by name, and the settings name its apps and
    context processor by string: neither is an import."""
    graph = import_graph()
    assert imports_of(graph, "federation", "championship") == {}
    assert graph["championship.views.home"] and "federation.urls" in graph


def test_nothing_imports_the_reminders():
    """The reminders (issue 24) read the federation, the competition and the calendar; only the
    settings and the URL conf name them, by strings."""
    graph = import_graph()
    importers = {
        name for name in imports_of(graph, None, "notifications") if not within(name, "notifications")
    }
    assert importers == set()
    assert imports_of(graph, "notifications", "gamenights")  # the rule has something to look at


def test_the_demo_is_on_top():
    """Nothing imports the demo but the demo and the management commands that build it."""
    graph = import_graph()
    importers = {
        name
        for name in imports_of(graph, None, "championship.demo")
        if not within(name, "championship.demo") and not within(name, "championship.management.commands")
    }
    assert importers == set()
    assert imports_of(graph, "championship.management.commands.demo", "championship.demo")


def test_the_competition_reads_the_calendar_through_one_door():
    """`gamenights` imports `championship`; nothing of `championship` imports `gamenights` back
    (issue 33): the play-off outlook and « Moi » read it through `championship.lib.calendar`,
    which `gamenights` fills at start. Only the demo's command, on top of both, builds nights."""
    graph = import_graph()
    assert imports_of(graph, "championship", "gamenights") == {
        "championship.management.commands.demo": ["gamenights.demo"]
    }
    assert imports_of(graph, "gamenights", "championship")  # the other way is the rule


def test_the_calendar_reader_is_registered_at_start():
    from championship.lib import calendar  # noqa: PLC0415
    from gamenights.schedule import Calendar  # noqa: PLC0415

    assert isinstance(calendar._reader, Calendar)
