package jsonjs

import (
	"fmt"
	"math"
	"unicode/utf8"
)

// Field is a value reached from a decoding root, with its JSON path, so that
// a value of the wrong type is reported where it is ("$.value.matches[0].line:
// want a string, got null"). A Field for a member that is not there is
// absent (Present false). Member names are matched exactly, as JSON.parse
// does; members a decoder does not ask for are ignored.
type Field struct {
	Value   Value
	Present bool
	path    *pathNode
}

// Root returns the decoding root of v, at path "$".
func Root(v Value) Field { return Field{Value: v, Present: true} }

// Path returns the field's JSON path.
func (f Field) Path() string { return f.path.String() }

// Member returns the member named key; absent when f is not an object or has
// no such member.
func (f Field) Member(key string) Field {
	v, ok := f.Value.Get(key)
	return Field{Value: v, Present: ok, path: &pathNode{parent: f.path, key: key, isKey: true}}
}

// Index returns element i; absent when f is not an array or too short.
func (f Field) Index(i int) Field {
	items, _ := f.Value.Items()
	out := Field{path: &pathNode{parent: f.path, index: i}}
	if i >= 0 && i < len(items) {
		out.Value, out.Present = items[i], true
	}
	return out
}

// TypeError is a value of the wrong type (or an absent required member) at a
// JSON path.
type TypeError struct {
	Path string
	Want string // "a string", "an array", ...
	Got  string // a kind ("null"), or "nothing" for an absent member
}

func (e *TypeError) Error() string { return fmt.Sprintf("%s: want %s, got %s", e.Path, e.Want, e.Got) }

func (f Field) wrong(want string) error {
	got := f.Value.Kind().String()
	if !f.Present {
		got = "nothing"
	}
	return &TypeError{Path: f.Path(), Want: want, Got: got}
}

// Object checks that f is an object.
func (f Field) Object() error {
	if f.Value.Kind() != Object {
		return f.wrong("an object")
	}
	return nil
}

// String returns a required string (WTF-8, lone surrogates kept).
func (f Field) String() (string, error) {
	s, ok := f.Value.Str()
	if !ok {
		return "", f.wrong("a string")
	}
	return s, nil
}

// OptString returns a string, or def when the member is absent or null.
func (f Field) OptString(def string) (string, error) {
	if !f.Given() {
		return def, nil
	}
	return f.String()
}

// OptBool returns a boolean, or def when the member is absent or null.
func (f Field) OptBool(def bool) (bool, error) {
	if !f.Given() {
		return def, nil
	}
	b, ok := f.Value.Bool()
	if !ok {
		return false, f.wrong("a boolean")
	}
	return b, nil
}

// Items returns the elements of a required array, each with its path.
func (f Field) Items() ([]Field, error) {
	if f.Value = f.Value.Expanded(); f.Value.Kind() != Array { // Expanded: Index takes its items once per item
		return nil, f.wrong("an array")
	}
	items, _ := f.Value.Items()
	out := make([]Field, len(items))
	for i := range items {
		out[i] = f.Index(i)
	}
	return out, nil
}

// Strings returns a required array of strings.
func (f Field) Strings() ([]string, error) {
	items, err := f.Items()
	if err != nil {
		return nil, err
	}
	out := make([]string, len(items))
	for i, it := range items {
		if out[i], err = it.String(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Int returns a required number that is an integer as JSON.parse reads it
// (1e2 and 2.0 are 100 and 2; 9007199254740993 is the double
// 9007199254740992), within the range of an int64.
func (f Field) Int() (int, error) {
	n, ok := f.Value.Float()
	if !ok || !f.Value.IsInteger() {
		return 0, f.wrong("an integer")
	}
	if math.Abs(n) >= 1<<63 {
		return 0, &TypeError{Path: f.Path(), Want: "an integer below 2^63", Got: FormatNumber(n)}
	}
	return int(n), nil
}

// FirstInvalidUTF8 finds the first maximal subsequence of data that is not
// UTF-8 (the WHATWG decoder's unit of replacement; a surrogate's 3-byte form
// is not UTF-8 either, so JSON text carries a lone surrogate only as a \u
// escape): its offset and bytes. ok is false when there is none. Readers of
// foreign JSON text use it to refuse such bytes with a message that shows
// them, instead of repairing them to U+FFFD. It is the check Parse makes.
func FirstInvalidUTF8(data []byte) (offset int, bad []byte, ok bool) {
	off, b := invalidUTF8(data)
	return max(off, 0), b, off >= 0
}

// FirstInvalidWTF8 is FirstInvalidUTF8 for a string held as WTF-8 (a
// Value's string, a Go harness's message): a lone surrogate's 3-byte form
// is valid there.
func FirstInvalidWTF8(s string) (offset int, bad []byte, ok bool) {
	data := []byte(s)
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			i++
			continue
		}
		if n := wtf8Len(data[i:]); n > 0 {
			i += n
			continue
		}
		end := i + 1
		for end < len(data) && end < i+4 && data[end] >= 0x80 && data[end] < 0xC0 {
			end++
		}
		return i, data[i:end], true
	}
	return 0, nil, false
}

// wtf8Len returns the length of the valid UTF-8 or WTF-8 (lone surrogate)
// sequence at the start of b, or 0.
func wtf8Len(b []byte) int {
	if r, n := utf8.DecodeRune(b); r != utf8.RuneError || n > 1 {
		return n
	}
	if len(b) >= 3 && b[0] == 0xED && b[1] >= 0xA0 && b[1] <= 0xBF && b[2] >= 0x80 && b[2] <= 0xBF {
		return 3
	}
	return 0
}

// Given reports whether an optional member is given: present and not null.
// Every op reads a null optional member as an absent one, as upstream's code
// does (docs/ops.md, "null and absent members").
func (f Field) Given() bool { return f.Present && !f.Value.IsNull() }
