"""The README and the manual in docs/ hold together.

- every relative link of ``README.md`` and ``docs/*.md`` leads to a file of the repository and,
  when it names an anchor, to a heading of that file (anchors as GitHub writes them);
- every path of the repository a document cites in backquotes (``championship/…``,
  ``tests/…``) exists, so that a module moved without its documentation fails here;
- the README stays the front door: 250 lines at most, the two commands in it, a link to each
  document of docs/.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
CITED_PATH = re.compile(r"`((?:championship|federation|scoring|tests|docs|templates|\.ci)/[\w./-]*)`")


def prose(path: Path) -> str:
    """The document without its code blocks (a shell or TOML example is not a reference)."""
    return FENCE.sub("", path.read_text(encoding="utf-8"))


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    headings = re.findall(r"^#{1,6} (.+)$", prose(path), re.M)
    return {slug(heading) for heading in headings}


def relative_links(path: Path):
    for target in LINK.findall(prose(path)):
        if not re.match(r"[a-z]+:", target):  # http:, mailto: are not the repository's
            yield target


def test_slug_follows_github():
    assert slug("Le PDF d'un compte-rendu") == "le-pdf-dun-compte-rendu"
    assert slug("Configuration (variables d'environnement)") == ("configuration-variables-denvironnement")
    assert slug("Déployer") == "déployer"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_links_lead_somewhere(document):
    broken = []
    for target in relative_links(document):
        file_part, _, anchor = target.partition("#")
        destination = (document.parent / file_part).resolve() if file_part else document
        if not destination.exists():
            broken.append(f"{target}: no file {file_part}")
        elif anchor and destination.suffix == ".md" and anchor not in anchors(destination):
            broken.append(f"{target}: no heading #{anchor} in {destination.name}")
    assert broken == []


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_cited_paths_exist(document):
    missing = [
        cited for cited in CITED_PATH.findall(prose(document)) if not (ROOT / cited.rstrip(".")).exists()
    ]
    assert missing == []


def test_readme_is_the_front_door():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    ci_command = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert ci_command in readme  # the test command CI runs is the README's, exactly
    assert "manage.py demo" in readme and "runserver" in readme
    linked = {Path(target.partition("#")[0]).name for target in relative_links(ROOT / "README.md")}
    manual = {path.name for path in (ROOT / "docs").glob("*.md")}
    assert manual - linked == set()
