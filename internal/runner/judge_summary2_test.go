package runner_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/spec"
)

// The requirement table of a run report and the line that reproduces a
// failing case (summary.go) are what a failing run says to its reader:
// a requirement counted as passed where a case failed it, or a
// reproduction that runs another case than the one that failed, is a
// wrong report. Each function against a plain model of its doc comment
// (issue 22, the judge's survivors of summary.go).

// summaryPool is the requirement IDs the drawn reports cite: catalogue
// IDs from its start, middle and end, given out of catalogue order, and
// IDs the catalogue does not have.
func summaryPool(t interface{ Fatalf(string, ...any) }) []string {
	ids := spec.IDs()
	if len(ids) < 20 {
		t.Fatalf("the catalogue has %d requirements: the pool needs 20", len(ids))
	}
	return []string{ids[len(ids)-1], ids[7], "LOCAL-B", ids[0], ids[len(ids)/2], "LOCAL-A", ids[1], "ZZ-1"}
}

// summaryCatalogueOrder is the order a report lists requirement rows in:
// the catalogue's, then IDs it does not know, by ID.
func summaryCatalogueOrder(ids []string) []string {
	pos := map[string]int{}
	for i, id := range spec.IDs() {
		pos[id] = i
	}
	out := slices.Clone(ids)
	slices.SortFunc(out, func(a, b string) int {
		pa, oka := pos[a]
		pb, okb := pos[b]
		switch {
		case oka && okb:
			return pa - pb
		case oka:
			return -1
		case okb:
			return 1
		}
		return strings.Compare(a, b)
	})
	return out
}

