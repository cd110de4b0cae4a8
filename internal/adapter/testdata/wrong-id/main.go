// wrong-id serves the reference but answers every run under another id.
package main

import (
	"bytes"
	"context"
	"os"

	"github.com/dsh-conform/conform/internal/adapter"
)

// idWriter rewrites the start of every answer, {"id":"X", to {"id":"wrong-X".
// Serve flushes one whole answer per Write (answers here are small).
type idWriter struct{}

func (idWriter) Write(p []byte) (int, error) {
	_, err := os.Stdout.Write(bytes.ReplaceAll(p, []byte(`{"id":"`), []byte(`{"id":"wrong-`)))
	return len(p), err
}

func main() {
	impl := adapter.Implementation{Name: "wrong-id", Language: "go"}
	_ = adapter.Serve(context.Background(), os.Stdin, idWriter{}, adapter.Reference(), impl)
}
