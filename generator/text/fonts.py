"""Font faces: built-in families from font packages, a game's own files, per-glyph fallback.

Variable fonts are cut into static instances with fontTools (ReportLab would
embed only the default instance) and cached on disk, because instancing takes
seconds. Each instance gets its own names: ReportLab merges fonts that share a
PostScript name, and bold would silently come out regular.

A cached file is checked when it is read: a font against the SHA-256 recorded beside it when it
was written (its digest names the face, so it is worked out anyway), a character map against the
digest it carries. A truncated, damaged or swapped file is made again: it exited every build with
an internal error, or was embedded in place of the face it stood for.

What is read of a font file (its table tags, character map and digest, a game font's check) is
remembered in the build's caches (generator/caches.py) by the file's stat signature: a font edited
while `pnp serve` runs is read again.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import shutil
import struct
import sys
from array import array
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if sys.platform != "win32":
    import fcntl     # the kernel's file locks: one process cuts a font (_one_cutter)

import uharfbuzz as hb  # type: ignore[import-untyped, unused-ignore]
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont as ReportLabTTFont
from reportlab.pdfbase.ttfonts import TTFontFile

from generator.cache_folder import cache_root, oldest_beyond
from generator.caches import cached
from generator.errors import ContentError, Problems, SourceMark
from generator.input_files import file_signature, locate, problem_message, quoted, read_regular, shown
from generator.text.digests import sha256_hex

if TYPE_CHECKING:
    from generator.content.schema import FontFile

WEIGHTS: Mapping[str, int] = MappingProxyType({"regular": 400, "bold": 700, "black": 900})
COLLECTION_SUFFIXES = frozenset({".ttc", ".otc"})          # TrueType and OpenType collections
FONT_SUFFIXES = frozenset({".ttf", ".otf"}) | COLLECTION_SUFFIXES


@dataclass(frozen=True)
class BuiltinStacks:
    """pnp's built-in families by what each is for: the one place that says which family does what."""

    body: str = "nunito"                    # Latin, Cyrillic, Turkish: every text starts in it
    display: str = "nunito"                 # titles and names: the body family, at a heavier weight
    symbols: str = "inter"                  # ★ ☆ ✓ and arrows the body family lacks; Greek (Nunito has none)
    georgian: str = "noto-sans-georgian"    # Georgian letters (Nunito and Inter have none)
    arabic: str = "noto-sans-arabic"        # Arabic, Persian, Urdu
    hebrew: str = "heebo"                   # Hebrew (no Noto Sans Hebrew is packaged: see generator/fonts/README.md)
    devanagari: str = "noto-sans-devanagari"  # Hindi, Marathi, Nepali
    thai: str = "noto-sans-thai"            # Thai
    more_symbols: str = "noto-sans-symbols"  # the symbols Inter lacks too
    cjk: str = "noto-sans-cjk"              # Japanese, Chinese, Korean: the optional extra pnp-generator[cjk]

    @property
    def default(self) -> tuple[str, ...]:
        """The families a text is set in when a game names none (and that `pnp new` writes into game.yaml):
        each next one sets only the characters those before it lack (per-glyph fallback, setter.py). The
        CJK family is last (a 65,000-glyph face is read only for what no other has) and, where the extra
        is not installed, covers nothing."""
        return (self.body, self.symbols, self.georgian, self.arabic, self.hebrew, self.devanagari, self.thai,
                self.more_symbols, self.cjk)


STACKS = BuiltinStacks()
DEFAULT_STACK = STACKS.default


@dataclass(frozen=True)
class BuiltinFamily:
    """Where a built-in family's files are: a package's data (its upright and italic file, inside it);
    `index`: the font of a collection (TTC) that is the family."""

    package: str
    upright: tuple[str, ...]
    italic: tuple[str, ...] | None = None
    index: int = 0
    install: str = ""      # how to get a family that is not a dependency (an optional extra)


CJK_EXTRA = 'pip install "pnp-generator[cjk]"'
_CJK_FILE = ("NotoSansCJK-Regular.ttc",)
# The Noto Sans CJK collection's fonts (noto-cjk-sans-otc): one face of the same design per
# region, whose ideographs take the forms its readers expect (the same code point, other glyphs)
CJK_FACES: Mapping[str, int] = MappingProxyType({"jp": 0, "kr": 1, "sc": 2, "tc": 3, "hk": 4})

# The families that come with the pip install: font packages (pyproject dependencies), the two
# for which no font package exists, shipped inside pnp (generator/fonts/README.md says why), and
# Noto Sans CJK where the optional extra pnp-generator[cjk] installed it.
BUILTIN_FAMILIES: Mapping[str, BuiltinFamily] = MappingProxyType({
    "nunito": BuiltinFamily("fontpkg_nunito", ("files", "Nunito[wght].ttf"), ("files", "Nunito-Italic[wght].ttf")),
    "inter": BuiltinFamily("fontpkg_inter", ("files", "Inter[opsz,wght].ttf"),
                           ("files", "Inter-Italic[opsz,wght].ttf")),
    "noto-sans": BuiltinFamily("fontpkg_noto_sans", ("files", "NotoSans[wdth,wght].ttf"),
                               ("files", "NotoSans-Italic[wdth,wght].ttf")),
    "noto-sans-georgian": BuiltinFamily("generator", ("fonts", "NotoSansGeorgian[wght].ttf")),
    "noto-sans-symbols": BuiltinFamily("generator", ("fonts", "NotoSansSymbols[wght].ttf")),
    "noto-sans-arabic": BuiltinFamily("fontpkg_noto_sans_arabic", ("files", "NotoSansArabic[wdth,wght].ttf")),
    "noto-sans-devanagari": BuiltinFamily("fontpkg_noto_sans_devanagari",
                                          ("files", "NotoSansDevanagari[wdth,wght].ttf")),
    "noto-sans-thai": BuiltinFamily("fontpkg_noto_sans_thai", ("files", "NotoSansThai[wdth,wght].ttf")),
    "heebo": BuiltinFamily("fontpkg_heebo", ("files", "Heebo[wght].ttf")),
    # the collection's Japanese face stands for the family in a language of no CJK region (for_language)
    "noto-sans-cjk": BuiltinFamily("noto_cjk_sans_otc", _CJK_FILE, install=CJK_EXTRA),
    **{f"noto-sans-cjk-{region}": BuiltinFamily("noto_cjk_sans_otc", _CJK_FILE, index=index, install=CJK_EXTRA)
       for region, index in CJK_FACES.items()},
})


