package mutation

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// CoverageConfig drives the golden-coverage gate.
type CoverageConfig struct {
	Root    string // module root
	Module  string // its import path
	Conform string // `conform` built from the unmutated tree
}

// GoldenCoverage builds the lean adapter with -cover, runs every case and
// the framing script against it with GOCOVERDIR set and reads the profile
// of reference/; then
// builds it again without -cover and without inlining (so every function
// the adapter can reach keeps its symbol) to learn which functions are
// linked at all. The blocks come back annotated (see Annotate).
func GoldenCoverage(ctx context.Context, cfg CoverageConfig) ([]Block, error) {
	tmp, err := os.MkdirTemp("", "conform-coverage-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	covDir, covBin, nmBin := filepath.Join(tmp, "cov"), filepath.Join(tmp, "adapter-cover"), filepath.Join(tmp, "adapter-nm")
	if err := os.Mkdir(covDir, 0o755); err != nil {
		return nil, err
	}
	// The main package must be instrumented too, or no counters are
	// written at exit.
	if _, err := goCmd(ctx, cfg.Root, "build", "-cover", "-coverpkg=./reference/...,"+AdapterPkg, "-o", covBin, AdapterPkg); err != nil {
		return nil, err
	}
	run := exec.CommandContext(ctx, cfg.Conform, "run", "--jobs", "1", "--", covBin)
	run.Dir, run.Env = cfg.Root, append(os.Environ(), "GOCOVERDIR="+covDir)
	if out, err := run.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("conform run against the -cover adapter: %v: %s", err, lastLine(out))
	}
	// The framing script is the golden run's other half (run.go): what
	// only a request framing reaches is covered too.
	script, err := os.ReadFile(filepath.Join(cfg.Root, FramingScript))
	if err != nil {
		return nil, err
	}
	framed := exec.CommandContext(ctx, covBin)
	framed.Dir, framed.Env, framed.Stdin = cfg.Root, append(os.Environ(), "GOCOVERDIR="+covDir), bytes.NewReader(script)
	if out, err := framed.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("the framing script against the -cover adapter: %v: %s", err, lastLine(out))
	}
	profile := filepath.Join(tmp, "cov.txt")
	if _, err := goCmd(ctx, cfg.Root, "tool", "covdata", "textfmt", "-i", covDir, "-pkg", cfg.Module+"/reference/...", "-o", profile); err != nil {
		return nil, err
	}
	if _, err := goCmd(ctx, cfg.Root, "build", "-gcflags=all=-l", "-o", nmBin, AdapterPkg); err != nil {
		return nil, err
	}
	nm, err := goCmd(ctx, cfg.Root, "tool", "nm", nmBin)
	if err != nil {
		return nil, err
	}
	syms, err := ParseSymbols(bytes.NewReader(nm))
	if err != nil {
		return nil, fmt.Errorf("go tool nm: %v", err)
	}
	f, err := os.Open(profile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	blocks, err := ParseProfile(f, cfg.Module)
	if err != nil {
		return nil, fmt.Errorf("coverage profile %s: %v", profile, err)
	}
	return blocks, Annotate(blocks, cfg.Root, cfg.Module, syms)
}

// goCmd runs the go command in dir and returns its stdout; a failure
// carries its stderr.
func goCmd(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v\n%s", args[0], err, stderr.Bytes())
	}
	return out, nil
}
