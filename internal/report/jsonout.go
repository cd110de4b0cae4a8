package report

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The JSON reports' writer (issue 21): the report's own structure through
// encoding/json, indented; the values it carries from outside (case
// inputs, the golden and answered values of diffs) verbatim and compact,
// so that a value of any depth is written (encoding/json refuses raw
// values deeper than 10,000 levels) and no indentation grows with its
// depth.

// RawValue is one outside JSON value of a report: where it is, and where
// its text goes when strict readers could not read it back (Strict).
type RawValue struct {
	Value *json.RawMessage
	Text  *string
}

// WriteIndentedJSON writes v as indented JSON with every raw value of raws
// spliced in compact and unchanged. v must hold the raws (pointers into
// v's own copy: the caller's values are replaced while v is marshalled).
// Each raw value is made Strict first; when that changed it, its exact
// text goes to Text, as a JSON string. Neither a raw value nor its text
// passes through encoding/json or a buffer: what is held at once is the
// report's skeleton and one strict copy of a value that needed one.
func WriteIndentedJSON(w io.Writer, v any, raws []RawValue) error {
	var nonce [12]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return err
	}
	// A placeholder is a JSON string no outside string can spell: it holds
	// a NUL and a random nonce; V<i> is a value, T<i> a text.
	mark := "\x00" + hex.EncodeToString(nonce[:]) + ":"
	quoted, _ := json.Marshal(mark)
	prefix := quoted[:len(quoted)-1] // without the closing quote
	vals, texts, orig := make([][]byte, len(raws)), make([][]byte, len(raws)), make([]json.RawMessage, len(raws))
	origText := make([]string, len(raws))
	for i, r := range raws {
		if r.Text != nil {
			origText[i], *r.Text = *r.Text, ""
		}
		if orig[i] = *r.Value; orig[i] == nil {
			continue
		}
		compact := compactRaw(orig[i])
		if r.Text != nil && nestedPast(compact, StrictDepth) { // only its text: no strict reader takes it
			texts[i] = compact
			*r.Text = mark + "T" + strconv.Itoa(i)
			*r.Value = nil
			continue
		}
		strict, changed := Strict(compact)
		if changed && r.Text != nil {
			texts[i] = compact
			*r.Text = mark + "T" + strconv.Itoa(i)
		}
		vals[i] = strict
		ph, _ := json.Marshal(mark + "V" + strconv.Itoa(i))
		*r.Value = ph
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	for i, r := range raws { // v gets its values back
		*r.Value = orig[i]
		if r.Text != nil {
			*r.Text = origText[i]
		}
	}
	if err != nil {
		return err
	}
	out := buf.Bytes()
	for {
		k := bytes.Index(out, prefix)
		if k < 0 {
			break
		}
		if _, err := w.Write(out[:k]); err != nil {
			return err
		}
		rest := out[k+len(prefix):]
		end := bytes.IndexByte(rest, '"')
		i, err := strconv.Atoi(string(rest[1:end]))
		if err != nil || i >= len(vals) {
			return io.ErrUnexpectedEOF // a placeholder of ours is always whole
		}
		if rest[0] == 'T' {
			err = writeJSONString(w, texts[i])
		} else {
			_, err = w.Write(vals[i])
		}
		if err != nil {
			return err
		}
		out = rest[end+1:]
	}
	_, err = w.Write(out)
	return err
}

// compactRaw is jsonjs.CompactRaw, without a copy when b is compact.
func compactRaw(b []byte) []byte {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = jsonjs.RawSkipString(b, i) - 1
		case ' ', '\t', '\n', '\r':
			return jsonjs.CompactRaw(b)
		}
	}
	return b
}

