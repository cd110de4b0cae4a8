package runner

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Comparator names, as they appear in Diff.Comparator.
const (
	CmpExact    = "exact"    // the same code points; null only equals null
	CmpJSON     = "json"     // JSON-equal (jsonjs.Equal)
	CmpProperty = "property" // a property check on the answer alone
)

// AnyOp and OtherFields are the wildcards of the comparison table.
const (
	AnyOp       = "*"
	OtherFields = "*"
)

// ErrorField names the thrown error's message in rules and diffs.
const ErrorField = "error.message"

// Rule is one row of the comparison table: the comparator of one output
// field of one op.
type Rule struct {
	Op         string // an op, or AnyOp
	Field      string // an output member, OtherFields, or ErrorField
	Comparator string // CmpExact or CmpJSON
}

// Rules is the comparison table of docs/fixtures.md, row for row; it is the
// only place comparators are declared. A field's rule is its own row, else
// its op's OtherFields row. Every golden output member has a rule (tested).
var Rules = []Rule{
	{"grep.result", "content", CmpExact},
	{"grep.result", "spillText", CmpExact},
	{"grep.result", "isError", CmpJSON}, // equal booleans
	{"grep.result", "error", CmpJSON},
	{"grep.result", "meta", CmpJSON},
	{"grep.result", "view", CmpJSON},
	{"grep.result", "callView", CmpJSON},
	{"glob.result", "content", CmpExact},
	{"glob.result", "spillText", CmpExact},
	{"glob.result", "isError", CmpJSON},
	{"glob.result", "error", CmpJSON},
	{"glob.result", "meta", CmpJSON},
	{"glob.result", "view", CmpJSON},
	{"glob.result", "callView", CmpJSON},
	{"search.present", "view", CmpJSON},
	{"run_code.result", "content", CmpExact},
	{"run_code.result", "isError", CmpJSON},
	{"run_code.result", "error", CmpJSON},
	{"run_code.result", "meta", CmpJSON},
	{"run_code.result", "view", CmpJSON},
	{"run_code.result", "callView", CmpJSON},
	{"retain.items", OtherFields, CmpJSON},
	{"retain.text", "text", CmpExact},
	{"retain.text", OtherFields, CmpJSON},
	{"spill.preview", "content", CmpExact}, // exact string or both null
	{"spill.preview", "save", CmpJSON},
	{AnyOp, ErrorField, CmpExact},
}

// ComparatorFor returns the comparator of an op's output field (or of
// ErrorField), and false when the table has no row for it.
func ComparatorFor(op, field string) (string, bool) {
	other := ""
	for _, r := range Rules {
		if r.Op != op && r.Op != AnyOp {
			continue
		}
		switch r.Field {
		case field:
			return r.Comparator, true
		case OtherFields:
			other = r.Comparator
		}
	}
	return other, other != ""
}

// maxJSONDiffs bounds the JSON paths reported per field.
const maxJSONDiffs = 10

// Compare compares an answer with a case's golden answer: exactly one of
// output and errMsg is non-nil. It returns nil when they agree.
func Compare(c Case, output *jsonjs.Value, errMsg *string) []Diff {
	want := c.Want
	switch {
	case want.Error != nil && errMsg != nil:
		if d := exactDiff(ErrorField, "$.error.message", jsonjs.StringValue(*want.Error), jsonjs.StringValue(*errMsg)); d != nil {
			return []Diff{*d}
		}
		return nil
	case want.Error != nil:
		return []Diff{{
			Field: "", Comparator: CmpExact, Path: "$",
			Want:    "error " + visible(*want.Error),
			Got:     "output " + excerptJSON(*output),
			Message: "want an error answer, got an output",
		}}
	case errMsg != nil:
		return []Diff{{
			Field: "", Comparator: CmpJSON, Path: "$",
			Want:    "output " + excerptJSON(*want.Output),
			Got:     "error " + visible(*errMsg),
			Message: "want an output, got an error answer: " + oneLine(*errMsg, 200),
		}}
	}
	return compareOutput(c.Op, *want.Output, *output)
}

