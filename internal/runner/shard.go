package runner

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is one of N slices of a run or a fuzz campaign (--shard K/N): it
// holds the items k with k mod N = K, the items being the selected cases
// in ID order (run) or the campaign's case numbers (fuzz). The split
// depends on nothing but the item list, so it is the same on every
// machine. N < 2 holds everything.
type Shard struct {
	K int `json:"k"`
	N int `json:"n"`
}

// Has reports whether item k is in the shard.
func (s Shard) Has(k int) bool { return s.N < 2 || k%s.N == s.K }

// ParseShard reads "K/N" with 0 <= K < N.
func ParseShard(flag, s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	sk, err1 := strconv.Atoi(strings.TrimSpace(k))
	sn, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || sn < 1 || sk < 0 || sk >= sn {
		return Shard{}, fmt.Errorf("%s %q: want K/N with 0 <= K < N, e.g. 0/4 … 3/4", flag, s)
	}
	return Shard{K: sk, N: sn}, nil
}
