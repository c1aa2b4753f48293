"""Text: fonts with per-glyph fallback, rich text, wrapping, hyphenation, fit-to-box."""