// summaryModel is Summarize's doc comment: a case counts for each
// requirement it cites, breaks or affects, once; a passing case passes
// them; a failing one fails what it breaks, leaves apart what it only
// affects and passes the rest; a case that errs, times out, crashes or
// is a stale baseline entry fails them all; a known failure (xfail)
// counts as one for what it breaks (all it cites when it names nothing
// broken) and as passed or affected for the rest; a skipped or
// unsupported case is neither.
func summaryModel(r *runner.Report) []runner.RequirementRow {
	rows := map[string]*runner.RequirementRow{}
	for _, c := range r.Cases {
		var ids []string
		for _, id := range slices.Concat(c.Requirements, c.Broken, c.Affected) {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		for _, id := range ids {
			row := rows[id]
			if row == nil {
				row = &runner.RequirementRow{ID: id}
				rows[id] = row
			}
			row.Cases++
			broken, affected := slices.Contains(c.Broken, id), slices.Contains(c.Affected, id)
			switch c.Verdict {
			case verdict.Pass:
				row.Pass++
			case verdict.Fail, verdict.XFail:
				switch {
				case broken || (c.Verdict == verdict.XFail && len(c.Broken) == 0):
					if c.Verdict == verdict.Fail {
						row.Fail++
					} else {
						row.XFail++
					}
				case affected:
					row.Affected++
				default:
					row.Pass++
				}
			case verdict.Error, verdict.Timeout, verdict.Crash, verdict.XPass:
				row.Fail++
			default:
				row.Other++
			}
		}
	}
	var ids []string
	for id := range rows {
		ids = append(ids, id)
	}
	var out []runner.RequirementRow
	for _, id := range summaryCatalogueOrder(ids) {
		row := *rows[id]
		switch {
		case row.Fail > 0:
			row.Status = runner.StatusFailed
		case row.Pass > 0:
			row.Status = runner.StatusPassed
		case row.XFail > 0:
			row.Status = runner.StatusXFail
		default:
			row.Status = runner.StatusNotExercised
		}
		if q, ok := spec.Lookup(id); ok {
			row.Level, row.Title, row.Statement = q.Level, q.Title, q.Statement
		}
		out = append(out, row)
	}
	return out
}

// summaryDrawReport draws a report of cases citing, breaking and
// affecting IDs of the pool, with every verdict.
func summaryDrawReport(t *rapid.T, pool []string) *runner.Report {
	r := &runner.Report{}
	n := rapid.IntRange(0, 6).Draw(t, "cases")
	for i := range n {
		c := runner.CaseResult{ID: fmt.Sprintf("grep.result/judge-%d", i), Op: "grep.result",
			Verdict: rapid.SampledFrom(verdict.All).Draw(t, "verdict")}
		sub := rapid.SliceOfDistinct(rapid.SampledFrom(pool), rapid.ID[string])
		c.Requirements = sub.Draw(t, "cites")
		if c.Verdict == verdict.Fail || c.Verdict == verdict.XFail {
			// What a failing case breaks or affects is mostly what it
			// cites, and may be a requirement it does not cite.
			c.Broken = sub.Draw(t, "broken")
			c.Affected = sub.Draw(t, "affected")
		}
		r.Cases = append(r.Cases, c)
	}
	return r
}

func TestJudgeSummarizeMatchesModel(t *testing.T) {
	pool := summaryPool(t)
	rapid.Check(t, func(t *rapid.T) {
		r := summaryDrawReport(t, pool)
		got, want := runner.Summarize(r), summaryModel(r)
		if len(got) == 0 && len(want) == 0 {
			return
		}
		if !slices.Equal(got, want) {
			t.Fatalf("Summarize of %+v:\n got %+v\nwant %+v", r.Cases, got, want)
		}
	})
}

// Accounting adds each catalogue requirement the run's cases do not cite,
// in catalogue order: not-selected when cases of the case set cite it
// (the note says how many), else check-log when session-log checks prove
// it (the note names the first two and how many more), else excluded (the
// note is the exclusion's reason), else uncovered.
func TestJudgeAccountingMatchesModel(t *testing.T) {
	pool := summaryPool(t)
	reqs, err := spec.Catalogue()
	if err != nil {
		t.Fatal(err)
	}
	var excluded, plain []string
	for _, q := range reqs {
		if q.Exclusion != nil {
			excluded = append(excluded, q.ID)
		} else {
			plain = append(plain, q.ID)
		}
	}
	if len(excluded) < 2 || len(plain) < 20 {
		t.Fatalf("the catalogue has %d excluded and %d other requirements: the test needs 2 and 20", len(excluded), len(plain))
	}
	// Requirements the case set or the log checks may name: excluded and
	// plain ones, some also in the run's pool.
	others := []string{excluded[0], excluded[len(excluded)-1], plain[3], plain[len(plain)-2], plain[len(plain)/3], pool[1], pool[4]}
	checkNames := []string{"chk-alpha", "chk-bravo", "chk-charlie", "chk-delta", "chk-echo"}
	rapid.Check(t, func(t *rapid.T) {
		r := summaryDrawReport(t, pool)
		var all []runner.Case
		for i := range rapid.IntRange(0, 4).Draw(t, "caseSet") {
			all = append(all, runner.Case{ID: fmt.Sprintf("glob.result/set-%d", i),
				Requirements: rapid.SliceOfDistinct(rapid.SampledFrom(others), rapid.ID[string]).Draw(t, "setCites")})
		}
		logChecks := map[string][]string{}
		for _, id := range rapid.SliceOfDistinct(rapid.SampledFrom(others), rapid.ID[string]).Draw(t, "logged") {
			logChecks[id] = checkNames[:rapid.IntRange(0, len(checkNames)).Draw(t, "checks")]
		}
		got := runner.Accounting(r, all, logChecks)

		want := summaryModel(r)
		inRun := map[string]bool{}
		for _, row := range want {
			inRun[row.ID] = true
		}
		for _, q := range reqs {
			if inRun[q.ID] {
				continue
			}
			row := runner.RequirementRow{ID: q.ID, Level: q.Level, Title: q.Title, Statement: q.Statement}
			citing := 0
			for _, c := range all {
				if slices.Contains(c.Requirements, q.ID) {
					citing++
				}
			}
			switch {
			case citing > 0:
				row.Status = runner.StatusNotSelected
			case len(logChecks[q.ID]) > 0:
				row.Status = runner.StatusCheckLog
			case q.Exclusion != nil:
				row.Status, row.Note = runner.StatusExcluded, q.Exclusion.Reason
			default:
				row.Status = runner.StatusUncovered
			}
			want = append(want, row)
		}
		var wantIDs []string
		byID := map[string]runner.RequirementRow{}
		for _, row := range want {
			wantIDs = append(wantIDs, row.ID)
			byID[row.ID] = row
		}
		wantIDs = summaryCatalogueOrder(wantIDs)
		if len(got) != len(wantIDs) {
			t.Fatalf("Accounting has %d rows, want %d (the catalogue's and the run's unknown IDs)", len(got), len(wantIDs))
		}
		for i, row := range got {
			w := byID[wantIDs[i]]
			if row.ID != w.ID {
				t.Fatalf("row %d is %s, want %s: rows are in catalogue order, unknown IDs last", i, row.ID, w.ID)
			}
			switch row.Status {
			case runner.StatusNotSelected:
				citing := 0
				for _, c := range all {
					if slices.Contains(c.Requirements, row.ID) {
						citing++
					}
				}
				if !strings.HasPrefix(row.Note, fmt.Sprintf("%d cases ", citing)) {
					t.Fatalf("%s: note %q, want the %d cases of the case set that cite it", row.ID, row.Note, citing)
				}
				row.Note = ""
			case runner.StatusCheckLog:
				checks := logChecks[row.ID]
				for k, name := range checks {
					if named := strings.Contains(row.Note, name); named != (k < 2) {
						t.Fatalf("%s: note %q names %s: %v, want %v (the first two of %v)", row.ID, row.Note, name, named, k < 2, checks)
					}
				}
				more := fmt.Sprintf("+%d more", len(checks)-2)
				if strings.Contains(row.Note, "more") != (len(checks) > 2) || len(checks) > 2 && !strings.Contains(row.Note, more) {
					t.Fatalf("%s: note %q for checks %v: want %q exactly when there are more than two", row.ID, row.Note, checks, more)
				}
				row.Note = ""
			}
			if row != w {
				t.Fatalf("row %d:\n got %+v\nwant %+v", i, row, w)
			}
		}
	})
}

// summaryShellWords splits a command line as a POSIX shell does, for the
// words shellQuote writes: bare words of characters no shell alters,
// single-quoted text, and backslash-escaped characters between quotes.
// Any other character outside quotes is an error: a shell would expand
// it, split on it or run something.
func summaryShellWords(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			w.WriteByte(c)
		case c == ' ':
			if inWord {
				words = append(words, w.String())
				w.Reset()
			}
			inWord = false
		case c == '\'':
			quoted, inWord = true, true
		case c == '\\' && i+1 < len(line):
			i++
			w.WriteByte(line[i])
			inWord = true
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("@%+=:,./-_", c) >= 0:
			w.WriteByte(c)
			inWord = true
		default:
			return nil, fmt.Errorf("a shell alters %q at byte %d of %s", c, i, line)
		}
	}
	if quoted {
		return nil, fmt.Errorf("unterminated quote in %s", line)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// summarySafeWord is a word no POSIX shell alters, which a reproduction
// leaves bare for its reader.
var summarySafeWord = regexp.MustCompile(`^[A-Za-z0-9@%+=:,./_-]+$`)

// Reproduction is a shell command that runs one case of a report alone:
// the shell reads it as conform run, a --run pattern that matches the
// case's ID alone, the report's fixtures, the flags and the adapter's
// argv, each word as it was; words that need no quoting stay bare.
func TestJudgeReproductionIsOneShellCommand(t *testing.T) {
	// Each end of the bare ranges and the bytes beside them.
	chars := []rune("azAZ09`{@[/:%+=,.-_ '\"\\$!*?]}~#&;|<>()^\tü\n")
	word := rapid.StringOf(rapid.SampledFrom(chars))
	rapid.Check(t, func(t *rapid.T) {
		id := "grep.result/" + word.Draw(t, "id")
		r := &runner.Report{Fixtures: rapid.SampledFrom([]string{"", "fixtures", "my fixtures/it's"}).Draw(t, "fixtures"),
			Adapter: rapid.SliceOfN(word, 0, 4).Draw(t, "adapter")}
		flags := rapid.SliceOfN(word, 0, 3).Draw(t, "flags")
		line := runner.Reproduction(r, id, flags)
		words, err := summaryShellWords(line)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"conform", "run", "--run", "^" + regexp.QuoteMeta(id) + "$"}
		if r.Fixtures != "" {
			want = append(want, "--fixtures", r.Fixtures)
		}
		want = append(want, flags...)
		if len(r.Adapter) > 0 {
			want = append(append(want, "--"), r.Adapter...)
		}
		if !slices.Equal(words, want) {
			t.Fatalf("%s\nreads as %q\nwant %q", line, words, want)
		}
		re, err := regexp.Compile(words[3])
		if err != nil || !re.MatchString(id) || re.MatchString(id+"x") || re.MatchString("x"+id) {
			t.Fatalf("--run %q (%v) does not match %q alone", words[3], err, id)
		}
		for _, w := range want {
			if summarySafeWord.MatchString(w) && !slices.Contains(strings.Split(line, " "), w) {
				t.Fatalf("%s: the plain word %q is quoted", line, w)
			}
		}
	})
}

