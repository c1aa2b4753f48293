"""What laying out one edition × language needs: text lookup, colours, fonts, problems."""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Iterator, NamedTuple, Protocol

from generator.content.game import GameSource
from generator.content.templates import TemplateLibrary
from generator.errors import Problems, SourceMark, abridged, display_path
from generator.content.colours import COLOUR_FORMS, colour_problem, written_as_colour
from generator.i18n.catalog import MissingArgument, interpolate
from generator.text.fonts import BUILTIN_FAMILIES, DEFAULT_STACK, for_language
from generator.text.setter import TextSetter

FALLBACK_COLOURS = MappingProxyType({"black": "#000000", "white": "#ffffff", "none": None})


class TextRecorder(Protocol):
    """Told what layout does with the catalog's words: `pnp i18n export` and `import` listen
    (generator/i18n/sizes.py) to learn where each key is used and how much room its box has.
    Builds and checks record nothing (no recorder)."""

    def looked_up(self, ctx: "LayoutContext", key: str, mark: SourceMark) -> None:
        """A key was translated; `mark` is where the content refers to it."""

    def text_set(self, ctx: "LayoutContext", key: str, setting: "SetText") -> None:
        """A key's text was set in a template's text box for a subject (a card, a cell)."""


class SetText(NamedTuple):
    """A text set in a box, as a TextRecorder is told: which box for whom, the box's room inside its
    padding (mm), its SetStyle, the text's own TextLayout, and the placement the face holds (before
    its deck's one size replaces it)."""

    template: str
    box: str
    subject: str
    width: float
    height: float
    style: Any
    layout: Any
    placement: Any


class ArtProblem(Protocol):
    """Why an art file cannot be drawn: its words (str() of it) and what to do (`hint`)."""

    hint: str


@dataclass(frozen=True)
class ArtFiles:
    """What layout asks of art files, answered by the render stage and handed in by whoever makes
    the context (generator.targets): layout measures art without loading svglib or ReportLab."""

    suffixes: frozenset[str]                              # what art files may be ('.svg', '.png' …)
    problem: Callable[[Path], ArtProblem | None]          # why a file cannot be drawn, or None: checked
                                                          # whole, once
    size: Callable[[Path], tuple[float, float]]           # a usable file's intrinsic width and height


_RECORDER: ContextVar[TextRecorder | None] = ContextVar("pnp_text_recorder", default=None)


@contextmanager
def recording(recorder: TextRecorder) -> Iterator[None]:
    """Every LayoutContext made inside tells `recorder` what it sets (layout_targets unchanged)."""
    token = _RECORDER.set(recorder)
    try:
        yield
    finally:
        _RECORDER.reset(token)


def _made(mark: SourceMark | Callable[[], SourceMark]) -> SourceMark:
    """A mark given as itself or as the function that makes it (made only when a problem is said)."""
    return mark() if callable(mark) else mark