def cjk_region(lang: str) -> str:
    """The Noto Sans CJK face a language's ideographs take (BCP 47 tag): ja → jp, ko → kr, zh and
    zh-Hans/-CN/-SG → sc, zh-Hant/-TW/-HK/-MO → tc; any other language → jp (the collection's first)."""
    parts = lang.replace("_", "-").lower().split("-")
    if parts[0] == "ko":
        return "kr"
    if parts[0] in ("zh", "yue", "cmn"):
        return "tc" if {"hant", "tw", "hk", "mo"} & set(parts[1:]) or parts[0] == "yue" else "sc"
    return "jp"


@dataclass(frozen=True)
class FamilySource:
    """Where a family's upright and italic files are; variable or static. `index`: the font of a
    collection (TTC) that the files hold (a game's collections are cut into TrueType when read)."""

    name: str
    upright: Path
    italic: Path | None = None
    bold: Path | None = None          # static families only
    bold_italic: Path | None = None
    index: int = 0


def _package_file(package: str, parts: tuple[str, ...]) -> Path | None:
    """A data file inside an installed package (importlib.resources: a wheel installs unpacked, and the
    editable install maps the repository's folders, so it is a real file), or None where it is missing."""
    try:
        path = Path(str(files(package).joinpath(*parts)))
    except ModuleNotFoundError:       # a font package that is not installed: its family is not offered
        return None
    return path if path.is_file() else None


def builtin_families() -> dict[str, FamilySource]:
    """The families that come with the pip install and are there (BUILTIN_FAMILIES)."""
    families = {}
    for name, family in BUILTIN_FAMILIES.items():
        upright = _package_file(family.package, family.upright)
        if upright is not None:
            italic = _package_file(family.package, family.italic) if family.italic else None
            families[name] = FamilySource(name, upright, italic, index=family.index)
    return families


def for_language(stack: tuple[str, ...], lang: str, fallbacks: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A stack as a text in `lang` is set in it: the generic CJK family becomes the face of the
    language's region (ja → noto-sans-cjk-jp, zh-Hant → …-tc; cjk_region), and `fallbacks` (a game's
    own families no stack names) come last."""
    generic = STACKS.cjk
    if generic in stack:
        region = f"{generic}-{cjk_region(lang)}"
        stack = tuple(region if family == generic else family for family in stack if family != region)
    return stack + tuple(family for family in fallbacks if family not in stack)


def cache_dir() -> Path:
    """The fonts' folder in pnp's cache (made if missing); a cache that cannot be a folder is the user's to fix."""
    path = cache_root() / "fonts"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        problems = Problems()
        problems.add(SourceMark(cache_root()), f"pnp's cache folder cannot be used: {error.strerror or error}",
                     "set PNP_CACHE_DIR to a folder you can write to, or unset it (default: ~/.cache/pnp); "
                     "pnp keeps the font instances it cuts there")
        raise ContentError(problems) from None
    return path


def file_digest(path: Path) -> str:
    """The first 16 hex digits of the file's SHA-256: what names the faces and caches made from it."""
    return sha256_hex(path)[:16]


CAP_HEIGHT = 0.7      # ems: a family's capitals where its font does not say (a Latin face's are 0.65–0.75)


@dataclass(frozen=True)
class FontFace:
    """One registered font: a family at a weight, upright or italic (a card's face is components.piece.Face)."""

    family: str
    weight: str
    italic: bool
    name: str          # the name registered with ReportLab
    path: Path         # the static TrueType file that is embedded (glyf outlines; GSUB, GPOS and GDEF kept)
    synthetic_italic: bool = False   # the family has no italic: slant the upright
    synthetic_bold: bool = False     # the family has no file of the weight: its outlines were emboldened


