"""JSON as JavaScript sees it: ``JSON.parse`` in, ``JSON.stringify`` bytes out.

Python's :mod:`json` differs from JavaScript where conform's cases look: it
reads ``1e2`` as the float ``100.0`` and ``-0`` as the int ``0``, writes lone
surrogates only when asked, formats floats with ``repr`` (``1e+16`` is
``1e+16`` in both, but ``1e16`` is ``1e+16`` only in Python), sorts nothing yet
keeps integer-like keys in insertion order, and recurses (about 1,000 levels).
This module reads and writes with JavaScript's semantics, iteratively, so a
value 100,000 levels deep is fine (CODE-JSON-3).

Values as :func:`parse` gives them:

- objects are ``dict`` in JavaScript's own-key order: array-index keys
  (``"0"`` … ``"4294967294"``) ascending first, then the others in insertion
  order; a repeated key keeps its first position and its last value;
- arrays are ``list``; strings are ``str``, a lone surrogate escape such as
  ``"\\ud800"`` kept as the surrogate code point U+D800 (an escaped pair is
  joined into one code point, as UTF-16 would read it);
- numbers are the double ``JSON.parse`` gives, as an ``int`` when it is
  integral (``1e2`` -> ``100``, ``9007199254740993`` -> ``9007199254740992``)
  and a ``float`` otherwise (``1.5``, ``-0.0`` for ``-0``, ``inf`` for
  ``1e400``); with ``lexemes=True`` every number is a :class:`Number`, which
  holds its source text as well;
- ``true``/``false``/``null`` are ``True``/``False``/``None``.

:func:`stringify` writes what ``JSON.stringify`` writes for the same
JavaScript value: no whitespace, the own-key order above, JavaScript string
escaping (only ``"``, ``\\``, controls and lone surrogates are escaped; U+2028,
``<``, ``>`` and ``&`` are written as they are), numbers as
``Number::toString`` (``-0`` as ``0``, ``1e21`` as ``1e+21``, NaN and
infinities as ``null``).
"""

from __future__ import annotations

import itertools
import math
import re
from typing import Any

__all__ = ["JSONError", "Number", "number_to_string", "parse", "quote", "stringify"]


