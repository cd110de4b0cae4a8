package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Progress is the one progress display of run, fuzz and check-log (issue
// 12). On a terminal (NewProgress) it is a bar with the items done of the
// total (a spinner when the total is unknown), the rate and the time left,
// cleared when the work ends so that the report starts on a clean line.
// Elsewhere, in a CI log or a redirected file (NewLineProgress, issue 23),
// it is a plain line every interval with the items done, the rate and the
// note, so that a long command is never silent.
type Progress struct {
	bar  *progressbar.ProgressBar
	what string

	// line mode
	w       io.Writer
	unit    string
	start   time.Time
	mu      sync.Mutex
	done    int
	total   int
	note    string
	stop    chan struct{}
	stopped chan struct{}
	once    sync.Once
}

// NewProgress starts a display for total items (< 1: unknown) on w
// (stderr, when it is a terminal: see IsTerminal); what names the command,
// e.g. "conform run", and unit the items ("cases", "logs").
func NewProgress(w io.Writer, what, unit string, total int) *Progress {
	if total < 1 {
		total = -1
	}
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString(unit),
		progressbar.OptionShowIts(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetRenderBlankState(true),
	)
	return &Progress{bar: bar, what: what}
}

// DefaultLineEvery is how often NewLineProgress writes a line.
const DefaultLineEvery = 10 * time.Second

// NewLineProgress starts the display for a log on w: every interval
// (DefaultLineEvery when <= 0), one line such as
//
//	conform fuzz: 1200/3000 cases (40%), 410.2 cases/s, 12 s; 3 findings, phase cases
//
// until Finish. what, unit and total are NewProgress's.
func NewLineProgress(w io.Writer, what, unit string, total int, every time.Duration) *Progress {
	if every <= 0 {
		every = DefaultLineEvery
	}
	p := &Progress{what: what, w: w, unit: unit, total: total, start: time.Now(), stop: make(chan struct{}), stopped: make(chan struct{})}
	go func() {
		defer close(p.stopped)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				_, _ = io.WriteString(w, p.Line()+"\n")
			}
		}
	}()
	return p
}

// Line is the line mode's current line, without a newline.
func (p *Progress) Line() string {
	p.mu.Lock()
	done, total, note := p.done, p.total, p.note
	p.mu.Unlock()
	var b strings.Builder
	b.WriteString(p.what + ": ")
	if total > 0 {
		fmt.Fprintf(&b, "%d/%d %s (%d%%)", done, total, p.unit, int(math.Floor(float64(done)*100/float64(total))))
	} else {
		fmt.Fprintf(&b, "%d %s", done, p.unit)
	}
	elapsed := time.Since(p.start)
	rate := 0.0
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(done) / s
	}
	fmt.Fprintf(&b, ", %.1f %s/s, %d s", rate, p.unit, int(elapsed.Seconds()))
	if note != "" {
		b.WriteString("; " + line(note))
	}
	return b.String()
}

// Update sets the items done (and the total, when it changed); it is a
// runner.Options.Progress callback.
func (p *Progress) Update(done, total int) {
	if p.bar == nil {
		p.mu.Lock()
		p.done = done
		if total > 0 {
			p.total = total
		}
		p.mu.Unlock()
		return
	}
	if total > 0 && total != p.bar.GetMax() {
		p.bar.ChangeMax(total)
	}
	_ = p.bar.Set(done)
}

// Note shows a short status after the command's name ("3 failing",
// "shrinking …"); "" shows the name alone.
func (p *Progress) Note(s string) {
	if p.bar == nil {
		p.mu.Lock()
		p.note = s
		p.mu.Unlock()
		return
	}
	if s == "" {
		p.bar.Describe(p.what)
		return
	}
	p.bar.Describe(p.what + ": " + line(s))
}

// Finish clears the display (a bar) or stops the lines; it returns once
// no more is written.
func (p *Progress) Finish() {
	if p.bar == nil {
		p.once.Do(func() { close(p.stop) })
		<-p.stopped
		return
	}
	_ = p.bar.Finish()
	_ = p.bar.Clear()
}
