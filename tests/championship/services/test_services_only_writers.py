"""Only `championship/services/` writes the competition: the source of `championship/` and
`federation/` is read (ast) for every `.save()`, `.delete()`, `.create()`, `bulk_create`,
`get_or_create`, `update_or_create`, `bulk_update` and queryset `.update()` call outside it.

What remains is listed below, each with why it is no competition write; a new call anywhere
else fails this test (so does a listed one that is gone: the list stays exact).
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ["championship", "federation"]
WRITES = {"save", "delete", "create", "bulk_create", "get_or_create", "update_or_create", "bulk_update"}
# `.update(` is a queryset write only on a queryset (a dict has one too).
QUERYSET_HINTS = ("objects", ".filter(", ".exclude(", ".all(", "select_for_update")

ALLOWED_PLACES = (
    "championship/services/",
    "championship/migrations/",
    "federation/migrations/",
    # The private links' own service: their keys, the accounts they make, the phones they
    # identify (docs/exploitation.md, « Comptes et sécurité »), no competition.
    "federation/private_links.py",
    # The officials' second factor: its devices and backup codes, the sessions it closes.
    "federation/second_factor.py",
    # The outbox rows' own state (claimed, sent, retried): announcements and members' news, no
    # competition.
    "federation/row_outbox.py",
)

# (file, function, call) -> why it is allowed.
ALLOWED_CALLS = {
    ("championship/models.py", "Report.save", "super().save"): "the model's own save, checking the text",
    ("federation/models.py", "Season.save", "super().save"): "the model's own save, checking the rulebook",
    # The audit helper saves and deletes what a service hands it (only services call it).
    ("federation/history.py", "Audit.save", "instance.save"): "a service's write, with its reason",
    ("federation/history.py", "Audit.delete", "instance.delete"): "a service's deletion, with its reason",
    # Django's PasswordResetForm.save mails the reset links; it writes nothing.
    ("federation/accounts.py", "_send_reset", "form.save"): "the password reset mail, no write",
    # The demo command: its accounts and the board's admin group (authentication, no competition).
    (
        "championship/management/commands/demo.py",
        "Command.ensure_user",
        "get_user_model().objects.get_or_create",
    ): ("a demo account"),
    ("championship/management/commands/demo.py", "Command.ensure_user", "user.save"): "a demo account",
    (
        "championship/management/commands/demo.py",
        "Command.ensure_board_access",
        "Group.objects.get_or_create",
    ): ("the board's admin group"),
    ("championship/management/commands/demo.py", "Command.ensure_board_access", "user.save"): "a staff flag",
    # The icons command draws the site's icons into PNG files (Pillow's Image.save), no database.
    (
        "federation/management/commands/icons.py",
        "png",
        "image.resize((size, size), Image.LANCZOS).save",
    ): "a PNG file",
}


class Finder(ast.NodeVisitor):
    def __init__(self, path, source):
        self.path, self.source, self.scope, self.found = path, source, [], []

    def visit_scope(self, node):
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_scope

    def visit_Call(self, node):
        func = node.func
        # The receiver's source only for a write's name (reading a segment splits the file's lines).
        if isinstance(func, ast.Attribute) and (func.attr in WRITES or func.attr == "update"):
            receiver = ast.get_source_segment(self.source, func.value) or ""
            is_write = func.attr in WRITES or any(hint in receiver for hint in QUERYSET_HINTS)
            if is_write:
                self.found.append((self.path, ".".join(self.scope), f"{receiver}.{func.attr}"))
        self.generic_visit(node)


def writes_outside_services():
    found = []
    for package in PACKAGES:
        for file in sorted((ROOT / package).rglob("*.py")):
            path = file.relative_to(ROOT).as_posix()
            if path.startswith(ALLOWED_PLACES):
                continue
            source = file.read_text("utf-8")
            finder = Finder(path, source)
            finder.visit(ast.parse(source))
            found += finder.found
    return found


def test_only_the_services_write_the_competition():
    found = writes_outside_services()
    unexpected = [call for call in found if call not in ALLOWED_CALLS]
    assert unexpected == [], "écriture hors de championship/services : " + repr(unexpected)
    assert sorted(set(found)) == sorted(ALLOWED_CALLS), "la liste des exceptions n'est plus exacte"


def test_the_scan_sees_a_write_in_a_form_or_a_view():
    """The finder itself: the writes the forms and views used to make are seen."""
    source = (
        "class F:\n"
        "    def save(self):\n"
        "        deal.save()\n"
        "        Seat.objects.filter(pk=1).update(colour='')\n"
        "        round_.deals.filter(number__gt=2).delete()\n"
        "        Adjustment.objects.create(code='x')\n"
        "        options.update(a=1)\n"
    )
    finder = Finder("championship/forms.py", source)
    finder.visit(ast.parse(source))
    assert [call for _path, _scope, call in finder.found] == [
        "deal.save",
        "Seat.objects.filter(pk=1).update",
        "round_.deals.filter(number__gt=2).delete",
        "Adjustment.objects.create",
    ]


def test_only_the_audit_helper_sets_a_change_reason():
    """`obj._change_reason = …` and `recorded_as` around a write are `federation.history.audited`'s:
    one named helper says who and why (the commands that import in bulk name their author with
    `recorded_as`, outside any service)."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative or relative == "federation/history.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr == "_change_reason":
                    found.append((relative, node.lineno))
                in_services = relative.startswith("championship/services/")
                if in_services and isinstance(node, ast.Name) and node.id == "recorded_as":
                    found.append((relative, node.lineno))
    assert found == []
