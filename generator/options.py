"""What a build is asked for: editions, languages, papers and print options (the CLI's flags, typed).

Each option with a fixed set of values is one Enum here (papers: print_facts.Paper): BuildOptions holds its
members and the CLI offers its values (`choices`). They are StrEnums, so a value compares equal to its text
and is written as that text (in paths, messages and the build digest).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType

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


@dataclass(frozen=True)
class Output:
    """One output of the contract (docs/output-contract.md), as `pnp build --only` selects it."""

    name: str                   # as --only names it
    stem: str | None            # its file's name under a paper's folder, without .pdf; None: the print shop's
    home: bool                  # a home-print file (what `pnp serve` builds), or the print shop's

    @property
    def per_paper(self) -> bool:
        """Made once per paper (under a4/, letter/): home files are laid out on a sheet of paper; the print
        shop's are cut to the pieces' size, made once per target whatever the papers."""
        return self.home


# Every output, in the order `--only`'s help lists them. The lists below and write.py's are derived from it.
OUTPUT_TABLE: tuple[Output, ...] = (
    Output("cards", "cards", home=True),
    Output("ink-saver", "cards-ink-saver", home=True),      # the cards again, with backs that spare ink
    Output("tokens", "tokens", home=True),
    Output("pawns", "pawns", home=True),
    Output("board", "board", home=True),
    Output("sheets", "sheets", home=True),
    Output("rules", "rules", home=True),
    Output("booklet", "rules-booklet", home=True),
    Output("kit", "kit", home=True),
    Output("print-shop", None, home=False),                  # print-shop/*.pdf
    Output("png", None, home=False),                         # print-shop/png/*.png
)
OUTPUTS = tuple(output.name for output in OUTPUT_TABLE)             # what `pnp build --only` selects
HOME_OUTPUTS = frozenset(output.name for output in OUTPUT_TABLE if output.home)
PAPER_FREE_OUTPUTS = tuple(output.name for output in OUTPUT_TABLE if not output.per_paper)
# a home file's stem → its output ('cards-ink-saver' → 'ink-saver'); a file named as an output is that output
OUTPUT_OF_STEM: Mapping[str, str] = MappingProxyType(
    {**{output.name: output.name for output in OUTPUT_TABLE},
     **{output.stem: output.name for output in OUTPUT_TABLE if output.stem is not None}})


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
    overflow_warns: bool = False    # text too long for its box is a warning, drawn as it overflows (pnp serve)
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


def output_of(name: str) -> str | None:
    """Which of OUTPUTS a file of a target is, by its path under the target's folder ('a4/cards.pdf' → cards)."""
    parts = name.split("/")
    if len(parts) == 3 and parts[1] == "cut":     # a4/cut/cards-1.svg: made with its home file
        return OUTPUT_OF_STEM.get(parts[2].rsplit("-", 1)[0])
    if parts[0] == "print-shop":
        return "png" if len(parts) > 1 and parts[1] == "png" else "print-shop"
    return OUTPUT_OF_STEM.get(parts[-1].removesuffix(".pdf"))


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
    """The build's PDF/X and cut options, checked: an --icc profile is only for --pdfx, --cut needs the duplex
    layout (a gutterfold sheet's halves are folded, not cut apart). Raises ValueError with the message a user
    reads. Whether the profile is a readable CMYK one (and its digest) is the command's to find out, which
    may load the render stage (cli_options.print_options)."""
    if icc is not None and pdfx is None:
        raise ValueError("--icc is the output profile of PDF/X files: give --pdfx 4 or --pdfx 1a with it")
    if cut is not None and options.layout == "gutterfold":
        raise ValueError("--cut cuts single-sided sheets of fronts: use it with --layout duplex")
    return replace(options, pdfx=PdfX(pdfx) if pdfx is not None else None,
                   icc=Path(icc).resolve() if icc is not None else None,
                   cut=CutFormat(cut) if cut is not None else None)
