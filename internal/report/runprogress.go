package report

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Progress is the one progress display of run and fuzz (issue 12): a bar
// on a terminal with the items done of the total (a spinner when the total
// is unknown), the rate and the time left, cleared when the work ends so
// that the report starts on a clean line.
type Progress struct {
	bar  *progressbar.ProgressBar
	what string
}

// NewProgress starts a display for total items (< 1: unknown) on w
// (stderr, when it is a terminal: see IsTerminal); what names the command,
// e.g. "conform run".
func NewProgress(w io.Writer, what string, total int) *Progress {
	if total < 1 {
		total = -1
	}
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString("cases"),
		progressbar.OptionShowIts(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetRenderBlankState(true),
	)
	return &Progress{bar: bar, what: what}
}

// Update sets the items done (and the total, when it changed); it is a
// runner.Options.Progress callback.
func (p *Progress) Update(done, total int) {
	if total > 0 && total != p.bar.GetMax() {
		p.bar.ChangeMax(total)
	}
	_ = p.bar.Set(done)
}

// Note shows a short status after the command's name ("3 failing",
// "shrinking …"); "" shows the name alone.
func (p *Progress) Note(s string) {
	if s == "" {
		p.bar.Describe(p.what)
		return
	}
	p.bar.Describe(p.what + ": " + line(s))
}

// Finish clears the display.
func (p *Progress) Finish() {
	_ = p.bar.Finish()
	_ = p.bar.Clear()
}