class FontLibrary:
    """Turns (family, weight, italic) into registered static faces, once per library."""

    stacks = STACKS       # which built-in family does what (the body face, the fallbacks)

    def __init__(self, extra: dict[str, FamilySource] | None = None):
        self.families = {**builtin_families(), **(extra or {})}
        self._faces: dict[tuple[str, str, bool], FontFace] = {}
        self._cmaps: dict[str, frozenset[int]] = {}
        self._characters: dict[str, frozenset[str]] = {}
        self._cap_heights: dict[str, float] = {}
        self._lacking: dict[str, re.Pattern[str] | None] = {}

    @property
    def body_face(self) -> FontFace:
        """The body family's regular face: what a text starts in, and a PDF's first font."""
        return self.face(self.stacks.body)

    @property
    def display_face(self) -> FontFace:
        """The display family's regular face (titles and names set it heavier)."""
        return self.face(self.stacks.display)

    def face(self, family: str, weight: str = "regular", italic: bool = False) -> FontFace:
        key = (family, weight, italic)
        if key not in self._faces:
            self._faces[key] = self._make_face(family, weight, italic)
        return self._faces[key]

    def _make_face(self, family: str, weight: str, italic: bool) -> FontFace:
        source = self.families[family]
        if italic and source.italic is not None:
            file, synthetic = source.italic, False
        else:       # upright, or italic in a family without one: the upright slanted
            file, synthetic = source.upright, italic
        emboldened = False
        if not _is_variable(file, source.index):  # a static family: pick the file of the style
            static = {(True, True): source.bold_italic, (True, False): source.bold,
                      (False, True): source.italic}.get((weight != "regular", italic))
            # no file of the weight (a CJK collection, a game's regular alone): the regular emboldened
            emboldened = weight != "regular" and (static is None or static == file)
            path = _as_truetype(static or file, source.index, EMBOLDEN[weight] if emboldened else 0.0)
        else:
            path = _static_instance(file, WEIGHTS[weight])
        # the file's digest keeps two games' own "display" families apart
        name = f"pnp-{family}-{weight}{'-italic' if italic else ''}-{file_digest(path)[:8]}"
        _register(name, path)
        return FontFace(family, weight, italic, name, path, synthetic, emboldened)

    def drawn_by_reportlab(self, face: FontFace, characters: frozenset[str]) -> str:
        """The name of the face as ReportLab itself draws `characters` in it (svglib's text: ReportLab
        embeds its own subset of the registered file): the face's own, or where that is a shell (no
        outlines), the face with the outlines of those characters' glyphs drawn, registered beside it
        (`_truetype_drawing`). `characters`: those of every text of the drawing, so a drawing costs one cut."""
        shell = cut_source(face.path)
        if shell is None:
            return face.name
        path = _truetype_drawing(*shell, characters)
        name = f"{face.name}-{file_digest(path)[:8]}"
        _register(name, path)
        return name

    def cap_height(self, family: str) -> float:
        """The height of the family's capitals, in ems (its regular face's; CAP_HEIGHT where it has none)."""
        if family not in self._cap_heights:
            try:
                from reportlab.pdfbase import pdfmetrics     # registered when the face was made
                cap = pdfmetrics.getFont(self.face(family).name).face.capHeight / 1000
            except Exception:        # a family not installed, or a font without the metric
                cap = 0.0
            self._cap_heights[family] = cap if 0.3 <= cap <= 1.2 else CAP_HEIGHT
        return self._cap_heights[family]

    def cmap(self, family: str) -> frozenset[int]:
        if family not in self._cmaps:   # asked for per text run: keep it a dict lookup
            source = self.families.get(family)
            if source is None:     # a built-in family not installed (the CJK extra): it has nothing
                return _NOTHING
            upright = source.upright
            self._cmaps[family] = _whole_scripts(_cmap(upright, file_signature(upright), source.index))
        return self._cmaps[family]

    def characters(self, family: str) -> frozenset[str]:
        """The family's characters as text: `set(text) <= characters` checks a whole string at once."""
        if family not in self._characters:
            self._characters[family] = frozenset(map(chr, self.cmap(family)))
        return self._characters[family]

    def has_all(self, family: str, text: str) -> bool:
        """Whether the family has every character of the text: `characters(family).issuperset(text)`,
        answered by a pattern of the characters it lacks (made once per family): a set hashes each
        character of a string afresh (~30 ns), the pattern reads it (~4 ns; a 1,000-card deck's
        texts are checked in ~1 ms instead of ~9). A family of very many ranges (CJK) asks the set."""
        if family not in self._lacking:
            self._lacking[family] = _lacking_pattern(self.cmap(family))
        pattern = self._lacking[family]
        if pattern is None:
            return self.characters(family).issuperset(text)
        return pattern.search(text) is None


_NOTHING: frozenset[int] = frozenset()
_MAX_PATTERN_RANGES = 256    # a class of more ranges than this is checked range by range where it reaches past U+FFFF


def _lacking_pattern(points: frozenset[int]) -> re.Pattern[str] | None:
    """A pattern matching any character not among the code points (None for too many ranges of them)."""
    ranges: list[tuple[int, int]] = []
    for point in sorted(points):
        if ranges and ranges[-1][1] == point - 1:
            ranges[-1] = (ranges[-1][0], point)
        else:
            ranges.append((point, point))
    if not ranges:
        return re.compile(r"[\s\S]")       # a family without characters lacks every one
    if len(ranges) > _MAX_PATTERN_RANGES:
        return None
    members = (re.escape(chr(low)) if low == high else f"{re.escape(chr(low))}-{re.escape(chr(high))}"
               for low, high in ranges)
    return re.compile("[^" + "".join(members) + "]")


# The letters a family must have all of to set a script: a family with a few of them (Nunito has
# Δ, Σ, Ω, μ and π, as mathematical signs) would otherwise set those few inside every Greek word
# and the next family the rest, two designs in one word. Such a family is not asked for the
# script's block at all: a Greek text is Inter's whole.
_SCRIPT_LETTERS: tuple[tuple[range, frozenset[int]], ...] = (
    (range(0x0370, 0x0400), frozenset(range(0x0391, 0x03AA)) - {0x03A2} | frozenset(range(0x03B1, 0x03CA))),
)


def _whole_scripts(points: frozenset[int]) -> frozenset[int]:
    """A family's code points without the blocks of scripts it has only some letters of (_SCRIPT_LETTERS)."""
    for block, letters in _SCRIPT_LETTERS:
        if not letters <= points and any(point in block for point in points):
            points = frozenset(point for point in points if point not in block)
    return points


