"""`pnp upgrade GAME`: rewrite a game written in an older game format into this pnp's, in place.

game.yaml `format:` names the format a game is written in; a game without the line is format 1.
The upgrade edits the files' text where the older format wrote something this one reads
otherwise (comments, quoting, key order, blank lines and line endings stay as written), sets
`format: 2`, and says each change at its file:line (old → new). `--dry-run` only lists them.
Run twice, the second run changes nothing. A file it cannot read or parse stops it before it
writes anything (exit 1, at the file's line); each file is written atomically.

Format history (each change that makes a game of the older format fail, or print otherwise):

Format 1 — every release before the format line: the first release (Christmas Round's cards)
and the changes since, none of which a game could ask for or against:

- Icon markup. The rulebook wrote icons ':gift:' (icons named in rules.yaml `rulebook.icons`);
  now every text of every catalog writes `{icon:gift}` (icons named in game.yaml `icons`;
  `rulebook.icons` is still read, merged in). In a format-2 game ':gift:' of a known icon is an
  error (it would print as written); in a format-1 game a warning, and it prints as the icon.
  Upgrade: every ':name:' of a known icon in every YAML file's values (catalogs, templates'
  literal texts and table formats, card fields) and in every CSV sheet becomes {icon:name}.
- The 6 pt floor. Game text on cards, tokens, pawns, boards and sheets is never set below 6 pt:
  a style set smaller is an error at its box, and text shrinks no further than 6 pt (format 1
  shrank it to the style's min_size, or ¾ of its size). A game lowers the floor deliberately with
  game.yaml `min_text_size: 5pt` (4 pt at least); text below 6 pt is then a warning of `pnp check`.
  Upgrade: when the game's own styles set a size or min_size below 6 pt, game.yaml gets
  `min_text_size:` at the smallest of them (at least 4 pt), so the game prints as it did.
- Boxes by kind. A box takes only its own kind's keys (a text box has no `fill`); format 1
  accepted every box key on every box and drew only its kind's. Upgrade: a key of another kind,
  which format 1 never drew, is removed (its line, or its item of a `{...}` box).
- min_size above size. A style whose min_size is larger than its size (or than 9 pt, the size of a
  style that names none) is an error; format 1 set such text at its size. Upgrade: min_size
  becomes that size.
- Values no real game writes are refused where they are written (NaN, negative or huge lengths,
  10^9 copies, a template over 1 m, a dash pattern of 17 numbers, colours that are not '#rrggbb' or
  cmyk(...), more than 100 editions or languages), and the data boxes read from fields (cells, map
  nodes, routes, polygon points, table rows) is checked when the game is read, not when it is drawn.
  Not rewritten: the message says what to write.
- Printed otherwise, with nothing to rewrite: a text box's text is set at one size on every card
  of a deck (`fit: deck`, the default; `fit: each` is format 1's card-by-card fitting); titles,
  labels and boxes of one or two lines do not hyphenate (`hyphenate: true` does); pnp's shared
  templates (poker-card, poker-card-framed) set their small styles at 6 pt, not 5.5 pt.

Format 2 — this release: `format: 2` and `min_text_size` in game.yaml.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path

import click
import yaml

from generator.cli_options import content_option, project_option
from generator.cli_places import one_game
from generator.content.game import FORMER_ICON_MARKUP
from generator.content.schema import (BOX_KINDS, DEFAULT_TEXT_SIZE, FIRST_FORMAT, FORMAT, LOWEST_TEXT_FLOOR,
                                      MIN_GAME_TEXT)
from generator.files import write_atomically
from generator.units import parse_font_size
from generator.upgrade_text import Change, Unreadable, YamlText, child, mapping_items, scalar_value

# Every key a box took in format 1 (one model for every kind): a key of another kind than the box's
# was accepted and not drawn; format 2 refuses it, so the upgrade removes it.
FORMAT_1_BOX_KEYS = frozenset({
    "kind", "x", "y", "width", "height", "area", "z", "anchor", "when", "unless", "editions", "fill", "stroke",
    "stroke_width", "radius", "dash", "text", "literal", "count", "style", "padding", "art", "fit", "repeat", "gap",
    "cells", "cell_template", "path", "rows", "start", "facing", "link", "point", "points", "network", "table",
    "header", "formats", "header_style", "header_fill", "row_fill"})

# the YAML files of a game folder besides its templates and catalogs
GAME_FILES = ("game.yaml", "cards.yaml", "tokens.yaml", "pawns.yaml", "board.yaml", "sheets.yaml", "rules.yaml")
WORKBOOKS = (".xlsx", ".ods", ".xls")


@dataclass
class Upgrade:
    """A game's files as read, the edits planned on them, and what the upgrade could not do."""

    folder: Path
    written_format: int
    yaml_files: list[YamlText]
    csv_files: list[tuple[Path, str, str]]          # (file, text, edited text)
    notes: list[str]

    @property
    def changes(self) -> list[Change]:
        """Every change, file by file, in the order of their lines."""
        found = [change for file in self.yaml_files for change in sorted(file.changes, key=lambda c: c.line)]
        for path, text, edited in self.csv_files:
            found += _csv_changes(path, text, edited)
        return found


