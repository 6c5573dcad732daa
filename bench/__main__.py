"""Dispatch: `python -m bench attention` runs bench/attention.py, and so on."""

import importlib
import pkgutil
import sys
from pathlib import Path

names = sorted(m.name for m in pkgutil.iter_modules([str(Path(__file__).parent)]) if not m.name.startswith("_"))
if len(sys.argv) < 2 or sys.argv[1] not in names:
    print(f"usage: python -m bench {{{'|'.join(names)}}} [options]", file=sys.stderr)
    sys.exit(2)
module = importlib.import_module(f"bench.{sys.argv[1]}")
sys.exit(module.main(sys.argv[2:]))
