package logcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// Tests for survivors of the judge's run in check.go (issue 22,
// docs/mutation.md "The judge"): the options Check takes, how a finding
// names its seq, call id and line, and what lineDone says about a line
// that is not an event object.

const checkJudgeHeader = `{"type":"session","version":0,"id":"rules-0001","createdAt":1785591986068,"cwd":"/w","delegationDepth":0}`

// checkJudgeRun checks log with opt and returns its findings.
func checkJudgeRun(t *testing.T, log string, opt Options) []Finding {
	t.Helper()
	var out []Finding
	if _, err := Check(strings.NewReader(log), "t.jsonl", opt, func(f Finding) { out = append(out, f) }); err != nil {
		t.Fatalf("Check: %v", err)
	}
	return out
}

// checkJudgeLines renders findings as "line seq REQ level: message".
func checkJudgeLines(fs []Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%d %d %s %s: %s", f.Line, f.Seq, f.Requirement, f.Level, f.Message))
	}
	return out
}

func checkJudgeValidBase(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "rules", "valid-base.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Options of zero (or negative) MaxLineBytes and SearchMetaMaxBytes mean
// the upstream defaults (Options' doc, SEARCH-CFG-2: the cap is a positive
// integer), not a cap of 0 that every line or meta would break.
// Kills check.go:87:22 and check.go:91:28.
func TestJudgeCheckUnsetOptionsAreDefaults(t *testing.T) {
	log := checkJudgeValidBase(t)
	if got := checkJudgeRun(t, log, Defaults()); len(got) != 0 {
		t.Fatalf("valid-base with the defaults: %v", checkJudgeLines(got))
	}
	for _, o := range []Options{{}, {MaxLineBytes: -1, SearchMetaMaxBytes: -1}, {MaxLineBytes: 0, SearchMetaMaxBytes: 65536}, {MaxLineBytes: 64 << 20, SearchMetaMaxBytes: 0}} {
		if got := checkJudgeRun(t, log, o); len(got) != 0 {
			t.Errorf("valid-base with %+v: %v, want no finding (unset means the default)", o, checkJudgeLines(got))
		}
	}
}

// MaxLineBytes 1 is a cap of one byte, not an unset option: each line of
// the log is longer, and skipped. Kills check.go:87:25.
func TestJudgeCheckMaxLineBytesOne(t *testing.T) {
	log := checkJudgeHeader + "\n" + `{}` + "\n"
	got := checkJudgeLines(checkJudgeRun(t, log, Options{MaxLineBytes: 1}))
	want := []string{
		fmt.Sprintf("1 -1 LOG-1 violation: line 1 is longer than 1 bytes; skipped (%d bytes)", len(checkJudgeHeader)),
		"2 -1 LOG-1 violation: line 2 is longer than 1 bytes; skipped (2 bytes)",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

// report's prefix: "seq N (id): " when there is a seq and an id (seq 0 is
// a seq: the first event of a log has it), "seq N: " without an id, "line
// N: " with neither (unless the message starts with the line), nothing for
// a finding about the whole file (line 0). The message is one line: CR and
// LF are written as \r and \n. Kills check.go:131:11, 131:14, 133:12 and
// 137:5.
func TestJudgeCheckReportPrefix(t *testing.T) {
	var got []Finding
	c := newChecker("t.jsonl", Defaults(), func(f Finding) { got = append(got, f) })
	c.report(3, 0, "call_1", "R", Warning, "x")
	c.report(3, 1, "call_1", "R", Warning, "x")
	c.report(3, 0, "", "R", Warning, "x")
	c.report(3, -1, "", "R", Warning, "x")
	c.report(3, -1, "", "R", Warning, "line 3 is y")
	c.report(0, -1, "", "R", Warning, "the log is z")
	c.report(1, -1, "", "R", Warning, "a\nb\rc")
	c.report(1, 2, "a b", "R", Warning, "x%s", "\r\n")
	want := []string{
		"3 0 R warning: seq 0 (call_1): x",
		"3 1 R warning: seq 1 (call_1): x",
		"3 0 R warning: seq 0: x",
		"3 -1 R warning: line 3: x",
		"3 -1 R warning: line 3 is y",
		"0 -1 R warning: the log is z",
		`1 -1 R warning: line 1: a\nb\rc`,
		`1 2 R warning: seq 2 ("a b"): x\r\n`,
	}
	if g := checkJudgeLines(got); !slices.Equal(g, want) {
		t.Fatalf("got  %q\nwant %q", g, want)
	}
}

// The format's "line " test is on the format, so a message whose text
// (not its format) starts with "line" still gets its prefix; and a CR in
// the log's own bytes (JSON whitespace, kept by clip) reaches a message
// only escaped. Kills check.go:137:5 through Check.
func TestJudgeCheckMessageIsOneLine(t *testing.T) {
	log := strings.Replace(checkJudgeHeader, `"version":0`, "\"version\":[0,\r1]", 1) + "\n"
	got := checkJudgeLines(checkJudgeRun(t, log, Defaults()))
	want := []string{`1 -1 LOG-2 violation: line 1: session header: version is [0,\r1], not 0`}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

// showID prints an id as is when it is at most 80 bytes of printable
// ASCII without a quote or a parenthesis (which would make the "(id)" of
// a prefix ambiguous), else quoted and cut. Kills check.go:149:19,
// 150:11, 150:14, 150:25, 151:20, 151:27, 151:32, 151:40 and 152:12.
func TestJudgeCheckShowID(t *testing.T) {
	a80 := strings.Repeat("a", 80)
	for _, c := range []struct {
		id    string
		plain bool
	}{
		{"call_1", true},
		{"toolu_01ABC-xyz.9~", true},
		{"!", true},
		{"~", true},
		{a80, true},
		{a80 + "a", false},
		{"", true},
		{"a b", false},
		{" ", false},
		{"a\tb", false},
		{"a\x7fb", false},
		{"\x7f", false},
		{"é", false},
		{`a"b`, false},
		{`"`, false},
		{"(x", false},
		{"x(", false},
		{"x)", false},
		{")", false},
	} {
		want := c.id
		if !c.plain {
			want = quote(c.id)
		}
		if got := showID(c.id); got != want {
			t.Errorf("showID(%q) = %s, want %s", c.id, got, want)
		}
	}
	if got, want := showID(a80+"a"), strconv.Quote(a80)+"…"; got != want {
		t.Errorf("showID of 81 bytes = %s, want %s", got, want)
	}
}

// quote cuts a string of more than 80 bytes to at most 80, at a rune
// start (never inside a UTF-8 sequence), and marks the cut with "…"; a
// string of at most 80 bytes is quoted whole. A model: the longest prefix
// of at most 80 bytes that ends where a rune starts (or the empty one).
// Kills check.go:163:12, 165:11 (both), 165:13, 165:15 and 166:7.
func TestJudgeCheckQuote(t *testing.T) {
	model := func(s string) string {
		if len(s) <= 80 {
			return strconv.Quote(s)
		}
		cut := 0
		for i := 1; i <= 80; i++ {
			if utf8.RuneStart(s[i]) {
				cut = i
			}
		}
		return strconv.Quote(s[:cut]) + "…"
	}
	a := func(n int) string { return strings.Repeat("a", n) }
	cases := []struct{ s, want string }{
		{a(80), `"` + a(80) + `"`},
		{a(81), `"` + a(80) + `"…`},
		{a(79) + "é" + "zz", `"` + a(79) + `"…`},
		{a(78) + "€" + "z", `"` + a(78) + `"…`},
		{a(80) + "é", `"` + a(80) + `"…`},
		{a(77) + "€" + "zz", `"` + a(77) + `€"…`},
		{strings.Repeat("\x80", 100), `""…`},
		{"é" + strings.Repeat("\x80", 100), `""…`},
	}
	for _, c := range cases {
		if got := quote(c.s); got != c.want {
			t.Errorf("quote(%q) = %s, want %s", c.s, got, c.want)
		}
		if m := model(c.s); m != c.want {
			t.Fatalf("the model disagrees with case %q: %s", c.s, m)
		}
	}
	// Every length around the cut, with runes of 1 to 4 bytes.
	for _, r := range []string{"a", "é", "€", "𝄞"} {
		for pre := 70; pre <= 82; pre++ {
			for n := 1; n <= 4; n++ {
				s := a(pre) + strings.Repeat(r, n)
				if got, want := quote(s), model(s); got != want {
					t.Errorf("quote(%q) = %s, want %s", s, got, want)
				}
			}
		}
	}
}

// lineDone on a line that is JSON but not an object: line 1 is a missing
// session header (LOG-2), a later line is not an event object (LOG-3); an
// object, even an empty one, is neither (its missing type is another
// finding). Neither finding has a seq. An empty line and a line that is
// not JSON are LOG-1, named as such. Kills check.go:279:5, 279:14,
// 279:17, 280:27, 280:39, 281:7, 282:18, 285:17, 262:51 and 263:17.
func TestJudgeCheckNotAnObject(t *testing.T) {
	for _, c := range []struct {
		log  string
		want []string
	}{
		{"[1,2]\n", []string{"1 -1 LOG-2 violation: line 1: missing session header: line 1 is a JSON array, not an object"}},
		{"[]\n", []string{"1 -1 LOG-2 violation: line 1: missing session header: line 1 is a JSON array, not an object"}},
		{"7\n", []string{"1 -1 LOG-2 violation: line 1: missing session header: line 1 is a JSON number, not an object"}},
		{`"session"` + "\n", []string{"1 -1 LOG-2 violation: line 1: missing session header: line 1 is a JSON string, not an object"}},
		{checkJudgeHeader + "\n[1,2]\n", []string{"2 -1 LOG-3 violation: line 2 is a JSON array, not an event object"}},
		{checkJudgeHeader + "\n[]\n", []string{"2 -1 LOG-3 violation: line 2 is a JSON array, not an event object"}},
		{checkJudgeHeader + "\nnull\n", []string{"2 -1 LOG-3 violation: line 2 is a JSON null, not an event object"}},
		{checkJudgeHeader + "\n\n", []string{"2 -1 LOG-1 violation: line 2 is empty, not a JSON value"}},
		{checkJudgeHeader + "\n \t\r\n", []string{"2 -1 LOG-1 violation: line 2 is empty, not a JSON value"}},
	} {
		got := checkJudgeLines(checkJudgeRun(t, c.log, Defaults()))
		if !slices.Equal(got, c.want) {
			t.Errorf("%q:\ngot  %q\nwant %q", c.log, got, c.want)
		}
	}
	// An object is not "not an object": whatever it lacks is another
	// finding, never the LOG-2/LOG-3 kind one.
	for _, log := range []string{"{}\n", `{"type":"session"}` + "\n", checkJudgeHeader + "\n{}\n", checkJudgeHeader + "\n" + `{"a":1}` + "\n"} {
		for _, f := range checkJudgeRun(t, log, Defaults()) {
			if strings.Contains(f.Message, "is a JSON") || strings.Contains(f.Message, "is empty, not") {
				t.Errorf("%q: %s %s", log, f.Requirement, f.Message)
			}
		}
	}
	// A line of one byte that is not JSON is not "empty".
	for _, f := range checkJudgeRun(t, checkJudgeHeader+"\nx\n", Defaults()) {
		if f.Line != 2 || f.Requirement != "LOG-1" || !strings.HasPrefix(f.Message, "line 2 is not JSON: ") || f.Seq != -1 {
			t.Errorf("a line \"x\": %d %d %s %s", f.Line, f.Seq, f.Requirement, f.Message)
		}
	}
}

// An empty log is one finding about the whole file: no line, no seq.
// Kills check.go:346:16 (and 133:12 through Check).
func TestJudgeCheckEmptyLog(t *testing.T) {
	got := checkJudgeLines(checkJudgeRun(t, "", Defaults()))
	want := []string{"0 -1 LOG-2 violation: the log is empty: no session header"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// The column of the first invalid UTF-8 byte is 1-based from the line's
// first byte, the first byte included. Kills check.go:333:11.
func TestJudgeCheckFirstInvalidColumn(t *testing.T) {
	for _, c := range []struct {
		b    string
		want int
	}{
		{"\xffabc", 0},
		{"a\xff", 1},
		{"é\xff", 2},
		{"\xc3", 0},
		{"abc", 3},
		{"", 0},
	} {
		if got := firstInvalid([]byte(c.b)); got != c.want {
			t.Errorf("firstInvalid(%q) = %d, want %d", c.b, got, c.want)
		}
	}
	got := checkJudgeLines(checkJudgeRun(t, checkJudgeHeader+"\n\xff{}\n", Defaults()))
	if len(got) == 0 || got[0] != "2 -1 LOG-1 violation: line 2 is not valid UTF-8 (first invalid byte at column 1)" {
		t.Fatalf("got %q", got)
	}
}

// read takes a line that fits its 64 KiB reader in place; only a longer
// one (or a last one without LF) is copied, grown by doubling (grow: a
// kept line of L bytes costs about 2L bytes). So checking a log of short
// lines allocates one reader and per-line scratch, never a buffer per
// line: averaged over repeated checks of valid-base (15 lines, 3 KiB),
// under two reader buffers and four times the log's bytes. A reader of a
// few bytes would copy every line into a fresh 64 KiB buffer (about 1 MB
// a check). Kills check.go:175:33.
func TestJudgeCheckShortLinesAreNotCopied(t *testing.T) {
	log := checkJudgeValidBase(t)
	const rounds = 50
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	for range rounds {
		if _, err := Check(strings.NewReader(log), "t.jsonl", Defaults(), nil); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&m1)
	per := (m1.TotalAlloc - m0.TotalAlloc) / rounds
	if limit := uint64(2*(64<<10) + 4*len(log)); per > limit {
		t.Fatalf("a check of a %d-byte log of short lines allocates %d bytes, over %d", len(log), per, limit)
	}
}
