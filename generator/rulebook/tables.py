"""Column widths of the rulebook's tables: every column at least as wide as its longest word.

rules.yaml gives a table's columns as shares of the text's width. A share can leave a column narrower
than a name it holds („Еленчето Рубинка" in a 1.2-share column of Bulgarian), and a name must not
break inside a word: such a column is widened to its longest word (and the edition badge, in a column
that carries one), the room taken from the columns that have more than their own longest word needs,
in proportion to what they can spare. Only running text wraps inside a cell, and only text longer than
two lines may hyphenate (flow.SetText).
"""

from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.text.layout import SetStyle, glue_paragraphs, line_width
from generator.text.rich import Fragment, Paragraph, parse_rich_text
from generator.text.setter import TextSetter
from generator.units import mm_to_pt

TABLE_PADDING = 3.5    # pt, left and right in every table cell
BADGE_SIZE = 7.0       # pt, the edition badge's letters


def words(text: str, style: SetStyle) -> list[Paragraph]:
    """Each unbreakable word of a rich text as a one-word paragraph: split at the spaces a line may break at
    (not at the no-break spaces the language's rules glue) and after a word's own hyphens."""
    found: list[Paragraph] = []
    for paragraph in glue_paragraphs(parse_rich_text(text), style.rules):
        word: list[Fragment] = []
        for fragment in paragraph.fragments:
            if fragment.icon:
                word.append(fragment)
                continue
            parts = fragment.text.replace("-", "-\n").replace(" ", "\n ").split("\n")
            for index, part in enumerate(parts):
                if index and (part.startswith(" ") or parts[index - 1].endswith("-")):
                    if word:
                        found.append(Paragraph(tuple(word)))
                    word = []
                part = part.lstrip(" ")
                if part:
                    word.append(Fragment(part, fragment.bold, fragment.italic))
        if word:
            found.append(Paragraph(tuple(word)))
    return found


def longest_word(text: str, style: SetStyle, setter: TextSetter) -> float:
    """The width (pt) of a text's widest unbreakable word, set in the style."""
    return max((mm_to_pt(line_width((word,), style, setter)) for word in words(text, style)), default=0.0)


def badge_width(badge: str, badge_font: str) -> float:
    """The edition badge's width (pt) on its own line in a cell."""
    return stringWidth(f"\u00a0{badge}\u00a0", badge_font, BADGE_SIZE) + 1


def column_widths(shares: list[float], needs: list[float]) -> list[float]:
    """Widths (pt) from the designed widths `shares` (pt, summing to the text's width) where no column is
    narrower than its need (pt, padding included): what a narrow column lacks is taken from the others'
    spare width in proportion to it. If all the needs together exceed the width, each column gets its
    designed width's share of what the needs leave."""
    total = sum(shares)
    if sum(needs) > total:
        scale = total / sum(needs)
        return [need * scale for need in needs]
    lacking = sum(max(0.0, need - share) for share, need in zip(shares, needs, strict=False))
    if lacking <= 1e-9:
        return list(shares)
    spare = [max(0.0, share - need) for share, need in zip(shares, needs, strict=False)]
    available = sum(spare)
    return [need if need > share else share - lacking * room / available
            for share, need, room in zip(shares, needs, spare, strict=False)]