class JSONError(ValueError):
    """Text that ``JSON.parse`` refuses; the message names the offset."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(f"{message} at offset {pos}")
        self.pos = pos


class Number:
    """A JSON number with its source text (``parse(..., lexemes=True)``).

    ``value`` is the double ``JSON.parse`` gives (``float``); ``lexeme`` is the
    text as the input spelled it (``"1e2"``, ``"-0"``, ``"9007199254740993"``).
    :func:`stringify` writes ``lexeme`` back when ``keep_lexemes=True`` and the
    value as JavaScript formats it otherwise. ``int(n)`` and ``float(n)`` work.
    """

    __slots__ = ("lexeme", "value")

    def __init__(self, lexeme: str, value: float | None = None) -> None:
        self.lexeme = lexeme
        self.value = float(lexeme) if value is None else value

    def __float__(self) -> float:
        return self.value

    def __int__(self) -> int:
        return int(self.value)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Number):
            return self.value == other.value
        if isinstance(other, (int, float)) and not isinstance(other, bool):
            return self.value == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.value)

    def __repr__(self) -> str:
        return f"Number({self.lexeme!r})"


# ---------------------------------------------------------------- reading

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_PLAIN = re.compile(r'[^"\\\x00-\x1f]*')
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_INDEX_KEY = re.compile(r"0|[1-9][0-9]{0,9}")
_MAX_INDEX = 4294967294  # 2**32 - 2: the largest array index


def _is_index(key: str) -> bool:
    return _INDEX_KEY.fullmatch(key) is not None and int(key) <= _MAX_INDEX


def _js_order(obj: dict) -> dict:
    """Reorder a dict as a JavaScript object orders its own keys."""
    idx = [k for k in obj if _is_index(k)]
    if not idx:
        return obj
    if len(idx) == len(obj) and all(int(a) < int(b) for a, b in itertools.pairwise(idx)):
        return obj
    out = {k: obj[k] for k in sorted(idx, key=int)}
    for k, v in obj.items():
        if k not in out:
            out[k] = v
    return out


def _join_pairs(s: str) -> str:
    """Join escaped surrogate pairs into one code point; lone ones stay."""
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _number(lexeme: str, lexemes: bool) -> Any:
    value = float(lexeme)  # correctly rounded, as JSON.parse; 1e400 -> inf
    if lexemes:
        return Number(lexeme, value)
    if value.is_integer() and not (value == 0 and math.copysign(1.0, value) < 0):
        return int(value)
    return value


def _string(text: str, pos: int) -> tuple[str, int]:
    """Read the string whose opening quote is at pos - 1; return it and the end."""
    parts = []
    surrogate = False
    n = len(text)
    while True:
        m = _PLAIN.match(text, pos)
        if m.end() > pos:
            parts.append(m.group())
            pos = m.end()
        if pos >= n:
            raise JSONError("unterminated string", pos)
        c = text[pos]
        if c == '"':
            s = "".join(parts)
            return (_join_pairs(s) if surrogate else s), pos + 1
        if c != "\\":
            raise JSONError("control character in string", pos)
        e = text[pos + 1 : pos + 2]
        if e in _SIMPLE_ESCAPES:
            parts.append(_SIMPLE_ESCAPES[e])
            pos += 2
        elif e == "u":
            h = _HEX4.match(text, pos + 2)
            if h is None:
                raise JSONError("bad \\u escape", pos)
            cp = int(h.group(), 16)
            if 0xD800 <= cp <= 0xDFFF:
                surrogate = True
            parts.append(chr(cp))
            pos += 6
        else:
            raise JSONError("bad escape", pos)


def parse(text: str | bytes, *, lexemes: bool = False) -> Any:
    """Read one JSON value as ``JSON.parse`` does (see the module doc).

    ``bytes`` must be UTF-8 (a leading BOM is an error, as in JavaScript,
    where the text given to ``JSON.parse`` never has one).
    """
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8")
    # The stack holds open containers: [list] or [dict, pending key].
    stack: list[list] = []
    pos = _WS.match(text, 0).end()
    n = len(text)
    while True:
        # Read a value at pos.
        if pos >= n:
            raise JSONError("unexpected end of input", pos)
        c = text[pos]
        if c == "{":
            pos = _WS.match(text, pos + 1).end()
            if text.startswith("}", pos):
                value: Any = {}
                pos += 1
            else:
                if not text.startswith('"', pos):
                    raise JSONError("expected a member name", pos)
                key, pos = _string(text, pos + 1)
                pos = _WS.match(text, pos).end()
                if not text.startswith(":", pos):
                    raise JSONError("expected ':'", pos)
                pos = _WS.match(text, pos + 1).end()
                stack.append([{}, key])
                continue
        elif c == "[":
            pos = _WS.match(text, pos + 1).end()
            if text.startswith("]", pos):
                value = []
                pos += 1
            else:
                stack.append([[]])
                continue
        elif c == '"':
            value, pos = _string(text, pos + 1)
        elif c == "t" and text.startswith("true", pos):
            value, pos = True, pos + 4
        elif c == "f" and text.startswith("false", pos):
            value, pos = False, pos + 5
        elif c == "n" and text.startswith("null", pos):
            value, pos = None, pos + 4
        else:
            m = _NUMBER.match(text, pos)
            if m is None:
                raise JSONError(f"unexpected character {c!r}", pos)
            value, pos = _number(m.group(), lexemes), m.end()
        # Store the value in its container and close what ends here.
        while True:
            pos = _WS.match(text, pos).end()
            if not stack:
                if pos != n:
                    raise JSONError("unexpected text after the value", pos)
                return value
            top = stack[-1]
            container = top[0]
            if isinstance(container, list):
                container.append(value)
                if text.startswith(",", pos):
                    pos = _WS.match(text, pos + 1).end()
                    break
                if text.startswith("]", pos):
                    stack.pop()
                    value, pos = container, pos + 1
                    continue
                raise JSONError("expected ',' or ']'", pos)
            container[top[1]] = value  # a repeated key: first position, last value
            if text.startswith(",", pos):
                pos = _WS.match(text, pos + 1).end()
                if not text.startswith('"', pos):
                    raise JSONError("expected a member name", pos)
                key, pos = _string(text, pos + 1)
                pos = _WS.match(text, pos).end()
                if not text.startswith(":", pos):
                    raise JSONError("expected ':'", pos)
                pos = _WS.match(text, pos + 1).end()
                top[1] = key
                break
            if text.startswith("}", pos):
                stack.pop()
                value, pos = _js_order(container), pos + 1
                continue
            raise JSONError("expected ',' or '}'", pos)


# ---------------------------------------------------------------- writing

_ESCAPE = re.compile('["\\\\\x00-\x1f\ud800-\udfff]')
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(m: re.Match) -> str:
    c = m.group()
    return _ESCAPES.get(c) or f"\\u{ord(c):04x}"


def quote(s: str) -> str:
    """A string as ``JSON.stringify`` writes it (CODE-STR-1, SEARCH-JSON-1).

    Surrogate code points that form a pair are joined (a JavaScript string
    holds UTF-16, where they are one character); lone ones become ``\\udxxx``.
    """
    if _ESCAPE.search(s) is None:
        return '"' + s + '"'
    if any("\ud800" <= c <= "\udfff" for c in s):
        s = _join_pairs(s)
    return '"' + _ESCAPE.sub(_escape_char, s) + '"'


def number_to_string(x: float | int) -> str:
    """ECMAScript ``Number::toString`` (radix 10) of a double (CODE-NUM-1).

    ``repr`` gives the shortest digits that round-trip, which is what
    ECMAScript picks too; only the layout differs, and is redone here.
    An ``int`` is first rounded to the double JavaScript would hold.
    """
    if isinstance(x, int):
        try:
            x = float(x)
        except OverflowError:
            x = math.inf if x > 0 else -math.inf
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"  # -0 too
    sign = "-" if x < 0 else ""
    r = repr(abs(x))
    mantissa, _, exp = r.partition("e")
    whole, _, frac = mantissa.partition(".")
    if frac == "0":
        frac = ""
    digits = (whole + frac).lstrip("0")
    # value = 0.digits * 10**n; repr writes no leading zero but "0." itself
    n = int(exp) if exp else 0
    if whole == "0":
        n -= len(frac) - len(frac.lstrip("0"))
    else:
        n += len(whole)
    digits = digits.rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * -n + digits
    else:
        e = n - 1
        esign = "+" if e >= 0 else "-"
        out = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + esign + str(abs(e))
    return sign + out


def _scalar(v: Any, keep_lexemes: bool) -> str | None:
    """The text of a non-container value, or None for a container."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        return quote(v)
    if isinstance(v, Number):
        if keep_lexemes:
            return v.lexeme
        v = v.value
    if isinstance(v, (int, float)):
        if isinstance(v, float) and not math.isfinite(v):
            return "null"
        s = number_to_string(v)
        return "null" if s in ("Infinity", "-Infinity") else s
    if isinstance(v, (dict, list, tuple)):
        return None
    raise TypeError(f"{type(v).__name__} is not JSON: {v!r:.80}")


