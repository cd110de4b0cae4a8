"""Example adapter: the idiomatic Python port (testdata/ports/python) served
to conform through the kit. Run it with

    conform run --adapter 'python adapters/kits/python/examples/port_adapter.py'
"""

import sys
from pathlib import Path

from conform_adapter import Adapter

sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "testdata" / "ports" / "python"))
import dsh_port  # found through the path above

adapter = Adapter("dsh-port-python", version="0.1.0", homepage="testdata/ports/python")
for op, fn in dsh_port.OPS.items():
    adapter.add(op, fn)

if __name__ == "__main__":
    adapter.serve()
