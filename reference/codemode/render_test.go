package codemode_test

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"runtime"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

var _ = Describe("RenderText (CODE-RENDER-1..3, code-mode.md §3)", func() {
	DescribeTable("the §3 table",
		func(logs []string, result *jsonjs.Value, want string) {
			Expect(codemode.RenderText(logs, result)).To(Equal(want))
		},
		Entry(`{logs:["printed"]}`, []string{"printed"}, nil, "printed"),
		Entry(`{logs:[], result:"returned"}`, []string{}, ptr(`"returned"`), "returned"),
		Entry(`{logs:["printed"], result:"returned"}`, []string{"printed"}, ptr(`"returned"`), "printed\nreturned"),
		Entry(`{logs:["a","b"], result:{"x":1}}`, []string{"a", "b"}, ptr(`{"x":1}`), "a\nb\n{\n  \"x\": 1\n}"),
		Entry(`{logs:[]}`, []string{}, nil, "(run_code completed with no output)"),
		Entry(`{logs:[], result:""}`, []string{}, ptr(`""`), "(run_code completed with no output)"),
		Entry(`{logs:[""]}`, []string{""}, nil, "(run_code completed with no output)"),
		Entry(`{logs:["",""]}`, []string{"", ""}, nil, "\n"),
		Entry(`{logs:[""], result:"r"}`, []string{""}, ptr(`"r"`), "r"),
		Entry(`{logs:["l1\nl2"], result:null}`, []string{"l1\nl2"}, ptr(`null`), "l1\nl2\nnull"),
		Entry(`{logs:[], result:0}`, []string{}, ptr(`0`), "0"),
		Entry(`{logs:[], result:false}`, []string{}, ptr(`false`), "false"),
		Entry(`{logs:["x"], result:[]}`, []string{"x"}, ptr(`[]`), "x\n[]"),
		Entry(`{logs:["x\n"], result:"y\n"}`, []string{"x\n"}, ptr(`"y\n"`), "x\n\ny\n"),
		Entry("the code-mode-turn snapshot", []string{"captured output"}, ptr(`"CODE_ONE+CODE_TWO"`), "captured output\nCODE_ONE+CODE_TWO"),
		Entry("nil logs, no result", nil, nil, "(run_code completed with no output)"),
	)

	It("keeps an absent result apart from a null one", func() {
		Expect(codemode.RenderText(nil, nil)).To(Equal(codemode.NoOutputMarker))
		null := jsonjs.NullValue()
		Expect(codemode.RenderText(nil, &null)).To(Equal("null"))
	})
})

