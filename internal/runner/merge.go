package runner

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"
)

// Merge joins the reports of the shards of one run (--shard K/N) into the
// report the unsharded run writes: cases in ID order, totals, the
// requirement accounting and the reasons recomputed from them. Timings
// cannot be: Started is the earliest shard's and DurationMS runs from it
// to the end of the last shard to finish; each case keeps its own.
// names label the reports in errors. The shards must agree on everything
// but their cases, and no case may appear twice. caseIDs is the case set
// the shards say they ran (their caseSet): a case outside it, or a shard
// that did not run its whole slice, is refused (issue 21: a merge of short
// shards must not read as a whole run).
func Merge(names []string, shards []*Report, caseIDs map[string]bool) (*Report, error) {
	if len(shards) == 0 {
		return nil, fmt.Errorf("no shard reports to merge")
	}
	if err := complete(names, shards); err != nil {
		return nil, err
	}
	for i, r := range shards {
		switch {
		case !r.Complete:
			why := r.Stopped
			if why == "" {
				why = "it does not say it completed"
			}
			return nil, fmt.Errorf("%s: shard %d/%d did not complete (%s): rerun it before merging", names[i], r.Shard.K, r.Shard.N, oneLine(why, 200))
		case len(r.Cases) != r.Selected:
			return nil, fmt.Errorf("%s: shard %d/%d has %d cases of the %d of its slice: rerun it before merging", names[i], r.Shard.K, r.Shard.N, len(r.Cases), r.Selected)
		}
		for _, c := range r.Cases {
			if !caseIDs[c.ID] {
				return nil, fmt.Errorf("%s: case %s is not in the case set %s", names[i], oneLine(c.ID, 200), r.CaseSet)
			}
		}
	}
	first := shards[0]
	out := *first
	out.Cases, out.Notes, out.Fault, out.Requirements, out.Nonconformant, out.Shard = nil, nil, nil, nil, nil, nil
	out.Complete, out.Stopped, out.Selected = true, "", 0
	seen := map[string]string{}
	var end time.Time
	for i, r := range shards {
		if err := sameRun(first, r); err != nil {
			return nil, fmt.Errorf("%s: %v than %s: not a shard of the same run", names[i], err, names[0])
		}
		for _, c := range r.Cases {
			if prev, ok := seen[c.ID]; ok {
				return nil, fmt.Errorf("%s: case %s is in %s too: two shards overlap (the same K/N twice?)", names[i], c.ID, prev)
			}
			seen[c.ID] = names[i]
			out.Cases = append(out.Cases, c)
		}
		out.Notes = append(out.Notes, r.Notes...)
		out.Selected += r.Selected
		if out.Fault == nil {
			out.Fault = r.Fault
		}
		if !r.Started.IsZero() && (out.Started.IsZero() || r.Started.Before(out.Started)) {
			out.Started = r.Started
		}
		if e := r.Started.Add(time.Duration(r.DurationMS * float64(time.Millisecond))); e.After(end) {
			end = e
		}
	}
	sort.SliceStable(out.Cases, func(i, j int) bool { return out.Cases[i].ID < out.Cases[j].ID })
	out.Totals = Totals(out.Cases)
	out.DurationMS = float64(end.Sub(out.Started).Microseconds()) / 1000
	if first.Requirements != nil {
		out.Requirements = mergedAccounting(&out, shards)
	}
	out.Nonconformant = Reasons(&out)
	return &out, nil
}

// sameRun says how two reports differ in what a shard does not change.
func sameRun(a, b *Report) error {
	switch {
	case a.Format != b.Format || a.Version != b.Version:
		return fmt.Errorf("another report format")
	case a.Implementation != b.Implementation:
		return fmt.Errorf("another implementation (%s %s)", b.Implementation.Name, b.Implementation.Version)
	case a.Protocol != b.Protocol || !reflect.DeepEqual(a.Adapter, b.Adapter):
		return fmt.Errorf("another adapter or protocol")
	case a.Conform != b.Conform || a.CaseSet != b.CaseSet || a.Fixtures != b.Fixtures:
		return fmt.Errorf("another conform version or case set")
	case (a.Requirements == nil) != (b.Requirements == nil):
		return fmt.Errorf("requirement accounting present in one report only")
	}
	return nil
}

// mergedAccounting counts the merged cases (Summarize) and keeps the
// shards' rows for the requirements no case cites, which every shard
// accounts for alike (not selected, check-log, excluded, uncovered).
func mergedAccounting(r *Report, shards []*Report) []RequirementRow {
	rows := Summarize(r)
	have := map[string]bool{}
	for _, row := range rows {
		have[row.ID] = true
	}
	for _, s := range shards {
		for _, row := range s.Requirements {
			if !have[row.ID] && row.Cases == 0 {
				have[row.ID] = true
				rows = append(rows, row)
			}
		}
	}
	sortByCatalogue(rows)
	return rows
}

// complete checks that the reports are the N shards of one split, each
// once: a missing shard would merge into a report that looks whole (a
// false green when the missing cases fail).
func complete(names []string, shards []*Report) error {
	n := 0
	have := map[int]string{}
	for i, r := range shards {
		switch {
		case r.Shard == nil:
			return fmt.Errorf("%s: not a shard report (it has no \"shard\"; run it with --shard K/N)", names[i])
		case n != 0 && r.Shard.N != n:
			return fmt.Errorf("%s: shard %d/%d of another split than %s (N = %d)", names[i], r.Shard.K, r.Shard.N, names[0], n)
		}
		n = r.Shard.N
		if prev, ok := have[r.Shard.K]; ok {
			return fmt.Errorf("%s: shard %d/%d is %s too: two shards overlap (the same K/N twice?)", names[i], r.Shard.K, n, prev)
		}
		have[r.Shard.K] = names[i]
	}
	var missing []string
	for k := 0; k < n; k++ {
		if _, ok := have[k]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", k, n))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("shard %s missing: a merge needs all %d shards of the run", strings.Join(missing, ", "), n)
	}
	return nil
}