# Scripts whose characters one font sets together: a Japanese text's kanji, kana and 、。「」 are one
# question (is there a CJK font), not four
CJK_SCRIPTS = frozenset({"Hani", "Hira", "Kana", "Hang", "Bopo"})
# where a character belongs to several scripts (Script_Extensions), the one a message names
_PREFERRED_SCRIPTS = ("Arab", "Hebr", "Deva", "Beng", "Thai", "Grek", "Cyrl", "Latn", "Geor", "Armn")


def script_of(char: str) -> str:
    """The script a missing character is reported under: 'CJK' (Han, kana, Hangul, Bopomofo and their
    punctuation), a Unicode script name ('Greek', 'Arabic'), or 'Common' for symbols and punctuation."""
    # imported here: only a character no font has is asked about (fontTools' own Unicode tables)
    from fontTools import unicodedata
    scripts = set(unicodedata.script_extension(char))
    if scripts & CJK_SCRIPTS:
        return "CJK"
    scripts -= {"Zyyy", "Zinh", "Zzzz"}
    if not scripts:
        return "Inherited" if unicodedata.script(char) == "Zinh" else "Common"
    code = next((code for code in _PREFERRED_SCRIPTS if code in scripts), min(scripts))
    return str(unicodedata.script_name(code))


def families_having(library: FontLibrary, chars: frozenset[str], besides: tuple[str, ...]) -> list[str]:
    """The installed families (built in or the game's own) besides those of `besides` that have every
    one of `chars`, the built-in ones in their table's order."""
    # a script's own family (the default stack's) before a wider one that has the script too
    order = [family for family in (*DEFAULT_STACK, *BUILTIN_FAMILIES) if family in library.families]
    order = list(dict.fromkeys(order))
    order += sorted(family for family in library.families if family not in BUILTIN_FAMILIES)
    # the generic CJK family stands for its regions in a stack: name it, not each region
    order = [family for family in order if not family.startswith(f"{STACKS.cjk}-")]
    if any(family.startswith(STACKS.cjk) for family in besides):
        besides = (*besides, STACKS.cjk)
    return [family for family in order if family not in besides and chars <= library.characters(family)]


OWN_FONT_LINE = ("ship a font that has them: one line in game.yaml, font_files: {%s: {regular: fonts/%s}} "
                 "(a family of font_files that no stack names sets what the stacks lack)")


def font_to_add(library: FontLibrary, script: str, chars: frozenset[str], stack: tuple[str, ...],
                place: str = "the font stack in game.yaml fonts") -> str:
    """What sets characters of a script no font of `stack` has: the CJK extra where it is not installed,
    an installed family that has them all (added to `place`), else a font of the game's own."""
    if script == "CJK" and STACKS.cjk not in library.families:
        return (f"{CJK_EXTRA} (Noto Sans CJK, 19 MB: Japanese, Chinese and Korean in the default stack), or "
                + OWN_FONT_LINE % ("cjk", 'NotoSansCJK-Regular.ttc, face: "Noto Sans CJK JP"'))
    having = families_having(library, chars, stack)
    if having:
        return f"add '{having[0]}' to {place}: it has them" + (
            f" (so do {', '.join(repr(family) for family in having[1:4])})" if len(having) > 1 else "")
    return OWN_FONT_LINE % ("myfont", "MyFont.ttf") + ", or use other characters"


def _register(name: str, path: Path) -> None:
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(ReportLabTTFont(name, str(path)))


@cached("text.font_cmap", maxsize=256, reads_files=True)
def _cmap(path: Path, signature: tuple[int, ...], index: int = 0) -> frozenset[int]:
    """The code points a font has (`signature`: the file's input_files.file_signature, so an edited font is read
    again; `index`: the font of a collection). Reading a cmap with fontTools takes ~10 ms a font (a CJK
    face's 44,000 characters ~0.2 s) and every build asks for several: kept on disk beside the instances,
    by the file's digest."""
    # .cmap2: the map and its digest (a pnp that reads .cmap files, the bare map, never meets one)
    kept = cache_dir() / f"{_face_stem(path, index)}-{file_digest(path)}.cmap2"
    points = _read_cmap(kept)
    if points is not None:
        return points
    # imported here: only a map not kept yet needs fontTools (which ships no type information)
    from fontTools.ttLib import TTFont
    with TTFont(str(path), lazy=True, fontNumber=index) as font:
        body = array("I", sorted(font.getBestCmap())).tobytes()
    temporary = kept.with_suffix(f".{os.getpid()}.tmp")
    temporary.write_bytes(body + _cmap_digest(kept, body))
    os.replace(temporary, kept)
    return frozenset(array("I", body))


def _face_stem(path: Path, index: int) -> str:
    """What names the files pnp keeps of a font: the file's name before its axes, and the font's index
    in a collection (none for a single font, so the names of those stay as they were)."""
    stem = path.stem.split("[")[0]
    return f"{stem}-{index}" if _in_collection(path, index) else stem


DIGEST_BYTES = 32     # a cached character map ends with the SHA-256 of its name and code points


def _cmap_digest(kept: Path, body: bytes) -> bytes:
    # the name is part of it: another font's map put in its place (digest and all) is not taken either
    return hashlib.sha256(kept.name.encode() + b"\0" + body).digest()


def _read_cmap(kept: Path) -> frozenset[int] | None:
    """A cached character map's code points, or None where it is missing or not as written (truncated,
    damaged, swapped, or from a pnp that wrote no digest): then it is read from the font again."""
    try:
        data = kept.read_bytes()
    except OSError:
        return None
    body, digest = data[:-DIGEST_BYTES], data[-DIGEST_BYTES:]
    if len(body) % 4 or _cmap_digest(kept, body) != digest:
        return None
    return frozenset(array("I", body))