var _ = Describe("RenderValue (CODE-JSON-1/2, code-mode.md §4)", func() {
	DescribeTable("the worked example blocks",
		func(value, want string) {
			Expect(codemode.RenderValue(parse(value))).To(Equal(want))
		},
		Entry("depth 4 is the deepest pretty container", `{"a":{"b":{"c":{"d":{"e":1}}}}}`, `{
  "a": {
    "b": {
      "c": {
        "d": {
          "e": 1
        }
      }
    }
  }
}`),
		Entry("a container at depth 5 is compact", `{"a":{"b":{"c":{"d":{"e":{"f":1}}}}}}`, `{
  "a": {
    "b": {
      "c": {
        "d": {
          "e": {"f":1}
        }
      }
    }
  }
}`),
		Entry("depth 6 stays inside the compact depth-5 rendering", `{"a":{"b":{"c":{"d":{"e":{"f":{"g":1}}}}}}}`, `{
  "a": {
    "b": {
      "c": {
        "d": {
          "e": {"f":{"g":1}}
        }
      }
    }
  }
}`),
		Entry("five array levels", `[[[[[1,2]]]]]`, `[
  [
    [
      [
        [
          1,
          2
        ]
      ]
    ]
  ]
]`),
		Entry("six array levels", `[[[[[[1,2]]]]]]`, `[
  [
    [
      [
        [
          [1,2]
        ]
      ]
    ]
  ]
]`),
		Entry("seven array levels", `[[[[[[[1,2],[3]]]]]]]`, `[
  [
    [
      [
        [
          [[1,2],[3]]
        ]
      ]
    ]
  ]
]`),
		Entry("a depth-5 object in a depth-4 array", `{"a":{"b":{"c":{"d":[1,{"e":2}]}}}}`, `{
  "a": {
    "b": {
      "c": {
        "d": [
          1,
          {"e":2}
        ]
      }
    }
  }
}`),
		Entry("mixed object/array nesting", `{"l0":{"l1":{"l2":{"l3":{"l4":{"l5":{"l6":"x"},"k":[1,[2,[3]]]},"m":[]},"n":{}}}}}`, `{
  "l0": {
    "l1": {
      "l2": {
        "l3": {
          "l4": {"l5":{"l6":"x"},"k":[1,[2,[3]]]},
          "m": []
        },
        "n": {}
      }
    }
  }
}`),
		Entry("empty containers at any depth", `[[[[[[],{},[[]]]]]]]`, `[
  [
    [
      [
        [
          [],
          {},
          [[]]
        ]
      ]
    ]
  ]
]`),
	)

	DescribeTable("scalar and shallow roots",
		func(value, want string) {
			Expect(codemode.RenderValue(parse(value))).To(Equal(want))
		},
		Entry("null", `null`, "null"),
		Entry("42", `42`, "42"),
		Entry("true", `true`, "true"),
		Entry("{}", `{}`, "{}"),
		Entry("[]", `[]`, "[]"),
		Entry(`{"n":42,"ok":true}`, `{"n":42,"ok":true}`, "{\n  \"n\": 42,\n  \"ok\": true\n}"),
		Entry(`["x",2]`, `["x",2]`, "[\n  \"x\",\n  2\n]"),
	)

	It("renders a string result verbatim (CODE-JSON-1)", func() {
		Expect(codemode.RenderValue(parse(`"a\"b\n\u0001\ud800"`))).To(Equal("a\"b\n\x01\xed\xa0\x80"))
	})

	It("escapes strings inside a non-string result like JSON.stringify (CODE-STR-1)", func() {
		v := parse(`{"s":"a\"b\\c\n\t\u0001\u001f\u007f\u2028\u2029<>&é😀\ud800 \udc00x","k":"\b\f\r"}`)
		want := "{\n  \"s\": \"a\\\"b\\\\c\\n\\t\\u0001\\u001f\u007f\u2028\u2029<>&é😀\\ud800 \\udc00x\",\n  \"k\": \"\\b\\f\\r\"\n}"
		Expect(codemode.RenderValue(v)).To(Equal(want))
	})

	It("escapes keys the same way (CODE-STR-1)", func() {
		Expect(codemode.RenderValue(parse(`{"a\"b":1,"é":2,"\n":3,"":4}`))).
			To(Equal("{\n  \"a\\\"b\": 1,\n  \"é\": 2,\n  \"\\n\": 3,\n  \"\": 4\n}"))
	})

	It("orders array-index keys first, ascending, then the rest in insertion order (CODE-KEYS-1)", func() {
		out := codemode.RenderValue(parse(`{"b":1,"2":2,"a":3,"1":4,"4294967295":5,"4294967294":6,"01":7,"-1":8,"1.5":9,"0":10,"10":11,"9":12}`))
		Expect(out).To(Equal("{\n" +
			"  \"0\": 10,\n  \"1\": 4,\n  \"2\": 2,\n  \"9\": 12,\n  \"10\": 11,\n  \"4294967294\": 6,\n" +
			"  \"b\": 1,\n  \"a\": 3,\n  \"4294967295\": 5,\n  \"01\": 7,\n  \"-1\": 8,\n  \"1.5\": 9\n}"))
	})

	It("keeps a duplicate key at its first position with its last value (CODE-KEYS-2)", func() {
		Expect(codemode.RenderValue(parse(`{"a":1,"b":2,"a":3}`))).To(Equal("{\n  \"a\": 3,\n  \"b\": 2\n}"))
	})

	It("treats __proto__ as an ordinary key (CODE-KEYS-2)", func() {
		Expect(codemode.RenderValue(parse(`{"__proto__":1,"x":2}`))).To(Equal("{\n  \"__proto__\": 1,\n  \"x\": 2\n}"))
	})

	DescribeTable("numbers print as ECMAScript Number::toString (CODE-NUM-1, §4.1)",
		func(x float64, want string) {
			Expect(codemode.RenderValue(jsonjs.NumberValue(x))).To(Equal(want))
			Expect(codemode.RenderValue(jsonjs.ArrayValue(jsonjs.NumberValue(x)))).To(Equal("[\n  " + want + "\n]"))
		},
		Entry(nil, 0.0, "0"),
		Entry(nil, math.Copysign(0, -1), "0"),
		Entry(nil, 100.0, "100"),
		Entry(nil, 0.1, "0.1"),
		Entry(nil, add(0.1, 0.2), "0.30000000000000004"),
		Entry(nil, div(1, 3), "0.3333333333333333"),
		Entry(nil, 123.456, "123.456"),
		Entry(nil, 4.35, "4.35"),
		Entry(nil, 1e20, "100000000000000000000"),
		Entry(nil, 1e21, "1e+21"),
		Entry(nil, 999999999999999999999.0, "1e+21"),
		Entry(nil, 9.999999999999999e20, "999999999999999900000"),
		Entry(nil, 123456789012345680000.0, "123456789012345680000"),
		Entry(nil, 12345678901234567890123.0, "1.2345678901234568e+22"),
		Entry(nil, float64(1<<53), "9007199254740992"),
		Entry(nil, add(1e15, 0.3), "1000000000000000.2"),
		Entry(nil, 4503599627370497.5, "4503599627370498"),
		Entry(nil, 0.000001, "0.000001"),
		Entry(nil, -1e-6, "-0.000001"),
		Entry(nil, 0.000001234, "0.000001234"),
		Entry(nil, 9.9e-7, "9.9e-7"),
		Entry(nil, 1e-7, "1e-7"),
		Entry(nil, 1.5e-7, "1.5e-7"),
		Entry(nil, -2.5e-10, "-2.5e-10"),
		Entry(nil, 123e-20, "1.23e-18"),
		Entry(nil, 5e-324, "5e-324"),
		Entry(nil, 1e100, "1e+100"),
		Entry(nil, 1e300, "1e+300"),
		Entry(nil, 1.7976931348623157e308, "1.7976931348623157e+308"),
	)
})

