"""Typography per language: dictionary hyphenation where one exists, Georgian capitals only if the font has them."""

from generator.components.text_boxes import uppercase_covered
from generator.text.hyphenation import breaks
from generator.text.fonts import FontLibrary
from generator.text.setter import TextSetter


class _Ctx:
    def __init__(self):
        self.setter = TextSetter(FontLibrary())
        self.lang = "ka"          # uppercase_covered capitalises by the box's language


def test_hyphenation_dictionaries_for_bg_ru_hu_en_and_none_for_georgian():
    assert breaks("подаръци", "bg")
    assert breaks("снежинки", "ru")
    assert breaks("ajándékok", "hu")
    assert breaks("delivering", "en")
    assert breaks("საჩუქრები", "ka") == ()


def test_georgian_is_upper_cased_only_with_a_font_that_has_mtavruli():
    ctx = _Ctx()
    word = "საჩუქარი"
    assert uppercase_covered(word, ("nunito", "noto-sans-georgian"), ctx) == word.upper()   # Noto has Mtavruli
    assert uppercase_covered(word, ("nunito",), ctx) == word            # no capitals to turn into
    assert uppercase_covered("подарък", ("nunito",), ctx) == "ПОДАРЪК"
