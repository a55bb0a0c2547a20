"""Player names in the order a French reader expects: accents, case and ligatures do not send a
name after « Z » (the order of Python's `sorted`, and of a database's binary collation)."""

from federation.collation import french_key, sorted_by_name


def test_it_puts_emile_before_lea():
    assert sorted_by_name(["Léa", "Émile", "Zoé", "Alice"]) == ["Alice", "Émile", "Léa", "Zoé"]
    assert sorted(["Léa", "Émile"]) == ["Léa", "Émile"]  # what a plain sort did


def test_it_reads_the_ligature_oe_as_o_e():
    assert sorted_by_name(["Oscar", "Œdipe", "Odile", "Zélie"]) == ["Odile", "Œdipe", "Oscar", "Zélie"]


def test_it_reads_c_cedilla_as_c_and_ignores_the_accents_at_first():
    assert sorted_by_name(["Cyril", "Çécile", "Carole", "Cedric"]) == ["Carole", "Çécile", "Cedric", "Cyril"]
    assert sorted_by_name(["Hélène", "Helga", "Hugo", "Henri"]) == ["Hélène", "Helga", "Henri", "Hugo"]


def test_it_puts_a_name_with_an_accent_right_after_the_same_name_without():
    assert sorted_by_name(["Élodie", "Eloïse", "Elodie"]) == ["Elodie", "Élodie", "Eloïse"]


def test_it_ignores_the_case_at_first():
    assert sorted_by_name(["émile", "Eva", "Dora"]) == ["Dora", "émile", "Eva"]
    assert french_key("a") < french_key("B") < french_key("c")


def test_it_sorts_by_a_key_put_before_the_name():
    people = [("Zoé", True), ("Émile", False), ("Léa", True)]
    ordered = sorted_by_name(people, name=lambda p: p[0], first=lambda p: not p[1])
    assert [p[0] for p in ordered] == ["Léa", "Zoé", "Émile"]
