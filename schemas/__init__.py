"""JSON Schemas of the content files: shipped inside the pnp package as generator.shared_schemas (see pyproject.toml)."""
