package jsonjs

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// scan is Scan's driver: run reads the text and pauses for whatever
// needs a call (a string with an escape or a non-ASCII byte, a number
// other than a plain integer, a tape to grow), which scan makes before
// run goes on. The calls are kept out of run because Go keeps no register
// across a call: with one in it, the compiler spills run's state at
// every label, on the paths that make none too (-6M instructions of
// check-log on 8 MB of Big with them out, the stack in the tape).
func (l *Lazy) scan(b []byte) bool {
	tape := push(trim(l.tape))
	p := pause{i: skipWS(b, 0), cur: -1} // at atValue
	for ok := true; ok; {
		tape, p = run(b, tape, p)
		switch p.need {
		case needTape:
			tape = growTape(tape, b, p.i)
		case needNumber:
			p.end = scanNumber(b, p.i)
			ok = p.end >= 0
		case needString:
			var valid bool
			p.end, p.esc, valid = scanStringFrom(b, p.i+1, p.end)
			ok, l.badUTF8 = p.end >= 0, l.badUTF8 || !valid
		case needNothing:
			l.tape = tape
			return p.i == len(b)
		default: // needFail
			ok = false
		}
	}
	return false
}

// A pause is where run stopped: what scan must do (need) and where run
// goes on (at), with its state: the position, the container being
// scanned and, at a string or scalar, its end and what was read of it.
type pause struct {
	i, end, cur int
	need, at    uint8
	isKey, esc  bool
}

// Pause needs.
const (
	needNothing uint8 = iota // the root value is read: run is done
	needFail                 // the text is not JSON
	needTape                 // a span more of capacity
	needNumber               // the end of the number at i
	needString               // the end of the string at i, read plain to end
)

// Where run goes on.
const (
	atValue  uint8 = iota // a value at i, its span pushed
	atElem                // an element of an array at i, its span not yet
	atKey                 // a member at i, its span not yet
	atScalar              // a scalar other than a string, b[i:end]
	atString              // a string b[i:end] (a key when isKey; esc)
)

// run is the state machine: value, after a value, key. The tape is its
// only bookkeeping, and few values stay live across it (so the compiler
// keeps them in registers): a value's span is pushed before the value is
// read (an object member's with its key) and filled in when its end is
// known. cur is the container being scanned (its tape index, shifted,
// and whether it is an array: after a comma that is all that matters);
// its span's next holds the one around it until it closes. run makes no
// call: a step that needs one pauses before it changes anything or where
// the call's answer is all it needs (at), and goes on from there.
func run(b []byte, tape []span, p pause) ([]span, pause) {
	b = b[:len(b):len(b)] // the word loop's bounds checks then need no register for b's capacity
	n, i, cur, isKey, end, esc := len(b), p.i, p.cur, p.isKey, p.end, p.esc
	switch p.at {
	case atElem:
		goto elem
	case atKey:
		goto key
	case atScalar:
		goto scalar
	case atString:
		goto str
	}
value:
	if i >= n {
		return tape, pause{need: needFail}
	}
	switch c := b[i]; {
	case c == '"':
		isKey = false
		goto plain
	case c-'1' < 9:
		// A plain integer: what scanNumber reads, without the call, its
		// digits 8 at a time while a word is left.
		for end = i + 1; end+8 <= n; end += 8 {
			if m := nonDigits(binary.LittleEndian.Uint64(b[end : end+8])); m != 0 {
				end += bits.TrailingZeros64(m) >> 3
				goto integer
			}
		}
		end = skipDigits(b, end)
	integer:
		if end < n && (b[end] == '.' || b[end]|0x20 == 'e') {
			return tape, pause{need: needNumber, at: atScalar, i: i, cur: cur}
		}
	case c == '{' || c == '[':
		t := &tape[len(tape)-1]
		t.start = int32(i)
		if i++; i < n && b[i] <= ' ' {
			i = skipWS(b, i)
		}
		if i < n && b[i] == c+2 { // '}' is '{'+2, ']' is '['+2
			t.end, t.next = int32(i+1), int32(len(tape))
			i++
			goto after
		}
		if t.next, cur = int32(cur), (len(tape)-1)<<1; c == '{' {
			goto key
		}
		cur |= 1
		goto elem
	case c == '-' || c == '0':
		return tape, pause{need: needNumber, at: atScalar, i: i, cur: cur}
	case c == 't' && n-i >= 4 && string(b[i:i+4]) == "true",
		c == 'n' && n-i >= 4 && string(b[i:i+4]) == "null":
		end = i + 4
	case c == 'f' && n-i >= 5 && string(b[i:i+5]) == "false":
		end = i + 5
	default:
		return tape, pause{need: needFail}
	}
scalar: // a scalar other than a string: b[i:end]
	tape[len(tape)-1].start, tape[len(tape)-1].end, tape[len(tape)-1].next = int32(i), int32(end), int32(len(tape))
	i = end
after:
	if i < n && b[i] <= ' ' {
		i = skipWS(b, i)
	}
	if cur < 0 {
		return tape, pause{need: needNothing, i: i}
	}
	if i >= n {
		return tape, pause{need: needFail}
	}
	switch b[i] {
	case ',':
		if i++; i < n && b[i] <= ' ' {
			i = skipWS(b, i)
		}
		if cur&1 == 0 {
			goto key
		}
		goto elem
	case '}' - byte(cur&1)<<5: // ']' (0x5D) closes an array, '}' (0x7D) an object
		i++
		t := &tape[cur>>1]
		cur, t.end, t.next = int(t.next), int32(i), int32(len(tape))
		goto after
	}
	return tape, pause{need: needFail}
elem:
	if len(tape) == cap(tape) {
		return tape, pause{need: needTape, at: atElem, i: i, cur: cur}
	}
	tape = tape[:len(tape)+1]
	goto value
key:
	if i >= n || b[i] != '"' {
		return tape, pause{need: needFail}
	}
	if len(tape) == cap(tape) {
		return tape, pause{need: needTape, at: atKey, i: i, cur: cur}
	}
	tape = tape[:len(tape)+1]
	isKey = true
plain:
	// A string, key or value, ends at its first stop when that is a quote:
	// the plain run is read here, 8 bytes at a time, and a non-ASCII byte
	// stops it too (so the run before a quote is ASCII, its UTF-8 checked
	// by construction); anything else is scanStringFrom's.
	for end = i + 1; end+8 <= n; end += 8 {
		x := binary.LittleEndian.Uint64(b[end : end+8])
		if m := (stopBits(x) | x) & swarHi; m != 0 { // stopMask(x) | x&swarHi
			end += bits.TrailingZeros64(m) >> 3
			break
		}
	}
	if end >= n || b[end] != '"' {
		return tape, pause{need: needString, at: atString, i: i, end: end, cur: cur, isKey: isKey}
	}
	end, esc = end+1, false
str: // a string b[i:end]
	if t := &tape[len(tape)-1]; isKey {
		t.key, t.keyEnd, t.keyEscaped = int32(i), int32(end), esc
		goto colon
	} else {
		t.start, t.end, t.next = int32(i), int32(end), int32(len(tape))
	}
	i = end
	goto after
colon:
	if i = end; i >= n || b[i] != ':' {
		if i = skipWS(b, i); i >= n || b[i] != ':' {
			return tape, pause{need: needFail}
		}
	}
	if i++; i < n && b[i] <= ' ' {
		i = skipWS(b, i)
	}
	goto value
}

