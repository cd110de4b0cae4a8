"""The kit's JSON reader and writer: JavaScript's JSON.parse/JSON.stringify."""

import json
import math
import re
import shutil
import subprocess

import pytest

from conform_adapter import JSONError, Number, number_to_string, parse, stringify

# ---------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    ("x", "js"),
    [
        (0.0, "0"),
        (-0.0, "0"),
        (1.0, "1"),
        (100.0, "100"),
        (0.1, "0.1"),
        (0.5, "0.5"),
        (0.001, "0.001"),
        (0.000001, "0.000001"),
        (1e-7, "1e-7"),
        (1.5e-7, "1.5e-7"),
        (123.456, "123.456"),
        (1e20, "100000000000000000000"),
        (1e21, "1e+21"),
        (1.2345e21, "1.2345e+21"),
        (123456789012345680000.0, "123456789012345680000"),
        (2.0**53, "9007199254740992"),
        (2**53 + 1, "9007199254740992"),  # an int is rounded to a double first
        (2**63, "9223372036854776000"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (-1.5, "-1.5"),
        (-1e-7, "-1e-7"),
        (1 / 3, "0.3333333333333333"),
    ],
)
def test_number_to_string(x, js):
    assert number_to_string(x) == js


def test_non_finite():
    assert number_to_string(math.inf) == "Infinity"
    assert number_to_string(math.nan) == "NaN"
    assert stringify([math.inf, -math.inf, math.nan, 10**400]) == "[null,null,null,null]"


def test_numbers_read_as_json_parse():
    v = parse("[1e2,2.0,9007199254740993,-0,1e400,1.5,0]")
    assert v == [100, 2, 9007199254740992, 0, math.inf, 1.5, 0]
    assert [type(x) for x in v] == [int, int, int, float, float, float, int]
    assert math.copysign(1, v[3]) == -1
    assert stringify(v) == "[100,2,9007199254740992,0,null,1.5,0]"


def test_lexemes():
    v = parse('{"a":1e2,"b":-0,"c":9007199254740993}', lexemes=True)
    assert isinstance(v["a"], Number) and v["a"].lexeme == "1e2" and v["a"].value == 100.0
    assert v["c"] == 9007199254740992
    assert stringify(v, keep_lexemes=True) == '{"a":1e2,"b":-0,"c":9007199254740993}'
    assert stringify(v) == '{"a":100,"b":0,"c":9007199254740992}'


# ---------------------------------------------------------------- strings


def test_lone_surrogates_kept_and_escaped():
    v = parse('["\\ud800","\\udfff\\ud800","\\ud83d\\ude00","\\u00e9"]')
    assert v == ["\ud800", "\udfff\ud800", "\U0001f600", "é"]
    assert stringify(v) == '["\\ud800","\\udfff\\ud800","\U0001f600","é"]'
    # a pair built from two halves is one character in JavaScript
    assert stringify("\ud83d" + "\ude00") == '"\U0001f600"'


def test_escaping_as_json_stringify():
    s = '"\\\b\f\n\r\t\x00\x1f\x7f<>&\u2028\u2029/é'
    assert stringify(s) == '"\\"\\\\\\b\\f\\n\\r\\t\\u0000\\u001f\x7f<>&\u2028\u2029/é"'
    assert parse(stringify(s)) == s


# ---------------------------------------------------------------- objects


def test_duplicate_keys_first_position_last_value():
    assert list(parse('{"a":1,"b":2,"a":3}').items()) == [("a", 3), ("b", 2)]


def test_index_keys_first():
    v = parse('{"b":1,"10":2,"2":3,"4294967295":4,"01":5,"4294967294":6}')
    assert list(v) == ["2", "10", "4294967294", "b", "4294967295", "01"]
    assert stringify({"z": 1, "1": 2, "0": 3}) == '{"0":3,"1":2,"z":1}'


# ---------------------------------------------------------------- depth


def test_deep_values_without_recursion():
    deep = "[" * 100_000 + "]" * 100_000
    assert stringify(parse(deep)) == deep
    obj = '{"a":' * 100_000 + "1" + "}" * 100_000
    assert stringify(parse(obj)) == obj


@pytest.mark.parametrize(
    "bad",
    ["", "[1,]", '{"a"}', "[1 2]", "01", "1.", ".5", "+1", '["\x01"]', '"\\x"', "NaN", "[1]x", '"\\ud8"', "\ufeff1"],
)
def test_refuses_what_json_parse_refuses(bad):
    with pytest.raises(JSONError):
        parse(bad)


