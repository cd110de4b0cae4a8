"""The reference behind the kit: every op forwards to a persistent
``conform adapter`` (the embedded reference) and returns what it answers.

Inputs are read with ``lexemes=True`` and forwarded with their number texts
(``-0``, ``1e400`` reach the reference as conform sent them); outputs are read
with the default numbers and written by the kit's writer, so both directions
of the kit's JSON are on the path. Run: ``python reference_adapter.py CONFORM``.
"""

import shlex
import subprocess
import sys

from conform_adapter import OPS, Adapter, Skip, parse, stringify


class ReferenceError_(Exception):  # noqa: N801, N818
    """The reference threw: its message is the answer's."""


def main() -> None:
    conform = shlex.split(sys.argv[1]) if len(sys.argv) > 1 else ["conform"]
    ref = subprocess.Popen([*conform, "adapter"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    adapter = Adapter("conform reference via conform_adapter", version="test", lexemes=True)

    def forward(op):
        def run(input):
            line = stringify({"cmd": "run", "id": "k", "op": op, "input": input}, keep_lexemes=True)
            ref.stdin.write(line.encode("utf-8") + b"\n")
            ref.stdin.flush()
            answer = parse(ref.stdout.readline())
            if "output" in answer:
                return answer["output"]
            if "skip" in answer:
                raise Skip(answer["skip"])
            raise ReferenceError_(answer["error"]["message"])

        return run

    for op in OPS:
        adapter.add(op, forward(op))
    adapter.serve()
    ref.stdin.close()
    ref.wait()


if __name__ == "__main__":
    main()
