package retention_test

import (
	"testing"

	"github.com/dsh-conform/conform/reference/retention"
)

// BenchmarkTextHeadTail pushes 1 MiB of mixed UTF-8 text in 4 KiB chunks
// through a headTail 4096/4096 window, as the spill preview does.
func BenchmarkTextHeadTail(b *testing.B) {
	const size = 1 << 20
	unit := []byte("line of text: aé€😀 0123456789\n")
	data := make([]byte, 0, size+len(unit))
	for len(data) < size {
		data = append(data, unit...)
	}
	data = data[:size]
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := retention.NewText(retention.HeadTailBytes(4096, 4096))
		if err != nil {
			b.Fatal(err)
		}
		for off := 0; off < len(data); off += 4096 {
			r.Push(data[off:min(off+4096, len(data))])
		}
		out := r.Finish()
		if !out.Truncated || len(out.Text) > 8192 {
			b.Fatalf("unexpected result: truncated %v, %d bytes", out.Truncated, len(out.Text))
		}
	}
}
