package sessionlog

import (
	"bufio"
	"io"

	"pgregory.net/rapid"
)

// bigPoolSize is how many distinct turns Big renders before repeating them.
const bigPoolSize = 32

// Big streams a valid session log of at least targetBytes bytes to w and
// returns the bytes written. It renders a pool of bigPoolSize turns once
// (drawn like ValidGen's, from seed) and then writes them round-robin, each
// copy with the next turn number, a fresh tag (so call and message ids stay
// unique), seqs continuing contiguously and later times. Memory is bounded
// by the pool (a few MB) whatever the target; the loop allocates nothing.
// The log ends after the first whole turn that reaches targetBytes.
func Big(w io.Writer, targetBytes int64, seed int64) (int64, error) {
	pool := make([]turnTmpl, bigPoolSize)
	gen := rapid.Custom(drawTurn)
	for i := range pool {
		pool[i] = gen.Example(int(seed)*bigPoolSize + i)
	}
	hdr := rapid.Custom(func(t *rapid.T) [2]uint64 {
		return [2]uint64{rapid.Uint64().Draw(t, "idHigh"), rapid.Uint64().Draw(t, "idLow")}
	}).Example(int(seed))
	createdAt := int64(minCreatedAt) + (seed&0xffff)*1000

	bw := bufio.NewWriterSize(w, 1<<16)
	var written int64
	write := func(b []byte) error {
		n, err := bw.Write(b)
		written += int64(n)
		return err
	}
	buf := append(headerLine(uuid(hdr[0], hdr[1]), createdAt), '\n')
	if err := write(buf); err != nil {
		return written, err
	}
	in := instance{seq: 0, time: createdAt + 250}
	for k := 0; written < targetBytes; k++ {
		if k >= 1<<32-1 {
			break // tags would repeat
		}
		tt := &pool[k%len(pool)]
		in.turn, in.tag = int64(k+1), uint32(k)
		for _, l := range tt.lines {
			buf = append(l.appendTo(buf[:0], in), '\n')
			if err := write(buf); err != nil {
				return written, err
			}
		}
		in.seq += tt.seqs
		in.time += tt.span + 1000
	}
	return written, bw.Flush()
}
