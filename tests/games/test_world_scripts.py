"""examples/world-scripts (Harbour Lights) in every script it is written in: it checks, it builds, and
every word reads back.

The example game is copied to a temporary folder and checked and built there as a user would build
it (one paper, no print-shop files). Then, for each language:

- every card's suit, number, title and effect is read back from cards.pdf — with pypdfium2 box by
  box and with pdftotext card by card — and compared with the catalog's text, normalised for
  whitespace and line breaks only (a title set in capitals is compared caselessly and without its
  accents; the capitals themselves are the Greek and Turkish tests below);
- the tokens' and the rulebook's words likewise;
- Arabic letters are joined: a word is set narrower than the same letters in their isolated forms;
- no line of Japanese starts with 。 or 、 (nor ends with 「), in the example and in a box as wide as
  ten characters, where a break between any two characters would start the next line with 。;
- Greek capitals have no tonos (ΛΙΜΑΝΙ, ΔΥΝΑΜΗ, ΤΣΑΪ) and Turkish capitals keep the dot (İYİ FİYAT).
"""

from __future__ import annotations

import difflib
import functools
import re
import shutil
import subprocess
import unicodedata
from collections.abc import Callable, Mapping
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest
import yaml
from click.testing import CliRunner, Result

from generator.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "world-scripts"
GAME = yaml.safe_load((EXAMPLE / "game.yaml").read_text(encoding="utf-8"))
LANGUAGES: tuple[str, ...] = tuple(GAME["languages"])
DECKS = yaml.safe_load((EXAMPLE / "cards.yaml").read_text(encoding="utf-8"))["decks"]
CARDS = DECKS[0]["cards"]
PT = 72 / 25.4                      # points per millimetre
PDFTOTEXT = shutil.which("pdftotext")

# Poker cards: 63 × 88 mm, with a 3 mm bleed that each card's background rectangle fills
CARD_W, CARD_H, BLEED = 63.0, 88.0, 3.0
Box = tuple[float, float, float, float]      # x, y, width, height from the trim's top-left, mm
# Boxes of templates/hl-card.yaml
CARD_BOXES: dict[str, Box] = {"suit": (5, 5.5, 38, 8), "number": (46, 4, 11, 11), "title": (5, 18, 53, 11),
              "effect": (5.5, 57, 52, 26.5)}
UPPERCASE_BOXES = frozenset({"suit", "title"})

_MARKUP = re.compile(r"\{icon:[^{}\s]*\}|\*\*|(?<!\\)\*")
_LIST_MARKER = re.compile(r"^\s*(?:[-•]|\d{1,3}[.)])\s+", re.M)
# what may stand between two characters of the catalog's text in the PDF's: white space and line
# breaks (ICU's zero-width break opportunities too), a hyphen added where a line breaks, and the
# directional marks and embeddings pdftotext puts round right-to-left lines and the numbers in them
_BETWEEN = r"(?:[\s\u200b\x02\u00ad\u200e\u200f\u202a-\u202e\u2066-\u2069]|-(?=[\s\u200b]))*"


# ------------------------------------------------------------------ running pnp and reading PDFs

def pnp(*args: str) -> Result:
    """The real command line; whatever the content, the user never sees a traceback."""
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


@pytest.fixture(scope="module")
def game_copy(tmp_path_factory) -> Path:
    """The example copied out of the repository, as a user copies it."""
    folder = tmp_path_factory.mktemp("world") / "world"
    shutil.copytree(EXAMPLE, folder)
    return folder


@pytest.fixture(scope="module")
def built(game_copy, tmp_path_factory) -> Callable[[str], Path]:
    """The A4 output folder of a language: cards, tokens and rules of every language, built at once
    (one build shares the game's loading and fonts: about half the CPU of a build per language)."""
    out = tmp_path_factory.mktemp("world-out")
    result = pnp("build", str(game_copy), "--paper", "a4", "--only", "cards,tokens,rules", "--out", str(out),
                 "--jobs", "1", "-q")
    if result.exit_code != 0:
        pytest.fail(f"pnp build failed (exit {result.exit_code}):\n{result.output[-3000:]}")

    def folder(lang: str) -> Path:
        return out / GAME["id"] / "standard" / lang / "a4"
    return folder


