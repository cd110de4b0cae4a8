package logcheck

import (
	"io"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// scratch is a checker's per-line scratch, which a run over many logs
// hands from one log's checker to the next (a tree of small logs would
// otherwise allocate it afresh for each, issue 23). Each is reset per line
// and trimmed after a huge one (resetArenas, jsonjs.Lazy), so a log sees
// the same state as at its first line.
type scratch struct {
	lz             jsonjs.Lazy
	marena         []member
	rarena, tarena []raw
	barena         []byte
	seqBuf         []int64
	hashStack      []hashFrame
}

// checkWith is Check reusing sc, which it updates for the next log.
func checkWith(sc *scratch, r io.Reader, file string, opt Options, emit func(Finding)) (Stats, error) {
	c := newChecker(file, opt, emit)
	c.lz, c.marena, c.rarena, c.tarena, c.barena, c.seqBuf, c.hashStack = sc.lz, sc.marena, sc.rarena, sc.tarena, sc.barena, sc.seqBuf, sc.hashStack
	err := c.read(r)
	c.finish()
	*sc = scratch{c.lz, c.marena[:0], c.rarena[:0], c.tarena[:0], c.barena[:0], c.seqBuf[:0], c.hashStack[:0]}
	return c.st, err
}
