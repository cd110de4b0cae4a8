package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/dsh-conform/conform/internal/logcheck"
)

// CheckLogJSONStream writes the JSON report of a check-log run as the run
// goes, byte for byte what WriteCheckLogJSON writes of the whole summary:
// the head at once, each log's object once it is checked (File), the
// totals and the baseline at the end (Finish). It holds the listed
// findings of the log being checked only, so that a run over many logs
// keeps nothing per log (issue 23). Wire Finding to RunOptions.Listed and
// File to RunOptions.Done. The first write error sticks and Finish returns
// it.
type CheckLogJSONStream struct {
	w      io.Writer
	buf    bytes.Buffer
	files  int
	listed []*logcheck.RunFinding // of the log being checked
	err    error
}

// NewCheckLogJSONStream starts the report on w of a run with failOn (""
// is violation) and maxFindings, the values the run's summary gets.
func NewCheckLogJSONStream(w io.Writer, failOn logcheck.Level, maxFindings int) *CheckLogJSONStream {
	if failOn == "" {
		failOn = logcheck.Violation
	}
	j := &CheckLogJSONStream{w: w}
	head := CheckLogJSON{Format: "conform-check-log", Version: 1, FailOn: string(failOn), MaxFindings: maxFindings, Files: []CheckLogJSONFile{}}
	j.encode(head, "")
	// The head is the whole report up to its files' opening bracket.
	b := j.buf.Bytes()
	j.buf.Truncate(bytes.Index(b, []byte(`"files": `)) + len(`"files": [`))
	j.flush()
	return j
}

// encode puts v into buf as the report's encoder writes it at an indent of
// prefix, without the encoder's final LF.
func (j *CheckLogJSONStream) encode(v any, prefix string) {
	enc := json.NewEncoder(&j.buf)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil && j.err == nil {
		j.err = err
	}
	j.buf.Truncate(j.buf.Len() - 1)
}

func (j *CheckLogJSONStream) flush() {
	if j.err == nil {
		_, j.err = j.w.Write(j.buf.Bytes())
	}
	j.buf.Reset()
}

// Finding keeps a listed finding of the log being checked for its File.
func (j *CheckLogJSONStream) Finding(fd *logcheck.RunFinding) { j.listed = append(j.listed, fd) }

// File writes the object of a checked log.
func (j *CheckLogJSONStream) File(f *logcheck.FileResult) {
	listed := j.listed
	if len(f.Listed) > 0 { // a run that kept them
		listed = f.Listed
	}
	if j.files > 0 {
		j.buf.WriteString(",")
	}
	j.files++
	j.buf.WriteString("\n    ")
	j.encode(checkLogJSONFile(f, listed), "    ")
	clear(j.listed)
	j.listed = j.listed[:0]
	j.flush()
}

// Finish writes the end of the report (totals, baseline) and returns the
// first write error.
func (j *CheckLogJSONStream) Finish(s *logcheck.Summary) error {
	if j.files > 0 {
		j.buf.WriteString("\n  ")
	}
	j.buf.WriteString("],\n  \"totals\": ")
	j.encode(checkLogJSONTotals(s), "  ")
	if b := checkLogJSONBaseline(s); b != nil {
		j.buf.WriteString(",\n  \"baseline\": ")
		j.encode(b, "  ")
	}
	j.buf.WriteString("\n}\n")
	j.flush()
	return j.err
}

// CheckLogWriter writes one format of a check-log report as the run goes:
// wire Finding to RunOptions.Listed and File to RunOptions.Done, and call
// Finish with the summary. Text and JSON stream (CheckLogText,
// CheckLogJSONStream); Markdown needs only the summary's counts and first
// examples, written by Finish.
type CheckLogWriter interface {
	Finding(*logcheck.RunFinding)
	File(*logcheck.FileResult)
	Finish(*logcheck.Summary) error
}

// CheckLogStreams reports whether reports in these formats can all be
// written as a check-log run goes, keeping nothing per finding or log
// (issue 23). JUnit cannot: it needs every log's record, so with it the
// run keeps them and every format is written from the whole summary
// (Write).
func CheckLogStreams(formats []string) bool {
	return !slices.Contains(formats, "junit")
}

// NewCheckLogWriter starts the report in format (not junit:
// CheckLogStreams) of a run with failOn and maxFindings on w.
func NewCheckLogWriter(w io.Writer, format string, failOn logcheck.Level, maxFindings int) (CheckLogWriter, error) {
	switch format {
	case "text":
		return NewCheckLogText(w, maxFindings), nil
	case "json":
		return NewCheckLogJSONStream(w, failOn, maxFindings), nil
	case "markdown":
		return checkLogMarkdown{w}, nil
	}
	return nil, fmt.Errorf("report: a check-log %s report is written from the whole summary (Write)", format)
}

// checkLogMarkdown is the Markdown report as a CheckLogWriter.
type checkLogMarkdown struct{ w io.Writer }

func (checkLogMarkdown) Finding(*logcheck.RunFinding) {}
func (checkLogMarkdown) File(*logcheck.FileResult)    {}
func (m checkLogMarkdown) Finish(s *logcheck.Summary) error {
	return WriteCheckLogMarkdown(m.w, s)
}

// NewCheckLogWriters starts the reports of one check-log run, formats[i]
// on ws[i], as one CheckLogWriter. streams says whether they are written
// as the run goes (CheckLogStreams): then wire Finding and File to the
// run; else the run must keep every log's record (leave RunOptions.Listed
// and Done unset) and Finish writes every format from the whole summary.
func NewCheckLogWriters(ws []io.Writer, formats []string, failOn logcheck.Level, maxFindings int) (w CheckLogWriter, streams bool, err error) {
	if !CheckLogStreams(formats) {
		return checkLogWhole{ws, formats}, false, nil
	}
	fan := make(checkLogFan, len(formats))
	for i, f := range formats {
		if fan[i], err = NewCheckLogWriter(ws[i], f, failOn, maxFindings); err != nil {
			return nil, false, err
		}
	}
	return fan, true, nil
}

// checkLogFan feeds each of several writers.
type checkLogFan []CheckLogWriter

func (f checkLogFan) Finding(fd *logcheck.RunFinding) {
	for _, w := range f {
		w.Finding(fd)
	}
}

func (f checkLogFan) File(fr *logcheck.FileResult) {
	for _, w := range f {
		w.File(fr)
	}
}

// Finish ends every report and returns the first error.
func (f checkLogFan) Finish(s *logcheck.Summary) error {
	var first error
	for _, w := range f {
		if err := w.Finish(s); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// checkLogWhole writes every format from the whole summary at Finish.
type checkLogWhole struct {
	ws      []io.Writer
	formats []string
}

func (checkLogWhole) Finding(*logcheck.RunFinding) {}
func (checkLogWhole) File(*logcheck.FileResult)    {}
func (c checkLogWhole) Finish(s *logcheck.Summary) error {
	for i, f := range c.formats {
		if err := Write(c.ws[i], f, &Model{CheckLog: s}); err != nil {
			return err
		}
	}
	return nil
}
