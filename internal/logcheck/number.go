package logcheck

// rawFloat is raw.Float with a fast path for the integers logs are full of
// (seq, time, turn, step): a lexeme of at most 15 digits and nothing else
// is an integer below 2^53, so its double is exactly its value, which is
// what JSON.parse returns. Anything else (sign, fraction, exponent, longer)
// takes the general reading.
func rawFloat(r raw) (float64, bool) {
	if n := len(r); n > 0 && n <= 15 {
		v := int64(0)
		i := 0
		for ; i < n; i++ {
			d := r[i] - '0'
			if d > 9 {
				break
			}
			v = v*10 + int64(d)
		}
		if i == n {
			return float64(v), true
		}
	}
	return r.Float()
}