def _is_variable(path: Path, index: int = 0) -> bool:
    return b"fvar" in _table_tags(path, index)


def _table_tags(path: Path, index: int = 0) -> frozenset[bytes]:
    """The tags of a font file's tables, read from its table directory (an sfnt file: TrueType or
    OpenType; `index`: the font of a collection). Deciding whether a face is variable or CFF needs no
    more: fontTools, imported and opening the file, cost a build ~13 ms (game fonts were checked whole
    when the game was read)."""
    return _read_table_tags(path, file_signature(path), index)


SFNT_TAGS = (b"\x00\x01\x00\x00", b"OTTO", b"true")


@cached("text.font_table_tags", maxsize=256, reads_files=True)
def _read_table_tags(path: Path, signature: tuple[int, ...], index: int = 0) -> frozenset[bytes]:
    with open(path, "rb") as file:
        head = file.read(12)
        if len(head) == 12 and head[:4] == b"ttcf" and index < struct.unpack(">I", head[8:12])[0]:
            # a collection: its header lists where each font's own table directory starts
            file.seek(12 + 4 * index)
            offset = file.read(4)
            if len(offset) == 4:
                file.seek(struct.unpack(">I", offset)[0])
                head = file.read(12)
        if len(head) == 12 and head[:4] in SFNT_TAGS:
            count = struct.unpack(">H", head[4:6])[0]
            directory = file.read(16 * count)
            if len(directory) == 16 * count:
                return frozenset(directory[16 * entry:16 * entry + 4] for entry in range(count))
    # anything else: as fontTools reads it (imported here: a build that meets no such file never loads it)
    from fontTools.ttLib import TTFont
    with TTFont(str(path), lazy=True, fontNumber=index) as font:
        return frozenset(tag.encode("latin-1") for tag in font.keys())


# Fonts pnp cuts (instances of variable fonts, TrueType from CFF) are kept in a folder of their
# own format: a font an older pnp cut differently (format 1 stamped the time it was saved into
# its head table, format 2 instanced with fontTools, whose rounding differs by a unit here and there)
# is never used again, so a build's bytes do not depend on what pnp ran before.
CUT_FORMAT = 3


def _cut_dir() -> Path:
    path = cache_dir() / f"cut-{CUT_FORMAT}"
    if not path.is_dir():
        path.mkdir(exist_ok=True)
        # the fonts earlier formats cut are never read again: format 1 kept them beside the cmaps,
        # later ones in folders of their own
        for stale in path.parent.glob("*.ttf"):
            stale.unlink(missing_ok=True)
        for format_ in range(2, CUT_FORMAT):
            shutil.rmtree(path.parent / f"cut-{format_}", ignore_errors=True)
    return path


def _static_instance(path: Path, weight: int) -> Path:
    """A static TrueType instance of a variable font at a weight, cached on disk."""
    target = _cut_dir() / f"{path.stem.split('[')[0]}-{weight}-{file_digest(path)}.ttf"
    _cut_once(target, lambda: _cut_instance(path, weight, target))
    return target


def _cut_instance(path: Path, weight: int, target: Path) -> None:
    # imported here: instancing is done once a font and kept on disk, so most builds never load fontTools
    from fontTools.ttLib import TTFont

    instanced = _harfbuzz_instance(path, weight)
    static = TTFont(io.BytesIO(instanced)) if instanced is not None else _fonttools_instance(path, weight)
    _rename(static, f"{target.stem}")
    _save_atomically(static, target)


def _harfbuzz_instance(path: Path, weight: int) -> bytes | None:
    """The variable font at `weight` (its other axes at their defaults), every glyph and table kept, by
    HarfBuzz's instancer: Noto Sans at 700 in 0.03 s where fontTools' took 3.5 s (most of it merging
    the kerning's variations); the 18 instances of a new machine's first check of a game in nine scripts
    took ~26 s of CPU, now ~1 s. Outlines
    and advances agree with fontTools' to the unit of rounding (≤ 2 units of 1,000 at 700, none at a
    master), shaping exactly. None where HarfBuzz cannot instance the font."""
    face = hb.Face(hb.Blob.from_file_path(str(path)))
    request = hb.SubsetInput()
    request.keep_everything()
    for axis in face.axis_infos:
        if axis.tag == "wght":
            request.pin_axis_location(face, "wght", max(axis.min_value, min(axis.max_value, weight)))
        else:
            request.pin_axis_to_default(face, axis.tag)
    instanced = hb.subset(face, request)
    return bytes(instanced.blob.data) if instanced is not None else None


def _fonttools_instance(path: Path, weight: int) -> Any:
    """The same instance by fontTools, for a variable font HarfBuzz does not instance."""
    from fontTools.ttLib import TTFont
    from fontTools.varLib import instancer

    font = TTFont(str(path))
    location = {}
    for axis in font["fvar"].axes:
        location[axis.axisTag] = (max(axis.minValue, min(axis.maxValue, weight))
                                  if axis.axisTag == "wght" else axis.defaultValue)
    # in place: the font was read for this alone (a copy first was a third of the time)
    return instancer.instantiateVariableFont(font, location, static=True, inplace=True)


# How much a face without a file of the weight is emboldened, in em (HarfBuzz's synthetic bold, in
# place: the advances stay). Noto Sans CJK's regular strokes are ~0.08 em; its own Bold's ~0.13.
EMBOLDEN: Mapping[str, float] = MappingProxyType({"regular": 0.0, "bold": 0.04, "black": 0.065})


