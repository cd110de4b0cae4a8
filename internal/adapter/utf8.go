package adapter

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// BadBytes reports bytes that are not UTF-8 in an answer's output or error
// message. They are never repaired: a harness that leaks them into the
// model's text is nonconformant, so the case fails (not a protocol fault).
type BadBytes struct {
	Path   string // JSON path in the op output ("$.content"), or "$.error.message"
	Field  string // the output member holding them ("content"), "" for an error message
	Offset int    // byte offset of the first bad byte in the answer line (in-process: in the output or message)
	Bytes  []byte // the bad sequence: its lead byte and the continuation bytes after it
}

func (b *BadBytes) Error() string {
	return fmt.Sprintf("invalid UTF-8 at %s (byte %d): % X, not repaired to U+FFFD", b.Path, b.Offset, b.Bytes)
}

// maxPathDepth bounds how deep pathAt descends: the path of bad bytes in a
// pathologically deep answer stops there, and the byte offset says the rest.
const maxPathDepth = 64

// sanitize returns data with every byte of every sequence that is not UTF-8
// (nor a WTF-8 lone surrogate) replaced by '?', and the first such sequence.
// The copy only serves to read the answer's structure; the case fails on
// the first bad sequence regardless.
func sanitize(data []byte) (clean []byte, first *BadBytes) {
	off, bad, found := jsonjs.FirstInvalidUTF8(data)
	if !found {
		return data, nil
	}
	first = &BadBytes{Offset: off, Bytes: bytes.Clone(bad)}
	clean = bytes.Clone(data)
	for i := off; i < len(clean); {
		o, b, ok := jsonjs.FirstInvalidUTF8(clean[i:])
		if !ok {
			break
		}
		for j := range b {
			clean[i+o+j] = '?'
		}
		i += o + len(b)
	}
	return clean, first
}

// pathAt returns the JSON path, in doc (valid JSON text), of the innermost
// value or member name holding byte offset off.
func pathAt(doc []byte, off int) string {
	f := jsonjs.Root(jsonjs.NullValue())
	i := jsonjs.RawSkipSpace(doc, 0)
	for depth := 0; depth < maxPathDepth && i < len(doc) && (doc[i] == '{' || doc[i] == '['); depth++ {
		obj := doc[i] == '{'
		j, index, found := i+1, 0, false
		for !found {
			j = jsonjs.RawSkipSpace(doc, j)
			if j >= len(doc) || doc[j] == '}' || doc[j] == ']' {
				return f.Path()
			}
			if doc[j] == ',' {
				j = jsonjs.RawSkipSpace(doc, j+1)
			}
			var key []byte
			if obj {
				ks := j
				j = jsonjs.RawSkipString(doc, j)
				key = doc[ks:j]
				if off >= ks && off < j {
					return memberField(f, key).Path()
				}
				j = jsonjs.RawSkipSpace(doc, jsonjs.RawSkipSpace(doc, j)+1)
			}
			vs := j
			j = jsonjs.RawSkipValue(doc, j)
			if off >= vs && off < j {
				if obj {
					f = memberField(f, key)
				} else {
					f = f.Index(index)
				}
				i, found = vs, true
			}
			index++
		}
	}
	return f.Path()
}

// memberField steps into the member of a raw key token; bad bytes in the
// name show as '?' in the path (the message gives them in hex).
func memberField(f jsonjs.Field, rawKey []byte) jsonjs.Field {
	rawKey, _ = sanitize(rawKey)
	k, err := jsonjs.Parse(rawKey)
	name, _ := k.Str()
	if err != nil {
		name = string(rawKey)
	}
	return f.Member(name)
}

// locate fills b's path for an answer line, a path under "$.output" given
// relative to the output as the comparison's paths are. It reports whether
// the bytes are in what the harness produced (the output or the error
// message), which the case is judged on.
func (b *BadBytes) locate(line []byte) bool {
	p := pathAt(line, b.Offset)
	b.Path = p
	rest, inOutput := strings.CutPrefix(p, "$.output")
	if !inOutput || (rest != "" && rest[0] != '.' && rest[0] != '[') {
		return p == "$.error.message"
	}
	b.inOutput("$" + rest)
	return true
}

// inOutput sets b's path, a JSON path in the op output, and its field.
func (b *BadBytes) inOutput(path string) {
	b.Path = path
	b.Field, _, _ = strings.Cut(strings.TrimPrefix(path, "$."), ".")
	b.Field, _, _ = strings.Cut(b.Field, "[")
}
