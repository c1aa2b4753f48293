"""pnp: turn a game described in YAML into print-ready PDFs."""

from generator import bytecode as _bytecode

__version__ = "0.1.0"

# where Python writes no bytecode (PYTHONDONTWRITEBYTECODE), pnp's own modules are compiled once
# into pnp's cache folder, not again in every command (generator/bytecode.py)
_bytecode.install()