func TestJudgeReproductionExamples(t *testing.T) {
	r := &runner.Report{Fixtures: "./my cases", Adapter: []string{"python3", "", "it's"}}
	got := runner.Reproduction(r, "glob.result/gen-007", []string{"--exec", "a=b"})
	want := `conform run --run '^glob\.result/gen-007$' --fixtures './my cases' --exec a=b -- python3 '' 'it'\''s'`
	if got != want {
		t.Errorf("Reproduction:\n got %s\nwant %s", got, want)
	}
	if got := runner.Reproduction(&runner.Report{}, "x/1", nil); got != "conform run --run '^x/1$'" {
		t.Errorf("with no fixtures, flags or adapter: %s", got)
	}
}

// Finish gives each case that fails the run or is a known failure its
// file, its input and its reproduction; other cases get none of them.
func TestJudgeFinishReproducesTheFailingCases(t *testing.T) {
	var cases []runner.Case
	r := &runner.Report{Fixtures: "fx", Adapter: []string{"./adapter"}}
	for i, v := range verdict.All {
		id := fmt.Sprintf("grep.result/judge-%d", i)
		cases = append(cases, runner.Case{ID: id, Op: "grep.result", File: "fixtures/" + id + ".json", Input: []byte(fmt.Sprintf(`{"n":%d}`, i))})
		r.Cases = append(r.Cases, runner.CaseResult{ID: id, Op: "grep.result", Verdict: v})
	}
	r.Finish(runner.Finishing{Cases: cases, All: cases, ReproFlags: []string{"--exec"}})
	for i, c := range r.Cases {
		v := verdict.All[i]
		shown := v == verdict.Fail || v == verdict.Error || v == verdict.Timeout || v == verdict.Crash || v == verdict.XPass || v == verdict.XFail
		if !shown {
			if c.File != "" || c.Input != nil || c.Reproduce != "" {
				t.Errorf("%s (%s): file %q, input %s, reproduce %q: want none", c.ID, v, c.File, c.Input, c.Reproduce)
			}
			continue
		}
		if c.File != cases[i].File || string(c.Input) != string(cases[i].Input) {
			t.Errorf("%s (%s): file %q, input %s; want %q, %s", c.ID, v, c.File, c.Input, cases[i].File, cases[i].Input)
		}
		if want := runner.Reproduction(r, c.ID, []string{"--exec"}); c.Reproduce != want || !strings.Contains(want, "--exec") {
			t.Errorf("%s (%s): reproduce %q, want %q", c.ID, v, c.Reproduce, want)
		}
	}
}