@functools.lru_cache(maxsize=None)
def catalog(lang: str) -> dict:
    """The example's catalog of a language, read once."""
    return yaml.safe_load((EXAMPLE / "i18n" / f"{lang}.yaml").read_text(encoding="utf-8"))[lang]


def text_of(lang: str, key: str) -> str:
    node = catalog(lang)
    for part in key.split("."):
        node = node[part]
    assert isinstance(node, str), key
    return node


def plain(text: str) -> str:
    """The words a catalog text prints: icons and emphasis markup left out."""
    return _MARKUP.sub(" ", text).replace("\\*", "*")


def fold(text: str) -> str:
    """Caseless and without the accents capitals may drop (tonos, dialytika, the dots of İ and i)."""
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFC", text).casefold().replace("ı", "i"))
    return "".join(c for c in decomposed if c not in "\u0301\u0308\u0307")


@functools.lru_cache(maxsize=4096)
def text_pattern(expected: str, caseless: bool, whole: bool) -> re.Pattern:
    """A catalog text as a pattern: its characters, anything of _BETWEEN between them."""
    letters = [c for c in (fold(expected) if caseless else expected) if not c.isspace()]
    pattern = _BETWEEN.join(re.escape(c) for c in letters)
    return re.compile(_BETWEEN + pattern + _BETWEEN if whole else pattern)


def reads(expected: str, printed: str, *, caseless: bool = False, whole: bool = False) -> bool:
    """Whether `printed` (read back from a PDF) holds `expected` (a catalog's text) exactly, but for
    white space and line breaks (and a hyphen at a line's end)."""
    pattern = text_pattern(unicodedata.normalize("NFC", expected), caseless, whole)
    printed = unicodedata.normalize("NFC", printed)
    if caseless:
        printed = fold(printed)
    return (pattern.fullmatch(printed) if whole else pattern.search(printed)) is not None


def pdfium_box(textpage, page_height: float, slot: tuple[float, float], box: Box) -> str:
    """The text pdfium reads inside a box of the card in a slot (mm from the trim's top-left)."""
    x, y, w, h = box
    left, top = slot[0] + x - 0.3, slot[1] + y - 0.3
    return textpage.get_text_bounded(left=left * PT, right=(left + w + 0.6) * PT,
                                     top=page_height - top * PT, bottom=page_height - (top + h + 0.6) * PT)


def card_slots(page) -> list[tuple[float, float]]:
    """Where the cards on a page are: the trim's top-left corner (mm from the page's top-left) of every
    card whose background fills its bleed (a path, or a form holding it, as large as the card and its
    bleed), in drawing order. Found in the page itself, so the test does not depend on how the sheet
    is imposed."""
    _, height = page.get_size()
    slots: list[tuple[float, float]] = []
    for item in page.get_objects(max_depth=1):     # page space: a form's own objects are in the form's
        if item.type in (pdfium_raw.FPDF_PAGEOBJ_PATH, pdfium_raw.FPDF_PAGEOBJ_FORM):
            left, bottom, right, top = item.get_bounds()
            slot = (round(left / PT + BLEED, 2), round((height - top) / PT + BLEED, 2))
            if (abs((right - left) / PT - CARD_W - 2 * BLEED) < 0.3
                    and abs((top - bottom) / PT - CARD_H - 2 * BLEED) < 0.3 and slot not in slots):
                slots.append(slot)
    return slots


