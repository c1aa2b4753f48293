"""What a build is asked for: editions, languages, papers and print options (the CLI's flags, typed).

Each option with a fixed set of values is one Enum here (papers: print_facts.Paper): BuildOptions holds its
members and the CLI offers its values (`choices`). They are StrEnums, so a value compares equal to its text
and is written as that text (in paths, messages and the build digest).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path

from generator.print_facts import INK_LIMIT, PAPERS, PRINTABLE_MARGIN, Paper
from generator.print_facts import MAX_PRINTABLE_MARGIN as MAX_MARGIN  # noqa: F401  (the CLI's and pnp.yaml's bound)


class Duplex(StrEnum):
    """How the printer flips the sheet for the back side (--duplex)."""

    LONG_EDGE = "long-edge"
    SHORT_EDGE = "short-edge"


class Shop(StrEnum):
    """Print-shop preset (--shop): card sizes, bleed and page order (imposition/single.py SHOP_PRESETS)."""

    GENERIC = "generic"
    MPC = "mpc"
    TGC = "tgc"
    DRIVETHRUCARDS = "drivethrucards"


class Layout(StrEnum):
    """How home card sheets are laid out (--layout): backs on the next page, or beside the fronts to fold."""

    DUPLEX = "duplex"
    GUTTERFOLD = "gutterfold"


class Color(StrEnum):
    """The colour space of the PDFs (--color): RGB, or every colour separated to CMYK within the ink limit."""

    RGB = "rgb"
    CMYK = "cmyk"


class PdfX(StrEnum):
    """The PDF/X standard of print-shop files (--pdfx): PDF/X-4 or PDF/X-1a:2003."""

    X4 = "4"
    X1A = "1a"


class CutFormat(StrEnum):
    """Cut files per home sheet (--cut): files only (svg, dxf), or files and the machine's marks."""

    SVG = "svg"
    DXF = "dxf"
    SILHOUETTE = "silhouette"
    CRICUT = "cricut"


def choices(option: type[StrEnum]) -> list[str]:
    """An option's values as the command line takes them, in the Enum's order (for click.Choice)."""
    return [member.value for member in option]


# what `pnp build --only` selects, each a file (or the print-shop PNGs) of the output contract
OUTPUTS = ("cards", "ink-saver", "tokens", "pawns", "board", "sheets", "rules", "booklet", "kit", "print-shop", "png")


@dataclass(frozen=True)
class BuildOptions:
    """What one build is asked for: editions, languages, papers and outputs (None: all there are), and how
    its pages are laid out and printed."""

    editions: tuple[str, ...] | None = None
    languages: tuple[str, ...] | None = None
    papers: tuple[Paper, ...] = PAPERS
    out: Path = Path("output")
    duplex: Duplex = Duplex.LONG_EDGE
    gap: float | None = None        # mm between pieces; None: 2 for full-bleed sets, 0 otherwise (imposition)
    margin: float = PRINTABLE_MARGIN    # mm along the paper's edge the printer leaves blank: marks stay inside
    back_offset: tuple[float, float] = (0.0, 0.0)   # mm, from `pnp calibrate`
    allow_fallback: bool = False
    copies: int = 1                 # pages of each player sheet
    check_only: bool = False
    print_shop: bool = True
    print_shop_png: bool = True
    kit: bool = True                # kit.pdf: everything again in one file
    force: bool = False             # rebuild targets whose inputs have not changed
    jobs: int = 1                   # worker processes for writing targets (pnp build uses every core)
    shop: Shop = Shop.GENERIC
    layout: Layout = Layout.DUPLEX
    color: Color = Color.RGB
    ink_limit: float = INK_LIMIT    # total ink of a CMYK colour, 3.0 = 300 %
    only: frozenset[str] | None = None      # outputs to build (OUTPUTS); None: all of them
    templates: Path | None = None   # the project's shared templates (pnp.yaml), between a game's and pnp's
    pdfx: PdfX | None = None        # PDF/X print-shop files; None: plain PDF
    icc: Path | None = None         # the CMYK output profile for --pdfx (None: pnp's own, render/icc_profile.py)
    icc_digest: str = ""            # its SHA-256: an edited profile rebuilds the targets (incremental.py)
    cut: CutFormat | None = None    # cut files per home sheet (imposition/cut.py)

    def wants(self, output: str) -> bool:
        """Whether this build makes `output` (one of OUTPUTS)."""
        return self.only is None or output in self.only

    def coverage(self) -> frozenset[str]:
        """The parts of a target this build makes, as `coverage_of` names them: each paper's home outputs
        and the paper-free ones. A build replaces (and may remove) files of these parts only: an A4
        build leaves the Letter files, an --only cards build the rules."""
        outputs = OUTPUTS if self.only is None else tuple(self.only)
        parts = {output for output in outputs if output in PAPER_FREE_OUTPUTS}
        parts |= {f"{paper}/{output}" for paper in self.papers for output in outputs
                  if output not in PAPER_FREE_OUTPUTS}
        if self.only is None:           # files of no named output (older engines' names) go with a whole build
            parts |= {f"{paper}/" for paper in self.papers} | {""}
        return frozenset(parts)


