"""axe-core in the browser tests: the WCAG 2.2 A and AA rules run on the page a test has open, and
the serious or critical violations they find.

The script is the axe-core that axe-playwright-python ships (pinned in requirements.txt). It is
handed to a browser context once, as a script run at the start of every document the context
opens (`add_init_script`), rather than sent with each check: the 560 KiB went through Playwright's
pipes and were compiled again for every page checked, about 6 % of a check's processor, 40 ms a
page (docs/mesures.md). Nothing of what axe checks changes: the same script, in the page, before
the check; it only defines `window.axe`, which no script of the site uses. tests/e2e/test_axe.py
is the control: violations put in a page are found.
"""

from axe_playwright_python.base import AXE_SCRIPT

AXE_RULES = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
    "resultTypes": ["violations"],  # every violation in full; the passes not sent back (they are many)
}
SERIOUS = ("serious", "critical")


def serious_violations(page):
    """axe's serious and critical violations on `page` as it is now (axe's own result objects)."""
    if page.evaluate("typeof axe") == "undefined":  # the first check in this context
        page.context.add_init_script(script=AXE_SCRIPT)  # the documents it opens from now on
        page.evaluate(AXE_SCRIPT)  # and the one open now
    found = page.evaluate("options => axe.run(document, options)", AXE_RULES)["violations"]
    return [violation for violation in found if violation["impact"] in SERIOUS]
