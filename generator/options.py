"""What a build is asked for: editions, languages, papers and print options (the CLI's flags, typed)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class BuildOptions:
    editions: tuple[str, ...] | None = None
    languages: tuple[str, ...] | None = None
    papers: tuple[str, ...] = ("a4", "letter")
    out: Path = Path("output")
    duplex: str = "long-edge"
    gap: float = 0.0
    back_offset: tuple[float, float] = (0.0, 0.0)   # mm, from `pnp calibrate`
    allow_fallback: bool = False
    copies: int = 1                 # pages of each player sheet
    check_only: bool = False
    print_shop: bool = True
    print_shop_png: bool = True
    kit: bool = True                # kit.pdf: everything again in one file
    force: bool = False             # rebuild targets whose inputs have not changed
    jobs: int = 1                   # worker processes for writing targets (pnp build uses every core)
    shop: str = "generic"           # print-shop preset: generic, mpc, tgc, drivethrucards
    layout: str = "duplex"          # or 'gutterfold': fronts and backs side by side, folded
    color: str = "rgb"              # or 'cmyk': every colour separated, total ink limited
    ink_limit: float = 3.0          # 300 %
