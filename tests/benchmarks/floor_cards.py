"""The floor bench_cards.py measures the engine against: a plain ReportLab script drawing the same cards.

Run: python floor_cards.py GAME OUT.pdf REGULAR.ttf BLACK.ttf

What anyone would write by hand with ReportLab and no engine: read the deck and its
Russian catalog (PyYAML's C loader), and draw 3 × 3 poker cards per A4 sheet with crop
marks, fronts then mirrored backs — a full-bleed colour, a framed rounded panel, the
title centred in Nunito Black, the art (svglib, drawn once as a form), the body wrapped by
ReportLab's Paragraph; the back drawn once as a form. Compressed, reproducible (invariant)
output without ASCII85, as the engine writes it.
"""

import sys

import yaml
from reportlab import rl_config

rl_config.useA85 = 0
from reportlab.graphics import renderPDF  # noqa: E402
from reportlab.lib.colors import HexColor  # noqa: E402
from reportlab.lib.enums import TA_CENTER  # noqa: E402
from reportlab.lib.styles import ParagraphStyle  # noqa: E402
from reportlab.lib.units import mm  # noqa: E402
from reportlab.pdfbase import pdfmetrics  # noqa: E402
from reportlab.pdfbase.ttfonts import TTFont  # noqa: E402
from reportlab.pdfgen.canvas import Canvas  # noqa: E402
from reportlab.platypus import Paragraph  # noqa: E402
from svglib.svglib import svg2rlg  # noqa: E402

CARD_W, CARD_H, BLEED = 63 * mm, 88 * mm, 3 * mm
LEFT, TOP = 10.5 * mm, 16.5 * mm


def main(game: str, out: str, regular: str, black: str) -> None:
    with open(f"{game}/cards.yaml", encoding="utf-8") as file:
        deck = yaml.load(file, Loader=yaml.CSafeLoader)["decks"][0]
    with open(f"{game}/i18n/ru.yaml", encoding="utf-8") as file:
        texts = yaml.load(file, Loader=yaml.CSafeLoader)["ru"]["card"]
    cards = [texts[card["id"]] for card in deck["cards"] for _ in range(card["count"])]
    pdfmetrics.registerFont(TTFont("R", regular))
    pdfmetrics.registerFont(TTFont("B", black))
    body = ParagraphStyle("body", fontName="R", fontSize=8.5, leading=8.5 * 1.22, alignment=TA_CENTER,
                          textColor=HexColor("#2b2220"))
    art = svg2rlg(f"{game}/art/teddy.svg")
    c = Canvas(out, pagesize=(210 * mm, 297 * mm), invariant=1, initialFontName="R")
    c.beginForm("art", 0, 0, art.width, art.height)
    renderPDF.draw(art, c, 0, 0)
    c.endForm()
    c.beginForm("back", -BLEED, -BLEED, CARD_W + BLEED, CARD_H + BLEED)
    c.setFillColor(HexColor("#a31621"))
    c.rect(-BLEED, -BLEED, CARD_W + 2 * BLEED, CARD_H + 2 * BLEED, stroke=0, fill=1)
    place_art(c, art, 10 * mm, 25 * mm, 43 * mm, 43 * mm)
    c.endForm()
    c.beginForm("marks", 0, 0, 210 * mm, 297 * mm)
    c.setLineWidth(0.25)
    for col in range(4):
        x = LEFT + col * CARD_W
        c.line(x, 297 * mm - TOP + 2 * mm, x, 297 * mm - TOP + 7 * mm)
        c.line(x, 297 * mm - TOP - 3 * CARD_H - 2 * mm, x, 297 * mm - TOP - 3 * CARD_H - 7 * mm)
    for row in range(4):
        y = 297 * mm - TOP - row * CARD_H
        c.line(LEFT - 2 * mm, y, LEFT - 7 * mm, y)
        c.line(LEFT + 3 * CARD_W + 2 * mm, y, LEFT + 3 * CARD_W + 7 * mm, y)
    c.endForm()
    for sheet in range(0, len(cards), 9):
        batch = range(sheet, min(sheet + 9, len(cards)))
        for back in (False, True):
            c.doForm("marks")
            for i in batch:
                row, col = divmod(i - sheet, 3)
                if back:
                    col = 2 - col
                x, y = LEFT + col * CARD_W, 297 * mm - TOP - (row + 1) * CARD_H
                c.saveState()
                path = c.beginPath()
                path.rect(x, y, CARD_W, CARD_H)
                c.clipPath(path, stroke=0, fill=0)
                c.translate(x, y)
                if back:
                    c.doForm("back")
                else:
                    draw_front(c, art, cards[i], body)
                c.restoreState()
            c.showPage()
    c.save()


def draw_front(c: Canvas, art, card: dict, body: ParagraphStyle) -> None:
    c.setFillColor(HexColor("#1e88e5"))
    c.rect(-BLEED, -BLEED, CARD_W + 2 * BLEED, CARD_H + 2 * BLEED, stroke=0, fill=1)
    c.setFillColor(HexColor("#fff8ec"))
    c.setStrokeColor(HexColor("#2b2220"))
    c.setLineWidth(0.4 * mm)
    c.roundRect(3 * mm, 3 * mm, 57 * mm, 82 * mm, 2.5 * mm, stroke=1, fill=1)
    c.setFillColor(HexColor("#2b2220"))
    c.setFont("B", 14)
    c.drawCentredString(CARD_W / 2, CARD_H - 10.5 * mm, card["title"])
    place_art(c, art, 21.5 * mm, CARD_H - 32 * mm, 20 * mm, 18 * mm)
    paragraph = Paragraph(card["body"], body)
    _, height = paragraph.wrap(53 * mm, 51 * mm)
    paragraph.drawOn(c, 5 * mm, 4 * mm + (51 * mm - height) / 2)


def place_art(c: Canvas, art, x: float, y: float, width: float, height: float) -> None:
    scale = min(width / art.width, height / art.height)
    c.saveState()
    c.translate(x + (width - art.width * scale) / 2, y + (height - art.height * scale) / 2)
    c.scale(scale, scale)
    c.doForm("art")
    c.restoreState()


if __name__ == "__main__":
    main(*sys.argv[1:5])
