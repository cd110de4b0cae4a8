"""The protocol loop: handshake, run answers, skip, errors, bye, exec mode, stdout."""

import io
import subprocess
import sys
import textwrap

import pytest

from conform_adapter import Adapter, Skip, parse, serve


def make() -> Adapter:
    a = Adapter("t-harness", version="1.2.3", homepage="https://example.com")

    @a.op("retain.items")
    def retain(input):
        n = input["strategy"]["maxItems"]
        if not isinstance(n, int) or n < 0:
            raise ValueError("maxItems must be a non-negative integer")
        print("noise from the harness")  # must not reach stdout
        return {"items": input["items"][:n]}

    @a.op("spill.preview")
    def spill(input):
        raise Skip("no spill store")

    return a


def talk(adapter: Adapter, *lines: str) -> list:
    out = io.BytesIO()
    adapter.serve(io.BytesIO("".join(line + "\n" for line in lines).encode()), out)
    return [parse(x) for x in out.getvalue().decode().splitlines()]


def test_hello():
    [h] = talk(make(), '{"cmd":"hello","protocol":1}')
    assert h == {
        "protocol": 1,
        "implementation": {
            "name": "t-harness",
            "version": "1.2.3",
            "language": "python",
            "homepage": "https://example.com",
        },
        "ops": ["retain.items", "spill.preview"],
    }


def test_answers(capsys):
    answers = talk(
        make(),
        '{"cmd":"run","id":"a/1","op":"retain.items","input":{"strategy":{"maxItems":1e0},"items":[1,-0,"\\ud800"]}}',
        '{"cmd":"run","id":"a/2","op":"retain.items","input":{"strategy":{"maxItems":-1},"items":[]}}',
        '{"cmd":"run","id":"a/3","op":"spill.preview","input":{}}',
        '{"cmd":"run","id":"a/4","op":"grep.result","input":{}}',
        "",
        '{"cmd":"bye"}',
        '{"cmd":"run","id":"after-bye","op":"retain.items","input":{}}',
    )
    assert answers == [
        {"id": "a/1", "output": {"items": [1]}},
        {"id": "a/2", "error": {"message": "maxItems must be a non-negative integer"}},
        {"id": "a/3", "skip": "no spill store"},
        {"id": "a/4", "skip": "grep.result is not implemented"},
    ]
    err = capsys.readouterr().err
    assert "noise from the harness" in err and "Traceback" in err


def test_malformed_requests():
    answers = talk(
        make(), "not json", "[1]", '{"cmd":"run","op":"retain.items","input":{}}', '{"cmd":"dance","id":"x"}'
    )
    assert [a["error"]["message"][:22] for a in answers] == [
        "request is not JSON: '",
        "request is not a JSON ",
        'run request has no "id',
        "unknown cmd 'dance'",
    ]
    out = io.BytesIO()
    make().serve(io.BytesIO(b'{"cmd":"run","id":"u/1","op":"retain.items","input":{"a":"\xff"}}\n'), out)
    assert parse(out.getvalue()) == {"id": "u/1", "error": {"message": "request is not UTF-8: byte 58: FF 22 7D 7D"}}


def test_unknown_op_refused_at_registration():
    with pytest.raises(ValueError, match="unknown op 'grep'"):
        Adapter("x").add("grep", lambda i: {})


def test_adapter_bug_crashes_when_not_caught():
    a = Adapter("x", catch=(ValueError,))
    a.add("retain.items", lambda i: i["missing"])
    with pytest.raises(KeyError):
        talk(a, '{"cmd":"run","id":"a","op":"retain.items","input":{}}')


PROGRAM = textwrap.dedent(
    """
    from conform_adapter import serve
    serve({"retain.items": lambda i: {"n": len(i["items"])}}, "sub", version="0")
    """
)


def test_exec_mode_one_request_then_end_of_stdin():
    """A process per request: it answers and exits 0 at the end of stdin, flushing."""
    p = subprocess.run(
        [sys.executable, "-c", PROGRAM],
        input=b'{"cmd":"run","id":"e/1","op":"retain.items","input":{"items":[1,2]}}',  # no final newline
        capture_output=True,
        timeout=60,
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout == b'{"id":"e/1","output":{"n":2}}\n'


def test_persistent_mode_answers_before_the_next_request():
    """Each answer is flushed before the next request is written."""
    p = subprocess.Popen([sys.executable, "-c", PROGRAM], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        for i in range(3):
            p.stdin.write(b'{"cmd":"run","id":"p/%d","op":"retain.items","input":{"items":[]}}\n' % i)
            p.stdin.flush()
            assert parse(p.stdout.readline()) == {"id": f"p/{i}", "output": {"n": 0}}
        p.stdin.write(b'{"cmd":"bye"}\n')
        p.stdin.flush()
        assert p.wait(timeout=60) == 0
        assert p.stdout.read() == b""
    finally:
        p.kill()


def test_serve_function_registers_dict():
    assert callable(serve)
