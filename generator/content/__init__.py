"""Load stage: YAML files of a game folder into a validated, immutable model."""