// compareOutput compares two outputs field by field.
func compareOutput(op string, want, got jsonjs.Value) []Diff {
	wantMembers, ok := want.Members()
	gotMembers, gotOK := got.Members()
	if !ok || !gotOK {
		// Not the objects docs/ops.md promises: compare whole answers.
		var diffs []Diff
		for _, p := range jsonjs.Differences(want, got, maxJSONDiffs) {
			diffs = append(diffs, jsonDiff("", CmpJSON, p, want, got))
		}
		return diffs
	}
	var diffs []Diff
	for _, m := range wantMembers {
		cmp, _ := ComparatorFor(op, m.Key)
		if cmp == "" {
			cmp = CmpJSON
		}
		path := memberPath("$", m.Key)
		g, present := got.Get(m.Key)
		if !present {
			diffs = append(diffs, Diff{
				Field: m.Key, Comparator: cmp, Path: path,
				Want: excerptJSON(m.Value), Got: "(missing)",
				Message: fmt.Sprintf("output field %q is missing", m.Key),
			})
			continue
		}
		switch cmp {
		case CmpExact:
			if d := exactDiff(m.Key, path, m.Value, g); d != nil {
				diffs = append(diffs, *d)
			}
		default:
			wrapW := jsonjs.ObjectValue(jsonjs.Member{Key: m.Key, Value: m.Value})
			wrapG := jsonjs.ObjectValue(jsonjs.Member{Key: m.Key, Value: g})
			for _, p := range jsonjs.Differences(m.Value, g, maxJSONDiffs) {
				full := path + strings.TrimPrefix(p, "$")
				diffs = append(diffs, jsonDiff(m.Key, cmp, full, wrapW, wrapG))
			}
		}
	}
	for _, m := range gotMembers {
		if !want.Has(m.Key) {
			cmp, _ := ComparatorFor(op, m.Key)
			if cmp == "" {
				cmp = CmpJSON
			}
			diffs = append(diffs, Diff{
				Field: m.Key, Comparator: cmp, Path: memberPath("$", m.Key),
				Want: "(missing)", Got: excerptJSON(m.Value),
				Message: fmt.Sprintf("unexpected output field %q", m.Key),
			})
		}
	}
	return diffs
}

