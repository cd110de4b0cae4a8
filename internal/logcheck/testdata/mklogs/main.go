// Command mklogs writes the session logs check-log's resource figures are
// measured on (issue 23; internal/logcheck/testdata/bench.sh runs it):
//
//	go run ./internal/logcheck/testdata/mklogs tree DIR N   # N small clean logs
//	go run ./internal/logcheck/testdata/mklogs big FILE MiB # sessionlog.Big, seed 1
//
// A tree's logs are small sessionlog.Big logs (a header and one turn, seeds
// 1..poolSize in turn), spread over subdirectories of 1,000 files.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/dsh-conform/conform/generators/sessionlog"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "mklogs:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	if len(args) != 3 {
		return fmt.Errorf("usage: mklogs tree DIR N | mklogs big FILE MiB")
	}
	n, err := strconv.Atoi(args[2])
	if err != nil || n < 1 {
		return fmt.Errorf("%s: not a positive count", args[2])
	}
	switch args[0] {
	case "tree":
		return tree(args[1], n)
	case "big":
		return big(args[1], int64(n)<<20)
	}
	return fmt.Errorf("unknown mode %q (tree or big)", args[0])
}

// poolSize is how many distinct small logs a tree repeats.
const poolSize = 8

func tree(dir string, n int) error {
	pool := make([][]byte, poolSize)
	for i := range pool {
		var b bytes.Buffer
		if _, err := sessionlog.Big(&b, 200, int64(i+1)); err != nil { // the header is shorter: one turn follows
			return err
		}
		pool[i] = b.Bytes()
	}
	for i := 0; i < n; i++ {
		sub := filepath.Join(dir, fmt.Sprintf("d%04d", i/1000))
		if i%1000 == 0 {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("s%07d.jsonl", i)), pool[i%poolSize], 0o644); err != nil {
			return err
		}
	}
	return nil
}

func big(path string, target int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if _, err := sessionlog.Big(w, target, 1); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
