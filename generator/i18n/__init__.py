"""Translations: one catalog per language, CLDR plurals, {name} placeholders."""
