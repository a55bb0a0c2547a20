"""French typography of the figures and phrases the app writes, in one place (no Django import).

Numbers take a true minus sign (U+2212) and a decimal comma, and can group thousands with a
no-break space; a sign is always shown where a gain or a loss is meant; ordinals are abbreviated
as French writes them (1er, 1re, 2e); a percentage is rounded to the whole percent, a half
going up (5 of 8, 62.5 %, is written « 63 % »); a count agrees with its noun (0 and 1 are singular); « de »,
« le », « la » and « que » elide before a vowel or a mute h (« d'Igor », « d'Hélène »).

>>> num(-1234567, group=True), signed(3), signed(-2), ordinal(1, feminine=True)
('−1\xa0234\xa0567', '+3', '−2', '1re')
>>> plural(2, "manche"), of_name("Émile"), elide("le", "arbitre")
('2 manches', "d'Émile", "l'arbitre")
"""

from __future__ import annotations

from decimal import Decimal

MINUS = "\N{MINUS SIGN}"
THOUSANDS = "\N{NO-BREAK SPACE}"

# Letters before which « de », « le »… elide. An initial h is taken as mute (« d'Hélène »): the
# names of the federation's players have no aspirated h; a y elides before a consonant only
# (« d'Yves », but « de Yann »).
_VOWELS = frozenset("aeiouàâäéèêëîïôöùûüœæ")
_ELIDED = {"de": "d'", "le": "l'", "la": "l'", "que": "qu'", "jusque": "jusqu'"}


def num(value: int | float | Decimal | None, *, group: bool = False) -> str:
    """A number as French writes it: ``−7``, ``44,5``; ``None`` gives ``""``.

    A whole Decimal or float loses its decimals (``Decimal("49.0")`` -> ``49``), zero never has a
    sign (``-0.0`` -> ``0``); ``group=True`` separates thousands with a no-break space.
    """
    if value is None:
        return ""
    if isinstance(value, Decimal | float) and value == int(value):
        value = int(value)
    if value == 0:
        value = 0
    text = str(abs(value)).replace(".", ",")
    if group:
        whole, comma, decimals = text.partition(",")
        groups = []
        while len(whole) > 3:
            whole, last = whole[:-3], whole[-3:]
            groups.insert(0, last)
        text = THOUSANDS.join([whole, *groups]) + comma + decimals
    return MINUS + text if value < 0 else text


def signed(value: int | float | Decimal | None, *, group: bool = False) -> str:
    """A gain or a loss: ``+3``, ``−2``, ``0``; ``None`` gives ``""``."""
    if value is None:
        return ""
    text = num(value, group=group)
    return f"+{text}" if value > 0 else text


def ordinal(n: int, feminine: bool = False) -> str:
    """French abbreviated ordinal: 1er (1re when feminine: « la 1re place »), 2e, 3e…"""
    if n == 1:
        return "1re" if feminine else "1er"
    return f"{n}e"


def rounded_percent(part: int, whole: int) -> int | None:
    """``part`` of ``whole`` in whole percent, a half rounded up (5 of 8 -> 63); None of nothing.

    The one rounding of every percentage the app writes (Python's ``round`` would give 62: it
    rounds a half to the even neighbour)."""
    if not whole:
        return None
    return (200 * part + whole) // (2 * whole)


def rounded(value: float, digits: int = 1) -> float:
    """``value`` rounded to ``digits`` decimals, never a negative zero: −1/34 gives ``0.0``,
    not ``-0.0`` (which a JSON page would print as such).

    The one rounding of every decimal figure a page shows or its JSON gives (a statistics
    average, a rating): round once, from the unrounded value, at the end. The nearest value,
    as Python's ``round`` gives it for a float."""
    result = round(value, digits)
    return 0.0 if result == 0 else float(result)


def percent(part: int, whole: int) -> str:
    """``rounded_percent`` as French writes it: « 63 % » (a no-break space before the sign);
    "" of nothing."""
    rate = rounded_percent(part, whole)
    return "" if rate is None else f"{rate}{THOUSANDS}%"


def agree(n: int | float | Decimal, singular: str, plural_form: str | None = None) -> str:
    """The noun or adjective agreeing with ``n``: singular for 0 and 1 (« 0 manche »)."""
    if abs(n) < 2:
        return singular
    return plural_form if plural_form is not None else singular + "s"


def plural(n: int, singular: str, plural_form: str | None = None) -> str:
    """A count and its noun: « 1 manche », « 2 manches », « 3 chevaux » with ``plural_form``."""
    return f"{num(n)} {agree(n, singular, plural_form)}"


def elides_before(word: str) -> bool:
    """Whether « de », « le »… elide before ``word``: a vowel or an h (« Hélène »), a y before a
    consonant (« Yves », not « Yann »)."""
    head = word[:2].casefold()
    if not head:
        return False
    if head[0] == "y":
        return len(head) > 1 and head[1] not in _VOWELS and head[1].isalpha()
    return head[0] in _VOWELS or head[0] == "h"


def elide(article: str, word: str) -> str:
    """``article`` then ``word``, elided where French elides: « de Bruno », « d'Igor », « l'arbitre »."""
    short = _ELIDED.get(article)
    if short is not None and elides_before(word):
        return f"{short}{word}"
    return f"{article} {word}"


def of_name(name: str) -> str:
    """« de Bruno », « d'Igor », « d'Hélène »: the complement of a noun (« le récit d'Igor »)."""
    return elide("de", name)
