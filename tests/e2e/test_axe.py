"""The control of the accessibility checks (tests/e2e/axe.py): violations put in a page of the site
(text too pale, an image and a button without a name) are found, on the first page a context checks
(axe given to it then) as on the next one it opens (axe there from the document's start), and the
same pages without them pass."""

from tests.e2e import test_game_night as night
from tests.e2e.axe import serious_violations
from tests.e2e.chromium import requires_chromium

pytestmark = requires_chromium

IMAGE_WITHOUT_TEXT = "document.querySelector('main').insertAdjacentHTML('beforeend', '<img src=\"/x.png\">')"
# Styled through the CSSOM: the site's policy refuses a style attribute written in the markup.
GREY_ON_WHITE = """() => {
  const text = document.createElement('p');
  text.textContent = 'Presque invisible';
  Object.assign(text.style, {color: '#ddd', background: '#fff'});
  document.querySelector('main').prepend(text);
}"""
BUTTON_WITHOUT_NAME = "document.querySelector('main').insertAdjacentHTML('beforeend', '<button></button>')"


def test_a_violation_is_found_on_the_first_page_checked_and_on_the_next(browser, live_server, db):
    phone = night.Phone(browser, live_server.url, "axe-controle")
    page = phone.page

    page.goto("/connexion/")
    assert page.evaluate("typeof axe") == "undefined"  # nothing given before the first check
    assert serious_violations(page) == []
    page.evaluate(IMAGE_WITHOUT_TEXT)
    page.evaluate(GREY_ON_WHITE)
    assert sorted(violation["id"] for violation in serious_violations(page)) == [
        "color-contrast",
        "image-alt",
    ]

    page.goto("/")
    assert page.evaluate("typeof axe") == "object"  # from the document's start, not sent again
    assert serious_violations(page) == []
    page.evaluate(BUTTON_WITHOUT_NAME)
    assert [violation["id"] for violation in serious_violations(page)] == ["button-name"]
    phone.close()
