package diagnosis

import (
	"testing"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// What serde_json 1.0.154 (default features) writes for each JSON.stringify
// token it reads: observed with a probe crate printing
// serde_json::to_string(&serde_json::from_str::<Value>(token)?). The same
// probe agreed with serdeNumber on 99,995 tokens of random doubles.
func TestSerdeNumber(t *testing.T) {
	for _, c := range []struct{ token, serde string }{
		{"1", "1"},
		{"1.5", "1.5"},
		{"100000000000000000000", "1e+20"}, // beyond u64: an f64
		{"123456789012345680000", "1.2345678901234567e+20"}, // read without correct rounding
		{"4503599627370495.5", "4503599627370495.0"},
		{"9.999999999999999e+20", "1e+21"},
		{"1e+21", "1e+21"},
		{"0.000001", "1e-6"},
		{"0.000001234", "1.234e-6"},
		{"-0.000001", "-1e-6"},
		{"0.00001", "0.00001"},
		{"0.000012345", "0.000012345"},
		{"1e-7", "1e-7"},
		{"1.23e-18", "1.23e-18"},
		{"1e+16", "1e+16"},
		{"1000000000000000", "1000000000000000"}, // a u64
		{"18446744073709551615", "18446744073709551615"},
		{"18446744073709552000", "1.8446744073709552e+19"},
		{"-9223372036854775808", "-9223372036854775808"},
		{"-9223372036854775809", "-9.223372036854776e+18"},
		{"12345678901234567000", "12345678901234567000"},
		{"5e-324", "5e-324"},
		{"1.7976931348623157e+308", "1.7976931348623157e+308"},
		// tokens JSON.stringify never writes, for the reader's other paths
		{"0.12345678901234567890123", "0.12345678901234568"}, // fraction digits past u64 dropped
		{"18446744073709551619.1", "1.8446744073709552e+19"},
		{"1844674407370955161.5e3", "1.8446744073709552e+21"},
		{"123456789012345678901234567890", "1.2345678901234568e+29"},
		{"-0", "-0.0"},
		{"0e5", "0.0"},
		{"1e400", "1e400"}, // serde_json: "number out of range"; no answer to model
	} {
		if got := serdeNumber(c.token); got != c.serde {
			t.Errorf("serdeNumber(%s) = %s, serde_json writes %s", c.token, got, c.serde)
		}
	}
	// as_f64 of what it read, written as an f64: the meta measure
	for _, c := range []struct {
		x   float64
		f64 string
	}{{1, "1.0"}, {-12, "-12.0"}, {1e15, "1000000000000000.0"}, {1e16, "1e+16"}, {2.5, "2.5"}} {
		if got := serdeWrite(serdeRead(jsonjs.FormatNumber(c.x)).float()); got != c.f64 {
			t.Errorf("the f64 of %v is written %s, serde_json writes %s", c.x, got, c.f64)
		}
	}
}

func TestRewriteNumbers(t *testing.T) {
	in := `{"a-1e5": [1, -2.5e-7, "3"], "\"9": 100000000000000000000}`
	want := `{"a-1e5": [1, -2.5e-7, "3"], "\"9": 1e+20}`
	if got := rewriteNumbers(in, serdeNumber); got != want {
		t.Errorf("rewriteNumbers = %s, want %s", got, want)
	}
}
