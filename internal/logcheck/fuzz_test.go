package logcheck_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dsh-conform/conform/internal/logcheck"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/spec"
)

// FuzzCheck feeds arbitrary bytes to Check as a log: it never panics or
// fails to read; every finding names a catalogued requirement, has a known
// level and one line of message; the stats add up; and the checker's fast
// JSON scanner agrees with jsonjs.ParseReplacing (JSON.parse of the
// decoded bytes; invalid UTF-8 is a LOG-1 finding of its own) on every
// line: a line is reported malformed exactly when it rejects it. Seeded with
// the real logs and the rule fixtures.
func FuzzCheck(f *testing.F) {
	for _, dir := range []string{"sessions", "rules"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.jsonl"))
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Add([]byte(""))
	f.Add([]byte("\n\n"))
	f.Add([]byte(`{"type":"session","version":-0,"id":"x","createdAt":-0}` + "\n" + `[1,{"a":"\ud800"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		opt := logcheck.Defaults()
		opt.MaxLineBytes = 1 << 16
		opt.MaxInlineBytes = 300
		var findings []logcheck.Finding
		st, err := logcheck.Check(bytes.NewReader(data), "fuzz.jsonl", opt, func(x logcheck.Finding) { findings = append(findings, x) })
		if err != nil {
			t.Fatalf("read error on an in-memory log: %v", err)
		}
		if st.Bytes != int64(len(data)) {
			t.Fatalf("Bytes = %d, want %d", st.Bytes, len(data))
		}
		perLevel := map[logcheck.Level]int{}
		for _, x := range findings {
			if _, ok := spec.Lookup(x.Requirement); !ok {
				t.Fatalf("unknown requirement %q in %+v", x.Requirement, x)
			}
			switch x.Level {
			case logcheck.Violation, logcheck.Warning, logcheck.Unprovable:
			default:
				t.Fatalf("bad level in %+v", x)
			}
			if strings.ContainsAny(x.Message, "\n\r") || !utf8.ValidString(x.Message) {
				t.Fatalf("message is not one line of UTF-8: %q", x.Message)
			}
			perLevel[x.Level]++
		}
		for lvl, n := range perLevel {
			if st.Findings[lvl] != n {
				t.Fatalf("Stats.Findings[%s] = %d, emitted %d", lvl, st.Findings[lvl], n)
			}
		}
		// The scanner and JSON.parse agree line by line.
		lines := bytes.Split(data, []byte("\n"))
		if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		if st.Lines != len(lines) {
			t.Fatalf("Lines = %d, want %d", st.Lines, len(lines))
		}
		malformed := 0
		for _, l := range lines {
			if len(l) > opt.MaxLineBytes {
				malformed++
				continue
			}
			if _, err := jsonjs.ParseReplacing(l); err != nil {
				malformed++
			}
		}
		if st.MalformedLines != malformed {
			t.Fatalf("MalformedLines = %d, jsonjs.ParseReplacing rejects %d lines", st.MalformedLines, malformed)
		}
	})
}