# ---------------------------------------------------------------- every case input


def _node_round_trips(raws: list[bytes]) -> list[bytes | None]:
    """JSON.stringify(JSON.parse(raw)) by node for each input; None where node throws."""
    script = (
        "const out=[];for(const l of require('fs').readFileSync(0,'utf8').split('\\n')){if(!l)continue;"
        "try{out.push(Buffer.from(JSON.stringify(JSON.parse(l))).toString('base64'))}catch(e){out.push('!')}}"
        "process.stdout.write(out.join('\\n'))"
    )
    p = subprocess.run(["node", "-e", script], input=b"\n".join(raws) + b"\n", capture_output=True, check=True)
    import base64

    return [None if x == b"!" else base64.b64decode(x) for x in p.stdout.split(b"\n")]


# an escape JSON.stringify would not write: \/ or \u other than a control or a lone surrogate
_ODD_ESCAPE = re.compile(rb"\\(?:/|u(?!00[01][0-9a-f]|d[89a-f][0-9a-f]{2}))")


def _plain_object_keys(raw: bytes) -> bool:
    """No duplicate key and no index key out of order (where JSON.stringify
    would move or drop members); None-safe for what Python's json cannot read."""
    ok = True

    def hook(pairs):
        nonlocal ok
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys) or keys != list(parse("{" + ",".join(json.dumps(k) + ":0" for k in keys) + "}")):
            ok = False
        return dict(pairs)

    try:
        json.loads(raw, object_pairs_hook=hook)
    except RecursionError:
        return True  # only the 100,000-deep inputs, which are arrays or single-key chains
    return ok


@pytest.mark.skipif(shutil.which("node") is None, reason="node is the JSON.parse/JSON.stringify oracle")
def test_every_case_input_round_trips(case_inputs):
    raws = [raw for _, raw in case_inputs]
    want = _node_round_trips(raws)
    assert len(want) == len(raws)
    checked_by_node = exact = 0
    for (cid, raw), js in zip(case_inputs, want, strict=True):
        lossless = stringify(parse(raw, lexemes=True), keep_lexemes=True).encode()
        if js is None:  # node's own recursion limit (the 100,000-deep cases)
            assert lossless == raw, cid
            continue
        checked_by_node += 1
        # as JavaScript reads and writes it, byte for byte
        assert stringify(parse(raw)).encode() == js, cid
        # with number lexemes: the same value for JavaScript, and the input
        # itself unless JavaScript reorders or drops members or the input
        # spells an escape another way than JSON.stringify (\u10FF, \/)
        assert stringify(parse(lossless)).encode() == js, cid
        if _plain_object_keys(raw) and not _ODD_ESCAPE.search(raw):
            assert lossless == raw, cid
            exact += 1
    assert checked_by_node > 700
    assert exact > 700


def test_case_set_holds_the_edges(case_inputs):
    """The round trip above covers the edges the issue names."""
    blob = b"\n".join(raw for _, raw in case_inputs)
    # (the case set's deepest input is 200 levels; 100,000 is test_deep_values_without_recursion's)
    for edge in [b'"\\ud800', b"-0", b"1e2", b"9007199254740993", b"1e400", b"[" * 200]:
        assert edge in blob, edge
    assert any(not _plain_object_keys(raw) for _, raw in case_inputs)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is the Number::toString oracle")
def test_number_to_string_matches_node_on_random_doubles():
    """20,000 doubles from random bit patterns (seeded), and their integer
    values, formatted by the kit and by node's String(x)."""
    import random
    import struct

    rng = random.Random(24)
    xs = []
    while len(xs) < 20_000:
        x = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if math.isfinite(x):
            xs.append(x)
            xs.append(float(round(x)) if abs(x) < 1e300 else x)
    p = subprocess.run(
        [
            "node",
            "-e",
            "process.stdout.write(require('fs').readFileSync(0,'utf8').trim().split('\\n')"
            ".map(l=>String(Number(l))).join('\\n'))",
        ],
        input="\n".join(repr(x) for x in xs).encode(),
        capture_output=True,
        check=True,
    )
    want = p.stdout.decode().split("\n")
    got = [number_to_string(x) for x in xs]
    assert [(x, g, w) for x, g, w in zip(xs, got, want, strict=True) if g != w] == []