// nonDigits flags (0x80 in the byte) the bytes of the word that are not
// ASCII digits: below '0' or from 0xBA (x-'0' has the high bit), from ':'
// to 0xB9 (x+0x46 has it). As in stopMask, only the lowest flag is exact:
// a borrow or a carry starts at a byte that is flagged itself.
func nonDigits(x uint64) uint64 {
	return ((x - swarLo*'0') | (x + swarLo*(0x80-':'))) & swarHi
}

// scanStringFrom is scanString for Lazy.Scan, which also checks the UTF-8
// of the string, so that a text of ASCII strings is read once: the plain
// runs are read 8 bytes at a time as in scanString, OR-ing the bytes before
// each stop into high, and only when one is non-ASCII does utf8.Valid read
// the body. It goes on from b[j] in the body that starts at b[s], the bytes
// before j plain ASCII (Scan reads the first run itself, to its first stop
// or non-ASCII byte). valid is exact because a text Scan accepts has
// non-ASCII bytes only inside strings, and ASCII quotes end every one: the
// text is UTF-8 exactly when every string body is (so Lazy.Str need not
// check a string again).
func scanStringFrom(b []byte, s, j int) (end int, escaped, valid bool) {
	n, high := len(b), uint64(0)
	for {
		for ; j+8 <= n; j += 8 {
			x := binary.LittleEndian.Uint64(b[j : j+8])
			if m := stopMask(x); m != 0 {
				high |= x & (m&-m - 1) // the bytes before the stop
				j += bits.TrailingZeros64(m) >> 3
				goto stop
			}
			high |= x
		}
		for ; j < n && !isStop(b[j]); j++ {
			high |= uint64(b[j])
		}
		if j >= n {
			return -1, false, false
		}
	stop:
		if b[j] == '"' {
			return j + 1, escaped, high&swarHi == 0 || utf8.Valid(b[s:j])
		}
		k := escapeLen(b, j)
		if k == 0 {
			return -1, false, false // a raw control character or a bad escape
		}
		j, escaped = j+k, true
	}
}
