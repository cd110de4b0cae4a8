package diagnosis

import (
	"math"
	"testing"
)

func TestNumberFormatters(t *testing.T) {
	for _, c := range []struct {
		x             float64
		python, plain string
	}{
		{1e-5, "1e-05", "0.00001"},
		{1.5e16 + 0.5, "15000000000000000", "15000000000000000"}, // integral: the kit's int
		{0.0001, "0.0001", "0.0001"},
		{1.25e-7, "1.25e-07", "0.000000125"},
		{123.5, "123.5", "123.5"},
		{-2.5e20 - 0.5, "-250000000000000000000", "-250000000000000000000"},
		{1e21, "1000000000000000000000", "1000000000000000000000"},
		{math.Copysign(0, -1), "-0.0", "-0"},
		{math.Inf(-1), "-inf", "-inf"},
	} {
		if got := pythonNumber(c.x); got != c.python {
			t.Errorf("pythonNumber(%v) = %q, want %q", c.x, got, c.python)
		}
		if got := plainNumber(c.x); got != c.plain {
			t.Errorf("plainNumber(%v) = %q, want %q", c.x, got, c.plain)
		}
	}
	if got := pythonNumber(1.5e16 + 2.5); got != "15000000000000002" {
		t.Errorf("pythonNumber = %q", got)
	}
	if got := pythonNumber(1e16 + 0.1); got != "10000000000000000" {
		t.Errorf("pythonNumber = %q", got)
	}
	if got := pythonNumber(2.5e-3); got != "0.0025" {
		t.Errorf("pythonNumber(2.5e-3) = %q", got)
	}
	if got := pythonNumber(1.5e300 / 1e284); got != "1.5e+16" && got != "15000000000000000" {
		t.Errorf("pythonNumber = %q", got)
	}
}
