package p

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestBuiltTwice builds a command and runs it: only the built binary calls
// Twice.
func TestBuiltTwice(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "twice")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/twice").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil || string(out) != "42\n" {
		t.Errorf("twice printed %q (%v), want 42", out, err)
	}
}