def _as_truetype(path: Path, index: int = 0, embolden: float = 0.0) -> Path:
    """The font as a TrueType file, which is what is registered, shaped and measured: a TrueType font of
    a collection (TTC) saved on its own; a CFF-flavoured font, and a face without a bold (emboldened by
    `embolden`, em), as its shell (cff.truetype_shell: every table but its outlines), cached on disk.

    No outline is drawn here: converting a CJK face of 65,535 CFF glyphs whole took ~13 s of CPU and
    kept a ~20 MB file per face and weight, 1.5 minutes before a Japanese game's first check. A shell is
    cut in ~0.2 s (~1 MB); the glyphs a document draws are cut from the source, converted and
    emboldened, when it is written (`cut_source`, render/glyph_fonts.py)."""
    shell = cut_source(path)
    if shell is not None:       # a game font's shell (game_families): emboldened from its own source
        return _as_truetype(shell[0], shell[1], embolden) if embolden else path
    if not embolden and not _needs_cut(path, index):
        return path
    target = _cut_target(path, index, embolden)
    _cut_once(target, lambda: _cut_truetype(path, index, embolden, target))
    if _is_shell(path, index, embolden):
        _note_source(target, path, index, embolden)
    return target


# The drawings' cuts kept (~1 MB each for a CJK face: its tables but the outlines of a drawing's few glyphs)
MAX_DRAWING_CUTS = 32
DRAWING_MARK = "-tt3-"      # in the name of each: its glyphs' digest follows


def _truetype_drawing(path: Path, index: int, embolden: float, characters: frozenset[str]) -> Path:
    """The font (emboldened by `embolden`, em) as TrueType with the outlines of `characters`' glyphs drawn
    and every other glyph empty (its advance kept), cached on disk: what ReportLab needs to draw a drawing's
    text in a shell's face itself (`FontLibrary.drawn_by_reportlab`). A CJK face's cut takes ~0.5 s and
    ~1 MB, where converting its 65,535 CFF glyphs whole took ~13 s and ~20 MB (cff.py: HarfBuzz draws the
    outlines, numpy writes them); the most recent MAX_DRAWING_CUTS are kept."""
    drawn = hb.Font(hb.Face(hb.Blob.from_file_path(str(path)), index))
    glyphs = frozenset(gid for gid in (drawn.get_nominal_glyph(ord(character)) for character in characters)
                       if gid)
    key = hashlib.sha256(repr(sorted(glyphs)).encode("ascii")).hexdigest()[:16]
    stem = _face_stem(path, index) + (f"-b{round(embolden * 1000)}" if embolden else "")
    target = _cut_dir() / f"{stem}{DRAWING_MARK}{key}-{file_digest(path)}.ttf"
    _cut_once(target, lambda: _cut_drawing(path, index, embolden, glyphs, target))
    return target


def _cut_drawing(path: Path, index: int, embolden: float, glyphs: frozenset[int], target: Path) -> None:
    from fontTools.ttLib import TTFont

    from generator.text.cff import cff_to_truetype
    converted = cff_to_truetype(TTFont(str(path), fontNumber=index), path, index, embolden, glyphs=glyphs)
    _rename(converted, target.stem)    # its own names: ReportLab merges faces that share one
    _save_atomically(converted, target)
    # the least recently cut drawings' fonts beyond MAX_DRAWING_CUTS removed, with their records
    for cut in oldest_beyond(target.parent.glob(f"*{DRAWING_MARK}*.ttf"), MAX_DRAWING_CUTS):
        for kept in (cut, _recorded_digest(cut), cut.with_name(cut.name + ".lock")):
            kept.unlink(missing_ok=True)


def _cut_truetype(path: Path, index: int, embolden: float, target: Path) -> None:
    """Save the font as `target`: a collection's font on its own, a CFF font or an emboldened face as its shell."""
    # imported here: a cut is made once a font and kept on disk (cff.py imports fontTools' pens)
    from fontTools.ttLib import TTFont

    from generator.text.cff import truetype_shell
    font = TTFont(str(path), fontNumber=index)
    if _is_shell(path, index, embolden):
        font = truetype_shell(font)
    if embolden or _in_collection(path, index):
        _rename(font, target.stem)    # its own names: ReportLab merges faces that share one
    _save_atomically(font, target)


SHELL_MARK = "-sh1-"      # in the name of every shell's file


def _source_note(shell: Path) -> Path:
    return shell.with_name(shell.name + ".source")


def _note_source(shell: Path, source: Path, index: int, embolden: float) -> None:
    """Write beside a shell what it stands for (its source's path, which the shell's name does not
    hold: the name has the source's digest, so two copies of a font share one shell)."""
    note = _source_note(shell)
    text = f"{index}\n{embolden!r}\n{source.resolve()}"
    try:
        if note.read_text("utf-8") == text:
            return
    except (OSError, UnicodeDecodeError):
        pass
    temporary = note.with_name(f"{note.name}.{os.getpid()}.tmp")
    temporary.write_text(text, "utf-8")
    os.replace(temporary, note)


