package report

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dsh-conform/conform/internal/logcheck"
	"github.com/dsh-conform/conform/internal/runner"
)

// Model is one report of conform, whichever command made it (issue 21:
// one report model): what ran and with what, the cases or findings and
// their verdicts, the requirement accounting, the notes, and whether the
// run completed. Exactly one body is set: a run's report (conform run,
// conform report --format; the matrix reads the same runner.Report), a
// fuzz campaign's, or a check-log run's summary. Write renders it in each
// format by that format's one writer, which escapes every outside string
// with the format's escaper (escape.go); the facts every report shares
// come from the methods below, so the formats and the commands say them
// alike.
type Model struct {
	Run      *runner.Report
	Fuzz     *Fuzz
	CheckLog *logcheck.Summary
	// Text configures a run's text report.
	Text RunText
}

// Formats are the formats of every report, each with its one writer.
var Formats = []string{"text", "json", "junit", "markdown"}

// RunFormats are the formats of a run report: Formats.
var RunFormats = Formats

// Write writes m in one of Formats.
func Write(w io.Writer, format string, m *Model) error {
	if m.body() == 0 {
		return errors.New("report: a report model needs exactly one of run, fuzz and check-log")
	}
	switch format {
	case "text":
		return writeText(w, m)
	case "json":
		return writeJSON(w, m)
	case "junit":
		return writeJUnit(w, m)
	case "markdown":
		return writeMarkdown(w, m)
	}
	return fmt.Errorf("unknown report format %q (the formats: %s)", format, strings.Join(Formats, ", "))
}

// WriteRun writes a run report in one of Formats: `conform run` for
// each --out, `conform report --format` for a saved report.
func WriteRun(w io.Writer, format string, r *runner.Report, opt RunText) error {
	return Write(w, format, &Model{Run: r, Text: opt})
}

// body is 1 when exactly one body is set, else 0.
func (m *Model) body() int {
	n := 0
	for _, set := range []bool{m.Run != nil, m.Fuzz != nil, m.CheckLog != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return 0
	}
	return 1
}

// Command is the conform command that made the report.
func (m *Model) Command() string {
	switch {
	case m.Run != nil:
		return "run"
	case m.Fuzz != nil:
		return "fuzz"
	}
	return "check-log"
}

// Implementation is "name version" of the harness that ran, unescaped
// (each writer escapes it), "" for check-log, which reads logs.
func (m *Model) Implementation() string {
	switch {
	case m.Run != nil:
		return implName(m.Run)
	case m.Fuzz != nil:
		i := m.Fuzz.Implementation
		if i.Version != "" {
			return i.Name + " " + i.Version
		}
		return i.Name
	}
	return ""
}

// Complete reports whether the run did all it set out to do; Stopped says
// why not (unescaped). A report that is not complete is no pass in any
// format (issue 21).
func (m *Model) Complete() bool {
	switch {
	case m.Run != nil:
		return m.Run.Complete
	case m.Fuzz != nil:
		return !m.Fuzz.Interrupted
	}
	return !m.CheckLog.Interrupted
}

// Stopped is why an incomplete run stopped, "" for a complete one.
func (m *Model) Stopped() string {
	switch {
	case m.Complete():
		return ""
	case m.Run != nil:
		return stoppedWhy(m.Run)
	case m.Fuzz != nil:
		return fmt.Sprintf("the campaign was interrupted after %s", plural(m.Fuzz.Cases, "case"))
	}
	return checkLogPartial(m.CheckLog)
}

// Note is something a report says beside its cases: what closing an
// adapter's sessions found (runner.Note), how a log was read when not
// plainly to its end (logcheck.FileResult.Notes). Subject is the log it
// is about, "" for the run; Kind classifies a run's note.
type Note struct {
	Subject, Kind, Message string
}

// Notes are the report's notes, in order.
func (m *Model) Notes() []Note {
	var out []Note
	switch {
	case m.Run != nil:
		for _, n := range m.Run.Notes {
			out = append(out, Note{Kind: n.Kind, Message: n.Message})
		}
	case m.CheckLog != nil:
		for _, f := range m.CheckLog.Files {
			out = append(out, fileNotes(f)...)
		}
	}
	return out
}

// fileNotes are the notes of one checked log.
func fileNotes(f *logcheck.FileResult) []Note {
	out := make([]Note, len(f.Notes))
	for i, n := range f.Notes {
		out[i] = Note{Subject: f.Name, Message: n}
	}
	return out
}

// textNote is a note as one line of a text report: "note (kind): …" for
// the run, "subject: note: …" for a log; every part escaped.
func textNote(n Note) string {
	if n.Subject != "" {
		return line(n.Subject) + ": note: " + line(n.Message)
	}
	return "note (" + line(n.Kind) + "): " + line(n.Message)
}

// mdNote is a note as Markdown: the subject a code span, the message
// plain when it is conform's own words (a log's note), a code span when
// it quotes an adapter (a run's).
func mdNote(n Note) string {
	if n.Subject != "" {
		return MDCode(n.Subject) + ": " + strings.ReplaceAll(n.Message, "\n", " ")
	}
	return "note (" + MDCode(n.Kind) + "): " + MDCode(n.Message)
}
