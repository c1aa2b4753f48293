from pathlib import Path

import pytest

from generator.content.yaml_source import parse_yaml
from generator.errors import Problems
from generator.i18n.catalog import catalog_from_document, interpolate, required_plural_forms


@pytest.mark.parametrize("count, category", [
    (1, "one"), (2, "few"), (5, "many"), (11, "many"), (21, "one"), (22, "few"), (25, "many"), (111, "many"),
])
def test_russian_plural_categories_follow_cldr(count, category):
    problems = Problems()
    document = parse_yaml('ru:\n  cards: {one: "{count} карта", few: "{count} карты", many: "{count} карт", '
                          'other: "{count} карты"}\n', Path("ru.yaml"), problems)
    catalog = catalog_from_document(document, "ru", problems)
    assert not problems.items
    assert catalog.plural_category(count) == category


def test_languages_need_the_plural_forms_cldr_gives_them():
    assert required_plural_forms("ru") == {"one", "few", "many", "other"}
    assert required_plural_forms("bg") == {"one", "other"}
    assert required_plural_forms("ka") == {"one", "other"}


def test_placeholders_are_named_and_braces_can_be_escaped():
    assert interpolate("{count} снежинки {{x}}", {"count": 6}) == "6 снежинки {x}"


def test_catalog_keys_flatten_and_need_the_language_root():
    problems = Problems()
    document = parse_yaml('en:\n  gifts:\n    teddy: {name: "Teddy"}\n', Path("en.yaml"), problems)
    catalog = catalog_from_document(document, "en", problems)
    assert catalog.entries["gifts.teddy.name"].text == "Teddy"
    assert catalog.entries["gifts.teddy.name"].mark.line == 3
    wrong = parse_yaml('de:\n  a: "b"\n', Path("en.yaml"), problems)
    catalog_from_document(wrong, "en", problems)
    assert "exactly one root key, 'en:'" in str(problems.items[-1])
