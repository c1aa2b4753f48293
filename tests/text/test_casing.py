"""Capitals and small letters as a language writes them (generator/text/casing.py), on real words."""

from __future__ import annotations

import unicodedata

import pytest

from generator.text.casing import lower, upper


@pytest.mark.parametrize(("word", "capitals"), [
    ("ΔΎΝΑΜΗ", "ΔΥΝΑΜΗ"),            # capitals written with a tonos lose it
    ("δύναμη", "ΔΥΝΑΜΗ"),
    ("λιμάνι", "ΛΙΜΑΝΙ"),
    ("Ελλάδα", "ΕΛΛΑΔΑ"),
    ("οδός", "ΟΔΟΣ"),                # the final sigma too
    ("είναι", "ΕΙΝΑΙ"),              # the accent on a diphthong's second letter: one sound, no dialytika
    ("παιδί", "ΠΑΙΔΙ"),
    ("ευρώ", "ΕΥΡΩ"),
    ("Μάιος", "ΜΑΪΟΣ"),              # ά|ι said apart: the ι gets the dialytika
    ("νεράιδα", "ΝΕΡΑΪΔΑ"),
    ("ρολόι", "ΡΟΛΟΪ"),
    ("άυλος", "ΑΫΛΟΣ"),
    ("ΆΙ", "ΑΪ"),
    ("προϊόν", "ΠΡΟΪΟΝ"),            # a dialytika already written is kept
    ("κοροϊδεύω", "ΚΟΡΟΪΔΕΥΩ"),
    ("ταΰγετος", "ΤΑΫΓΕΤΟΣ"),
    ("διϋλιστήριο", "ΔΙΫΛΙΣΤΗΡΙΟ"),
    ("ΐ", "Ϊ"), ("ΰ", "Ϋ"),          # dialytika and tonos: the dialytika stays
    ("Ήρα ή Δίας", "ΗΡΑ Ή ΔΙΑΣ"),    # the disjunctive ή alone keeps its accent
    ("ἄνθρωπος", "ΑΝΘΡΩΠΟΣ"),        # polytonic breathings and accents go too
    ("ᾠδή", "ΩΙΔΗ"),                 # the iota written below comes beside the capital
    ("Κάρτα: +2 πόντους", "ΚΑΡΤΑ: +2 ΠΟΝΤΟΥΣ"),
])
def test_greek_capitals_have_no_tonos(word, capitals):
    assert upper(word, "el") == capitals
    assert upper(word, "el-GR") == capitals
    assert "\u0301" not in unicodedata.normalize("NFD", upper(word, "el").replace("Ή", ""))


def test_greek_written_decomposed_is_the_same():
    assert upper(unicodedata.normalize("NFD", "Μάιος λιμάνι"), "el") == "ΜΑΪΟΣ ΛΙΜΑΝΙ"


def test_greek_capitals_keep_their_accents_in_another_language():
    # the rule is Greek typography's: a Greek word in an English text is left as Python gives it
    assert upper("λιμάνι", "en") == "ΛΙΜΆΝΙ"


@pytest.mark.parametrize("lang", ["tr", "tr-TR", "az", "az_AZ"])
def test_turkish_dotted_and_dotless_i(lang):
    assert upper("istanbul", lang) == "İSTANBUL"
    assert upper("ılık şişe", lang) == "ILIK ŞİŞE"
    assert upper("Diyarbakır", lang) == "DİYARBAKIR"
    assert lower("İSTANBUL", lang) == "istanbul"
    assert lower("ILIK", lang) == "ılık"
    assert lower("DİYARBAKIR", lang) == "diyarbakır"
    assert lower("I\u0307", lang) == "i"         # İ written as I and a combining dot


def test_other_languages_keep_the_usual_i():
    assert upper("istanbul", "en") == "ISTANBUL"
    assert lower("ILIK", "en") == "ilik"


def test_german_sharp_s():
    assert upper("Straße", "de") == "STRASSE"
    assert upper("Fußball größer", "de-AT") == "FUSSBALL GRÖSSER"


def test_final_sigma_in_small_letters():
    assert lower("ΟΔΟΣ ΣΟΦΟΣ", "el") == "\u03bf\u03b4\u03bf\u03c2 \u03c3\u03bf\u03c6\u03bf\u03c2"   # οδος σοφος
    assert lower("ΟΔΟΣ", "el")[-1] == "\u03c2" and lower("ΣΟΦΟΣ", "el")[0] == "\u03c3"


@pytest.mark.parametrize(("text", "lang", "capitals"), [
    ("Первый игрок", "ru", "ПЕРВЫЙ ИГРОК"),
    ("Következő kör", "hu", "KÖVETKEZŐ KÖR"),
    ("Зима на Балкана", "bg", "ЗИМА НА БАЛКАНА"),
    ("gift card", "en", "GIFT CARD"),
    ("ǰ", "en", "J\u030c"),         # no composed capital exists: Python's, normalized (nothing to compose)
    ("e\u0301te\u0301", "fr", "ÉTÉ"),  # composed where a composed capital exists
])
def test_everything_else_as_python_with_nfc(text, lang, capitals):
    assert upper(text, lang) == capitals
    assert upper(text, lang) == unicodedata.normalize("NFC", text.upper())
