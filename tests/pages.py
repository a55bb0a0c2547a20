"""A page's HTML without what changes at every answer, for tests that compare pages or search
them for figures."""

import re

# A form's CSRF token (64 random letters and digits, masked anew at every answer) and the nonce of
# the Content-Security-Policy: random text, which may hold any figure by chance (« 1uEKh234 » held
# « 1…234 », a total a test looked for).
RANDOM_TOKENS = re.compile(r'(csrfmiddlewaretoken" value|nonce)="[^"]*"')


def without_random_tokens(html: str) -> str:
    return RANDOM_TOKENS.sub("", html)
