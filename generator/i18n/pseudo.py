"""The pseudo-locale qps-ploc: the source language made longer and stranger, to test layouts.

Latin letters get accents, every text grows by about 40 % and is bracketed, so
a box that would overflow in a long translation overflows here first.
Placeholders ({count}), markup (** *, {icon:name}, list markers) and line breaks
are kept, so the text still works as the engine's input.
"""

from __future__ import annotations

import re

from generator.i18n.catalog import Catalog, Entry, required_plural_forms

PSEUDO = "qps-ploc"
EXPANSION = 0.4
_ACCENTS = str.maketrans("aeiouycnszAEIOUYCNSZ", "áéíóúýçñšžÁÉÍÓÚÝÇÑŠŽ")
_KEEP = re.compile(r"(\{[A-Za-z_][A-Za-z0-9_]*\}|\{icon:[^{}\s]*\}|:[a-z0-9_-]+:|\*\*|\*"
                   r"|\n(?:- |\d+\. )?|^(?:- |\d+\. ))")
_PAD = " ·~·~·~·~·~·~·~·~·~·~·~·~·~·~·~·~·~·~"


def pseudo_text(text: str) -> str:
    if not text:
        return text
    parts = _KEEP.split(text)
    out = "".join(part if index % 2 else part.translate(_ACCENTS) for index, part in enumerate(parts))
    visible = len(_KEEP.sub("", text))
    pad = _PAD[:max(1, round(visible * EXPANSION) - 2)]
    lines = out.split("\n")
    lines[-1] = lines[-1] + pad
    lines[0] = _open(lines[0])
    return "\n".join(lines) + "]"


def _open(line: str) -> str:
    """The opening bracket goes after a list marker, so the line stays a list item."""
    match = re.match(r"^(?:- |\d+\. )", line)
    return line[:match.end()] + "[" + line[match.end():] if match else "[" + line


def pseudo_catalog(source: Catalog) -> Catalog:
    catalog = Catalog(PSEUDO, source.file)
    forms = required_plural_forms("en")
    for key, entry in source.entries.items():
        if entry.plural is not None:
            other = entry.plural.get("other", "")
            plural = {form: pseudo_text(entry.plural.get(form, other)) for form in forms}
            catalog.entries[key] = Entry(None, plural, entry.mark)
        else:
            catalog.entries[key] = Entry(pseudo_text(entry.text or ""), None, entry.mark)
    return catalog