// CaseSetHash is the SHA-256 of every file under fixtures/ and golden/
// (path, NUL, length, NUL, bytes), in path order, as "sha256:" and 16 hex
// digits; a file that is not a regular one is an error.
func TestJudgeCaseSetHash(t *testing.T) {
	files := fstest.MapFS{
		"fixtures/a.json":       {Data: []byte(`{"a":1}`)},
		"fixtures/b/c.json":     {Data: []byte(`{}`)},
		"golden/a.json":         {Data: []byte(`{"out":"x"}`)},
		"golden/empty.json":     {Data: []byte{}},
		"README.md":             {Data: []byte("not hashed")},
		"other/fixtures/x.json": {Data: []byte("not hashed")},
	}
	h := sha256.New()
	for _, p := range []string{"fixtures/a.json", "fixtures/b/c.json", "golden/a.json", "golden/empty.json"} {
		data := files[p].Data
		h.Write([]byte(p))
		h.Write([]byte{0})
		h.Write([]byte(fmt.Sprint(len(data))))
		h.Write([]byte{0})
		h.Write(data)
	}
	want := "sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
	got, err := runner.CaseSetHash(files)
	if err != nil || got != want {
		t.Fatalf("CaseSetHash = %q, %v; want %q", got, err, want)
	}
	// The length frames each file: the same bytes split otherwise between
	// two files are another case set.
	moved := fstest.MapFS{}
	for p, f := range files {
		moved[p] = f
	}
	moved["golden/a.json"] = &fstest.MapFile{Data: []byte(`{"out":"x"`)}
	moved["golden/empty.json"] = &fstest.MapFile{Data: []byte(`}`)}
	if other, err := runner.CaseSetHash(moved); err != nil || other == got {
		t.Errorf("a byte moved from one golden file to the next: hash %q, %v; want another than %q", other, err, got)
	}
	files["fixtures/link.json"] = &fstest.MapFile{Mode: fs.ModeSymlink, Data: []byte("a.json")}
	if got, err := runner.CaseSetHash(files); err == nil || !strings.Contains(err.Error(), "fixtures/link.json") {
		t.Errorf("with a symlink under fixtures: %q, %v; want an error naming it", got, err)
	}
	delete(files, "fixtures/link.json")
	delete(files, "golden/a.json")
	delete(files, "golden/empty.json")
	if got, err := runner.CaseSetHash(files); err == nil {
		t.Errorf("without golden/: %q, want an error", got)
	}
}

