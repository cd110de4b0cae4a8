// Package sessionlog generates session logs (JSONL, session-log.md) for the
// log checker: well-formed logs drawn with rapid (Valid, ValidGen), single-
// requirement mutations of them (Mutations), and arbitrarily large valid
// logs streamed in constant memory for benchmarks (Big).
//
// Every tool result is rendered by the reference (reference.Run) from
// generated op inputs; every line is written through reference/jsonjs, so
// strings and numbers are byte-for-byte what JSON.stringify writes.
package sessionlog

import "io"

// Log is one session log: a name for reports and its lines, each one JSON
// text without the terminating LF.
type Log struct {
	Name  string
	Lines [][]byte
}

// WriteTo writes the lines, each followed by LF.
func (l Log) WriteTo(w io.Writer) (int64, error) {
	var n int64
	lf := []byte{'\n'}
	for _, line := range l.Lines {
		k, err := w.Write(line)
		n += int64(k)
		if err != nil {
			return n, err
		}
		k, err = w.Write(lf)
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// Bytes returns the log as JSONL text (every line LF-terminated).
func (l Log) Bytes() []byte {
	size := 0
	for _, line := range l.Lines {
		size += len(line) + 1
	}
	out := make([]byte, 0, size)
	for _, line := range l.Lines {
		out = append(out, line...)
		out = append(out, '\n')
	}
	return out
}

// clone returns a copy of l whose Lines slice (not the line bytes, which are
// never modified in place) is independent.
func (l Log) clone() Log {
	return Log{Name: l.Name, Lines: append([][]byte(nil), l.Lines...)}
}