def pdfium_cards(pdf: Path, boxes: Mapping[str, Box]) -> list[dict[str, str]]:
    """Each card front of every page: the text of each of its boxes, as pdfium reads it."""
    document = pdfium.PdfDocument(str(pdf))
    cards = []
    for index in range(len(document)):
        page = document[index]
        textpage, (_, height) = page.get_textpage(), page.get_size()
        for slot in card_slots(page):
            cards.append({name: pdfium_box(textpage, height, slot, box) for name, box in boxes.items()})
    return cards


def pdftotext_cards(pdf: Path) -> list[str]:
    """Each card front of every page (card_slots): pdftotext's reading of the card's area, in its own
    reading order (plain text mode: the mode that puts right-to-left lines in their logical order)."""
    assert PDFTOTEXT is not None
    document = pdfium.PdfDocument(str(pdf))
    dpi = 288
    scale = dpi / 25.4
    cards = []
    for index in range(len(document)):
        for left, top in card_slots(document[index]):
            command = [PDFTOTEXT, "-q", "-enc", "UTF-8", "-f", str(index + 1), "-l", str(index + 1), "-r", str(dpi),
                       "-x", str(int(left * scale)), "-y", str(int(top * scale)),
                       "-W", str(int(CARD_W * scale)), "-H", str(int(CARD_H * scale)), str(pdf), "-"]
            cards.append(subprocess.run(command, capture_output=True, text=True, check=True, encoding="utf-8").stdout)
    return cards


def nearest(expected: str, read: list, key: Callable = str) -> object:
    """The reading most like the expected text (for a failure's message)."""
    return max(read, key=lambda item: difflib.SequenceMatcher(None, expected, key(item)).ratio(), default=None)


def card_expectations(lang: str) -> list[dict[str, str]]:
    """Every harbour card's printed words, box by box."""
    expected = []
    for card in CARDS:
        fields = card["fields"]
        expected.append({"id": card["id"], "suit": text_of(lang, fields["suit"]), "number": str(fields["number"]),
                         "title": text_of(lang, fields["name"]), "effect": plain(text_of(lang, fields["effect"]))})
    return expected


def score_card_texts(lang: str) -> list[str]:
    rows = DECKS[1]["cards"][0]["fields"]["scoring"]
    return [text_of(lang, "score.cards"), text_of(lang, "score.points"), plain(text_of(lang, "score.notes")),
            *(f"+{points}" for _, points in rows), *(str(count) for count, _ in rows)]


# ------------------------------------------------------------------ it checks

def test_the_example_checks_in_every_language(game_copy):
    result = pnp("check", str(game_copy))
    assert result.exit_code == 0, result.output[-4000:]
    assert "0 error" in result.output or result.output.strip().startswith("ok"), result.output[-2000:]


# ------------------------------------------------------------------ every word reads back

@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_reads_back_box_by_box_with_pdfium(built, lang):
    read = pdfium_cards(built(lang) / "cards.pdf", {**CARD_BOXES, "card": (0, 0, CARD_W, CARD_H)})
    missing = []
    for card in card_expectations(lang):
        def matches(boxes: dict[str, str], card=card) -> bool:
            return all(reads(card[name], boxes[name], whole=True, caseless=name in UPPERCASE_BOXES)
                       for name in CARD_BOXES)
        if not any(matches(boxes) for boxes in read):
            near = nearest(card["effect"], read, key=lambda boxes: boxes["effect"])
            missing.append(f"{card['id']}: expected {card}\n    read {near}")
    assert not missing, "\n".join(missing)
    score = score_card_texts(lang)
    assert any(all(reads(text, boxes["card"]) for text in score) for boxes in read), \
        f"score card: expected {score}\n    read {nearest(score[2], read, key=lambda boxes: boxes['card'])}"


