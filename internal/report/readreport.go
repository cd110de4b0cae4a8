package report

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/spec"
)

// ReadRun parses a JSON run report (`conform run --format json`) with
// JSON.parse semantics (jsonjs, the one JSON reader). It checks the format
// and version first, then the report-run schema, then that case ids are
// unique; every error names the file. The caller bounds data
// (runner.MaxReportBytes); a report longer than jsonjs.MaxTapeBytes is
// refused, as keepInputText could not scan its inputs' texts.
func ReadRun(name string, data []byte) (*runner.Report, error) {
	if len(data) > jsonjs.MaxTapeBytes {
		return nil, fmt.Errorf("%s: a run report of %d bytes: over the %d (1 GiB - 1) that can be read", name, len(data), jsonjs.MaxTapeBytes)
	}
	v, err := runner.ParseReport(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	// input, want and got are outside values of any depth: the schema leaves them free
	if err := spec.Validate("report-run", spec.Instance(v, "input", "want", "got")); err != nil {
		var verr *spec.ValidationError
		if errors.As(err, &verr) {
			return nil, fmt.Errorf("%s: not a valid run report: the report-run schema rejects it at %s", name, strings.Join(quoteAll(verr.Paths), ", "))
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	r, err := decodeRun(v)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	keepInputText(r, data)
	seen := make(map[string]bool, len(r.Cases))
	for _, c := range r.Cases {
		if seen[c.ID] {
			return nil, fmt.Errorf("%s: case %s appears twice", name, c.ID)
		}
		seen[c.ID] = true
	}
	runner.Intern(r) // a saved report's equal messages are one copy too (the matrix reads many)
	return r, nil
}

// The getters below read a report the schema accepted, so a member is
// either absent (its zero value) or of the right type.

func getStr(v jsonjs.Value, key string) string {
	m, _ := v.Get(key)
	s, _ := m.Str()
	return s
}

func getBool(v jsonjs.Value, key string) bool {
	m, _ := v.Get(key)
	b, _ := m.Bool()
	return b
}

func getNum(v jsonjs.Value, key string) float64 {
	m, _ := v.Get(key)
	f, _ := m.Float()
	return f
}

func getStrs(v jsonjs.Value, key string) []string {
	m, ok := v.Get(key)
	items, _ := m.Items()
	if !ok {
		return nil
	}
	out := make([]string, len(items))
	for i, it := range items {
		out[i], _ = it.Str()
	}
	return out
}

func getItems(v jsonjs.Value, key string) []jsonjs.Value {
	m, _ := v.Get(key)
	items, _ := m.Items()
	return items
}

// decodeRun maps a parsed, schema-checked report onto runner.Report.
func decodeRun(v jsonjs.Value) (*runner.Report, error) {
	impl, _ := v.Get("implementation")
	r := &runner.Report{
		Format: getStr(v, "format"), Version: int(getNum(v, "version")), Protocol: int(getNum(v, "protocol")),
		Adapter: getStrs(v, "adapter"), DurationMS: getNum(v, "durationMs"), Totals: map[verdict.Verdict]int{},
		Conform: getStr(v, "conform"), CaseSet: getStr(v, "caseSet"), Fixtures: getStr(v, "fixtures"),
	}
	complete, _ := v.Get("complete")
	r.Complete, _ = complete.Bool() // the schema requires it
	r.Stopped, r.Selected = getStr(v, "stopped"), int(getNum(v, "selected"))
	if f, ok := v.Get("fault"); ok {
		r.Fault = &runner.Fault{Kind: getStr(f, "kind"), Message: getStr(f, "message"), Stderr: getStr(f, "stderr")}
	}
	for _, n := range getItems(v, "nonconformant") {
		r.Nonconformant = append(r.Nonconformant, runner.Reason{Kind: getStr(n, "kind"), Subject: getStr(n, "subject"), Message: getStr(n, "message")})
	}
	for _, q := range getItems(v, "requirements") {
		r.Requirements = append(r.Requirements, runner.RequirementRow{
			ID: getStr(q, "id"), Level: getStr(q, "level"), Title: getStr(q, "title"), Statement: getStr(q, "statement"),
			Status: getStr(q, "status"), Cases: int(getNum(q, "cases")), Pass: int(getNum(q, "pass")), Fail: int(getNum(q, "fail")),
			XFail: int(getNum(q, "xfail")), Other: int(getNum(q, "other")), Note: getStr(q, "note"),
			Affected: int(getNum(q, "affected")),
		})
	}
	if sh, ok := v.Get("shard"); ok {
		r.Shard = &runner.Shard{K: int(getNum(sh, "k")), N: int(getNum(sh, "n"))}
	}
	for _, n := range getItems(v, "notes") {
		r.Notes = append(r.Notes, runner.Note{Kind: getStr(n, "kind"), Message: getStr(n, "message"), Stderr: getStr(n, "stderr")})
	}
	r.Implementation.Name, r.Implementation.Version = getStr(impl, "name"), getStr(impl, "version")
	r.Implementation.Language, r.Implementation.Homepage = getStr(impl, "language"), getStr(impl, "homepage")
	if s := getStr(v, "started"); s != "" {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return nil, fmt.Errorf("started: %v", err)
		}
		r.Started = t
	}
	totals, _ := v.Get("totals")
	members, _ := totals.Members()
	for _, m := range members {
		n, _ := m.Value.Float()
		r.Totals[verdict.Verdict(m.Key)] = int(n)
	}
	items := getItems(v, "cases")
	r.Cases = make([]runner.CaseResult, len(items))
	for i, c := range items {
		cr := &r.Cases[i]
		cr.ID, cr.Op, cr.Verdict = getStr(c, "id"), getStr(c, "op"), verdict.Verdict(getStr(c, "verdict"))
		cr.Requirements, cr.Broken, cr.Affected = getStrs(c, "requirements"), getStrs(c, "broken"), getStrs(c, "affected")
		cr.Message, cr.Stderr, cr.Baseline = getStr(c, "message"), getStr(c, "stderr"), getStr(c, "baseline")
		cr.DurationMS = getNum(c, "durationMs")
		cr.File, cr.Reproduce = getStr(c, "file"), getStr(c, "reproduce")
		if in, ok := c.Get("input"); ok {
			cr.Input = jsonjs.Marshal(in) // keepInputText puts back the text
		}
		if t := getStr(c, "inputText"); t != "" { // the exact text of an input strict readers could not take
			cr.Input = []byte(t)
		}
		for _, d := range getItems(c, "diffs") {
			diff := runner.Diff{
				Field: getStr(d, "field"), Comparator: getStr(d, "comparator"), Path: getStr(d, "path"),
				Offset: int(getNum(d, "offset")), Requirements: getStrs(d, "requirements"), Affects: getStrs(d, "affects"),
				Want: getStr(d, "wantExcerpt"), Got: getStr(d, "gotExcerpt"), Message: getStr(d, "message"),
			}
			if w, ok := d.Get("want"); ok {
				diff.WantJSON = jsonjs.Marshal(w)
			}
			if g, ok := d.Get("got"); ok {
				diff.GotJSON = jsonjs.Marshal(g)
			}
			if t := getStr(d, "wantText"); t != "" {
				diff.WantJSON = []byte(t)
			}
			if t := getStr(d, "gotText"); t != "" {
				diff.GotJSON = []byte(t)
			}
			diff.WantTooLarge, diff.GotTooLarge = getBool(d, "wantTooLarge"), getBool(d, "gotTooLarge")
			if e, ok := d.Get("element"); ok {
				n, _ := e.Float()
				i := int(n)
				diff.Element = &i
			}
			cr.Diffs = append(cr.Diffs, diff)
		}
		if m, ok := c.Get("minimized"); ok {
			cr.Minimized = &runner.Minimized{Field: getStr(m, "field"), Runs: int(getNum(m, "runs")), Stopped: getBool(m, "stopped")}
			if in, ok := m.Get("input"); ok {
				cr.Minimized.Input = jsonjs.Marshal(in)
			}
			if t := getStr(m, "inputText"); t != "" {
				cr.Minimized.Input = []byte(t)
			}
		}
		for _, e := range getItems(c, "diagnosis") {
			cr.Diagnosis = append(cr.Diagnosis, runner.Explanation{
				Model: getStr(e, "model"), Requirement: getStr(e, "requirement"), Cause: getStr(e, "cause"), Behaves: getStr(e, "behaves"),
				Functions: getStrs(e, "functions"), Fix: getStr(e, "fix"),
			})
		}
	}
	return r, nil
}

// keepInputText replaces each case's parsed input by its text as the report
// holds it, compacted: an input keeps what parsing loses (number spellings
// such as 1E5, duplicate keys), as the run that wrote the report fed it.
func keepInputText(r *runner.Report, data []byte) {
	var l jsonjs.Lazy
	if !l.Scan(data) {
		return
	}
	var cases *jsonjs.RawMember
	top := l.Members(nil, l.Root())
	for i := range top {
		if string(top[i].Key) == "cases" {
			cases = &top[i] // the last one, as decodeRun's JSON.parse reading takes
		}
	}
	if cases == nil {
		return
	}
	items := l.Items(nil, cases.Value)
	for i := range min(len(items), len(r.Cases)) { // the same array, read twice
		raw := jsonjs.RawMembers(items[i], "input", "inputText")
		if raw[0] != nil && raw[1] == nil { // else none, or the exact text is inputText
			r.Cases[i].Input = jsonjs.CompactRaw(raw[0])
		}
	}
}
