// Package retention is the reference for the upstream output-retention
// library: a head window over items and head / tail / headTail windows over a
// byte stream with UTF-8-safe cuts (RET-*). It answers one question, what was
// kept and what was omitted, and has no tool-specific wording.
package retention

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// OmissionKind tells whether and how an omission was counted (RET-OMIT-1).
type OmissionKind string

// The three omission kinds. The retainers produce only None and Exact.
const (
	None    OmissionKind = "none"
	Exact   OmissionKind = "exact"
	Unknown OmissionKind = "unknown"
)

// Omission is an omission value; Count is meaningful only for Exact.
type Omission struct {
	Kind  OmissionKind
	Count int
}

// MarshalJSON writes {"kind":"exact","count":n}, or {"kind":k} without a count.
func (o Omission) MarshalJSON() ([]byte, error) { return jsonjs.Marshal(o.Value()), nil }

// UnmarshalJSON reads the form MarshalJSON writes, with JSON.parse
// semantics (exact member names, other members ignored).
func (o *Omission) UnmarshalJSON(b []byte) error {
	v, err := jsonjs.Parse(b)
	if err != nil {
		return err
	}
	f := jsonjs.Root(v)
	if err := f.Object(); err != nil {
		return err
	}
	kind, err := f.Member("kind").String()
	if err != nil {
		return err
	}
	switch OmissionKind(kind) {
	case None, Unknown:
		*o = Omission{Kind: OmissionKind(kind)}
	case Exact:
		n, err := f.Member("count").Int()
		if err != nil {
			return fmt.Errorf("omission kind exact needs a count: %w", err)
		}
		*o = Omission{Kind: Exact, Count: n}
	default:
		return fmt.Errorf("unknown omission kind %q", kind)
	}
	return nil
}

// DescribeOmitted is the standard omission clause (RET-OMIT-2). There is no
// singular form: a count of 1 reads "Omitted 1 bytes.".
func DescribeOmitted(o Omission, unit string) string {
	switch o.Kind {
	case Exact:
		return "Omitted " + strconv.Itoa(o.Count) + " " + unit + "."
	case Unknown:
		return "More " + unit + " were omitted."
	}
	return ""
}

// Notice joins the omission clause and a recovery sentence with one space,
// dropping whichever is empty (RET-OMIT-3).
func Notice(o Omission, unit, recovery string) string {
	clause := DescribeOmitted(o, unit)
	switch {
	case clause == "":
		return recovery
	case recovery == "":
		return clause
	}
	return clause + " " + recovery
}

// Decision is what one push reports.
type Decision struct {
	Kept      bool `json:"kept"`
	Truncated bool `json:"truncated"`
}

// Budget validates a JSON budget value: it must be a number holding an
// integer >= 0, else the error is "<field> must be a non-negative integer"
// (RET-ITEM-1, RET-TEXT-2). Strings, fractions, negatives, NaN and
// infinities all fail, as upstream's Number.isInteger check does.
func Budget(field string, v jsonjs.Value) (int, error) {
	f, ok := v.Float()
	if !ok || !v.IsInteger() || f < 0 {
		return 0, fmt.Errorf("%s must be a non-negative integer", field)
	}
	// Any budget of 2^31 - 1 or more keeps everything a Go process can hold.
	return int(min(f, math.MaxInt32)), nil
}
