"""French typography (issue 35): a no-break space (U+00A0), never a plain one, before « : ; ? ! »,
in the interface's catalogue (every msgid of django.po), in the templates and in the strings of
the Python code (docstrings, comments and regular expressions aside: they are not shown).

A plain space only counts when a mark follows it and then a space, the end, a quote, a tag or a
template variable: a URL (« https://… »), a time (« 20:30 »), a format (« {value:>5} »), a
template filter (« |default:"…" ») have no space before their colon.
"""

import ast
import io
import re
import tokenize
from pathlib import Path

from django.conf import settings

from tests.federation.test_i18n import PO_FILE, read_po

ROOT = Path(settings.BASE_DIR)
PLAIN = re.compile(r"(?<![\s\\]) (?=[:;?!](?:\s|$|\"|'|<|\\n|&|\{|\)|»|\.|,))")
PACKAGES = ("scoring", "federation", "championship", "gamenights", "notifications", "webhooks")
SCRIPTS_AND_STYLES = re.compile(r"<script\b.*?</script>|<style\b.*?</style>", re.S)


def plain_spaces(text):
    return [text[max(0, found.start() - 30) : found.end() + 10] for found in PLAIN.finditer(text)]


def test_the_rule_finds_a_plain_space_and_lets_the_rest_be():
    assert plain_spaces("Lieu : Chez Steph") and plain_spaces("Rien reçu ?") and plain_spaces("a ; b")
    assert plain_spaces('{% translate "Motif :" %}') and plain_spaces("Donne {{ n }} : {{ s }}")
    for text in ("Lieu\u00a0: Chez Steph", "https://example.org", "20:30", "{{ x|default:'—' }}", "{v:>5}"):
        assert not plain_spaces(text), text


def test_the_french_catalogue_has_no_plain_space_before_a_high_mark():
    found = []
    for entry in read_po(PO_FILE):
        for key in ("msgid", "msgid_plural"):
            found += plain_spaces(entry.get(key, ""))
    assert found == []


def test_the_templates_have_no_plain_space_before_a_high_mark():
    found = []
    for path in sorted((ROOT / "templates").rglob("*")):
        if path.suffix in (".html", ".txt"):
            text = SCRIPTS_AND_STYLES.sub("", path.read_text(encoding="utf-8"))
            found += [f"{path.relative_to(ROOT)}: {piece}" for piece in plain_spaces(text)]
    assert found == []


def _docstrings(tree):
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return {
        (node.body[0].lineno, node.body[0].col_offset)
        for node in ast.walk(tree)
        if isinstance(node, kinds)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
        and isinstance(node.body[0].value.value, str)
    }


def test_the_python_strings_have_no_plain_space_before_a_high_mark():
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            source = path.read_text(encoding="utf-8")
            docstrings = _docstrings(ast.parse(source))
            for token in tokenize.generate_tokens(io.StringIO(source).readline):
                prefix = re.match(r"[A-Za-z]*", token.string).group().lower()
                if token.type != tokenize.STRING or token.start in docstrings or {"r", "b"} & set(prefix):
                    continue
                found += [
                    f"{path.relative_to(ROOT)}:{token.start[0]}: {p}" for p in plain_spaces(token.string)
                ]
    assert found == []
