"""The adapter loop of conform's protocol v1 (docs/protocol.md).

One JSON request per stdin line, one JSON answer per stdout line, flushed at
once. The loop answers ``hello`` with the implementation and the registered
ops, ``run`` with the op function's output (or the protocol's ``error`` answer
for the exception it raised, or ``skip`` for :class:`Skip` and for an op that
is not registered), and returns on ``bye`` or at the end of stdin, which makes
the same program work in persistent and in exec mode.
"""

from __future__ import annotations

import contextlib
import sys
import traceback
from collections.abc import Callable
from typing import Any, BinaryIO

from . import jsonjs

__all__ = ["OPS", "Adapter", "Skip", "serve"]

PROTOCOL = 1

#: Every op of protocol v1 (``conform ops``).
OPS = (
    "glob.result",
    "grep.result",
    "retain.items",
    "retain.text",
    "run_code.result",
    "search.present",
    "spill.preview",
)

OpFunction = Callable[[Any], Any]


class Skip(Exception):  # noqa: N818 - it is an answer, not an error
    """Raise in an op function to answer ``skip`` with this reason."""


class Adapter:
    """A harness's ops behind conform's protocol.

    >>> adapter = Adapter("my-harness", version="1.0.0")
    >>> @adapter.op("retain.items")
    ... def retain_items(input):
    ...     ...
    >>> adapter.serve()  # doctest: +SKIP

    ``lexemes=True`` hands every number of the input to the op functions as a
    :class:`conform_adapter.Number` (its source text and its double) instead
    of an ``int``/``float``. ``catch`` is the exception types turned into
    ``error`` answers (the harness threw); any other exception crashes the
    adapter, which conform reports with the traceback from stderr.
    """

    def __init__(
        self,
        name: str,
        *,
        version: str = "",
        language: str = "python",
        homepage: str = "",
        lexemes: bool = False,
        catch: tuple[type[BaseException], ...] = (Exception,),
    ) -> None:
        if not name:
            raise ValueError("the implementation name must not be empty")
        self.implementation = {"name": name, "version": version, "language": language, "homepage": homepage}
        self.lexemes = lexemes
        self.catch = catch
        self.ops: dict[str, OpFunction] = {}

    def op(self, name: str) -> Callable[[OpFunction], OpFunction]:
        """Decorator: register ``fn(input) -> output`` for the op ``name``."""

        def register(fn: OpFunction) -> OpFunction:
            self.add(name, fn)
            return fn

        return register

    def add(self, name: str, fn: OpFunction) -> None:
        """Register ``fn`` for the op ``name`` (one of :data:`OPS`)."""
        if name not in OPS:
            raise ValueError(f"unknown op {name!r}; the ops are {', '.join(OPS)}")
        self.ops[name] = fn

    # ------------------------------------------------------------ one line

    def answer(self, line: bytes) -> str | None:
        """The answer line (without its newline) to one request line; None for bye."""
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as e:
            rid = _id_of(line.decode("utf-8", "replace"))
            return _error(rid, f"request is not UTF-8: byte {e.start}: {line[e.start : e.start + 4].hex(' ').upper()}")
        try:
            req = jsonjs.parse(text, lexemes=self.lexemes)
        except jsonjs.JSONError as e:
            return _error(None, f"request is not JSON: {text[:80]!r} ({e})")
        if not isinstance(req, dict):
            return _error(None, f"request is not a JSON object: {text[:80]!r}")
        rid = req.get("id") if isinstance(req.get("id"), str) else None
        cmd = req.get("cmd")
        if cmd == "hello":
            return jsonjs.stringify(
                {"protocol": PROTOCOL, "implementation": self.implementation, "ops": list(self.ops)}
            )
        if cmd == "bye":
            return None
        if cmd != "run":
            return _error(rid, f"unknown cmd {cmd!r}" if isinstance(cmd, str) else 'request has no "cmd" string')
        if rid is None:
            return _error(None, 'run request has no "id" string')
        op = req.get("op")
        if not isinstance(op, str):
            return _error(rid, 'run request has no "op" string')
        if not isinstance(req.get("input"), dict):
            return _error(rid, 'run request has no "input" object')
        fn = self.ops.get(op)
        if fn is None:
            return jsonjs.stringify({"id": rid, "skip": f"{op} is not implemented"})
        try:
            output = fn(req["input"])
        except Skip as s:
            return jsonjs.stringify({"id": rid, "skip": str(s)})
        except self.catch as e:
            traceback.print_exc(file=sys.stderr)
            return _error(rid, message_of(e))
        if not isinstance(output, dict):
            return _error(rid, f"harness output is not a JSON object: {type(output).__name__}")
        return jsonjs.stringify({"id": rid, "output": output})

    # ------------------------------------------------------------ the loop

    def serve(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Answer requests until ``bye`` or the end of stdin.

        While it runs, ``sys.stdout`` is redirected to stderr, so a stray
        ``print`` in the harness cannot break the exchange.
        """
        inp = stdin if stdin is not None else sys.stdin.buffer
        out = stdout if stdout is not None else sys.stdout.buffer
        with contextlib.redirect_stdout(sys.stderr):
            for line in inp:
                if not line.strip():
                    continue  # a blank line is not a request
                answer = self.answer(line.rstrip(b"\r\n"))
                if answer is None:
                    break
                out.write(answer.encode("utf-8") + b"\n")
                out.flush()


def message_of(e: BaseException) -> str:
    """The message JavaScript's ``e.message`` would be: ``str(e)``, but a
    ``KeyError``'s key without the quotes ``str`` adds."""
    if isinstance(e, KeyError) and len(e.args) == 1 and isinstance(e.args[0], str):
        return e.args[0]
    return str(e)


def _error(rid: str | None, message: str) -> str:
    answer: dict[str, Any] = {} if rid is None else {"id": rid}
    answer["error"] = {"message": message}
    return jsonjs.stringify(answer)


def _id_of(text: str) -> str | None:
    try:
        req = jsonjs.parse(text)
    except jsonjs.JSONError:
        return None
    rid = req.get("id") if isinstance(req, dict) else None
    return rid if isinstance(rid, str) else None


def serve(
    ops: dict[str, OpFunction],
    name: str,
    *,
    version: str = "",
    language: str = "python",
    homepage: str = "",
    lexemes: bool = False,
) -> None:
    """Serve a dict of op functions: ``serve({"retain.items": f}, "my-harness")``."""
    adapter = Adapter(name, version=version, language=language, homepage=homepage, lexemes=lexemes)
    for op, fn in ops.items():
        adapter.add(op, fn)
    adapter.serve()
