package report

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
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
// text goes to Text.
func WriteIndentedJSON(w io.Writer, v any, raws []RawValue) error {
	var nonce [12]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return err
	}
	// A placeholder is a JSON string no outside string can spell: it holds
	// a NUL and a random nonce.
	mark := "\x00" + hex.EncodeToString(nonce[:]) + ":"
	quoted, _ := json.Marshal(mark)
	prefix := quoted[:len(quoted)-1] // without the closing quote
	vals, orig := make([][]byte, len(raws)), make([]json.RawMessage, len(raws))
	for i, r := range raws {
		if orig[i] = *r.Value; orig[i] == nil {
			continue
		}
		compact := jsonjs.CompactRaw(*r.Value)
		strict, changed := Strict(compact)
		if r.Text != nil {
			*r.Text = ""
			if changed {
				*r.Text = string(compact)
			}
		}
		vals[i] = strict
		ph, _ := json.Marshal(mark + strconv.Itoa(i))
		*r.Value = ph
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	for i, r := range raws { // v gets its values back
		*r.Value = orig[i]
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
		i, err := strconv.Atoi(string(rest[:end]))
		if err != nil || i >= len(vals) {
			return io.ErrUnexpectedEOF // a placeholder of ours is always whole
		}
		if _, err := w.Write(vals[i]); err != nil {
			return err
		}
		out = rest[end+1:]
	}
	_, err = w.Write(out)
	return err
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
