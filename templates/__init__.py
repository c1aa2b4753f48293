"""Shared templates: shipped inside the pnp package as generator.shared_templates (see pyproject.toml)."""
