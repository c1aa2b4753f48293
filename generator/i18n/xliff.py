"""XLIFF 1.2 exchange files, written and read with translate-toolkit's storage classes.

Units follow the XLIFF 1.2 Representation Guide for Gettext PO (translate-toolkit's
`poxliff`): a plural key is one `<group restype="x-gettext-plurals">` with a
trans-unit per form of the target language, so every tool that reads it finds
one unit per key. The file is valid against OASIS's strict schema (tests/i18n/schemas):
a unit's size limit is said in XLIFF's own attributes, `maxwidth`/`maxheight` with
`size-unit="point"` and `font="<face>;<size>;<weight>"` (the face that prints, at the
smallest size the engine sets it), which Weblate reads too (its max-size and font checks);
notes come where the schema puts them (a group's before its trans-units). The strict
schema admits no attribute of another vocabulary without that vocabulary's schema
(its wildcards are processContents="strict"), so pnp writes none: what a translator
needs beyond the attributes is in the notes. The `weblate` flavour adds Weblate's own
`weblate-flags` (the line count of max-size, and placeholders), which Weblate reads only
unqualified, as no strict validator accepts it. An untranslated key has no `<target>`
(Weblate counts any target as a translation). Reading takes a unit's texts from its
elements itself (inline_text): the words of <g> and <mrk> stay, other inline codes are
refused, since pnp writes none. Reading looks at no attribute but ids and states, so a
file written by an earlier pnp (its flags on every unit, a group's notes after its
trans-units) imports as it did.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.i18n.translation_units import PLACEHOLDER, SizeLimit, Unit

NAMESPACE = "urn:oasis:names:tc:xliff:document:1.2"
MAX_BYTES = 16 << 20           # as every game file: an exchange file of a whole game is well under 1 MiB


@dataclass(frozen=True)
class ReadUnit:
    """A unit as found in an exchange file: its key, its texts by position, its state and line."""

    key: str
    texts: tuple[str, ...]        # the translation, one text per plural form (in the file's order); () none
    fuzzy: bool
    line: int
    plural: bool
    source: tuple[str, ...] = ()  # the source text the file holds (PO: msgid, msgid_plural; XLIFF: per form)
    refused: tuple[int, str] | None = None   # (line, why) the unit's markup cannot be imported


@dataclass(frozen=True)
class ReadFile:
    """An exchange file as read: the language it names, the line naming it, its units."""

    language: str | None
    language_line: int
    units: list[ReadUnit]


def _classes():
    """translate-toolkit's PO-flavoured XLIFF, in the XLIFF 1.2 namespace (it writes 1.1 by default)."""
    from translate.storage import poxliff     # here: translate-toolkit only for an XLIFF file (not a PO one)

    class Unit12(poxliff.PoXliffUnit):
        namespace = NAMESPACE

    class File12(poxliff.PoXliffFile):
        UnitClass = Unit12
        namespace = NAMESPACE
        XMLskeleton = poxliff.PoXliffFile.XMLskeleton.replace("1.1", "1.2")
    return File12


def write_xliff(units: list[Unit], original: str, source_lang: str, lang: str, weblate: bool = False) -> bytes:
    """The XLIFF 1.2 file of the units: `original` names the catalog the units come from; `weblate` adds
    Weblate's `weblate-flags` (then the file is no longer valid against the strict schema)."""
    from translate.misc.multistring import multistring      # here: see _classes
    store = _classes()(sourcelanguage=source_lang, targetlanguage=lang)
    store.setfilename(store.getfilenode("NoName"), original)
    for unit in units:
        if unit.plural:
            source = multistring([unit.source.get("one", unit.source["other"]), unit.source["other"]]) \
                if len(unit.source) > 1 else multistring([unit.source["other"]] * 2)
            element = store.addsourceunit(source, filename=original)
            if unit.target:
                element.target = multistring([unit.target.get(form, "") for form in unit.target_forms])
        else:
            element = store.addsourceunit(unit.source["other"], filename=original)
            if unit.target:
                element.target = unit.target["other"]
        element.setid(unit.key)
        _describe(element.xmlelement, unit, weblate)
    _one_namespace(store.document.getroot())
    return bytes(store)


