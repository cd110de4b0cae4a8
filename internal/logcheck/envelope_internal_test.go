package logcheck

import (
	"testing"

	"pgregory.net/rapid"
)

// envelope.read's positional fast path gives what the general scan gives
// over all the members, duplicates and other orders included.
func TestReadEnvelopeMatchesScan(t *testing.T) {
	keys := rapid.SampledFrom([]string{"type", "seq", "time", "data", "ignorable", "surfaceOp", "sourceEventSeqs", "x", "Seq"})
	rapid.Check(t, func(t *rapid.T) {
		var top []member
		if rapid.Bool().Draw(t, "harness layout") { // the fast path's prefix, then anything
			for i, k := range []string{"type", "seq", "time", "data"} {
				top = append(top, member{Key: []byte(k), Value: raw{byte('a' + i)}})
			}
		}
		n := rapid.IntRange(0, 6).Draw(t, "more")
		for i := 0; i < n; i++ {
			top = append(top, member{Key: []byte(keys.Draw(t, "key")), Value: raw{byte('0' + i)}})
		}
		var want envelope
		want.scan(top)
		var got envelope
		got.read(top)
		for _, f := range []struct {
			name string
			g, w raw
		}{{"seq", got.seq, want.seq}, {"time", got.time, want.time}, {"data", got.data, want.data},
			{"ignorable", got.ign, want.ign}, {"surfaceOp", got.surf, want.surf}, {"sourceEventSeqs", got.src, want.src}} {
			if string(f.g) != string(f.w) {
				t.Fatalf("%s: fast path %q, scan %q (members %q)", f.name, f.g, f.w, top)
			}
		}
		if got.extra != want.extra {
			t.Fatalf("extra: fast path %v, scan %v", got.extra, want.extra)
		}
	})
}

// lookupType finds every known name, with its kind, and nothing else.
func TestLookupType(t *testing.T) {
	known := map[string]evKind{headerType: evHeader, rowText: evRow, rowReasoning: evRow, rowToolCall: evRow}
	for k, v := range knownEventTypes {
		known[k] = v
	}
	for name, kind := range known {
		ti, ok := lookupType(name)
		if !ok || ti.name != name || ti.kind != kind || ti.known != (kind != evHeader && kind != evRow) {
			t.Errorf("lookupType(%q) = %+v, %v", name, ti, ok)
		}
		if ti, ok := lookupType([]byte(name)); !ok || ti.name != name {
			t.Errorf("lookupType([]byte(%q)) = %+v, %v", name, ti, ok)
		}
		// Near misses: same length, first and last byte (the same slot), or one byte off.
		for _, miss := range []string{name[:1] + "X" + name[2:], name + "s", name[:len(name)-1], "X" + name[1:]} {
			if _, isKnown := known[miss]; isKnown {
				continue
			}
			if ti, ok := lookupType(miss); ok {
				t.Errorf("lookupType(%q) found %+v", miss, ti)
			}
		}
	}
	if ti, ok := lookupType(""); ok {
		t.Errorf("lookupType(\"\") found %+v", ti)
	}
	// The doc's speed claim: one comparison per known name today.
	for slot, ts := range typeTable {
		if len(ts) > 1 {
			t.Errorf("slot %d holds %d names; typeSlot needs another mix", slot, len(ts))
		}
	}
}

// keysFine is keySet's general walk finding nothing, for members in the required order
// (its first-try slot) and in any other, with and without strays.
func TestKeysFineIsKeySet(t *testing.T) {
	required, optional := []string{"turn", "step", "message"}, []string{"error", "meta"}
	names := rapid.SampledFrom([]string{"turn", "step", "message", "error", "meta", "x", "Turn"})
	rapid.Check(t, func(t *rapid.T) {
		var ms []member
		if rapid.Bool().Draw(t, "harness order") {
			for _, k := range required {
				ms = append(ms, member{Key: []byte(k)})
			}
		}
		for range rapid.IntRange(0, 5).Draw(t, "more") {
			ms = append(ms, member{Key: []byte(names.Draw(t, "key"))})
		}
		var p problems
		keyProblems(ms, required, optional, &p, "data")
		if fine := keysFine(ms, required, optional); fine != (len(p) == 0) {
			t.Fatalf("keysFine %v, keyProblems %q (members %q)", fine, p, ms)
		}
	})
}