// writeJSONString writes text as a JSON string literal that every strict
// reader accepts: quotes, backslashes and controls escaped, bytes that are
// not UTF-8 as U+FFFD (JSON text read from a file is UTF-8).
func writeJSONString(w io.Writer, text []byte) error {
	out := make([]byte, 0, 64<<10)
	out = append(out, '"')
	flush := func() error {
		_, err := w.Write(out)
		out = out[:0]
		return err
	}
	for i := 0; i < len(text); {
		if len(out) >= 60<<10 {
			if err := flush(); err != nil {
				return err
			}
		}
		c := text[i]
		switch {
		case c == '"' || c == '\\':
			out = append(out, '\\', c)
			i++
		case c < 0x20:
			out = append(out, fmt.Sprintf(`\u%04x`, c)...)
			i++
		case c < 0x80:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(text[i:])
			if r == utf8.RuneError && size == 1 {
				out = append(out, `\ufffd`...)
			} else {
				out = append(out, text[i:i+size]...)
			}
			i += size
		}
	}
	out = append(out, '"')
	return flush()
}

// StrictDepth is the deepest raw value a JSON report writes as a value:
// jq 1.6 refuses a document nested past 256 levels (a value sits up to 6
// levels inside a report) and Python's json past about 1,000, so a value
// nested deeper goes only as its exact text (inputText, wantText,
// gotText), as run_code.result/run-code-json-3000-nested-arrays's input.
const StrictDepth = 200

// nestedPast reports whether the JSON text b nests deeper than n levels.
func nestedPast(b []byte, n int) bool {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = jsonjs.RawSkipString(b, i) - 1
		case '[', '{':
			if depth++; depth > n {
				return true
			}
		case ']', '}':
			depth--
		}
	}
	return false
}

// Strict is compact JSON text b as strict readers (jq 1.6, Python's json,
// Go's encoding/json) accept it: a lone surrogate escape (\ud800 without
// its pair) and any byte that is not UTF-8 become U+FFFD. It reports
// whether it changed anything; b is returned as is when not.
func Strict(b []byte) ([]byte, bool) {
	var out []byte // nil until a change
	start := 0
	flush := func(i int, repl string) {
		if out == nil {
			out = make([]byte, 0, len(b)+8)
		}
		out = append(out, b[start:i]...)
		out = append(out, repl...)
	}
	inString := false
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case !inString:
			if c == '"' {
				inString = true
			}
			i++
		case c == '"':
			inString = false
			i++
		case c == '\\' && i+1 < len(b) && b[i+1] == 'u' && i+6 <= len(b):
			u, ok := hex16(b[i+2 : i+6])
			switch {
			case !ok || u < 0xd800 || u > 0xdfff:
				i += 6
			case u <= 0xdbff && i+12 <= len(b) && b[i+6] == '\\' && b[i+7] == 'u':
				if lo, ok := hex16(b[i+8 : i+12]); ok && lo >= 0xdc00 && lo <= 0xdfff {
					i += 12 // a pair
					continue
				}
				fallthrough
			default:
				flush(i, `\ufffd`)
				i += 6
				start = i
			}
		case c == '\\':
			i += 2
		case c < 0x80:
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				flush(i, `\ufffd`)
				i++
				start = i
				continue
			}
			i += size
		}
	}
	if out == nil {
		return b, false
	}
	return append(out, b[start:]...), true
}

func hex16(h []byte) (uint16, bool) {
	var u uint16
	for _, c := range h {
		switch {
		case c >= '0' && c <= '9':
			u = u<<4 | uint16(c-'0')
		case c >= 'a' && c <= 'f':
			u = u<<4 | uint16(c-'a'+10)
		case c >= 'A' && c <= 'F':
			u = u<<4 | uint16(c-'A'+10)
		default:
			return 0, false
		}
	}
	return u, true
}

// writeJSON is the one JSON writer: a run's report (runjson.go) and a
// fuzz campaign's through WriteIndentedJSON, whose outside values are
// spliced verbatim at any depth; check-log's (checklog_json.go).
func writeJSON(w io.Writer, m *Model) error {
	switch {
	case m.Run != nil:
		return WriteRunJSON(w, m.Run)
	case m.Fuzz != nil:
		return m.Fuzz.WriteJSON(w)
	case m.CheckLog != nil:
		return WriteCheckLogJSON(w, m.CheckLog)
	}
	return errNoBody
}
