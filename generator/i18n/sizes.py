"""Where each catalog key is printed and how much room it has: the engine's own layout, recorded.

Lays out every edition of a game in one language with a TextRecorder listening
(generator/components/context.py `recording`) and gathers, per key: the places
the content refers to it, the text boxes it is set in (template, box, the cards
or cells showing it), each box's room inside its padding and its style, and
whether the words fit. Nothing here repeats layout logic: the numbers are the
ones the build uses.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from generator.components.context import LayoutContext, SetText, recording
from generator.content.game import GameSource
from generator.errors import Problems, SourceMark
from generator.i18n.key_usage import BoxRoom, BoxUse, KeyUsage
from generator.options import BuildOptions
from generator.targets import Target, layout_targets
from generator.text.fonts import FontLibrary


class UsageRecorder:
    """A TextRecorder gathering KeyUsage per key (the layout calls it; see context.TextRecorder)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.keys: dict[str, KeyUsage] = {}

    def _usage(self, key: str) -> KeyUsage:
        usage = self.keys.get(key)
        if usage is None:
            usage = self.keys[key] = KeyUsage(key)
        return usage

    def looked_up(self, ctx: LayoutContext, key: str, mark: SourceMark) -> None:
        place = self._place(mark)
        usage = self._usage(key)
        if place and place not in usage.places:
            usage.places.append(place)

    def text_set(self, ctx: LayoutContext, key: str, setting: SetText) -> None:
        template, box, subject, width, height, style, layout, placement = setting
        usage = self._usage(key)
        use = usage.boxes.get((template, box))
        if use is None:
            use = usage.boxes[(template, box)] = BoxUse(BoxRoom(template, box, width, height, style),
                                                        placement=placement, size=layout.size)
        if subject not in use.subjects:
            use.subjects.append(subject)
        if ctx.edition not in use.editions:
            use.editions.append(ctx.edition)
        use.size = min(use.size, layout.size)
        if not layout.fits:
            use.fits = False
            use.overflow = max(use.overflow, layout.overflow)

    def _place(self, mark: SourceMark | None) -> str:
        if mark is None or mark.file is None:
            return ""
        try:
            shown = mark.file.absolute().relative_to(self.folder.absolute()).as_posix()
        except ValueError:
            shown = mark.file.name
        return f"{shown}:{mark.line}:{mark.column}" if mark.line else shown


def record_usage(source: GameSource, lang: str, library: FontLibrary,
                 options: BuildOptions | None = None) -> tuple[dict[str, KeyUsage], list[Target], Problems]:
    """Lay out every edition of the game in `lang` (untranslated keys fall back to the source text)
    and return what each key's boxes are, the laid-out targets and the layout's problems."""
    recorder = UsageRecorder(source.folder)
    problems = Problems()
    options = options or BuildOptions(check_only=True, allow_fallback=True)
    options = replace(options, languages=(lang,))
    with recording(recorder):
        targets = layout_targets([source], options, problems, library)
    return recorder.keys, targets, problems