def _describe(node, unit: Unit, weblate: bool) -> None:
    """The unit's notes and limit on its trans-unit; a plural's on its group (where Weblate and
    translate-toolkit read them) and on each form's trans-unit (where a tool that knows no gettext
    plurals reads them), a group's notes before its trans-units, as the strict schema orders them."""
    from lxml import etree  # here: only an XLIFF file; lxml ships no types
    forms = [child for child in node if isinstance(child.tag, str) and etree.QName(child).localname == "trans-unit"]
    for element in [node, *forms]:
        namespace = etree.QName(element).namespace
        notes = [_note(namespace, text) for text in unit.notes]
        if forms and element is node:
            node[0:0] = notes
        else:           # a trans-unit: after its source and target
            element.extend(notes)
        _limit_attributes(element, unit, weblate and element is node)


def _note(namespace: str, text: str):
    from lxml import etree  # here: see _describe
    note = etree.Element(f"{{{namespace}}}note", {"from": "developer"})
    note.text = text
    return note


def _limit_attributes(node, unit: Unit, weblate: bool) -> None:
    """XLIFF's own size and font attributes; with `weblate`, Weblate's flags too (they override what
    Weblate reads from the others: the width in its pixels at the whole size, the line count)."""
    limit = unit.limit
    flags = []
    if limit is not None:
        node.set("maxwidth", str(limit.width_pt))
        node.set("maxheight", str(limit.height_pt))
        node.set("size-unit", "point")
        node.set("font", xliff_font(limit))
        flags.extend(limit.weblate_flags())
    if unit.placeholders:
        flags.append("placeholders:" + ":".join('"' + token.replace('"', '\\"') + '"' for token in unit.placeholders))
    if weblate and flags:
        node.set("weblate-flags", ", ".join(flags))


def xliff_font(limit: SizeLimit) -> str:
    """XLIFF's `font` ("name;size;weight"): the printed face by its font group name ('Nunito-Black', which
    Weblate takes as the group as it is), the smallest size in whole points (Weblate reads only whole
    ones), and the weight Weblate may be told (none where the face itself says it: Black)."""
    face = limit.printed_face
    return ";".join([face.group, str(limit.whole_size)] + ([face.weblate_weight] if face.weblate_weight else []))


def _one_namespace(root) -> None:
    """translate-toolkit makes a plural's inner trans-units in the XLIFF 1.1 namespace whatever the file's:
    put them in the file's own, or readers see a group without units."""
    from lxml import etree  # here: only an XLIFF file; lxml ships no types
    old = "{" + NAMESPACE.replace("1.2", "1.1") + "}"
    for node in root.iter():
        if isinstance(node.tag, str) and node.tag.startswith(old):
            node.tag = "{" + NAMESPACE + "}" + node.tag[len(old):]
    etree.cleanup_namespaces(root)


def safe_tree(data: bytes):
    """The file parsed once by lxml with nothing resolved, or ValueError("line:column:message").

    An exchange file comes from outside (a platform, a translator's mail): an XLIFF needs no DTD,
    so any DOCTYPE is refused before a parser that would resolve it sees the file. No entity is
    expanded (billion laughs), no external entity or DTD is loaded (XXE: file:///etc/passwd is
    never read), nothing is fetched from the network."""
    from lxml import etree      # here: only an XLIFF file needs lxml
    if len(data) > MAX_BYTES:
        raise ValueError(f"1:1:the file is {len(data) / 2**20:.0f} MiB: at most {MAX_BYTES >> 20} MiB are read")
    doctype = _line_of_doctype(data)
    if doctype:
        raise ValueError(f"{doctype}:1:the file declares a DOCTYPE (a DTD or entities): an XLIFF file has none, "
                         "and pnp reads no DTD or entity")
    parser = etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True, dtd_validation=False,
                             huge_tree=False, remove_pis=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as error:
        raise ValueError(f"{error.lineno or 1}:{max(1, error.offset or 0)}:not well-formed XML: {error.msg}") from None
    tree = root.getroottree()
    if tree.docinfo.doctype or tree.docinfo.internalDTD is not None:     # spelled so that the scan missed it
        raise ValueError("1:1:the file declares a DOCTYPE (a DTD or entities): an XLIFF file has none, "
                         "and pnp reads no DTD or entity")
    return root


def _line_of_doctype(data: bytes) -> int:
    """The line of a `<!DOCTYPE` or `<!ENTITY` declaration, 0 if none (found in UTF-8 or UTF-16 text)."""
    encodings = ("utf-16",) if data[:2] in (b"\xff\xfe", b"\xfe\xff") else ("utf-8", "utf-16")
    for encoding in encodings:
        text = data.decode(encoding, "replace")
        found = re.search(r"<!\s*(DOCTYPE|ENTITY)", text, re.I)
        if found:
            return text.count("\n", 0, found.start()) + 1
    return 0


