"""What `pnp serve` shows, rebuilt on demand: one game × edition × language × paper.

A rebuild loads and lays the game out (the per-face cache sets again only the texts that
changed), lists every distinct face of every component by the digest of its inputs (its
URL: a face that did not change keeps its URL and its rendered PNG), then writes the home
files into a private output folder (an incremental build: nothing is drawn when nothing
changed) and lists their pages. Problems are kept as the command line prints them.

Faces and pages are rendered when first asked for and kept: faces on disk under the cache
folder (face_images.face_png_path), pages in memory by file digest. ReportLab and pdfium are
not thread-safe: one lock serialises all drawing.

The session keeps one build context (generator/context.py) from its first rebuild to its last: the
fonts are loaded once, and its caches serve every rebuild and every face drawn on a request's thread.
A rebuild after the game's files changed first empties what the caches remember of files (digests,
art, fonts: `Caches.files_changed`), so an SVG edited in place is read again, whatever its stat says.

The engine (layout, drawing, pdfium) is imported by the first rebuild, on the watcher's thread: the
server answers at once, showing build 0 until it is done.

Every file a face or page reads when asked for (its art, its cached PNG, the PDF) is resolved
then and must still lie inside the folder it belongs to (the game, the cache's faces, the
session's output): a link swapped in while serving, to a file or on a folder on the way, is
refused (Refused), never read.
"""

from __future__ import annotations

import hashlib
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.content.yaml_source import load_yaml
from generator.context import BuildContext
from generator.errors import ContentError, Problems, UsageError
from generator.files import write_atomically
from generator.input_files import FileRefused, read_regular, shown
from generator.options import HOME_OUTPUTS, BuildOptions, choices
from generator.print_facts import Paper

if TYPE_CHECKING:      # (the components stage loads ReportLab: imported by the first rebuild)
    from generator.components.piece import Face
    from generator.targets import Target

FACE_DPI = 100
PAGE_DPI = 60
EAGER_FACES = 24
MAX_FACE_PNG_BYTES = 128 * 2**20    # a 2 m board at 100 dpi is ~60 MB
MAX_PDF_BYTES = 2**30


class Refused(Exception):
    """A file a face or page would read leads outside the folder it belongs to: it is not read."""


@dataclass
class Selection:
    """What the page shows: a game folder and one edition, language and paper (None: the game's first)."""

    game: Path
    edition: str | None = None
    lang: str | None = None
    paper: str = "a4"


@dataclass
class Snapshot:
    """One rebuild's result, as /status.json reports it."""

    build: int = 0
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    faces: list[tuple[str, str]] = field(default_factory=list)      # (label, url)
    # per face (as `faces`), the catalog keys it prints: {key, text, where, overflows} (serve/face_keys.py)
    keys: list[list[dict]] = field(default_factory=list)
    pages: list[tuple[str, str]] = field(default_factory=list)      # (label, url)
    choices: dict[str, list[str]] = field(default_factory=dict)     # game, edition, lang, paper → offered
    selected: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0