def cut_source(path: Path) -> tuple[Path, int, float] | None:
    """What a registered face's file stands for where it is a shell (its glyphs have no outlines): the
    source font, its index in a collection and how much it is emboldened (em); None for a whole font.
    Read from the note beside it, which every process that registers the shell writes; a source that is
    not the font the shell was cut from (its digest is in the shell's name) is refused."""
    if SHELL_MARK not in path.name or path.parent.name != f"cut-{CUT_FORMAT}":
        return None
    try:
        index, embolden, source = _source_note(path).read_text("utf-8").split("\n", 2)
    except (OSError, UnicodeDecodeError, ValueError):
        raise RuntimeError(f"the source of the font {path} is not noted beside it: delete pnp's cache "
                           f"folder {cache_root()} and build again") from None
    if not path.stem.endswith(file_digest(Path(source))):
        raise RuntimeError(f"the font {path} was not cut from {source}: delete pnp's cache folder "
                           f"{cache_root()} and build again")
    return Path(source), int(index), float(embolden)


def _is_shell(path: Path, index: int, embolden: float) -> bool:
    """Whether a font is registered as a shell: outlines to draw (CFF) or to embolden; a TrueType font of
    a collection is saved whole, as it is (its glyphs are copied, not drawn)."""
    return bool(embolden) or b"glyf" not in _table_tags(path, index)


def _in_collection(path: Path, index: int) -> bool:
    return bool(index) or path.suffix.lower() in COLLECTION_SUFFIXES


def _needs_cut(path: Path, index: int) -> bool:
    """Whether a font is embedded through a file pnp cuts: CFF outlines, or a font of a collection."""
    return _in_collection(path, index) or b"CFF " in _table_tags(path, index)


def _cut_target(path: Path, index: int, embolden: float) -> Path:
    """Where the TrueType cut of a font (at an emboldening) is kept."""
    stem = _face_stem(path, index) + (f"-b{round(embolden * 1000)}" if embolden else "")
    # sh1: a shell (no outlines, cff.truetype_shell); tt2: a collection's TrueType font saved whole (the
    # name CFF fonts' whole conversions had too: such a file, left by an older pnp, is the same face)
    kind = "sh1" if _is_shell(path, index, embolden) else "tt2"
    return _cut_dir() / f"{stem}-{kind}-{file_digest(path)}.ttf"


def _rename(font: Any, unique: str) -> None:
    """Give an instance names no other face shares (family, full and PostScript name)."""
    postscript = "".join(ch for ch in unique if ch.isalnum() or ch == "-")[:63]
    for record in font["name"].names:
        if record.nameID in (1, 4, 16):
            record.string = unique
        elif record.nameID == 6:
            record.string = postscript
        elif record.nameID in (2, 17):
            record.string = "Regular"


def _recorded_digest(target: Path) -> Path:
    return target.with_name(target.name + ".sha256")


def _record(digest: str, target: Path) -> str:
    # the file's name is part of the record: another cut font put in its place with its record is refused too
    return f"{digest} {target.name}\n"


def _cut_once(target: Path, cut: Callable[[], None]) -> None:
    """`cut()` saves `target`, unless it is there intact, or becomes so while this process waits for
    another that is cutting it (`_one_cutter`)."""
    if _intact(target):
        return
    with _one_cutter(target):
        if not _intact(target):
            cut()


