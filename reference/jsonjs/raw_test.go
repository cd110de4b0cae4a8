package jsonjs_test

import (
	"bytes"
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

var _ = Describe("raw members", func() {
	const obj = ` { "a" : [1, {"x":"}]\""}] , "\u0062":1e400,"a":-0, "c" : "s p" , "d":{ } } `

	It("walks the members in order, keys and values as written", func() {
		var got []string
		jsonjs.EachRawMember([]byte(obj), func(k, v []byte) bool {
			got = append(got, string(k)+"="+string(v))
			return true
		})
		Expect(got).To(Equal([]string{`"a"=[1, {"x":"}]\""}]`, `"\u0062"=1e400`, `"a"=-0`, `"c"="s p"`, `"d"={ }`}))
		n := 0
		jsonjs.EachRawMember([]byte(obj), func(k, v []byte) bool { n++; return false })
		Expect(n).To(Equal(1))
	})

	It("finds members by name, the last duplicate winning, escapes decoded", func() {
		got := jsonjs.RawMembers([]byte(obj), "a", "b", "B", "zz")
		Expect(string(got[0])).To(Equal("-0"))
		Expect(string(got[1])).To(Equal("1e400"))
		Expect(got[2]).To(BeNil(), "names are case-sensitive")
		Expect(got[3]).To(BeNil())
		Expect(jsonjs.RawKeyIs([]byte(`"\u0041"`), "A")).To(BeTrue())
		Expect(jsonjs.RawKeyIs([]byte(`"a"`), "A")).To(BeFalse())
		Expect(jsonjs.RawKeyIs([]byte(`"`), "")).To(BeFalse())
	})

	It("compacts like encoding/json's Compact, strings untouched", func() {
		for _, text := range []string{obj, "[ 1 ,\n\t2 ]", `"  a  "`, "{}", ` -0 `} {
			var want bytes.Buffer
			Expect(json.Compact(&want, []byte(text))).To(Succeed())
			Expect(string(jsonjs.CompactRaw([]byte(text)))).To(Equal(want.String()), text)
		}
	})
})
