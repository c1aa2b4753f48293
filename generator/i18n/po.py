"""Gettext PO exchange files, written and read with polib.

Each key is one entry whose context (msgctxt) is the key, so equal source texts
stay distinct. A plural key has msgid (the source's `one`), msgid_plural (its
`other`) and one msgstr per form of the target language, in the order of the
Plural-Forms header babel gives for the language's CLDR rule. The notes, the
size limit and the screenshot are extracted comments (`#.`); the places that use
the key are references (`#:`); Weblate's size check and placeholder flags, and
gettext's `python-brace-format`, are flags (`#,`). A file is parsed from the bytes
read, never by a name it holds (polib opens its argument when a file of that name exists).

GNU gettext's msgmerge and msgcat keep only the flags gettext knows (fuzzy, the
`*-format` flags, range, no-wrap): Weblate's max-size, font-* and placeholders
flags are dropped (81 of christmas-round's English units lost them). So each unit
says its Weblate flags a second time in an extracted comment, which both keep
(msgmerge from the template side): `#. weblate-flags: max-size:…, font-family:…`.
Reading takes them from the `#,` flags first, else from that comment (PoFile.checks).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from generator.i18n.translation_units import Unit, weblate_checks
from generator.i18n.xliff import ReadFile, ReadUnit

CHECKS_COMMENT = "weblate-flags: "     # the extracted comment that carries a unit's Weblate flags
# The flags of Weblate's checks that pnp writes (gettext's tools drop every one of them)
WEBLATE_FLAGS = ("max-size:", "font-family:", "font-size:", "font-weight:", "placeholders:")
# No translator has touched a file pnp writes: the header says so as GNU msginit --no-translator does
# ("Automatically generated", "none"), and its dates are one fixed moment (the one pnp's PDFs carry,
# render/pdfx.py FIXED_DATE), so an export of the same catalogs is the same bytes
NO_TRANSLATOR = MappingProxyType({
    "POT-Creation-Date": "2000-01-01 00:00+0000",
    "PO-Revision-Date": "2000-01-01 00:00+0000",
    "Last-Translator": "Automatically generated",
    "Language-Team": "none",
})


@dataclass(frozen=True)
class ReadChecks:
    """A unit's Weblate flags as read back, and where they were found."""

    flags: tuple[str, ...]        # 'max-size:482:3', 'font-family:Nunito-Black', … as written
    where: str                    # "flags" (the `#,` line) or "comment" (`#. weblate-flags:`)


@dataclass(frozen=True)
class PoFile(ReadFile):
    """A PO file as read, with every unit's Weblate flags (key → ReadChecks; units without any absent)."""

    checks: Mapping[str, ReadChecks] = field(default_factory=dict)


def plural_forms_header(lang: str) -> str:
    """Plural-Forms for the language's CLDR rule (ru: 4 forms, one few many other)."""
    from babel import Locale, UnknownLocaleError      # here: babel's CLDR data only for a PO file's header
    from babel.plural import to_gettext
    try:
        rule = Locale.parse(lang.replace("-", "_")).plural_form
    except (UnknownLocaleError, ValueError):
        return "nplurals=2; plural=(n != 1);"
    # CLDR's exponent operand e (French, Spanish, Italian, Portuguese, Catalan: "1 million de"), which babel
    # leaves in and msgfmt refuses ("invalid plural expression"): a gettext count is whole, its exponent 0
    return re.sub(r"\be\b", "0", to_gettext(rule))


def write_po(units: list[Unit], project: str, source_lang: str, lang: str) -> bytes:
    """The PO file of the units (its dates fixed, NO_TRANSLATOR: the same catalogs give the same bytes)."""
    import polib        # here: only a PO file needs polib (an XLIFF exchange never loads it)
    catalog = polib.POFile(wrapwidth=0)
    catalog.header = "\n".join([f"{project} — {lang}: written by `pnp i18n export`; bring it back with "
                                 "`pnp i18n import`.", *_font_groups(units)])
    catalog.metadata = {
        "Project-Id-Version": project,
        **NO_TRANSLATOR,
        "Language": lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": plural_forms_header(lang),
        "X-Source-Language": source_lang,
    }
    for unit in units:
        checks = weblate_checks(unit)
        flags = (["python-brace-format"] if unit.placeholders else []) + checks
        occurrences = [(place.rsplit(":", 2)[0], place.rsplit(":", 2)[1]) if place.count(":") >= 2 else (place, "")
                       for place in unit.places]
        notes = list(unit.notes)
        others = [f"{form}: {text}" for form, text in unit.source.items() if form not in ("one", "other")]
        if unit.plural and others:
            notes.append("Source forms " + "; ".join(others))
        if checks:      # last: the copy of the flags that msgmerge and msgcat keep
            notes.append(CHECKS_COMMENT + ", ".join(checks))
        entry = polib.POEntry(msgctxt=unit.key, comment="\n".join(notes), flags=flags,
                              occurrences=occurrences)
        if unit.plural:
            entry.msgid = unit.source.get("one", unit.source["other"])
            entry.msgid_plural = unit.source["other"]
            entry.msgstr_plural = {index: unit.target.get(form, "") for index, form in enumerate(unit.target_forms)}
        else:
            entry.msgid = unit.source["other"]
            entry.msgstr = unit.target.get("other", "")
        catalog.append(entry)
    return str(catalog).encode("utf-8")


