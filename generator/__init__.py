"""pnp: turn a game described in YAML into print-ready PDFs."""

__version__ = "0.1.0"
