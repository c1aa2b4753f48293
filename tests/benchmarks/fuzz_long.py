"""The long fuzz run: the robustness tests with 2,000 examples each (the normal suite runs 150).

Run: python tests/benchmarks/fuzz_long.py [EXAMPLES]
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

if __name__ == "__main__":
    examples = sys.argv[1] if len(sys.argv) > 1 else "2000"
    environment = {**os.environ, "PNP_FUZZ_EXAMPLES": examples}
    sys.exit(subprocess.call([sys.executable, "-m", "pytest", "-q", "tests/robustness/test_hostile_input.py",
                              "-k", "random"],
                             cwd=ROOT, env=environment))
