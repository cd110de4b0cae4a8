package report

import (
	"errors"
	"io"
)

// errNoBody is a model with no report in it.
var errNoBody = errors.New("report: empty report model")

// writeText is the one text writer: run (run.go), fuzz (fuzz.go) and
// check-log (checklog_text.go) bodies, each outside string through Text
// or TextBlock, notes through textNote.
func writeText(w io.Writer, m *Model) error {
	switch {
	case m.Run != nil:
		return WriteRunText(w, m.Run, m.Text)
	case m.Fuzz != nil:
		return m.Fuzz.WriteText(w)
	case m.CheckLog != nil:
		return WriteCheckLogText(w, m.CheckLog)
	}
	return errNoBody
}