def _font_groups(units: list[Unit]) -> list[str]:
    """The header's lines naming the Weblate font groups the units' size checks measure in, and the
    face each must hold (a group without its face measures in Weblate's 'sans')."""
    faces = sorted({(unit.limit.printed_face.group, unit.limit.printed_face.described)
                    for unit in units if unit.limit is not None})
    if not faces:
        return []
    return ["Weblate's size check (max-size) measures in the font group a unit's font-family flag names: make "
            "each below (Manage → Fonts) with that face's own static font file.",
            *(f"  {group}: {described}" for group, described in faces)]


def read_po(data: bytes) -> ReadFile:
    """Every entry of a PO file and the language its header names (ValueError, with its line, for a
    file that is not one)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise ValueError(f"{line}:1:not UTF-8 text") from None
    try:
        catalog = parse_po_text(text)
    except (OSError, ValueError) as error:
        raise ValueError(f"{_line_of(str(error))}:1:{_not_po(text, error)}") from None
    found = []
    checks: dict[str, ReadChecks] = {}
    for entry in catalog:
        if entry.obsolete:
            continue
        plural = bool(entry.msgid_plural)
        if plural:
            texts = tuple(entry.msgstr_plural[index] for index in sorted(entry.msgstr_plural))
        else:
            texts = (entry.msgstr,)
        if not any(texts):
            texts = ()
        source = (entry.msgid, entry.msgid_plural) if plural else (entry.msgid,)
        found.append(ReadUnit(entry.msgctxt or "", texts, "fuzzy" in entry.flags, max(1, entry.linenum or 0),
                              plural, source))
        read = _checks_of(entry)
        if read is not None:
            checks.setdefault(entry.msgctxt or "", read)
    language = catalog.metadata.get("Language") or None
    return PoFile(language, _header_line(text, "Language") if language else 1, found, checks)


def _checks_of(entry) -> ReadChecks | None:
    """The entry's Weblate flags: from its `#,` line where they are there, else from the extracted
    comment that repeats them (the `#,` line lost them to msgmerge or msgcat); None where neither has any."""
    flagged = tuple(flag for flag in split_flags(", ".join(entry.flags)) if flag.startswith(WEBLATE_FLAGS))
    if flagged:
        return ReadChecks(flagged, "flags")
    for line in (entry.comment or "").split("\n"):
        if line.startswith(CHECKS_COMMENT):
            said = tuple(flag for flag in split_flags(line[len(CHECKS_COMMENT):]) if flag.startswith(WEBLATE_FLAGS))
            if said:
                return ReadChecks(said, "comment")
    return None


def split_flags(text: str) -> list[str]:
    """Weblate's comma-separated flags, each stripped; a comma inside a quoted value ("…", '…', with
    backslash escapes) does not separate."""
    flags: list[str] = []
    current: list[str] = []
    quote, escaped = "", False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\" and quote:
            escaped = True
        elif quote and char == quote:
            quote = ""
        elif not quote and char in "\"'":
            quote = char
        elif not quote and char == ",":
            flags.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    flags.append("".join(current).strip())
    return [flag for flag in flags if flag]


def parse_po_text(text: str):
    """polib's parser run on the text itself. `polib.pofile(x)` opens x as a path whenever a file of
    that name exists, so an import file whose whole content is `/etc/passwd` (or another PO file's
    path) would be read from there: the parser is given the lines, never a name."""
    import polib        # here: only a PO file needs polib (an XLIFF exchange never loads it)
    parser = polib._POFileParser("", encoding="utf-8")      # "" names no file: nothing is opened
    parser.fhandle = text.split("\n")     # lines as gettext splits them (splitlines splits at U+2028 too)
    catalog = parser.parse()
    catalog.wrapwidth = 0
    return catalog


def _not_po(text: str, error: Exception) -> str:
    """What a parse error means; a file of one line that is no PO statement (a path, a URL) says so."""
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) == 1 and not lines[0].lstrip().startswith(("#", "msg", '"')):
        shown = lines[0].strip()
        shown = repr(shown[:80] + ("…" if len(shown) > 80 else ""))
        return (f"not a PO file: its only line is {shown}, not PO entries (pnp reads the file's own "
                "text and never opens a path it names)")
    return f"not a PO file: {error}"


def _header_line(text: str, field: str) -> int:
    """The line of the header's `"Field: …"` string (where the file says its language), else 1."""
    found = re.search(rf'^\s*"{field}:', text, re.M)
    return text.count("\n", 0, found.start()) + 1 if found else 1


def _line_of(message: str) -> int:
    found = re.search(r"line (\d+)", message)
    return int(found.group(1)) if found else 1
