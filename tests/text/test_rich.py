from generator.text.rich import Fragment, parse_rich_text, plain_text


def test_bold_italic_and_escaped_stars():
    (paragraph,) = parse_rich_text("All **other** *players* \\*x")
    assert paragraph.fragments == (Fragment("All "), Fragment("other", bold=True), Fragment(" "),
                                   Fragment("players", italic=True), Fragment(" *x"))


def test_paragraphs_and_list_items():
    paragraphs = parse_rich_text("Intro\n- first\n2. second **bold *both***")
    assert [p.marker for p in paragraphs] == ["", "•", "2."]
    assert paragraphs[2].fragments[-1] == Fragment("both", bold=True, italic=True)
    assert plain_text("1. Roll **2** dice") == "1. Roll 2 dice"
