package sessionlog

import (
	"fmt"

	"pgregory.net/rapid"
)

// ValidGen draws a well-formed session log: a header and 1..3 turns. Each
// turn has a user message, 1..3 steps with 1..3 tool calls each (grep, glob,
// run_code, and sometimes read or bash) and a final text step. Search and
// run_code results are rendered by the reference from generated op inputs
// (content as the single text block, error info as data.error, meta as
// data.meta when non-null); run_code calls whose program ran have 0..4
// nested sub-calls whose starts and settles (in any settle order, each after
// its own start) lie between the parent's tool/call and tool/result, with
// nested grep/glob content rendered with nested:true. Some assistant texts
// are packed text-chunks rows, some tool-call arguments tool-call-chunks
// rows, and some long results get a compaction replacement (LOG-RES-3).
// Seqs are contiguous from 0, times strictly increase, message and call ids
// are unique.
func ValidGen() *rapid.Generator[Log] {
	return rapid.Custom(func(t *rapid.T) Log {
		a := rapid.Uint64().Draw(t, "sessionIdHigh")
		b := rapid.Uint64().Draw(t, "sessionIdLow")
		createdAt := minCreatedAt + int64(rapid.IntRange(0, 1<<30).Draw(t, "createdAt"))
		n := rapid.IntRange(1, 3).Draw(t, "turns")
		turns := make([]turnTmpl, n)
		for i := range turns {
			turns[i] = drawTurn(t)
		}
		return assemble("generated", uuid(a, b), createdAt, turns)
	})
}

// Valid returns the well-formed log ValidGen draws for seed, named
// "valid-<seed>". It is a pure function of seed.
func Valid(seed int) Log {
	l := ValidGen().Example(seed)
	l.Name = fmt.Sprintf("valid-%d", seed)
	return l
}

// assemble fills turn templates one after another: seqs continue, each
// turn starts after the previous one ends, turn k is numbered k and tagged
// k-1.
func assemble(name, id string, createdAt int64, turns []turnTmpl) Log {
	lines := [][]byte{headerLine(id, createdAt)}
	in := instance{seq: 0, time: createdAt + 250}
	for i, tt := range turns {
		in.turn, in.tag = int64(i+1), uint32(i)
		for _, l := range tt.lines {
			lines = append(lines, l.appendTo(nil, in))
		}
		in.seq += tt.seqs
		in.time += tt.span + 1000
	}
	return Log{Name: name, Lines: lines}
}