def target_language(root) -> tuple[str | None, int]:
    """The target-language of the file's <file> elements, and the first one's line; ValueError at the
    first <file> that names another (its units would be imported into the first one's catalog)."""
    files = [element for element in root.iter() if isinstance(element.tag, str)
             and (element.tag.endswith("}file") or element.tag == "file")]
    if not files:
        return None, 1
    language = files[0].get("target-language")
    other = next((node for node in files[1:] if node.get("target-language") != language), None)
    if other is not None:
        raise ValueError(f"{other.sourceline or 1}:1:this <file> is for target-language "
                         f"{other.get('target-language')!r}, the first one for {language!r}: one file holds one "
                         "language")
    return language, files[0].sourceline or 1


def read_xliff(data: bytes) -> ReadFile:
    """Every unit of an XLIFF 1.x file (ValueError, with its line, for a file that is not one)."""
    from lxml import etree      # here: only an XLIFF file needs lxml
    root = safe_tree(data)           # refuses DTDs and entities before translate-toolkit parses
    try:
        store = _classes().parsestring(data)
    except etree.XMLSyntaxError as error:
        raise ValueError(f"{error.lineno}:{max(1, error.offset or 0)}:not well-formed XML: {error.msg}") from None
    except Exception as error:       # translate-toolkit raises bare ValueErrors and others on odd files
        raise ValueError(f"1:1:not an XLIFF 1.2 file: {error}") from None
    found = []
    for element in store.units:
        node = element.xmlelement
        key = node.get("id") or ""
        plural = element.hasplural()
        forms = [form.xmlelement for form in element.units] if plural else [node]
        refused: list[tuple[int, str]] = []
        targets = [_child(form, "target") for form in forms]
        texts = tuple(inline_text(target, refused) for target in targets if target is not None)
        source = tuple(inline_text(_child(form, "source"), refused) for form in forms)
        if not any(texts):
            texts = ()
        # a plural's state is its forms' (the group itself carries none)
        fuzzy = any(_needs_work(form) for form in forms)
        found.append(ReadUnit(key, texts, bool(texts) and fuzzy, node.sourceline or 0, plural, source,
                              refused[0] if refused else None))
    language, line = target_language(root)
    return ReadFile(language, line, found)


# Inline elements of XLIFF 1.2 (§2.6): <g> and <mrk> wrap text the translation keeps (bold, a term);
# the others stand for native codes (a tag, a line break) that pnp never exports and cannot print.
_TEXT_WRAPPERS = ("g", "mrk")
_CODES = ("x", "bx", "ex", "ph", "bpt", "ept", "it", "sub")


def inline_text(node, refused: list[tuple[int, str]]) -> str:
    """The text of a <source> or <target>: <g> and <mrk> keep their words; a <ph>, <it>, <bpt> or <ept>
    whose whole content is one of pnp's placeholders ({count}, as a platform that protects it writes
    it) is that placeholder; any other code is noted in `refused` as (line, why) and stands for nothing."""
    from lxml import etree      # here: only an XLIFF file needs lxml
    if node is None:
        return ""
    parts = [node.text or ""]
    for child in node:
        if isinstance(child.tag, str):
            name = etree.QName(child).localname
            content = "".join(child.itertext())
            if name in _TEXT_WRAPPERS:
                parts.append(inline_text(child, refused))
            elif name in ("ph", "it", "bpt", "ept") and PLACEHOLDER.fullmatch(content) and len(child) == 0:
                parts.append(content)
            else:
                what = "an inline code" if name in _CODES else "an element"
                refused.append((child.sourceline or node.sourceline or 1,
                                f"holds {what} <{name}> that `pnp i18n export` did not write: pnp cannot tell "
                                "what it stands for"))
        parts.append(child.tail or "")          # a comment's or instruction's tail is text too
    return "".join(parts)


def _child(node, name: str):
    return next((child for child in node if isinstance(child.tag, str)
                 and (child.tag.endswith("}" + name) or child.tag == name)), None)


# target states that mean the text is not ready (Weblate reads them as "needs editing"); a target
# with no state, or translated, signed-off or final, is a translation (XLIFF 1.2 §2.4.3)
_NOT_READY = ("new", "needs-translation", "needs-adaptation", "needs-l10n", "needs-review-translation",
              "needs-review-adaptation", "needs-review-l10n")


def _needs_work(trans_unit) -> bool:
    target = _child(trans_unit, "target")
    if target is None:
        return False
    return target.get("state") in _NOT_READY or target.get("state-qualifier") == "fuzzy-match"