PAPER_FREE_OUTPUTS = ("print-shop", "png")      # made once per target, whatever the papers


def output_of(name: str) -> str | None:
    """Which of OUTPUTS a file of a target is, by its path under the target's folder ('a4/cards.pdf' → cards)."""
    parts = name.split("/")
    if len(parts) == 3 and parts[1] == "cut":     # a4/cut/cards-1.svg: made with its home file
        stem = parts[2].rsplit("-", 1)[0]
        return {"cards-ink-saver": "ink-saver"}.get(stem, stem if stem in OUTPUTS else None)
    if parts[0] == "print-shop":
        return "png" if len(parts) > 1 and parts[1] == "png" else "print-shop"
    stem = parts[-1].removesuffix(".pdf")
    return {"cards-ink-saver": "ink-saver", "rules-booklet": "booklet"}.get(stem, stem if stem in OUTPUTS else None)


def coverage_of(name: str) -> str:
    """The part of a target a file of it belongs to ('a4/cards.pdf' → 'a4/cards', 'print-shop/png/x.png'
    → 'png'; a file of no known output: 'a4/' under a paper's folder, else '')."""
    output = output_of(name)
    if output in PAPER_FREE_OUTPUTS:
        return output
    paper = name.split("/", 1)[0]
    if paper not in PAPERS or "/" not in name:
        return ""
    return f"{paper}/{output or ''}"


def with_print_options(options: BuildOptions, pdfx: str | None, icc: str | None, cut: str | None) -> BuildOptions:
    """The build's PDF/X and cut options, checked: an --icc profile must be a readable CMYK profile (and is
    only for --pdfx), --cut needs the duplex layout (a gutterfold sheet's halves are folded, not cut apart).
    Raises ValueError with the message a user reads."""
    if icc is not None and pdfx is None:
        raise ValueError("--icc is the output profile of PDF/X files: give --pdfx 4 or --pdfx 1a with it")
    if cut is not None and options.layout == "gutterfold":
        raise ValueError("--cut cuts single-sided sheets of fronts: use it with --layout duplex")
    profile = Path(icc) if icc is not None else None
    if pdfx is not None:
        from generator.render.pdfx import output_separation      # Pillow: only when PDF/X is asked for
        from generator.render.separation import ProfileError
        try:
            digest = output_separation(profile).digest
        except ProfileError as error:
            raise ValueError(f"--icc {icc}: {error}") from None
        options = replace(options, icc_digest=digest)
    return replace(options, pdfx=PdfX(pdfx) if pdfx is not None else None, icc=profile.resolve() if profile else None,
                   cut=CutFormat(cut) if cut is not None else None)
