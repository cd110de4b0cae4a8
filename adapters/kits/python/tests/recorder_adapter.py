"""Records every run request line conform sends (raw bytes, one per line) to
the file named by argv[1] and answers skip: the kit tests read the inputs
exactly as conform splices them from the fixtures."""

import sys

from conform_adapter import OPS, Adapter, Skip

out = open(sys.argv[1], "ab")  # noqa: SIM115 - open for the whole run
adapter = Adapter("recorder")
real_answer = adapter.answer


def answer(line: bytes):
    if b'"cmd":"run"' in line:
        out.write(line + b"\n")
        out.flush()
    return real_answer(line)


def skip(_input):
    raise Skip("recording only")


adapter.answer = answer
for op in OPS:
    adapter.add(op, skip)
adapter.serve()
