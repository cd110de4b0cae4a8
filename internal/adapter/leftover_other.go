//go:build !linux

package adapter

import (
	"strconv"
	"sync/atomic"
)

// Without /proc there is no sweep: killing the process group (Unix) is all
// conform does about leftovers, and there is no parent-death signal.

const markerVar = "CONFORM_ADAPTER_TOKEN"

var markerSeq atomic.Uint64

func newMarker() string { return strconv.FormatUint(markerSeq.Add(1), 10) }

func sweep(string, bool) []string { return nil }

func startGuardian() {}