def plan_upgrade(folder: Path) -> Upgrade:
    """Read every file of the game and plan the edits; Unreadable when a file cannot be read."""
    game = YamlText.read(folder / "game.yaml", _shown(folder, "game.yaml"))
    if not isinstance(game.root, yaml.MappingNode):
        raise Unreadable(_shown(folder, "game.yaml"), "game.yaml holds no mapping of keys (id, title, ...)")
    written = _written_format(game, folder)
    upgrade = Upgrade(folder, written, [game], [], [])
    if written >= FORMAT:
        return upgrade
    files = [game] + [YamlText.read(folder / name, _shown(folder, name)) for name in GAME_FILES[1:]
                      if (folder / name).is_file()]
    templates = [YamlText.read(path, _shown(folder, f"templates/{path.name}"))
                 for path in sorted((folder / "templates").glob("*.yaml"))]
    catalogs = [YamlText.read(path, _shown(folder, f"i18n/{path.name}"))
                for path in sorted((folder / "i18n").glob("*.yaml"))]
    upgrade.yaml_files = files + templates + catalogs
    smallest = None
    for template in templates:          # first: a key taken out is not rewritten too
        _boxes_by_kind(template)
        found = _styles(template)
        smallest = found if smallest is None or (found is not None and found < smallest) else smallest
    icons = _icon_names(files)
    for file in upgrade.yaml_files:
        _icon_markup(file, file.root, icons, in_flow=False)
    for path in sorted(folder.rglob("*.csv")):
        upgrade.csv_files.append(_csv_markup(path, folder, icons))
    _format_lines(game, smallest, upgrade)
    upgrade.csv_files = [entry for entry in upgrade.csv_files if entry[1] != entry[2]]
    workbooks = sorted(path for path in folder.rglob("*") if path.suffix.lower() in WORKBOOKS)
    for path in workbooks:
        upgrade.notes.append(f"{_shown(folder, path.relative_to(folder).as_posix())}: a workbook is not rewritten; "
                             "pnp check names any ':name:' icon markup in it (write {icon:name} there)")
    if templates:
        upgrade.notes.append("format 2 sets a text box at one size on every card of a deck (fit: deck); write "
                             "fit: each in a style for format 1's card-by-card sizes")
    return upgrade


def _shown(folder: Path, name: str) -> str:
    return str(folder / name)


def _written_format(game: YamlText, folder: Path) -> int:
    node = child(game.root, "format")
    if node is None:
        return FIRST_FORMAT
    value = scalar_value(node)
    if value is None or not value.isdigit():
        raise Unreadable(f"{_shown(folder, 'game.yaml')}:{node.start_mark.line + 1}",
                         f"format must be a whole number ({FIRST_FORMAT} to {FORMAT}), got {game.source(node)}")
    if int(value) > FORMAT:
        raise Unreadable(f"{_shown(folder, 'game.yaml')}:{node.start_mark.line + 1}",
                         f"game format {value} is newer than this pnp's (format {FORMAT}): install the pnp the "
                         "game was written for, or a later one")
    return int(value)


# ---------------------------------------------------------------- icon markup

def _icon_names(files: list[YamlText]) -> set[str]:
    """The icons the game defines: game.yaml icons and rules.yaml rulebook.icons (format 1's place)."""
    names: set[str] = set()
    for file in files:
        if file.path.name == "game.yaml":
            holder = child(file.root, "icons")
        elif file.path.name == "rules.yaml":
            holder = child(child(file.root, "rulebook"), "icons")
        else:
            continue
        names |= {value for key, _ in mapping_items(holder) if (value := scalar_value(key)) is not None}
    return names


def _with_markup(text: str, icons: set[str]) -> str:
    return FORMER_ICON_MARKUP.sub(lambda found: "{icon:" + found[1] + "}" if found[1] in icons else found[0], text)