// memberPath appends a member step to a JSON path as jsonjs writes paths.
func memberPath(path, key string) string {
	if isIdentifier(key) {
		return path + "." + key
	}
	return path + "[" + string(jsonjs.AppendString(nil, key)) + "]"
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

// jsonDiff describes one differing JSON path of want and got (both rooted
// at "$").
func jsonDiff(field, cmp, path string, want, got jsonjs.Value) Diff {
	d := Diff{Field: field, Comparator: cmp, Path: path}
	w, wok := Lookup(want, path)
	g, gok := Lookup(got, path)
	switch {
	case !gok:
		d.Want, d.Got = excerptJSON(w), "(missing)"
		d.Message = "missing: the golden answer has a member here"
	case !wok:
		d.Want, d.Got = "(missing)", excerptJSON(g)
		d.Message = "unexpected member: the golden answer has none here"
	case w.Kind() != g.Kind():
		d.Want, d.Got = excerptJSON(w), excerptJSON(g)
		d.Message = fmt.Sprintf("want %s, got %s", kindName(w), kindName(g))
	default:
		d.Want, d.Got = excerptJSON(w), excerptJSON(g)
		d.Message = "differs from the golden answer (JSON-equal)"
		if n, ok := w.Items(); ok {
			m, _ := g.Items()
			d.Message = fmt.Sprintf("want %d elements, got %d", len(n), len(m))
		} else if n, ok := w.Members(); ok {
			m, _ := g.Members()
			d.Message = fmt.Sprintf("want %d members, got %d", len(n), len(m))
		}
	}
	return d
}

// Lookup returns the value at a JSON path as jsonjs.Differences writes them
// ("$", "$.a[2].b", `$["a b"]`).
func Lookup(v jsonjs.Value, path string) (jsonjs.Value, bool) {
	if !strings.HasPrefix(path, "$") {
		return jsonjs.Value{}, false
	}
	rest := path[1:]
	for rest != "" {
		switch {
		case rest[0] == '.':
			end := 1
			for end < len(rest) && rest[end] != '.' && rest[end] != '[' {
				end++
			}
			var ok bool
			if v, ok = v.Get(rest[1:end]); !ok {
				return jsonjs.Value{}, false
			}
			rest = rest[end:]
		case strings.HasPrefix(rest, `["`):
			end := 2
			for end < len(rest) && rest[end] != '"' {
				if rest[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(rest) || !strings.HasPrefix(rest[end:], `"]`) {
				return jsonjs.Value{}, false
			}
			kv, err := jsonjs.Parse([]byte(rest[1 : end+1]))
			key, isStr := kv.Str()
			if err != nil || !isStr {
				return jsonjs.Value{}, false
			}
			var ok bool
			if v, ok = v.Get(key); !ok {
				return jsonjs.Value{}, false
			}
			rest = rest[end+2:]
		case rest[0] == '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return jsonjs.Value{}, false
			}
			i, err := strconv.Atoi(rest[1:end])
			items, ok := v.Items()
			if err != nil || !ok || i < 0 || i >= len(items) {
				return jsonjs.Value{}, false
			}
			v, rest = items[i], rest[end+1:]
		default:
			return jsonjs.Value{}, false
		}
	}
	return v, true
}

// excerptBytes is how much of a value or text a diff shows.
const (
	excerptBytes = 160
	contextBytes = 40
)

// excerptJSON is the compact JSON.stringify text of v, cut to excerptBytes.
func excerptJSON(v jsonjs.Value) string {
	b := jsonjs.Marshal(v)
	if len(b) <= excerptBytes {
		return string(b)
	}
	cut := excerptBytes
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return string(b[:cut]) + "…"
}

// oneLine cuts s to n bytes on one line.
func oneLine(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", `\n`)
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// exactDiff compares two values with the exact comparator: two strings
// with the same bytes, or two nulls. It returns nil when they are equal.
func exactDiff(field, path string, want, got jsonjs.Value) *Diff {
	ws, wIsStr := want.Str()
	gs, gIsStr := got.Str()
	if !wIsStr || !gIsStr {
		if want.IsNull() && got.IsNull() {
			return nil
		}
		return &Diff{
			Field: field, Comparator: CmpExact, Path: path,
			Want: kindExcerpt(want), Got: kindExcerpt(got),
			Message: fmt.Sprintf("want %s, got %s", describeKind(want), describeKind(got)),
		}
	}
	if ws == gs {
		return nil
	}
	i := 0
	for i < len(ws) && i < len(gs) && ws[i] == gs[i] {
		i++
	}
	line := strings.Count(ws[:i], "\n") + 1
	col := i - strings.LastIndexByte(ws[:i], '\n')
	msg := fmt.Sprintf("first difference at byte %d (line %d, column %d)", i, line, col)
	switch {
	case i == len(gs):
		msg += fmt.Sprintf("; got ends there, want has %d more bytes", len(ws)-i)
	case i == len(ws):
		msg += fmt.Sprintf("; want ends there, got has %d more bytes", len(gs)-i)
	}
	return &Diff{
		Field: field, Comparator: CmpExact, Path: path, Offset: i,
		Want: Excerpt(ws, i), Got: Excerpt(gs, i),
		Message: msg,
	}
}

// kindName is the JSON type of v with an article.
func kindName(v jsonjs.Value) string {
	switch v.Kind() {
	case jsonjs.Null:
		return "null"
	case jsonjs.Array, jsonjs.Object:
		return "an " + v.Kind().String()
	}
	return "a " + v.Kind().String()
}

func describeKind(v jsonjs.Value) string {
	if s, ok := v.Str(); ok {
		return fmt.Sprintf("a string of %d bytes", len(s))
	}
	return kindName(v)
}

func kindExcerpt(v jsonjs.Value) string {
	if s, ok := v.Str(); ok {
		return Excerpt(s, 0)
	}
	return excerptJSON(v)
}

// Excerpt shows s around byte offset at: up to contextBytes before and
// after, cut on code point boundaries and marked "…" where cut, with
// whitespace and invisible characters made visible (see Visible).
func Excerpt(s string, at int) string {
	start := max(0, at-contextBytes)
	for start > 0 && !utf8.RuneStart(s[start]) {
		start--
	}
	end := min(len(s), at+contextBytes)
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end++
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	b.WriteString(visibleAt(s[start:end], end == len(s)))
	if end < len(s) {
		b.WriteString("…")
	} else {
		b.WriteString("⟨end⟩")
	}
	return b.String()
}

// visible is Visible on a whole string.
func visible(s string) string { return visibleAt(s, true) }

// Visible makes whitespace and invisible characters of s visible, so that
// two excerpts that look alike differ visibly: backslash is `\\`, LF `\n`,
// CR `\r`, tab `\t`, other control characters, U+0085, U+00A0, U+2028,
// U+2029, U+FEFF and the other format and space characters `\uXXXX`, a lone
// surrogate (WTF-8) `\uDXXX`, a byte that is not UTF-8 `\xHH`, and spaces
// at the end of a line or of the text `\u0020`.
func Visible(s string) string { return visibleAt(s, true) }

// visibleAt is Visible; atEnd says whether s ends where its text ends (so
// its trailing spaces are trailing spaces of the text).
func visibleAt(s string, atEnd bool) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ':
			j := i
			for j < len(s) && s[j] == ' ' {
				j++
			}
			trailing := (j == len(s) && atEnd) || (j < len(s) && (s[j] == '\n' || s[j] == '\r'))
			for k := i; k < j; k++ {
				if trailing {
					b.WriteString(`\u0020`)
				} else {
					b.WriteByte(' ')
				}
			}
			i = j
			continue
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, c)
		case c < utf8.RuneSelf:
			b.WriteByte(c)
		default:
			// A WTF-8 surrogate: ED A0..BF 80..BF.
			if c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
				u := 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
				fmt.Fprintf(&b, `\u%04X`, u)
				i += 3
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				fmt.Fprintf(&b, `\x%02X`, c)
				i++
				continue
			}
			if invisible(r) {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteString(s[i : i+size])
			}
			i += size
			continue
		}
		i++
	}
	return b.String()
}

// invisible reports whether a non-ASCII rune prints as nothing or as a
// blank: controls, format characters (ZWSP, BOM, bidi marks) and spaces.
func invisible(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.IsSpace(r) ||
		unicode.Is(unicode.Zs, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) ||
		r == utf8.RuneError
}
