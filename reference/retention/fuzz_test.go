package retention_test

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/dsh-conform/conform/reference/retention"
)

// strategy turns the fuzzer's strategy bytes into a text strategy: kind 0
// head, 1 tail, 2 headTail (RET-TEXT-1), budgets up to 511 bytes.
func strategy(kind byte, head, tail uint16) retention.TextStrategy {
	p, s := int(head%512), int(tail%512)
	switch kind % 3 {
	case 0:
		return retention.HeadBytes(p)
	case 1:
		return retention.TailBytes(s)
	}
	return retention.HeadTailBytes(p, s)
}

// chunk splits data into chunks whose lengths come from cuts (each byte mod
// 17, so empty chunks and splits inside codepoints both occur); the rest is
// the last chunk.
func chunk(data, cuts []byte) [][]byte {
	var out [][]byte
	for _, c := range cuts {
		n := min(int(c%17), len(data))
		out = append(out, data[:n])
		data = data[n:]
	}
	return append(out, data)
}

func finish(s retention.TextStrategy, chunks [][]byte) (retention.RetainedText, []retention.Decision) {
	t, err := retention.NewText(s)
	if err != nil {
		panic(err)
	}
	var ds []retention.Decision
	for _, c := range chunks {
		ds = append(ds, t.Push(c))
	}
	return t.Finish(), ds
}

// FuzzTextWindow checks the text retainer on arbitrary bytes, strategies
// and chunkings: Finish is the same for the fuzzer's chunks, one push and
// byte-by-byte pushes (RET-TEXT-4); truncated iff the stream exceeds the
// budgets, and the kept bytes (total minus omitted) never exceed them
// (RET-TEXT-3/7); the last push's truncated equals Finish's; the text is
// valid UTF-8 (RET-UTF8-3), and for valid UTF-8 input it is the longest
// head piece and shortest tail piece on codepoint boundaries, each with one
// leading BOM removed (RET-TEXT-5/6, RET-UTF8-1/2).
func FuzzTextWindow(f *testing.F) {
	f.Add(byte(0), uint16(5), uint16(0), []byte("abcdefgh"), []byte{3, 2})
	f.Add(byte(1), uint16(0), uint16(3), []byte("11223344"), []byte{2, 2, 2})
	f.Add(byte(2), uint16(3), uint16(3), []byte("abcdefghij"), []byte{})
	f.Add(byte(2), uint16(2), uint16(2), []byte("a€€b"), []byte{2})
	f.Add(byte(0), uint16(4), uint16(0), []byte("a\xf0\x9f\x98\x80"), []byte{1})
	f.Add(byte(0), uint16(4), uint16(0), []byte("\x80\x80\x80\x80A"), []byte{})
	f.Add(byte(1), uint16(0), uint16(6), []byte("A\x80\x80\x80\x80\x80B"), []byte{4})
	f.Add(byte(0), uint16(5), uint16(0), []byte("\uFEFFabcdef"), []byte{1, 1})
	f.Add(byte(1), uint16(0), uint16(4), []byte("xyz\uFEFFa"), []byte{})
	f.Add(byte(0), uint16(10), uint16(0), []byte("\xed\xa0\x80\xf0\x80\x80A\xc0\xaf"), []byte{1, 5})
	f.Fuzz(func(t *testing.T, kind byte, head, tail uint16, data, cuts []byte) {
		s := strategy(kind, head, tail)
		got, decisions := finish(s, chunk(data, cuts))
		whole, _ := finish(s, [][]byte{data})
		var single [][]byte
		for i := range data {
			single = append(single, data[i:i+1])
		}
		bytewise, _ := finish(s, single)
		if got != whole || got != bytewise {
			t.Fatalf("chunking changed the result: %+v, one push %+v, bytewise %+v", got, whole, bytewise)
		}
		T, P, S := len(data), s.Prefix, s.Suffix
		if got.Truncated != (T > P+S) || decisions[len(decisions)-1].Truncated != got.Truncated {
			t.Fatalf("truncated %v (last push %v) for %d bytes in %d+%d", got.Truncated, decisions[len(decisions)-1].Truncated, T, P, S)
		}
		if !utf8.ValidString(got.Text) {
			t.Fatalf("text is not valid UTF-8: %q", got.Text)
		}
		if !got.Truncated {
			if got.OmittedBytes.Kind != retention.None {
				t.Fatalf("omitted %+v without truncation", got.OmittedBytes)
			}
		} else if kept := T - got.OmittedBytes.Count; got.OmittedBytes.Kind != retention.Exact || kept < 0 || kept > P+S {
			t.Fatalf("omitted %+v of %d bytes with budgets %d+%d", got.OmittedBytes, T, P, S)
		}
		if !utf8.Valid(data) {
			return
		}
		bom := []byte("\uFEFF")
		if !got.Truncated {
			if want := string(bytes.TrimPrefix(data, bom)); got.Text != want {
				t.Fatalf("text %q, want %q", got.Text, want)
			}
			return
		}
		hb := P
		for hb > 0 && !utf8.RuneStart(data[hb]) {
			hb--
		}
		tb := T - S
		for tb < T && !utf8.RuneStart(data[tb]) {
			tb++
		}
		want := string(bytes.TrimPrefix(data[:hb], bom)) + string(bytes.TrimPrefix(data[tb:], bom))
		if got.Text != want || got.OmittedBytes.Count != T-hb-(T-tb) {
			t.Fatalf("text %q omitted %d, want %q omitted %d", got.Text, got.OmittedBytes.Count, want, T-hb-(T-tb))
		}
	})
}