// CheckOps reports each case whose op protocol v1 does not have, by file
// and op; a case set of known ops is fine.
func TestJudgeCheckOps(t *testing.T) {
	good := []runner.Case{{File: "fixtures/a.json", Op: "grep.result"}, {File: "fixtures/b.json", Op: "glob.result"}}
	if err := runner.CheckOps(good); err != nil {
		t.Errorf("known ops: %v", err)
	}
	if err := runner.CheckOps(nil); err != nil {
		t.Errorf("no cases: %v", err)
	}
	bad := append(slices.Clone(good), runner.Case{File: "fixtures/c.json", Op: "grep.results"}, runner.Case{File: "fixtures/d.json", Op: ""})
	err := runner.CheckOps(bad)
	if err == nil {
		t.Fatal("two unknown ops: no error")
	}
	for _, want := range []string{`fixtures/c.json: unknown op "grep.results"`, `fixtures/d.json: unknown op ""`, "grep.result"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "fixtures/a.json") {
		t.Errorf("error %q names a case whose op is known", err)
	}
}

// One case of an unknown op is a bug in the case set too.
func TestJudgeCheckOpsOneUnknown(t *testing.T) {
	err := runner.CheckOps([]runner.Case{{File: "fixtures/a.json", Op: "grep.result"}, {File: "fixtures/x.json", Op: "grep"}})
	if err == nil || !strings.Contains(err.Error(), `fixtures/x.json: unknown op "grep"`) {
		t.Errorf("one unknown op: %v", err)
	}
}

// A MUST requirement whose cases were all skipped never passed: the reason
// says how many cases cite it, one in the singular.
func TestJudgeReasonNeverPassedCountsItsCases(t *testing.T) {
	id := ""
	reqs, _ := spec.Catalogue()
	for _, q := range reqs {
		if q.Level == "MUST" {
			id = q.ID
			break
		}
	}
	if id == "" {
		t.Fatal("no MUST requirement in the catalogue")
	}
	for n, want := range map[int]string{1: "one case", 2: "2 cases", 3: "3 cases"} {
		r := &runner.Report{Complete: true}
		for i := range n {
			r.Cases = append(r.Cases, runner.CaseResult{ID: fmt.Sprintf("grep.result/judge-%d", i), Op: "grep.result", Requirements: []string{id}, Verdict: verdict.Skipped})
		}
		r.Cases = append(r.Cases, runner.CaseResult{ID: "grep.result/judge-pass", Op: "grep.result", Verdict: verdict.Pass})
		found := false
		for _, why := range runner.Reasons(r) {
			if why.Kind == runner.ReasonReqNeverPassed && why.Subject == id {
				found = true
				if !strings.Contains(why.Message, want) || n == 1 && strings.Contains(why.Message, "cases") {
					t.Errorf("%d skipped cases: %q does not say %q", n, why.Message, want)
				}
			}
		}
		if !found {
			t.Errorf("%d skipped cases citing %s: no %s reason", n, id, runner.ReasonReqNeverPassed)
		}
	}
}

// An incomplete run says why it stopped, in the report's own words, or
// that the report does not say it completed.
func TestJudgeReasonIncompleteSaysWhy(t *testing.T) {
	for stopped, want := range map[string]string{
		"interrupted by SIGINT": "interrupted by SIGINT",
		"":                      "does not say it completed",
	} {
		r := &runner.Report{Complete: false, Stopped: stopped}
		found := false
		for _, why := range runner.Reasons(r) {
			if why.Kind == runner.ReasonIncomplete {
				found = true
				if !strings.Contains(why.Message, want) {
					t.Errorf("stopped %q: %q does not say %q", stopped, why.Message, want)
				}
			}
		}
		if !found {
			t.Errorf("stopped %q: no %s reason", stopped, runner.ReasonIncomplete)
		}
	}
}