def _icon_markup(file: YamlText, node: yaml.Node | None, icons: set[str], *, in_flow: bool) -> None:
    """Every value (not key) of the file that writes a known icon ':name:' gets {icon:name}."""
    if not icons or node is None:
        return
    if isinstance(node, yaml.ScalarNode):
        value = _with_markup(node.value, icons)
        if value != node.value and not file.removed(node):
            source = file.source(node)
            parts = [(found.start(), found[0], "{icon:" + found[1] + "}")
                     for found in FORMER_ICON_MARKUP.finditer(source) if found[1] in icons]
            file.set_scalar(node, value, "the icon markup of format 1", in_flow=in_flow,
                            source_text=_with_markup(source, icons), parts=parts)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _icon_markup(file, item, icons, in_flow=in_flow or bool(node.flow_style))
    elif isinstance(node, yaml.MappingNode):
        for _, value in node.value:
            _icon_markup(file, value, icons, in_flow=in_flow or bool(node.flow_style))


def _csv_markup(path: Path, folder: Path, icons: set[str]) -> tuple[Path, str, str]:
    shown = _shown(folder, path.relative_to(folder).as_posix())
    try:
        text = path.read_bytes().decode("utf-8")      # a byte-order mark stays, as every other byte
    except OSError as error:
        raise Unreadable(shown, f"cannot read it ({error.strerror or error})") from None
    except UnicodeDecodeError:
        return path, "", ""          # another encoding: cards_from reads it, and pnp check names its markup
    return path, text, _with_markup(text, icons) if icons else text


def _csv_changes(path: Path, text: str, edited: str) -> list[Change]:
    return [Change(path, number, old, new, "the icon markup of format 1")
            for number, (old, new) in enumerate(zip(text.split("\n"), edited.split("\n"), strict=True), start=1)
            if old != new]


# ---------------------------------------------------------------- templates

def _boxes_by_kind(template: YamlText) -> None:
    """Remove each key of another kind than its box's (format 1 accepted and never drew it)."""
    for name_node, box in mapping_items(child(template.root, "boxes")):
        kind = scalar_value(child(box, "kind"))
        if kind is None or kind not in BOX_KINDS or not isinstance(box, yaml.MappingNode):
            continue                     # no kind, or an unknown one: pnp check says so
        own = set(BOX_KINDS[kind].model_fields)
        for key, value in list(box.value):
            name = scalar_value(key)
            if name in FORMAT_1_BOX_KEYS and name not in own:
                why = f"format 1 accepted it on a {kind} box and never drew it; format 2 refuses it"
                if not template.remove_pair(box, key, value, why):
                    raise Unreadable(f"{template.path}:{key.start_mark.line + 1}",
                                     f"'{name}' of {kind} box '{scalar_value(name_node)}' is a key of another kind "
                                     "that pnp upgrade cannot take out as it is written: remove it by hand")


def _styles(template: YamlText) -> float | None:
    """Fix each min_size above its style's size; the smallest size or min_size the styles set (pt)."""
    smallest = None
    for _, style in mapping_items(child(template.root, "styles")):
        size_node, min_node = child(style, "size"), child(style, "min_size")
        size = _points(size_node)
        minimum = _points(min_node)
        if minimum is not None and min_node is not None and minimum > (size or DEFAULT_TEXT_SIZE) + 1e-9:
            written = template.source(size_node) if size_node is not None and size is not None \
                else f"{DEFAULT_TEXT_SIZE:g}pt"
            assert isinstance(min_node, yaml.ScalarNode)
            template.set_scalar(min_node, scalar_value(size_node) or written,
                                "format 1 set a min_size above the size at the size; format 2 refuses it",
                                in_flow=bool(isinstance(style, yaml.MappingNode) and style.flow_style),
                                source_text=written)
            minimum = size or DEFAULT_TEXT_SIZE
        for value in (size, minimum):
            if value is not None and (smallest is None or value < smallest):
                smallest = value
    return smallest


def _points(node: yaml.Node | None) -> float | None:
    """A font size as written (points when bare); None when absent or not a size (pnp check says so)."""
    value = scalar_value(node)
    if value is None:
        return None
    try:
        return parse_font_size(value)
    except ValueError:
        return None


# ---------------------------------------------------------------- game.yaml

