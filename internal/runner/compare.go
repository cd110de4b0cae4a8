package runner

import (
	"fmt"
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
// field of one op, and the requirements the comparison verifies (IDs, or
// prefixes ending in "*"; "*" alone: whatever the case cites). A failing
// comparison blames the case's cited requirements among them (see blame).
type Rule struct {
	Op           string // an op, or AnyOp
	Field        string // an output member, OtherFields, or ErrorField
	Comparator   string // CmpExact or CmpJSON
	Requirements []string
}

// The requirement groups several rows share.
var (
	grepText  = []string{"SEARCH-GREP-*", "SEARCH-RETAIN-1", "SEARCH-PREVIEW-*", "SEARCH-SPILL-1", "SEARCH-SPILL-5", "SEARCH-SPILL-6", "SEARCH-SPILL-7", "SEARCH-ERR-1", "SEARCH-ARGS-*", "SEARCH-VAL-*", "SEARCH-CFG-*", "SEARCH-EXEC-*", "RET-*", "CODE-DISPATCH-6"}
	globText  = []string{"SEARCH-GLOB-*", "SEARCH-RETAIN-2", "SEARCH-SAMPLE-*", "SEARCH-SPILL-1", "SEARCH-SPILL-5", "SEARCH-SPILL-6", "SEARCH-SPILL-7", "SEARCH-ERR-1", "SEARCH-ARGS-*", "SEARCH-VAL-*", "SEARCH-CFG-*", "SEARCH-EXEC-*", "RET-*", "CODE-DISPATCH-6"}
	searchErr = []string{"SEARCH-ERR-1", "SEARCH-ARGS-*", "SEARCH-VAL-*", "SEARCH-CFG-2", "SEARCH-EXEC-3"}
	searchMet = []string{"SEARCH-META-*", "SEARCH-JSON-*", "SEARCH-CAP-*", "SEARCH-RETAIN-*", "SEARCH-SAMPLE-*", "SEARCH-PREVIEW-*", "SEARCH-CFG-*", "SEARCH-VAL-*", "SEARCH-EXEC-4", "SEARCH-EXEC-5", "RET-*", "CODE-DISPATCH-6"}
	searchVw  = []string{"SEARCH-NARROW-*", "SEARCH-PRESENT-*", "CODE-PRESENT-4"}
	spillSave = []string{"SEARCH-SPILL-1", "SEARCH-SPILL-2", "SEARCH-SPILL-3", "SEARCH-SPILL-4", "SEARCH-SPILL-6", "SEARCH-SPILL-7", "CODE-DISPATCH-6"}
	codeText  = []string{"CODE-RENDER-*", "CODE-JSON-*", "CODE-NUM-1", "CODE-STR-1", "CODE-KEYS-*", "CODE-LOSSLESS-1", "CODE-FAIL-*", "CODE-ERR-1", "CODE-VALUE-1", "CODE-DISPATCH-8"}
	codeErr   = []string{"CODE-FAIL-*", "CODE-ERR-1", "CODE-LOSSLESS-1"}
	itemsOut  = []string{"RET-ITEM-3", "RET-OMIT-1"}
	textOut   = []string{"RET-TEXT-7", "RET-OMIT-1", "RET-UTF8-4"}
	whole     = []string{"*"}
)

// Rules is the comparison table of docs/fixtures.md, row for row; it is the
// only place comparators are declared. A field's rule is its own row, else
// its op's OtherFields row. Every golden output member has a rule (tested).
var Rules = []Rule{
	{"grep.result", "content", CmpExact, grepText},
	{"grep.result", "spillText", CmpExact, spillSave},
	{"grep.result", "isError", CmpJSON, searchErr}, // equal booleans
	{"grep.result", "error", CmpJSON, searchErr},
	{"grep.result", "meta", CmpJSON, searchMet},
	{"grep.result", "view", CmpJSON, searchVw},
	{"grep.result", "callView", CmpJSON, []string{"SEARCH-CALL-*", "CODE-PRESENT-4"}},
	{"glob.result", "content", CmpExact, globText},
	{"glob.result", "spillText", CmpExact, spillSave},
	{"glob.result", "isError", CmpJSON, searchErr},
	{"glob.result", "error", CmpJSON, searchErr},
	{"glob.result", "meta", CmpJSON, searchMet},
	{"glob.result", "view", CmpJSON, searchVw},
	{"glob.result", "callView", CmpJSON, []string{"SEARCH-CALL-*", "CODE-PRESENT-4"}},
	{"search.present", "view", CmpJSON, searchVw},
	{"run_code.result", "content", CmpExact, codeText},
	{"run_code.result", "isError", CmpJSON, codeErr},
	{"run_code.result", "error", CmpJSON, codeErr},
	{"run_code.result", "meta", CmpJSON, []string{"CODE-PRESENT-3", "CODE-DEF-2"}},
	{"run_code.result", "view", CmpJSON, []string{"CODE-PRESENT-2", "CODE-DEF-2"}},
	{"run_code.result", "callView", CmpJSON, []string{"CODE-PRESENT-1", "CODE-DEF-1"}},
	{"retain.items", "items", CmpJSON, []string{"RET-ITEM-2", "RET-ITEM-3"}},
	{"retain.items", "pushes", CmpJSON, []string{"RET-ITEM-2"}},
	{"retain.items", OtherFields, CmpJSON, itemsOut},
	{"retain.text", "text", CmpExact, []string{"RET-TEXT-1", "RET-TEXT-4", "RET-TEXT-5", "RET-TEXT-6", "RET-UTF8-*"}},
	{"retain.text", "pushes", CmpJSON, []string{"RET-TEXT-3"}},
	{"retain.text", OtherFields, CmpJSON, textOut},
	{"spill.preview", "content", CmpExact, []string{"SPILL-*", "SEARCH-SPILL-7"}}, // exact string or both null
	{"spill.preview", "save", CmpJSON, []string{"SPILL-REF-1", "SPILL-RES-*", "SPILL-CFG-1", "SPILL-LOG-*", "SPILL-KEEP-1"}},
	{AnyOp, ErrorField, CmpExact, whole},
}

// ComparatorFor returns the comparator of an op's output field (or of
// ErrorField), and false when the table has no row for it.
func ComparatorFor(op, field string) (string, bool) {
	r, ok := RuleFor(op, field)
	return r.Comparator, ok
}

// RuleFor returns the row of an op's output field (or of ErrorField), and
// false when the table has none.
func RuleFor(op, field string) (Rule, bool) {
	var other *Rule
	for i, r := range Rules {
		if r.Op != op && r.Op != AnyOp {
			continue
		}
		switch r.Field {
		case field:
			return r, true
		case OtherFields:
			other = &Rules[i]
		}
	}
	if other == nil {
		return Rule{}, false
	}
	return *other, true
}

// maxJSONDiffs bounds the JSON paths reported per field.
const maxJSONDiffs = 10

// Compare compares an answer with a case's golden answer: exactly one of
// output and errMsg is non-nil. It returns nil when they agree. Each diff
// names the requirements it blames (see blame).
func Compare(c Case, output *jsonjs.Value, errMsg *string) []Diff {
	want := c.Want
	var diffs []Diff
	var sides []jsonjs.Difference // the values each diff compares, for blame
	switch {
	case want.Error != nil && errMsg != nil:
		w, g := jsonjs.StringValue(*want.Error), jsonjs.StringValue(*errMsg)
		if d := exactDiff(ErrorField, "$.error.message", w, g); d != nil {
			diffs, sides = []Diff{*d}, make([]jsonjs.Difference, 1) // blame locates no part in a message
		}
	case want.Error != nil:
		diffs = []Diff{{
			Field: "", Comparator: CmpExact, Path: "$",
			Want:    "error " + excerptText(*want.Error),
			Got:     "output " + excerptJSON(*output),
			Message: "want an error answer, got an output",
		}}
		diffs[0].setWant(jsonjs.ObjectValue(jsonjs.Member{Key: "error", Value: jsonjs.StringValue(*want.Error)}))
		diffs[0].setGot(jsonjs.ObjectValue(jsonjs.Member{Key: "output", Value: *output}))
		sides = make([]jsonjs.Difference, 1)
	case errMsg != nil:
		diffs = []Diff{{
			Field: "", Comparator: CmpJSON, Path: "$",
			Want:    "output " + excerptJSON(*want.Output),
			Got:     "error " + excerptText(*errMsg),
			Message: "want an output, got an error answer",
		}}
		diffs[0].setWant(jsonjs.ObjectValue(jsonjs.Member{Key: "output", Value: *want.Output}))
		diffs[0].setGot(jsonjs.ObjectValue(jsonjs.Member{Key: "error", Value: jsonjs.StringValue(*errMsg)}))
		sides = make([]jsonjs.Difference, 1)
	default:
		diffs, sides = compareOutput(c.Op, *want.Output, *output)
	}
	blame(c, output, diffs, sides)
	return diffs
}

// compareOutput compares two outputs field by field. sides holds the
// values each diff compares (the whole values, which a diff may keep only
// the size of).
func compareOutput(op string, want, got jsonjs.Value) (diffs []Diff, sides []jsonjs.Difference) {
	wantMembers, ok := want.Members()
	gotMembers, gotOK := got.Members()
	if !ok || !gotOK {
		// Not the objects docs/ops.md promises: compare whole answers.
		sides = jsonjs.Differences(want, got, maxJSONDiffs)
		for _, d := range sides {
			diffs = append(diffs, jsonDiff("", CmpJSON, d))
		}
		return diffs, sides
	}
	for _, m := range wantMembers {
		cmp, _ := ComparatorFor(op, m.Key)
		if cmp == "" {
			cmp = CmpJSON
		}
		path := memberPath("$", m.Key)
		g, present := got.Get(m.Key)
		if !present {
			d := Diff{
				Field: m.Key, Comparator: cmp, Path: path,
				Want: excerptJSON(m.Value), Got: "(missing)",
				Message: fmt.Sprintf("output field %q is missing", m.Key),
			}
			d.setWant(m.Value)
			diffs, sides = append(diffs, d), append(sides, jsonjs.Difference{Path: path, A: m.Value, InA: true})
			continue
		}
		switch cmp {
		case CmpExact:
			if d := exactDiff(m.Key, path, m.Value, g); d != nil {
				diffs, sides = append(diffs, *d), append(sides, jsonjs.Difference{Path: path, A: m.Value, B: g, InA: true, InB: true})
			}
		default:
			for _, d := range jsonjs.Differences(m.Value, g, maxJSONDiffs) {
				d.Path = path + strings.TrimPrefix(d.Path, "$")
				diffs, sides = append(diffs, jsonDiff(m.Key, cmp, d)), append(sides, d)
			}
		}
	}
	for _, m := range gotMembers {
		if !want.Has(m.Key) {
			// The key shares the answer's whole text (jsonjs.Parse), which
			// the report must not keep: a case's result outlives its answer.
			m.Key = strings.Clone(m.Key)
			cmp, _ := ComparatorFor(op, m.Key)
			if cmp == "" {
				cmp = CmpJSON
			}
			d := Diff{
				Field: m.Key, Comparator: cmp, Path: memberPath("$", m.Key),
				Want: "(missing)", Got: excerptJSON(m.Value),
				Message: fmt.Sprintf("unexpected output field %q", m.Key),
			}
			d.setGot(m.Value)
			diffs, sides = append(diffs, d), append(sides, jsonjs.Difference{Path: d.Path, B: m.Value, InB: true})
		}
	}
	return diffs, sides
}

// MaxWholeBytes bounds the whole values a diff keeps (WantJSON, GotJSON).
// No golden value comes near it (the largest are about 200 KB); a larger
// one is kept as its excerpt only, so that a run against an adapter
// answering every case with megabytes (issue 23) holds kilobytes a case.
const MaxWholeBytes = 1 << 18

// wholeJSON is v's JSON text, or nil and false when it is over
// MaxWholeBytes: the walk stops there, so a huge or deeply nested value
// costs that much, not its size.
func wholeJSON(v jsonjs.Value) (raw []byte, fits bool) {
	if jsonjs.Over(v, MaxWholeBytes) {
		return nil, false // a deep value known to be over it without a walk
	}
	b, ok := jsonjs.AppendPrefix(nil, v, MaxWholeBytes)
	if !ok {
		return nil, false
	}
	return b, true
}

// setWant keeps the golden side's whole value, or says it is too large.
func (d *Diff) setWant(v jsonjs.Value) {
	var fits bool
	d.WantJSON, fits = wholeJSON(v)
	d.WantTooLarge = !fits
}

// setGot keeps the answer side's whole value, or says it is too large.
func (d *Diff) setGot(v jsonjs.Value) {
	var fits bool
	d.GotJSON, fits = wholeJSON(v)
	d.GotTooLarge = !fits
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

// jsonDiff describes one difference of want (A) and got (B): the full
// values on both sides, excerpts, and for two arrays the first element
// that differs.
func jsonDiff(field, cmp string, x jsonjs.Difference) Diff {
	d := Diff{Field: field, Comparator: cmp, Path: x.Path}
	if x.InA {
		d.setWant(x.A)
		d.Want = excerptJSON(x.A)
	}
	if x.InB {
		d.setGot(x.B)
		d.Got = excerptJSON(x.B)
	}
	w, g := x.A, x.B
	switch {
	case !x.InB:
		d.Got = "(missing)"
		d.Message = "missing: the golden answer has a member here"
	case !x.InA:
		d.Want = "(missing)"
		d.Message = "unexpected member: the golden answer has none here"
	case w.Kind() != g.Kind():
		d.Message = fmt.Sprintf("want %s, got %s", kindName(w), kindName(g))
	default:
		d.Message = "differs from the golden answer (JSON-equal)"
		if n, ok := w.Items(); ok {
			m, _ := g.Items()
			d.Message = fmt.Sprintf("want %d elements, got %d", len(n), len(m))
			i := firstDifferentItem(n, m)
			d.Element = &i
			switch {
			case i >= len(m):
				d.Want, d.Got = fmt.Sprintf("[%d] %s", i, excerptJSON(n[i])), fmt.Sprintf("[%d] (missing)", i)
			case i >= len(n):
				d.Want, d.Got = fmt.Sprintf("[%d] (missing)", i), fmt.Sprintf("[%d] %s", i, excerptJSON(m[i]))
			default:
				d.Want, d.Got = fmt.Sprintf("[%d] %s", i, excerptJSON(n[i])), fmt.Sprintf("[%d] %s", i, excerptJSON(m[i]))
			}
			d.Message += fmt.Sprintf("; the first differing element is [%d]", i)
		} else if n, ok := w.Members(); ok {
			m, _ := g.Members()
			d.Message = fmt.Sprintf("want %d members, got %d", len(n), len(m))
		}
	}
	return d
}

// firstDifferentItem is the index of the first element two arrays of
// different lengths do not share (the shorter one's length when one is a
// prefix of the other).
func firstDifferentItem(a, b []jsonjs.Value) int {
	i := 0
	for i < len(a) && i < len(b) && jsonjs.Equal(a[i], b[i]) {
		i++
	}
	return i
}

// excerptBytes is how much of a value or text a diff shows.
const (
	excerptBytes = 160
	contextBytes = 40
)

// excerptJSON is the compact JSON.stringify text of v, cut to
// excerptBytes; only that much of v is serialized.
func excerptJSON(v jsonjs.Value) string {
	b, _ := jsonjs.AppendPrefix(nil, v, excerptBytes+1)
	if len(b) <= excerptBytes {
		return string(b)
	}
	cut := excerptBytes
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return string(b[:cut]) + "…"
}

// excerptText is text made visible and cut to excerptBytes, for an
// excerpt: an adapter's error message of a megabyte is no megabyte per
// case (issue 21: sizes bounded); the whole message is the diff's got.
func excerptText(s string) string {
	if len(s) <= excerptBytes {
		return visible(s)
	}
	cut := excerptBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return visibleAt(s[:cut], false) + "…"
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
		d := &Diff{
			Field: field, Comparator: CmpExact, Path: path,
			Want: kindExcerpt(want), Got: kindExcerpt(got),
			Message: fmt.Sprintf("want %s, got %s", describeKind(want), describeKind(got)),
		}
		d.setWant(want)
		d.setGot(got)
		return d
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
	d := &Diff{
		Field: field, Comparator: CmpExact, Path: path, Offset: i,
		Want: Excerpt(ws, i), Got: Excerpt(gs, i),
		Message: msg,
	}
	d.setWant(want)
	d.setGot(got)
	return d
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