@dataclass
class LayoutContext:
    source: GameSource
    edition: str
    lang: str
    setter: TextSetter
    problems: Problems
    allow_fallback: bool = False
    reported: set[tuple] = field(default_factory=set)
    used: set[str] = field(default_factory=set)      # every key looked up (for `pnp i18n status`)
    overflow_warns: bool = False                     # a pseudo-locale build shows overflows, builds anyway
    # Work done once per edition × language and reused for every face: template plans,
    # the items of boxes that read no field, set text. A 1,000-card deck repeats most of it.
    memo: dict = field(default_factory=dict)
    recorder: TextRecorder | None = field(default_factory=_RECORDER.get)   # see `recording`
    art: ArtFiles = field(kw_only=True)              # art sizes and checks, from the render stage
    # Laying out a face no output of the build draws (a card no figure of a rules-only build shows):
    # its art boxes are left out, unread; its texts are set as ever, for the sizes its deck shares
    sketch: bool = False

    @property
    def templates(self) -> TemplateLibrary:
        """The game's templates: a game is laid out once loaded whole (load_game reads them)."""
        if self.source.templates is None:
            raise ValueError(f"game '{self.source.game.id}' is laid out before its templates were read")
        return self.source.templates

    @property
    def catalog(self):
        return self.source.catalogs.get(self.lang)

    def once(self, *key: object) -> bool:
        """True the first time a problem key is seen (one report per cause)."""
        if key in self.reported:
            return False
        self.reported.add(key)
        return True

    def translate(self, key: str, mark: SourceMark | Callable[[], SourceMark], args: dict | None = None,
                  count: int | None = None) -> tuple[str, SourceMark | None]:
        """The text of a key in this language, and where the translation is written.

        `mark` (where the key is used, for a problem) may be a function giving it: a card's text
        found in the catalog needs none, and making a field's mark is most of asking for a text."""
        self.used.add(key)
        if self.recorder is not None:
            self.recorder.looked_up(self, key, _made(mark))
        catalog = self.catalog
        entry = catalog.entries.get(key) if catalog else None
        blank = None
        if entry is not None and entry.untranslated:   # a stub's empty value: not translated yet
            blank, entry = entry.mark, None
        if entry is None:
            source_catalog = self.source.catalogs.get(self.source.source_language)
            fallback = source_catalog.entries.get(key) if source_catalog else None
            if self.once("missing", key):
                file = catalog.file if catalog else self.source.folder / "i18n" / f"{self.lang}.yaml"
                text = f"missing translation key '{key}' for language '{self.lang}' (in {display_path(file)})"
                hint = f"add '{key}' to {display_path(file)}"
                where = _made(mark)
                if blank is not None:
                    # here: the sheets' cell marks only for an empty text (a build with every text has none)
                    from generator.content.spreadsheet import CellMark
                    if isinstance(blank, CellMark):      # the text's own cell (name@bg) is empty: it goes there
                        where = blank
                        text = f"missing translation key '{key}' for language '{self.lang}' (its cell is empty)"
                        hint = f"write the {self.lang} text in cell {blank.cell} of {display_path(blank.file)}"
                if self.allow_fallback and fallback is not None:
                    self.problems.warn(where, text + f"; using the {self.source.source_language} text", hint)
                else:
                    self.problems.add(where, text, hint)
            if fallback is None or not self.allow_fallback:
                return "", None
            entry, catalog = fallback, source_catalog
        arguments = dict(args or {})
        if entry.plural is not None:
            number = count if count is not None else arguments.get("count")
            if number is None:
                if self.once("no-count", key):
                    self.problems.add(_made(mark), f"'{key}' has plural forms but no count is given",
                                      "set `count: '@field'` on the template box")
                number = 1
            arguments.setdefault("count", number)
            category = catalog.plural_category(number)
            form = entry.plural.get(category)
            if form is None:
                if self.once("plural", key, category):
                    self.problems.add(entry.mark, f"'{key}' lacks the plural form '{category}' "
                                      f"needed for {number} in '{catalog.lang}'", f"add a '{category}:' form")
                form = entry.plural.get("other", "")
            text = form
        else:
            text = entry.text or ""
        if "{" not in text and "}" not in text:    # most texts have no placeholder
            return text, entry.mark
        try:
            return interpolate(text, arguments), entry.mark
        except MissingArgument as missing:
            if self.once("argument", key, str(missing)):
                self.problems.add(entry.mark, f"'{key}' uses {{{missing.args[0]}}}, which has no value here",
                                  "remove the placeholder or give the card that field")
            return text, entry.mark

    def colour(self, value: str | None, palette: dict[str, str], mark: SourceMark) -> str | None:
        if value is None:
            return None
        if written_as_colour(value):
            # the schema checks colours written in templates; a field's ('@tint') is first seen here,
            # and '#zzzzzz' or 'cmyk(., ., ., .)' must be reported, not crash the drawing
            problem = colour_problem(value)
            if problem is None:
                return value
            if self.once("colour", value):
                self.problems.add(mark, f"{abridged(value)} {problem}", f"write {COLOUR_FORMS}")
            return "#ff00ff"
        if value in palette:
            return self.colour(palette[value], {}, mark) if palette[value] != value else None
        if value in self.source.game.palette:
            return self.source.game.palette[value]
        if value in FALLBACK_COLOURS:
            return FALLBACK_COLOURS[value]
        if self.once("colour", value):
            self.problems.add(mark, f"unknown colour '{value}'",
                              "use '#rrggbb', 'cmyk(c, m, y, k)' or a name from the palette in game.yaml or "
                              "the template")
        return "#ff00ff"

    def font_stack(self, name: str | None, mark: SourceMark) -> tuple[str, ...]:
        """The families a style's `font` names, as a text in this language is set in them (fonts.for_language:
        the CJK face of its region; the game's own font_files no stack names, last)."""
        fonts = self.source.game.fonts
        named = {family for stack in fonts.values() for family in stack}
        unnamed = tuple(family for family in self.source.game.font_files if family not in named)
        return for_language(self._font_stack(name, mark), self.lang, unnamed)

    def _font_stack(self, name: str | None, mark: SourceMark) -> tuple[str, ...]:
        fonts = self.source.game.fonts
        in_language = f"{name or 'body'}@{self.lang}"
        if in_language in fonts:       # the stack's own for this language (body@ka: Georgian digits)
            return self._known_families(in_language)
        if name is None or (name == "body" and "body" not in fonts):
            # 'body' is the stack shared templates use: built in, and a game may redefine it
            return self._known_families("body") if "body" in fonts else DEFAULT_STACK
        if name in fonts:
            return self._known_families(name)
        if name in self.setter.library.families:
            return (name,) + tuple(f for f in DEFAULT_STACK if f != name)
        if self.once("font", name):
            self.problems.add(mark, f"unknown font '{name}'",
                              f"name a stack from game.yaml fonts ({', '.join(fonts) or 'none'}) "
                              f"or a family ({', '.join(sorted(self.setter.library.families))})")
        return DEFAULT_STACK

    def _known_families(self, stack: str) -> tuple[str, ...]:
        """A stack of game.yaml fonts without the families no font provides (each reported)."""
        families = self.setter.library.families
        known = []
        for index, family in enumerate(self.source.game.fonts[stack]):
            if family in families:
                known.append(family)
            elif family in BUILTIN_FAMILIES:
                # an optional family not installed (the cjk extra, which `pnp new` names too) sets nothing:
                # a text that needs it is told to install it (text_boxes.report_missing_glyphs)
                continue
            elif self.once("family", stack, family):
                self.problems.add(self.source.game_document.mark(("fonts", stack, index)),
                                  f"unknown font family '{family}' in font stack '{stack}'",
                                  f"families: {', '.join(sorted(families))}")
        return tuple(known) or DEFAULT_STACK
