package p

import "testing"

func TestMax(t *testing.T) {
	if Max(1, 2) != 2 || Max(2, 1) != 2 {
		t.Error("Max")
	}
}

func TestZero(t *testing.T) {
	if Zero() != 0 {
		t.Error("Zero")
	}
}

func TestSum(t *testing.T) {
	if Sum(3) != 3 {
		t.Error("Sum")
	}
}