def stringify(value: Any, *, keep_lexemes: bool = False) -> str:
    """``JSON.stringify(value)`` for a value as :func:`parse` gives it.

    Also accepts tuples (arrays), ``int`` of any size (rounded to a double)
    and ``float``. Keys must be ``str``. ``keep_lexemes=True`` writes a
    :class:`Number`'s source text instead of its value.
    """
    out: list[str] = []
    s = _scalar(value, keep_lexemes)
    if s is not None:
        return s
    # Each frame is an iterator over a container's remaining items and its closer.
    stack: list[tuple[Any, str]] = []

    def open_(v: Any) -> None:
        if isinstance(v, dict):
            out.append("{")
            stack.append((iter(_js_order(v).items()), "}"))
        else:
            out.append("[")
            stack.append((iter(v), "]"))

    open_(value)
    first = True
    while stack:
        it, closer = stack[-1]
        item = next(it, _END)
        if item is _END:
            stack.pop()
            out.append(closer)
            first = False
            continue
        if not first:
            out.append(",")
        if closer == "}":
            k, v = item
            if not isinstance(k, str):
                raise TypeError(f"object key {k!r} is not a str")
            out.append(quote(k))
            out.append(":")
        else:
            v = item
        s = _scalar(v, keep_lexemes)
        if s is None:
            open_(v)
            first = True
        else:
            out.append(s)
            first = False
    return "".join(out)


_END = object()