@pytest.mark.skipif(PDFTOTEXT is None, reason="pdftotext (poppler-utils) is not installed")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_reads_back_with_pdftotext(built, lang):
    regions = pdftotext_cards(built(lang) / "cards.pdf")
    missing = []
    for card in card_expectations(lang):
        def holds(region: str, card=card) -> bool:
            return reads(card["effect"], region) and reads(card["number"], region) and all(
                reads(card[name], region, caseless=True) for name in UPPERCASE_BOXES)
        if not any(holds(region) for region in regions):
            missing.append(f"{card['id']}: expected {card}\n    read {nearest(card['effect'], regions)!r}")
    assert not missing, "\n".join(missing)
    score = score_card_texts(lang)
    assert any(all(reads(text, region) for text in score) for region in regions), \
        f"score card: expected {score}\n    read {nearest(score[2], regions)!r}"


def rules_texts(lang: str) -> list[str]:
    """Every text the rulebook prints from the catalog (list items one by one)."""
    rules = yaml.safe_load((EXAMPLE / "rules.yaml").read_text(encoding="utf-8"))["rulebook"]
    keys = [rules["cover"]["title"], rules["cover"]["tagline"]]
    for section in rules["sections"]:
        keys.append(section["heading"])
        for block in section["blocks"]:
            for kind in ("paragraph", "list"):
                if kind in block:
                    keys.append(block[kind])
            if "table" in block:
                keys.extend(block["table"]["header"])
            if "callout" in block:
                keys.append(block["callout"]["title"])
                keys.extend(inner["paragraph"] for inner in block["callout"]["blocks"])
    texts: list[str] = []
    for key in keys:
        text = plain(text_of(lang, key))
        texts.extend(item for item in _LIST_MARKER.sub("", text).split("\n") if item.strip())
    return texts


