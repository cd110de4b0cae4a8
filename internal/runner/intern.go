package runner

import "encoding/json"

// interner keeps one copy of each distinct string and raw value of a
// run's results (issue 21: equal messages stored once). An adapter that
// answers every case with the same error holds its message, stderr and
// whole answer once, not once per case. Not safe for concurrent use: the
// run interns under its results' lock.
type interner struct {
	strs map[string]string
	raws map[string]json.RawMessage
}

func newInterner() *interner {
	return &interner{strs: map[string]string{}, raws: map[string]json.RawMessage{}}
}

func (in *interner) str(s string) string {
	if s == "" {
		return s
	}
	if t, ok := in.strs[s]; ok {
		return t
	}
	in.strs[s] = s
	return s
}

func (in *interner) raw(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return b
	}
	if t, ok := in.raws[string(b)]; ok { // no allocation for the lookup
		return t
	}
	in.raws[string(b)] = b
	return b
}

// result interns what an adapter's answer puts in r: its messages,
// stderr, excerpts and whole values.
func (in *interner) result(r *CaseResult) {
	r.Message, r.Stderr, r.Baseline = in.str(r.Message), in.str(r.Stderr), in.str(r.Baseline)
	r.Input, r.InputText = in.raw(r.Input), in.str(r.InputText)
	for i := range r.Diffs {
		d := &r.Diffs[i]
		d.Message, d.Want, d.Got = in.str(d.Message), in.str(d.Want), in.str(d.Got)
		d.WantJSON, d.GotJSON = in.raw(d.WantJSON), in.raw(d.GotJSON)
		d.WantText, d.GotText = in.str(d.WantText), in.str(d.GotText)
	}
}

// Intern stores each distinct string and raw value of r's cases once,
// for a report read back from JSON (every case its own copy).
func Intern(r *Report) {
	in := newInterner()
	for i := range r.Cases {
		in.result(&r.Cases[i])
	}
}