class PreviewSession:
    """The state `pnp serve` answers from; `rebuild()` runs on the watcher's thread."""

    def __init__(self, games: list[Path], selection: Selection, templates: Path | None, out: Path):
        self.games = games
        self.selection = selection
        self.templates = templates
        self.out = out
        self.snapshot = Snapshot()
        self.changed = threading.Condition()
        self.draw_lock = threading.Lock()
        self.build_lock = threading.Lock()
        self.faces: dict[str, tuple[Face, Path]] = {}   # digest → (Face, the game folder its art is in)
        self.pages: dict[str, tuple[Path, int]] = {}  # page id → (PDF, page index)
        self.page_pngs: dict[str, bytes] = {}
        self.context = BuildContext(self._options())     # the fonts and caches of every rebuild
        self._wanted: dict[str, str] = {}            # switches asked for and not yet applied
        self._selecting = False
        self._wanted_lock = threading.Lock()

    # -- rebuilding -------------------------------------------------------------------------

    def rebuild(self, files_changed: bool = True) -> Snapshot:
        """Lay the selection out again and publish the faces; then the home files' pages.
        `files_changed`: the game's files may have changed since the last rebuild (the watcher saw a
        change, or a caller edited them), so nothing remembered of a file is trusted; False for a
        switch of what is shown."""
        with self.build_lock, self.context.caches.active():
            if files_changed:
                self.context.caches.files_changed()
            started = time.perf_counter()
            snapshot = self._laid_out()
            snapshot.build = self.snapshot.build + 1
            snapshot.pages = self.snapshot.pages if snapshot.errors else []
            if snapshot.errors:            # the last good faces stay on screen beside the errors
                snapshot.faces = self.snapshot.faces
            snapshot.seconds = round(time.perf_counter() - started, 3)
            self._publish(snapshot)
            if not snapshot.errors:
                self._draw_new_faces(snapshot)
                pages = self._home_pages()
                if pages is not None:
                    self._publish(replace(snapshot, pages=pages, build=snapshot.build + 1,
                                          seconds=round(time.perf_counter() - started, 3)))
            return self.snapshot

    def _draw_new_faces(self, snapshot: Snapshot) -> None:
        """The faces an edit changed (no PNG on disk yet) drawn before the home files are built,
        which holds the drawing lock for longer: an edited card shows at once. A first build of a
        large deck draws EAGER_FACES of them here, the rest when the page asks."""
        from generator.face_images import face_png_path      # (the engine: loaded by the first rebuild)
        fresh = [url for _, url in snapshot.faces if not face_png_path(_name(url)).exists()]
        for url in fresh[:EAGER_FACES]:
            try:
                self.face_png(_name(url))
            except (OSError, Refused):   # an art file deleted or linked away since: its rebuild says so
                return

    def request_select(self, wanted: dict[str, str]) -> None:
        """Switch in the background: requests arriving while a switch rebuilds are merged into one
        more rebuild, so a flood of /select requests costs at most two rebuilds and one thread."""
        with self._wanted_lock:
            self._wanted.update(wanted)
            if self._selecting:
                return
            self._selecting = True
        threading.Thread(target=self._apply_selects, daemon=True).start()

    def _apply_selects(self) -> None:
        while True:
            with self._wanted_lock:
                wanted, self._wanted = self._wanted, {}
                if not wanted:
                    self._selecting = False
                    return
            self.select(**wanted)

    def select(self, **wanted: str) -> None:
        """Switch game, edition, language or paper (unknown values are ignored) and rebuild; a switch
        to what is already shown rebuilds nothing."""
        choices = self.snapshot.choices
        shown = (self.selection.game, self._selected())
        if wanted.get("game") in choices.get("game", []):
            self.selection = Selection(self.games[choices["game"].index(wanted["game"])], paper=self.selection.paper)
        for name in ("edition", "lang", "paper"):
            if wanted.get(name) in choices.get(name, []):
                setattr(self.selection, name, wanted[name])
        if (self.selection.game, self._selected()) != shown:
            self.rebuild(files_changed=False)

    def _options(self, **more: Any) -> BuildOptions:
        selection = self.selection
        return BuildOptions(editions=(selection.edition,) if selection.edition else None,
                            languages=(selection.lang,) if selection.lang else None,
                            papers=(Paper(selection.paper),), templates=self.templates, jobs=1,
                            overflow_warns=True, **more)     # a translator sees the face a text overflows

    def _laid_out(self) -> Snapshot:
        from generator.components.context import recording      # the engine: loaded by the first rebuild
        from generator.serve.face_keys import FaceKeyRecorder
        from generator.targets import clean_games, layout_targets
        snapshot = Snapshot(choices=self._choices(), selected=self._selected())
        problems = Problems()
        recorder = FaceKeyRecorder()       # which keys each face prints, for the translator's view
        try:
            # (under the drawing lock: layout registers fonts with ReportLab, which drawing reads)
            with self.draw_lock, self.context.with_options(self._options()) as context:
                sources = clean_games([self.selection.game], problems, self.templates,
                                      (self.selection.lang,) if self.selection.lang else None)
                with recording(recorder):
                    targets = layout_targets(sources, context.options, problems, context.library,
                                             layout_files=context.layout_files) if not problems.errors else []
        except UsageError as error:
            snapshot.errors = [str(error)]
            return snapshot
        except ContentError as error:
            problems = error.problems
            targets = []
        except Exception as error:      # a bug in pnp: shown on the page, and the watcher goes on
            snapshot.errors = [f"internal error: {type(error).__name__}: {error}\n    hint: this is a bug in pnp, "
                               "not in your game; please report it with the game (pnp build shows where with "
                               "PNP_DEBUG=1)"]
            return snapshot
        snapshot.errors = [str(problem) for problem in problems.errors]
        snapshot.warnings = [str(problem) for problem in problems.warnings]
        if targets and not snapshot.errors:
            snapshot.faces, snapshot.keys = self._face_list(targets[0], recorder)
        return snapshot

    def _face_list(self, target: Target, recorder) -> tuple[list[tuple[str, str]], list[list[dict]]]:
        """Every distinct face of the target, in the order of its files: decks (fronts, then each
        distinct back), token and pawn sets, ink-saver backs, boards, sheets; and the keys each prints."""
        from generator.face_images import face_digest      # (the engine: loaded by the first rebuild)
        from generator.serve.face_keys import NOUNS
        listed: list[tuple[str, str]] = []
        keys: list[list[dict]] = []
        seen: set[str] = set()
        source, lang = target.source, target.lang

        def add(label: str, face: Face | None, subject: str, template: str | None = None) -> None:
            if face is None:
                return
            digest = face_digest(face, FACE_DPI)
            if digest in seen:
                return
            seen.add(digest)
            self.faces[digest] = (face, self.selection.game)
            listed.append((label, f"/face/{digest}.png"))
            keys.append([vars(found) for found in recorder.keys(subject, template, source, lang)])
        for kind, laid_out_sets in target.sets.items():
            for laid_out in laid_out_sets:
                found = source.pieces[kind].find(laid_out.id) if kind in source.pieces else None
                noun, piece_set = NOUNS.get(kind, kind), found[1] if found else None
                for copy in laid_out.copies:
                    add(f"{kind}/{laid_out.id}/{copy.card}", copy.front,
                        f"{noun} {laid_out.id}, {kind[:-1]} {copy.card}", piece_set.template if piece_set else None)
                for copy in laid_out.copies:
                    add(f"{kind}/{laid_out.id}/back", copy.back, f"{noun} {laid_out.id}",
                        piece_set.back if piece_set else None)
                if target.prints_ink_saver_backs:      # an edition without the ink-saver file shows none
                    add(f"{kind}/{laid_out.id}/ink-saver back", laid_out.ink_saver_back,
                        f"{noun} {laid_out.id}, back", piece_set.ink_saver_back if piece_set else None)
        for name, items in (("board", target.boards), ("sheet", target.sheets)):
            for item in items:
                add(f"{name}/{item.id}", item.face, f"{name} {item.id}")
        return listed, keys

    def _home_pages(self) -> list[tuple[str, str]] | None:
        """Build the home files (an incremental build into the session's own folder) and list their pages."""
        import pypdfium2 as pdfium                 # the engine: loaded by the first rebuild
        from generator.build import build
        options = self._options(out=self.out, only=HOME_OUTPUTS, print_shop=False, print_shop_png=False)
        try:
            with self.draw_lock:
                build([self.selection.game], options, context=self.context)
        except Exception:          # content problems were reported by the layout above; a bug by `pnp build`
            return None
        selected = self._selected()
        folder = self.out.joinpath(str(self._game_yaml().get("id") or ""), selected["edition"], selected["lang"],
                                   self.selection.paper)
        listed = []
        for pdf in sorted(folder.glob("*.pdf")):
            try:
                data = _read_inside(pdf, self.out, MAX_PDF_BYTES, "PDF")
            except Refused as refused:
                print(f"pnp serve: {refused}", file=sys.stderr)
                continue
            if data is None:
                continue
            digest = hashlib.sha256(data).hexdigest()[:20]
            with self.draw_lock:
                document = pdfium.PdfDocument(data)
                count = len(document)
                document.close()
            for index in range(count):
                page_id = f"{digest}-{index}"
                self.pages[page_id] = (pdf, index)
                listed.append((f"{pdf.name} p. {index + 1}", f"/page/{page_id}.png"))
        return listed

    def _publish(self, snapshot: Snapshot) -> None:
        with self.changed:
            shown_before, self.snapshot = self.snapshot, snapshot
            self.changed.notify_all()
        self._forget_all_but(shown_before, snapshot)

    def _forget_all_but(self, *snapshots: Snapshot) -> None:
        """Drop the faces and pages (and pages' PNGs) no snapshot of `snapshots` lists: a session
        edited all day holds what two builds show, not every build's. The one shown before stays:
        a page drawn from it may still ask for its images."""
        faces = {_name(url) for snapshot in snapshots for _, url in snapshot.faces}
        pages = {_name(url) for snapshot in snapshots for _, url in snapshot.pages}
        self.faces = {digest: entry for digest, entry in self.faces.items() if digest in faces}
        self.pages = {page: where for page, where in self.pages.items() if page in pages}
        # (a copy first: request threads add PNGs meanwhile; one added to the old table is drawn again)
        self.page_pngs = {page: png for page, png in dict(self.page_pngs).items() if page in pages}

    def _choices(self) -> dict[str, list[str]]:
        data = self._game_yaml()
        editions = list(data.get("editions") or {}) if isinstance(data.get("editions"), dict) else []
        languages = [str(lang) for lang in data.get("languages") or []] if isinstance(data.get("languages"), list) \
            else []
        return {"game": [game.name for game in self.games], "edition": [str(e) for e in editions],
                "lang": languages, "paper": choices(Paper)}

    def _game_yaml(self) -> dict:
        document = load_yaml(self.selection.game / "game.yaml", Problems())
        return document.data if document is not None and isinstance(document.data, dict) else {}

    def _selected(self) -> dict[str, str]:
        choices = self._choices()
        return {"game": self.selection.game.name,
                "edition": self.selection.edition or (choices["edition"] or [""])[0],
                "lang": self.selection.lang or (choices["lang"] or [""])[0],
                "paper": self.selection.paper}

    # -- drawing -----------------------------------------------------------------------------

    def face_png(self, digest: str, vision: str | None = None) -> bytes | None:
        """The PNG of a face this session listed: from the cache folder, else drawn now (and kept
        there); None for a face it never listed. Refused if a file it reads leads outside. `vision`
        (protanopia, deuteranopia, tritanopia): the face as that eye sees it (colour_vision.py)."""
        if vision is not None:
            plain = self.face_png(digest)
            if plain is None:
                return None
            from generator.colour_vision import simulated_png      # (the engine: loaded by the first rebuild)
            with self.draw_lock, self.context.caches.active():
                return simulated_png(plain, vision)
        entry = self.faces.get(digest)
        if entry is None:
            return None
        face, game = entry
        for art in _art_files(face):
            if not _inside(art, game):
                raise Refused(f"{shown(str(art))} leads outside the game folder ({shown(str(game))}): not read")
        from generator.face_images import face_png_path      # (the engine: loaded by the first rebuild)
        from generator.render.preview import face_png
        path = face_png_path(digest)
        data = _read_inside(path, path.parent.parent, MAX_FACE_PNG_BYTES, "face preview")
        if data is not None:
            return data
        # on a request's thread: drawn with the session's caches (what a rebuild empties when files change)
        with self.draw_lock, self.context.caches.active():
            data = face_png(face, FACE_DPI, self.context.drawing.initial_font)
        try:
            write_atomically(path, data)
        except OSError:
            pass
        return data

    def page_png(self, page_id: str) -> bytes | None:
        """A home file's page as a PNG; None when the page is unknown or its PDF is gone; Refused if
        the PDF now leads outside the session's output folder."""
        found = self.page_pngs.get(page_id)
        if found is not None:
            return found
        where = self.pages.get(page_id)
        if where is None:
            return None
        from generator.render.png import pages_png     # (the engine: loaded by the first rebuild)
        pdf, index = where
        data = _read_inside(pdf, self.out, MAX_PDF_BYTES, "PDF")
        if data is None:
            return None
        with self.draw_lock:
            (_, png), = list(pages_png(data, [index], PAGE_DPI))
        self.page_pngs[page_id] = png
        return png


def _name(url: str) -> str:
    """A face's digest or a page's id, from its URL (/face/<digest>.png, /page/<id>.png)."""
    return url.rsplit("/", 1)[-1].removesuffix(".png")


def _art_files(face: Face) -> set[Path]:
    from generator.components.piece import ArtPlacement, walk     # (the engine: loaded by the first rebuild)
    return {item.file for item in walk(face.items) if isinstance(item, ArtPlacement)}


def _inside(path: Path, folder: Path) -> bool:
    """Whether `path`, with every link on the way followed now, lies inside `folder` (followed too)."""
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError, ValueError):    # a link loop, a name too long
        return False


def _read_inside(path: Path, folder: Path, max_bytes: int, what: str) -> bytes | None:
    """The bytes of a regular file inside `folder` (links followed now); None when there is none
    there; Refused when it leads outside or is no regular file."""
    if not _inside(path, folder):
        raise Refused(f"{shown(str(path))} leads outside {shown(str(folder))}: not read")
    resolved = path.resolve()
    if not resolved.exists():
        return None
    try:            # (resolved: a link swapped in at the last step since is refused, not followed)
        return read_regular(resolved, max_bytes, what)
    except FileRefused as refused:
        raise Refused(f"{shown(str(path))} {refused}") from None
