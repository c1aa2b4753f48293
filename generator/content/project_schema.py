"""The shape of a project file, pnp.yaml (see generator/project.py), as a pydantic model."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BeforeValidator, Field

from generator.content.schema import ID_PATTERN, LANG_PATTERN, Strict, length_json
from generator.options import MAX_MARGIN, Duplex, choices
from generator.print_facts import Paper
from generator.units import length_in

MAX_BACK_OFFSET = 10.0     # mm: more is a misreading of the calibration sheet (as --back-offset)

Offset = Annotated[float, BeforeValidator(length_in(-MAX_BACK_OFFSET, MAX_BACK_OFFSET, what="a back offset")),
                   length_json()]
Margin = Annotated[float, BeforeValidator(length_in(0.0, MAX_MARGIN, what="a printer margin")),
                   length_json()]
Name = Annotated[str, Field(pattern=ID_PATTERN)]

if TYPE_CHECKING:       # a validated value is one of the strings below: a str to the type checker
    PaperName = str
    DuplexName = str
else:                   # the options' Enum values, checked (and offered to editors) as a Literal
    PaperName = Literal[tuple(choices(Paper))]
    DuplexName = Literal[tuple(choices(Duplex))]


class PrinterProfile(Strict):
    """A printer: the back offset `pnp calibrate` measured, its unprintable margin, how it flips."""

    back_offset: tuple[Offset, Offset] | None = Field(
        None, description="X, Y in mm that every back page moves (read from `pnp calibrate`), such as [1.5, -0.5].")
    margin: Margin | None = Field(None, description="What the printer cannot print at the paper's edge, such as 5mm.")
    duplex: DuplexName | None = Field(None, description="How the printer flips the sheet.")


class ProjectFile(Strict):
    """pnp.yaml at a project's root: where its games are, and the defaults of every command."""

    games: list[str] = Field(["content"], description="Folders holding game folders (or game folders), "
                             "relative to pnp.yaml.")
    templates: str | None = Field(None, description="The project's shared templates folder: looked in after a "
                                  "game's own templates/ and before pnp's.")
    output: str | None = Field(None, description="The output folder (default: output).")
    papers: list[PaperName] | None = Field(None, description="Default papers.")
    languages: list[Annotated[str, Field(pattern=LANG_PATTERN)]] | None = Field(
        None, description="Default languages (each game builds those of them it has).")
    editions: list[Name] | None = Field(None, description="Default editions.")
    printer: Name | None = Field(None, description="The printer profile used when --printer is not given.")
    printers: dict[Name, PrinterProfile] = Field({}, description="Named printer profiles, for --printer NAME.")
