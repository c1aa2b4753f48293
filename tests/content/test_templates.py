"""Template inheritance: several parents merged in order, the child wins, cycles are errors."""

from pathlib import Path

from generator.content.templates import TemplateLibrary, deep_merge
from generator.errors import Problems


def _library(tmp_path: Path, files: dict[str, str]) -> tuple[TemplateLibrary, Problems]:
    folder = tmp_path / "game" / "templates"
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / f"{name}.yaml").write_text(text)
    problems = Problems()
    return TemplateLibrary(tmp_path / "game", problems), problems


def test_deep_merge_merges_mappings_and_replaces_everything_else():
    merged = deep_merge({"a": {"x": 1, "y": 2}, "l": [1, 2]}, {"a": {"y": 3}, "l": [9]})
    assert merged == {"a": {"x": 1, "y": 3}, "l": [9]}


def test_several_parents_merge_left_to_right_and_the_child_wins(tmp_path):
    library, problems = _library(tmp_path, {
        "size": "size: {width: 63mm, height: 88mm}\nbleed: 3mm\npalette: {ink: '#111111', paper: '#eeeeee'}\n",
        "dark": "palette: {ink: '#000000'}\nstyles: {body: {size: 9pt, color: ink}}\n",
        "card": "extends: [size, dark]\nstyles: {body: {size: 10pt}}\n"
                "boxes: {t: {kind: text, text: k, x: 5, y: 5, width: 10, height: 10, style: body}}\n",
    })
    template = library.resolve("card")
    assert not problems.items
    model = template.model
    assert (model.size.width, model.bleed) == (63.0, 3.0)
    assert model.palette == {"ink": "#000000", "paper": "#eeeeee"}      # the later parent wins
    assert (model.styles["body"].size, model.styles["body"].color) == (10.0, "ink")   # the child wins
    assert [doc.file.stem for doc in template.chain] == ["card", "size", "dark"]


def test_a_cycle_is_an_error_naming_the_loop(tmp_path):
    library, problems = _library(tmp_path, {"a": "extends: b\n", "b": "extends: a\n"})
    assert library.resolve("a") is None
    assert "template cycle: a → b → a" in str(problems.errors[0])
