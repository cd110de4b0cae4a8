package report

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// RunProgress is the progress bar of a run on a terminal: cases done of
// the total, rate and time left, cleared when the run ends so that the
// report starts on a clean line.
type RunProgress struct {
	bar *progressbar.ProgressBar
}

// NewRunProgress starts a progress bar for total cases on w (stderr, when
// it is a terminal: see IsTerminal).
func NewRunProgress(w io.Writer, total int) *RunProgress {
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("conform run"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString("cases"),
		progressbar.OptionShowIts(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetRenderBlankState(true),
	)
	return &RunProgress{bar: bar}
}

// Update is a runner.Options.Progress callback.
func (p *RunProgress) Update(done, total int) {
	if total != p.bar.GetMax() {
		p.bar.ChangeMax(total)
	}
	_ = p.bar.Set(done)
}

// Finish clears the bar.
func (p *RunProgress) Finish() {
	_ = p.bar.Finish()
	_ = p.bar.Clear()
}