@contextmanager
def _one_cutter(target: Path) -> Iterator[None]:
    """Held while `target` is cut: of processes that need the same font at once (a build's workers, a
    serve beside a build, test workers on a new machine) one cuts it and the others wait for it, where
    each cut its own copy (a CJK face's shell ~0.2 s, a drawing's cut ~0.5 s, an instance fontTools makes
    where HarfBuzz cannot up to several seconds). The lock is the kernel's, on a file
    beside the cut: a killed cutter's is released with its process. Where there is no flock (Windows),
    each process cuts as before: the bytes agree, the last one saved stays."""
    if sys.platform == "win32":
        yield
        return
    with open(target.with_name(target.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _intact(target: Path) -> bool:
    """Whether a font pnp cut is the file it wrote: its SHA-256 is the one recorded beside it."""
    try:
        return _recorded_digest(target).read_text("ascii") == _record(sha256_hex(target), target)
    except (OSError, UnicodeDecodeError):
        return False


def _save_atomically(font: Any, target: Path) -> None:
    # no save-time timestamp: the same source gives the same bytes in every process and on every machine,
    # so the face's name (its digest) agrees between processes that cut it at once and between caches
    font.recalcTimestamp = False
    temporary = target.with_suffix(f".{os.getpid()}.tmp")
    font.save(str(temporary))
    digest = hashlib.sha256(temporary.read_bytes()).hexdigest()
    os.replace(temporary, target)
    # the digest is recorded after the font is in place: a reader between the two cuts it again
    recorded = _recorded_digest(target)
    temporary = recorded.with_name(f"{recorded.name}.{os.getpid()}.tmp")
    temporary.write_text(_record(digest, target), "ascii")
    os.replace(temporary, recorded)
    # (a digest this process took of the file it replaced is not used again: the new file is another
    # inode, so its stat signature differs)


MAX_FONT_BYTES = 32 * 2**20    # a CJK face is ~16–25 MB; a 31 MB font of 48,000 glyphs checks in ~7 s, 420 MiB


def game_families(folder: Path, font_files: Mapping[str, FontFile],
                  report: Callable[[tuple[str, ...], str], None]) -> dict[str, FamilySource]:
    """A game's own fonts (game.yaml `font_files`) as families; `report(path, message)` for bad files.

    Every file is read whole and checked here, while content is checked, so a damaged font is
    an error at its line in game.yaml, never a failure while drawing. A collection's font (`face`) and
    a CFF font are cut here, once (cached: a collection's TrueType font whole, a CFF font as its shell,
    `_as_truetype`): the family's files are the cut ones."""
    families = {}
    stand_in = next(iter(builtin_families().values()), None)
    for family, styles in font_files.items():
        paths: dict[str, Path] = {}
        face = getattr(styles, "face", None)
        for style in ("regular", "bold", "italic", "bold_italic"):
            relative = getattr(styles, style)
            if relative is None:
                continue
            where = ("font_files", family, style)
            path, problem = locate(folder, relative)
            if problem == "missing":
                report(where, f"font file not found: {shown(relative)}")
            elif problem is not None:
                report(where, problem_message(problem, relative))
            elif path.suffix.lower() not in FONT_SUFFIXES:
                report(where, f"{quoted(relative)} is not a TTF, OTF or TTC font")
            else:
                checked = _checked_font(path, file_signature(path), face, style)
                if isinstance(checked, Path):
                    paths[style] = checked
                else:
                    report(where, f"cannot read font {shown(relative)}: {checked}")
        if "regular" in paths:
            families[family] = FamilySource(family, paths["regular"], paths.get("italic"),
                                            paths.get("bold"), paths.get("bold_italic"))
        elif stand_in is not None:
            # its error is reported above, and the build will stop; a built-in face stands in so that
            # checking goes on without an 'unknown font family' at every stack that names it
            families[family] = FamilySource(family, stand_in.upright, stand_in.italic)
    return families


class _NoSuchFace(Exception):
    """A collection's font named in game.yaml `face` that the file does not hold."""


# the words a font's subfamily name has for each style of font_files (a collection's font by family name)
_STYLE_NAMES: Mapping[str, str] = MappingProxyType({"regular": "regular", "bold": "bold", "italic": "italic",
                                                    "bold_italic": "bold italic"})


def _face_index(data: bytes, face: int | str | None, style: str) -> int:
    """Which font of a collection game.yaml's `face` means: its index, or the font whose full or
    PostScript name is `face`, else the one of that family in the style (`Regular` for `regular:`)."""
    if data[:4] != b"ttcf":
        if isinstance(face, int) and face > 0:
            raise _NoSuchFace(f"face: {face} names a font of a collection (TTC), and this file holds one font")
        return 0
    count = struct.unpack(">I", data[8:12])[0]
    if face is None:
        return 0
    from fontTools.ttLib import TTCollection   # (a game's collection only)
    fonts = TTCollection(io.BytesIO(data), lazy=True).fonts
    names = [(font["name"].getDebugName(16) or font["name"].getDebugName(1) or "",
              font["name"].getDebugName(17) or font["name"].getDebugName(2) or "",
              font["name"].getDebugName(4) or "", font["name"].getDebugName(6) or "") for font in fonts]
    listed = ", ".join(f"{index} '{full or family}'" for index, (family, _, full, _) in enumerate(names[:12]))
    listed += " …" if count > 12 else ""
    if isinstance(face, int):
        if face < count:
            return face
        raise _NoSuchFace(f"face: {face}, and the collection holds {count} fonts, 0 to {count - 1}: {listed}")
    wanted = face.casefold()
    for index, (_, _, full, postscript) in enumerate(names):
        if wanted in (full.casefold(), postscript.casefold()):
            return index
    of_family = [index for index, (family, _, _, _) in enumerate(names) if family.casefold() == wanted]
    for index in of_family:
        if names[index][1].casefold() == _STYLE_NAMES[style]:
            return index
    if of_family:
        return of_family[0]
    raise _NoSuchFace(f"the collection holds no font named '{face}': its fonts are {listed}")


@cached("text.checked_game_font", maxsize=256, reads_files=True)
def _checked_font(path: Path, signature: tuple[int, ...], face: int | str | None = None,
                  style: str = "regular") -> Path | str:
    """The TrueType file to embed, or why the font cannot be used (`signature`: the file's input_files.file_signature,
    so a font edited while `pnp serve` runs is checked again; `face`: game.yaml's choice of a collection's font).

    Read whole by fontTools (every table, every TrueType glyph expanded), then by ReportLab as it will
    be registered (a CFF font's shell: its tables, OS/2's embedding bits among them; its outlines are
    drawn only for the glyphs a document uses, as it is written): a truncated or damaged file would
    otherwise fail later, while instancing or subsetting. A font cut from it before (a collection's,
    a CFF font's) was checked so when it was cut: its cut file, intact, is the answer (a 19 MB CJK
    collection is not read whole by every build)."""
    # imported here: only a game with font files of its own is checked so
    from fontTools.ttLib import TTFont

    try:
        data = read_regular(path, MAX_FONT_BYTES, "font")
        index = _face_index(data, face, style)
        if _needs_cut(path, index):
            target = _cut_target(path, index, 0.0)
            if _intact(target):
                if _is_shell(path, index, 0.0):
                    _note_source(target, path, index, 0.0)
                return target
        font = TTFont(io.BytesIO(data), fontNumber=index)
        font.ensureDecompiled()
        embedded = _as_truetype(path, index)
        # a variable font is embedded as static instances: cut the regular one now (it is cached)
        _check_embeddable(_static_instance(embedded, WEIGHTS["regular"]) if "fvar" in font else embedded)
    except _NoSuchFace as error:
        return str(error)
    except struct.error as error:     # a length or offset that leads past the data
        return shown(f"damaged data ({error})")
    except Exception as error:   # fontTools and ReportLab raise many kinds on a damaged file
        return shown(str(error) or type(error).__name__)   # a table tag in it comes from the file
    return embedded


def _check_embeddable(path: Path) -> None:
    """ReportLab reads the font and subsets every character it has, as drawing will."""
    font = TTFontFile(io.BytesIO(path.read_bytes()))
    codes = sorted(font.charToGlyph)
    for start in range(0, len(codes), 256):       # ReportLab embeds subsets of 256 characters
        font.makeSubset(codes[start:start + 256])
