"""The build context: the one owner of what a build keeps while it runs.

A build (pnp build, check, preview, export tts, an i18n export, one worker's task) runs inside one
`BuildContext`:

    with BuildContext(options) as context:
        ... context.library, context.drawing, context.layout_files, context.out ...

It holds the build's options and output folder, the fonts (one FontLibrary, made on first use),
every memo table (a `generator.caches.Caches`, in force for everything called inside the `with`),
the drawing settings of its home files (render/settings.DrawingSettings) and the game files of
fitted texts it opened (face_cache.LayoutFiles, saved when the `with` ends: nothing waits for the
interpreter's exit). Nothing of a build is left in module globals.

A long-lived process keeps one context and derives each build's from it (`with_options`: the same
fonts, caches and files of fitted texts, other options). `pnp serve` does, and calls
`context.caches.files_changed()` when the game's files change, so art or fonts edited in place are
read again. Output stage: it is made by the commands and the build, and read by the writers.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from generator.caches import Caches
from generator.face_cache import LayoutFiles
from generator.options import BuildOptions, Color
from generator.render.settings import ColourMode, DrawingSettings

if TYPE_CHECKING:     # the fonts are loaded on first use (below): a build with nothing to do never reads them
    from generator.text.fonts import FontLibrary


class BuildContext:
    """What one build keeps while it runs: its options, fonts, caches, drawing settings and output."""

    def __init__(self, options: BuildOptions, *, caches: Caches | None = None, library: FontLibrary | None = None,
                 layout_files: LayoutFiles | None = None) -> None:
        self.options = options
        self.caches = Caches() if caches is None else caches
        self.layout_files = LayoutFiles() if layout_files is None else layout_files
        self._fonts = _Fonts(library)
        self._entered: list[ExitStack] = []

    @property
    def out(self) -> Path:
        """The output folder the build writes under."""
        return self.options.out

    @property
    def library(self) -> FontLibrary:
        """The built-in font families, loaded once for the context (a game's own fonts extend them:
        targets.game_font_library)."""
        return self._fonts.library()

    @property
    def drawing(self) -> DrawingSettings:
        """How the build's home files are drawn."""
        return drawing_settings(self.options, self.library)

    def with_options(self, options: BuildOptions) -> BuildContext:
        """A context for another build that shares this one's fonts, caches and files of fitted texts."""
        derived = BuildContext(options, caches=self.caches, layout_files=self.layout_files)
        derived._fonts = self._fonts
        return derived

    def __enter__(self) -> BuildContext:
        stack = ExitStack()
        stack.enter_context(self.caches.active())
        stack.callback(self.layout_files.close)     # (run first on leaving, while the caches are in force)
        self._entered.append(stack)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self._entered.pop().close()


class _Fonts:
    """The fonts of a context and of those derived from it, loaded by the first that asks."""

    def __init__(self, library: FontLibrary | None) -> None:
        self._library = library

    def library(self) -> FontLibrary:
        if self._library is None:
            # imported here: loading the fonts imports ReportLab, which a build with nothing to do never needs
            from generator.text.fonts import FontLibrary
            self._library = FontLibrary()
        return self._library


def drawing_settings(options: BuildOptions, library: FontLibrary) -> DrawingSettings:
    """A build's home files drawn in the library's body face, in the options' colour mode and ink limit
    (print-shop PDF/X files add their output profile: write.PdfxRender)."""
    colour_mode: ColourMode = "cmyk" if options.color == Color.CMYK else "rgb"
    return DrawingSettings(library.body_face.name, colour_mode, options.ink_limit)