def _format_lines(game: YamlText, smallest: float | None, upgrade: Upgrade) -> None:
    """`format: 2`, and min_text_size when the game's own styles go below the 6 pt floor."""
    lines, whys = [], []
    format_node = child(game.root, "format")
    if format_node is not None:
        assert isinstance(format_node, yaml.ScalarNode)
        game.set_scalar(format_node, str(FORMAT), f"the game is written in format {FORMAT} now",
                        in_flow=False, source_text=str(FORMAT))
    else:
        lines.append(f"format: {FORMAT}")
        whys.append(f"the game is written in format {FORMAT} now")
    if smallest is not None and smallest < MIN_GAME_TEXT - 1e-9 and child(game.root, "min_text_size") is None:
        floor = max(math.floor(smallest * 100 + 1e-6) / 100, LOWEST_TEXT_FLOOR)    # never above the smallest
        lines.append(f"min_text_size: {floor:g}pt   # pnp upgrade: the game's smallest text "
                     f"(format 1 had no {MIN_GAME_TEXT:g} pt floor)")
        whys.append(f"a style sets {smallest:g} pt; format {FORMAT} sets no game text below {MIN_GAME_TEXT:g} pt "
                    "unless min_text_size lowers the floor")
        if smallest < LOWEST_TEXT_FLOOR:
            upgrade.notes.append(f"a style's size or min_size is {smallest:g} pt, below the {LOWEST_TEXT_FLOOR:g} pt "
                                 "min_text_size allows at least: its text shrinks no further than that (pnp check "
                                 "says where it no longer fits)")
    if lines:
        assert isinstance(game.root, yaml.MappingNode)
        if game.root.flow_style:
            raise Unreadable(str(game.path), f"game.yaml is one {{...}} mapping: add format: {FORMAT} to it by hand, "
                             "then run pnp upgrade again")
        game.insert_top(lines, whys)


# ---------------------------------------------------------------- writing and the command

def write_upgrade(upgrade: Upgrade) -> None:
    """Every edited file, each checked first and written atomically (none when one fails its check)."""
    ready = [(file.path, file.edited_bytes(str(file.path))) for file in upgrade.yaml_files if file.edits]
    ready += [(path, edited.encode("utf-8")) for path, _, edited in upgrade.csv_files]
    for path, data in ready:
        write_atomically(path, data)


def report_lines(upgrade: Upgrade, dry_run: bool) -> list[str]:
    folder = upgrade.folder
    if upgrade.written_format >= FORMAT:
        return [f"{folder}: written in format {upgrade.written_format}, this pnp's: nothing to upgrade"]
    lines = []
    for change in upgrade.changes:
        why = f"  ({change.why})" if change.why else ""
        old, new = _what_differs(change.old, change.new)
        lines.append(f"{change.file}:{change.line}: {old} → {new}{why}")
    files = len({change.file for change in upgrade.changes})
    lines += [f"note: {note}" for note in upgrade.notes]
    verb = "would upgrade" if dry_run else "upgraded"
    lines.append(f"{verb} {folder} from format {upgrade.written_format} to {FORMAT}: "
                 f"{len(upgrade.changes)} change(s) in {files} file(s)" + (" (--dry-run: nothing written)"
                                                                             if dry_run else ""))
    return lines


def _what_differs(old: str, new: str, context: int = 12) -> tuple[str, str]:
    """The part of a long value that changed, with a few characters either side (a rules paragraph
    shown whole hides its one changed word)."""
    if len(old) <= 60 and len(new) <= 60:
        return _one_line(old), _one_line(new)
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    end = 0
    while end < min(len(old), len(new)) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    begin = max(start - context, 0)

    def cut(text: str) -> str:
        stop = len(text) - max(end - context, 0)
        return ("…" if begin else "") + _one_line(text[begin:stop]) + ("…" if stop < len(text) else "")
    return cut(old), cut(new)


def _one_line(text: str) -> str:
    shown = text.replace("\r", "").replace("\n", "⏎")
    return shown if len(shown) <= 100 else shown[:97] + "…"


@click.command("upgrade")
@click.argument("game")
@click.option("--dry-run", is_flag=True, help="List what would change; write nothing.")
@content_option
@project_option
def upgrade_command(game: str, dry_run: bool, content_root: str | None, project_file: str | None) -> None:
    """Rewrite GAME (a folder, or a name under content/) from an older game format into this pnp's."""
    _, folder = one_game(game, content_root, project_file)     # as build takes GAME
    try:
        upgrade = plan_upgrade(folder)
        if not dry_run:
            write_upgrade(upgrade)
    except Unreadable as error:
        click.echo(f"{error}", err=True)
        click.echo("nothing written", err=True)
        sys.exit(1)
    except OSError as error:
        click.echo(f"{error.filename or folder}: cannot write it ({error.strerror or error}); nothing more written",
                   err=True)
        sys.exit(1)
    for line in report_lines(upgrade, dry_run):
        click.echo(line)
