"""The vocabulary of the game, defined once: each code the app stores or exchanges, its French label.

Codes are what the database, the JSON sheets and the machine-readable outputs carry; labels are
what a page shows. The rules engine uses the codes; the Django side derives its model and form
choices from these mappings (`championship.vocabulary`), translating the labels lazily: they are
marked with `gettext_noop` below so that `makemessages` finds them for the English catalogue.
Everything here is plain Python (no Django import), in the order the forms offer the choices.
"""


def gettext_noop(message: str) -> str:
    """Marks a label for translation (makemessages extracts it); returns it unchanged."""
    return message


def capfirst(text: str) -> str:
    """« garde sans » -> « Garde sans » (the first letter only)."""
    return text[:1].upper() + text[1:]


# Deal kinds (docs/regles.md §1).
PLAYED, PASSED, PETIT_SEC, MISDEAL = "played", "passed", "petit_sec", "misdeal"
KIND_LABELS = {
    PLAYED: gettext_noop("jouée"),
    PASSED: gettext_noop("passe"),
    PETIT_SEC: gettext_noop("petit sec"),
    MISDEAL: gettext_noop("fausse donne"),
}
KINDS = tuple(KIND_LABELS)
# How an error names a deal that was not played (« une fausse donne n'a pas de preneur »).
NOT_PLAYED_PHRASES = {
    PASSED: gettext_noop("une donne passée"),
    PETIT_SEC: gettext_noop("un petit sec"),
    MISDEAL: gettext_noop("une fausse donne"),
}

# Contracts, from the smallest (docs/regles.md §2); « petite » is read as « prise ».
CONTRACT_LABELS = {
    "prise": gettext_noop("Prise"),
    "garde": gettext_noop("Garde"),
    "garde_sans": gettext_noop("Garde sans"),
    "garde_contre": gettext_noop("Garde contre"),
}
CONTRACTS = tuple(CONTRACT_LABELS)
CONTRACT_ALIASES = {"petite": "prise"}


def contract_label(code: str) -> str:
    """French name of a contract code ("garde_sans" -> "Garde sans"); unknown codes unchanged."""
    return CONTRACT_LABELS.get(CONTRACT_ALIASES.get(code, code), code)


# The suit of the called king (or queen), at five players.
SUIT_LABELS = {
    "pique": gettext_noop("pique"),
    "coeur": gettext_noop("cœur"),
    "carreau": gettext_noop("carreau"),
    "trefle": gettext_noop("trèfle"),
}
SUITS = tuple(SUIT_LABELS)

# The called card: a king, or a queen when the taker holds the four kings.
KING, QUEEN = "roi", "dame"
CALLED_RANK_LABELS = {KING: gettext_noop("roi"), QUEEN: gettext_noop("dame")}
CALLED_RANKS = tuple(CALLED_RANK_LABELS)

# The two sides of a deal (petit au bout, chelem).
ATTACK, DEFENCE = "attack", "defence"
SIDE_LABELS = {ATTACK: gettext_noop("attaque"), DEFENCE: gettext_noop("défense")}
SIDE_LABELS_WITH_ARTICLE = {ATTACK: gettext_noop("l'attaque"), DEFENCE: gettext_noop("la défense")}
SIDES = tuple(SIDE_LABELS)

# Poignée sizes, from the smallest.
POIGNEE_LABELS = {"simple": "simple", "double": "double", "triple": "triple"}
POIGNEE_SIZES = tuple(POIGNEE_LABELS)


def poignee_name(size: str) -> str:
    """« Poignée simple »; an unknown size is shown as it is."""
    label = POIGNEE_LABELS.get(size)
    return f"Poignée {label}" if label is not None else size


# Players at a table: 4, or 5 with a called king.
TABLE_SIZES = (4, 5)
MIN_PLAYERS, MAX_PLAYERS = TABLE_SIZES[0], TABLE_SIZES[-1]

# Stages and statuses of a round.
REGULAR, PLAYOFF, FINAL = "regular", "playoff", "final"
STAGE_LABELS = {
    REGULAR: gettext_noop("saison régulière"),
    PLAYOFF: gettext_noop("play-off"),
    FINAL: gettext_noop("finale"),
}
STAGES = tuple(STAGE_LABELS)
DRAFT, SUBMITTED, HOMOLOGATED = "draft", "submitted", "homologated"
STATUS_LABELS = {
    DRAFT: gettext_noop("brouillon"),
    SUBMITTED: gettext_noop("soumise"),
    HOMOLOGATED: gettext_noop("homologuée"),
}
STATUSES = tuple(STATUS_LABELS)

# The play-off tables a round can be stored at (a table name is one letter in the database); the
# default of the rulebook's `cup.playoff_tables`, which may name fewer of them.
PLAYOFF_TABLES = ("A", "B")

# Chip colours, in the order they are handed out at a table.
COLOUR_LABELS = {
    "blanc": gettext_noop("blanc"),
    "jaune": gettext_noop("jaune"),
    "rouge": gettext_noop("rouge"),
    "bleu": gettext_noop("bleu"),
    "vert": gettext_noop("vert"),
}
COLOURS = tuple(COLOUR_LABELS)
# A player's chips, named with the colour agreeing (« jetons blancs »).
CHIPS_LABELS = {
    "blanc": gettext_noop("jetons blancs"),
    "jaune": gettext_noop("jetons jaunes"),
    "rouge": gettext_noop("jetons rouges"),
    "bleu": gettext_noop("jetons bleus"),
    "vert": gettext_noop("jetons verts"),
}
