package fuzz

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/internal/fixture"
	"github.com/dsh-conform/conform/internal/report"
)

// Saved names the files a finding was saved to (report.FuzzSaved).
type Saved = report.FuzzSaved

// SavedName is the case name of a saved input: "fuzz-" and the first 12 hex
// digits of the SHA-256 of the op and the input text, so saving the same
// minimal input twice writes the same files.
func SavedName(op string, text []byte) string {
	h := sha256.New()
	h.Write([]byte(op))
	h.Write([]byte{0})
	h.Write(text)
	return "fuzz-" + hex.EncodeToString(h.Sum(nil))[:12]
}

// SaveCase writes an input as a regression case in the fixtures format
// under dir: the case file (fixture.FixtureFile) and the reference's
// answer (fixture.Answer, fixture.Encode), so that
// `conform run --fixtures dir` replays it. reqs must be non-empty.
func SaveCase(dir, op string, in Input, reqs []string, description string) (Saved, error) {
	c := generators.Case{
		Name:         SavedName(op, in.Text),
		Op:           op,
		Requirements: reqs,
		Description:  description,
		Input:        in.Value,
		RawInput:     in.Text,
	}
	if err := c.Validate(); err != nil {
		return Saved{}, err
	}
	file, err := fixture.FixtureFile(c)
	if err != nil {
		return Saved{}, err
	}
	golden, err := fixture.Answer(c.ID(), op, c.InputText())
	if err != nil {
		return Saved{}, err
	}
	fp, gp := fixture.Paths(c.ID())
	s := Saved{ID: c.ID(), Fixture: filepath.Join(dir, filepath.FromSlash(fp)), Golden: filepath.Join(dir, filepath.FromSlash(gp))}
	for _, f := range []struct {
		path string
		data []byte
	}{{s.Fixture, file}, {s.Golden, fixture.Encode(golden)}} {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return Saved{}, fmt.Errorf("saving %s: %w", c.ID(), err)
		}
		if err := os.WriteFile(f.path, f.data, 0o644); err != nil {
			return Saved{}, fmt.Errorf("saving %s: %w", c.ID(), err)
		}
	}
	return s, nil
}