def tokens_texts(lang: str) -> list[str]:
    return [text_of(lang, "tokens.first"), "1", "5"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rulebook_and_the_tokens_read_back_with_pdfium(built, lang):
    rulebook_and_tokens_read_back(built, lang, "pdfium")


@pytest.mark.skipif(PDFTOTEXT is None, reason="pdftotext (poppler-utils) is not installed")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rulebook_and_the_tokens_read_back_with_pdftotext(built, lang):
    rulebook_and_tokens_read_back(built, lang, "pdftotext")


def rulebook_and_tokens_read_back(built, lang: str, reader: str) -> None:
    """Every text of rules.pdf and tokens.pdf is in the file's text as `reader` reads it."""
    folder = built(lang)
    for name, texts in (("rules.pdf", rules_texts(lang)), ("tokens.pdf", tokens_texts(lang))):
        if reader == "pdfium":
            document = pdfium.PdfDocument(str(folder / name))
            printed = "\n".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
        else:
            assert PDFTOTEXT is not None
            printed = subprocess.run([PDFTOTEXT, "-q", "-enc", "UTF-8", str(folder / name), "-"], capture_output=True,
                                     text=True, check=True, encoding="utf-8").stdout
        missing = [text for text in texts if not reads(text, printed, caseless=name == "tokens.pdf")]
        assert not missing, (f"{name} ({lang}, {reader}) lacks:\n" + "\n".join(missing)
                             + f"\n--- read:\n{printed[:3000]}")


# ------------------------------------------------------------------ capitals

def title_boxes(built, lang: str, box: str = "title") -> set[str]:
    """A box of every harbour card (a card whose number box holds a number), its white space joined."""
    return {" ".join(boxes[box].split()) for boxes in pdfium_cards(built(lang) / "cards.pdf", CARD_BOXES)
            if boxes["number"].strip().isdigit()}


def test_greek_capitals_drop_the_tonos_and_keep_the_dialytika(built):
    titles = title_boxes(built, "el")
    assert {"ΛΙΜΑΝΙ", "ΔΥΝΑΜΗ", "ΠΑΛΙΡΡΟΙΑ", "ΚΑΤΑΙΓΙΔΑ", "ΝΑΥΤΙΛΟΣ", "ΦΑΝΑΡΙ",
            "ΤΣΑΪ ΚΑΙ ΜΠΑΧΑΡΙΚΑ", "ΚΩΝΣΤΑΝΤΙΝΟΥΠΟΛΗ"} <= titles, titles
    assert {"ΘΑΛΑΣΣΑ", "ΑΓΟΡΑ", "ΦΩΣ"} <= title_boxes(built, "el", "suit")
    tonos = [title for title in titles if "\u0301" in unicodedata.normalize("NFD", title)]
    assert not tonos, tonos


def test_turkish_capitals_keep_the_dot_of_i(built):
    titles = title_boxes(built, "tr")
    assert {"İYİ FİYAT", "DENİZ FENERİ", "İSTANBUL", "LİMAN", "FIRTINA", "NAUTİLUS", "BEKÇİ"} <= titles, titles
    assert {"DENİZ", "ÇARŞI", "IŞIK"} <= title_boxes(built, "tr", "suit")


# ------------------------------------------------------------------ synthetic games: joining, kinsoku

def tiny_game(tmp_path: Path, lang: str, texts: dict[str, str], box: str, style: str) -> Path:
    """A one-deck game in `lang` whose cards each print one text in a box of `box`, in `style`."""
    folder = tmp_path / "g"
    (folder / "templates").mkdir(parents=True)
    (folder / "i18n").mkdir()
    (folder / "game.yaml").write_text(f"format: 2\nid: g\ntitle: game.title\nlanguages: [{lang}]\n"
                                      "editions:\n  standard: {name: game.edition, players: \"2\"}\n",
                                      encoding="utf-8")
    cards = "".join(f"      - {{id: {key}, fields: {{text: t.{key}}}}}\n" for key in texts)
    (folder / "cards.yaml").write_text("decks:\n  - id: d\n    name: game.title\n    template: face\n"
                                       f"    back: back\n    cards:\n{cards}", encoding="utf-8")
    (folder / "templates" / "face.yaml").write_text(
        f"extends: poker-card\nstyles:\n  probe: {style}\nboxes:\n  ground: {{kind: rect, area: bleed, fill: paper}}\n"
        f"  text: {{kind: text, text: '@text', {box}, style: probe}}\n", encoding="utf-8")
    (folder / "templates" / "back.yaml").write_text("extends: poker-card\nboxes: {}\n", encoding="utf-8")
    entries = "".join(f'    {key}: "{value}"\n' for key, value in texts.items())
    (folder / "i18n" / f"{lang}.yaml").write_text(f'{lang}:\n  game: {{title: "G", edition: "E"}}\n  t:\n{entries}',
                                                   encoding="utf-8")
    return folder


def build_tiny_path(folder: Path, out: Path) -> Path:
    """Build a tiny game's A4 cards.pdf; return its path."""
    result = pnp("build", str(folder), "--paper", "a4", "--only", "cards", "--out", str(out), "--jobs", "1", "-q")
    assert result.exit_code == 0, result.output[-3000:]
    return next(out.rglob("cards.pdf"))


def build_tiny(folder: Path, out: Path) -> pdfium.PdfDocument:
    return pdfium.PdfDocument(str(build_tiny_path(folder, out)))


def ink_width_mm(image, slot: tuple[float, float], box: Box) -> float:
    """The width of the dark pixels inside a box of the card in a slot, on a page rendered at 300 dpi."""
    x, y, w, h = box
    px = 300 / 25.4
    crop = image.crop((int((slot[0] + x) * px), int((slot[1] + y) * px),
                       int((slot[0] + x + w) * px), int((slot[1] + y + h) * px)))
    dark = crop.point(lambda value: 255 if value < 128 else 0).getbbox()
    assert dark is not None, "nothing is drawn in the box"
    return (dark[2] - dark[0]) / px


def isolated_forms(word: str) -> str:
    """The word's letters as Arabic Presentation Forms-B isolated forms: the look of unjoined letters."""
    forms = {}
    for code in range(0xFE70, 0xFF00):
        decomposition = unicodedata.decomposition(chr(code))
        if decomposition.startswith("<isolated>"):
            forms[chr(int(decomposition.split()[1], 16))] = chr(code)
    return "".join(forms.get(c, c) for c in word)


def test_arabic_letters_are_joined(tmp_path):
    """Each of these words, as the example's Arabic catalog writes it, is set narrower than its letters
    in their isolated forms: joined letters (initial, medial, final forms) drop the isolated forms' tails.
    Unshaped text would draw the isolated (nominal) glyphs: the same width."""
    words = ["العاصفة", "المنارة", "الفانوس", "مرفئك"]
    ar = catalog("ar")
    every_text = yaml.safe_dump(ar, allow_unicode=True)
    assert all(word in every_text for word in words)
    texts = {f"w{index}": word for index, word in enumerate(words)}
    texts.update({f"i{index}": isolated_forms(word) for index, word in enumerate(words)})
    box = (5, 30, 53, 20)
    folder = tiny_game(tmp_path, "ar", texts, f"x: {box[0]}, y: {box[1]}, width: {box[2]}, height: {box[3]}",
                       "{font: body, size: 30pt, min_size: 30pt, color: ink, align: center, valign: middle}")
    page = build_tiny(folder, tmp_path / "out")[0]
    slots = card_slots(page)                       # in drawing order: the cards' order in cards.yaml
    assert len(slots) == len(texts), slots
    image = page.render(scale=300 / 72).to_pil().convert("L")
    widths = [ink_width_mm(image, slot, box) for slot in slots]
    joined, isolated = widths[:len(words)], widths[len(words):]
    for word, narrow, wide in zip(words, joined, isolated, strict=True):
        assert narrow < 0.9 * wide, f"{word}: {narrow:.1f} mm joined, {wide:.1f} mm in isolated forms"


KINSOKU_START = "。、」』）！？ー"


def lines_of(text: str) -> list[str]:
    return [line.strip() for line in re.split(r"[\r\n]+", text) if line.strip()]


def test_no_line_of_japanese_starts_with_closing_punctuation(tmp_path, built):
    # the example: every Japanese card effect, the long lighthouse text over several lines
    effects = [lines_of(boxes["effect"]) for boxes in pdfium_cards(built("ja") / "cards.pdf", CARD_BOXES)]
    lighthouse = plain(text_of("ja", "cards.lighthouse.effect"))
    long_one = [lines for lines in effects if reads(lighthouse, "\n".join(lines))]
    assert long_one and len(long_one[0]) >= 3, effects
    bad = [lines for lines in effects if any(line[0] in KINSOKU_START or line[-1] in "「『（" for line in lines)]
    assert not bad, bad
    # a box ten characters wide at a size that may not shrink: the eleventh character is 。 (or the
    # tenth is 「), so a break after any character would start the second line with 。 (end one with 「)
    texts = {"stop": "あいうえおかきくけこ。さしすせそたちつてと", "open": "あいうえおかきくけ「こ」さしすせそ"}
    size = 10                                              # pt; a kana or 。 is 1 em wide
    width = 10 * size / PT + 0.3                           # ten characters and a little
    box = (5, 30, width, 30)
    folder = tiny_game(tmp_path, "ja", texts, f"x: {box[0]}, y: {box[1]}, width: {width:.2f}, height: {box[3]}",
                       f"{{font: body, size: {size}pt, min_size: {size}pt, color: ink, align: left, valign: top}}")
    read = [boxes for boxes in pdfium_cards(build_tiny_path(folder, tmp_path / "out"), {"text": box})
            if boxes["text"].strip()]
    for boxes, text in zip(read, texts.values(), strict=True):
        lines = lines_of(boxes["text"])
        assert "".join(lines) == text, lines                # every character kept, in order
        assert len(lines) >= 2, lines
        assert all(line[0] not in KINSOKU_START and line[-1] not in "「『（" for line in lines), lines
