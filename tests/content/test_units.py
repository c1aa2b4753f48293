import pytest

from generator.units import parse_font_size, parse_length


@pytest.mark.parametrize("value, mm", [
    ("63mm", 63.0), ("2.5in", 63.5), ("1cm", 10.0), ("72pt", 25.4), (88, 88.0), ("-3mm", -3.0), (" 4 mm ", 4.0),
])
def test_lengths_convert_to_millimetres(value, mm):
    assert parse_length(value) == pytest.approx(mm)


def test_font_sizes_default_to_points():
    assert parse_font_size(9) == pytest.approx(9.0)
    assert parse_font_size("9pt") == pytest.approx(9.0)
    assert parse_font_size("1in") == pytest.approx(72.0)


@pytest.mark.parametrize("bad", ["63 px", "abc", True, None, "mm"])
def test_bad_lengths_say_what_is_expected(bad):
    with pytest.raises(ValueError, match="expected a length such as 63mm"):
        parse_length(bad)
