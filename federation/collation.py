"""Names sorted as a French reader expects: accents, case and ligatures ignored at first sight.

`french_key(text)` is the Unicode Collation Algorithm's key (pyuca, the default table of the
Unicode standard, which suits French): « Émile » comes before « Léa », « Çécile » between
« Carole » and « Cyril », « Œdipe » as « oedipe », and a word with an accent right after the same
word without one (« Elodie », « Élodie »). Python's own `sorted` on the raw text would put every
accented capital after « Z ».
"""

from functools import cache

from pyuca import Collator


@cache
def _collator():
    return Collator()  # reads the collation table once per process (a few hundredths of a second)


def french_key(text):
    """The sort key of `text` (a tuple of integers)."""
    return _collator().sort_key(str(text))


def sorted_by_name(items, *, name=str, first=None):
    """`items` sorted by `french_key(name(item))`; with `first(item)` a key put before the name
    (e.g. the active players before the others)."""
    if first is None:
        return sorted(items, key=lambda item: french_key(name(item)))
    return sorted(items, key=lambda item: (first(item), french_key(name(item))))