var _ = Describe("deep and wide values (CODE-JSON-3)", func() {
	const depth = 100000

	// deepArray is `depth` nested arrays, innermost empty.
	deepArray := func(n int) jsonjs.Value {
		return parse(strings.Repeat("[", n) + strings.Repeat("]", n))
	}

	It("renders 100,000 nested arrays without stack overflow, byte for byte", func() {
		out := codemode.RenderValue(deepArray(depth))
		// Five pretty levels, the rest compact, then the five closers.
		want := "[\n  [\n    [\n      [\n        [\n          " +
			strings.Repeat("[", depth-5) + strings.Repeat("]", depth-5) +
			"\n        ]\n      ]\n    ]\n  ]\n]"
		Expect(out).To(Equal(want))
		Expect(len(out)).To(Equal(200060))
		// sha256 of upstream's rendering of the same value (node, rc.8).
		sum := sha256.Sum256([]byte(out))
		Expect(hex.EncodeToString(sum[:])).To(Equal("314796959d3150c8af87ca70bc84cec3c6af40fa6c2f2c50e5fc19debb739e55"))
	})

	It("renders 100,000 nested objects as upstream does", func() {
		v := parse(strings.Repeat(`{"k":`, depth) + "{}" + strings.Repeat("}", depth))
		out := codemode.RenderValue(v)
		Expect(len(out)).To(Equal(600067))
		sum := sha256.Sum256([]byte(out))
		Expect(hex.EncodeToString(sum[:])).To(Equal("6497ef6774c141a1bf77fbfd459b7fdcebffdd79f06f471b1c5510a7b6593076"))
	})

	It("renders a small wide value as upstream does", func() {
		v := parse(`[{"i":0,"s":"","a":[0,[0]]},{"i":1,"s":"x","a":[1,[1]]},{"i":2,"s":"xx","a":[2,[2]]},{"i":3,"s":"xxx","a":[3,[3]]},{"i":4,"s":"xxxx","a":[4,[4]]}]`)
		sum := sha256.Sum256([]byte(codemode.RenderValue(v)))
		Expect(hex.EncodeToString(sum[:])).To(Equal("12241a058ee277d238bb8196d75cdda2e2a4bb3d626dc32daf9194a67c3d29b0"))
	})

	It("allocates linearly in the depth", func() {
		// Bytes allocated, not time: the machine's load cannot change them.
		// Linear work is a ratio of 4, a quadratic walk or layout 16.
		allocated := func(v jsonjs.Value) uint64 {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			codemode.RenderValue(v)
			runtime.ReadMemStats(&after)
			return after.TotalAlloc - before.TotalAlloc
		}
		small, large := allocated(deepArray(depth)), allocated(deepArray(4*depth))
		Expect(float64(large)/float64(small)).To(BeNumerically("<", 6), "100k: %d bytes, 400k: %d bytes", small, large)
	})
})

// add and div compute in float64 at run time, as JavaScript does; Go
// constant arithmetic is exact and would give 0.1+0.2 == 0.3.
func add(a, b float64) float64 { return a + b }
func div(a, b float64) float64 { return a / b }
