package jsonjs_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The tree layout's shortcuts (value.go, parse.go: the duplicate-key
// filter, blocks presized from punctuation) decide speed only; these
// specs hold them to the plain rules.
var _ = Describe("Parse's tree layout", func() {
	It("resolves duplicate keys as JSON.parse does, whatever the key signatures (CODE-KEYS-2)", func() {
		// Keys over a 2-letter alphabet collide in the 64-bit filter both as
		// duplicates and as distinct keys with one signature ("ab", "ba").
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			keys := rapid.SliceOfN(rapid.StringMatching(`[ab]{0,3}`), 0, 20).Draw(t, "keys")
			var text strings.Builder
			type member struct {
				key string
				val int
			}
			var want []member
			text.WriteByte('{')
			for i, k := range keys {
				if i > 0 {
					text.WriteByte(',')
				}
				fmt.Fprintf(&text, "%q:%d", k, i)
				found := false
				for j := range want {
					if want[j].key == k {
						want[j].val, found = i, true
					}
				}
				if !found {
					want = append(want, member{k, i})
				}
			}
			text.WriteByte('}')
			v, err := jsonjs.Parse([]byte(text.String()))
			if err != nil {
				t.Fatalf("%s: %v", text.String(), err)
			}
			got, _ := v.Members()
			if len(got) != len(want) {
				t.Fatalf("%s: %d members, want %d", text.String(), len(got), len(want))
			}
			for i, m := range got {
				if f, _ := m.Value.Float(); m.Key != want[i].key || f != float64(want[i].val) {
					t.Fatalf("%s: member %d is %q:%v, want %q:%d", text.String(), i, m.Key, f, want[i].key, want[i].val)
				}
			}
		})
	})

	DescribeTable("builds the same tree when strings make the punctuation count wrong",
		func(text string) {
			v := mustParse(text)
			Expect(marshal(v)).To(Equal(text))
			Expect(jsonjs.Equal(mustParse(marshal(v)), v)).To(BeTrue())
		},
		Entry("fewer items than commas predict", `{"a":",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,","b":[1]}`),
		Entry("more items than predicted (colons in a string)", `{"::::::::::::::::::::::::::::::::":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40]}`),
		Entry("a container larger than half a block", `[{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"r":18,"s":19}]`),
		Entry("more containers than brackets predict", `[[[[[],{}],[[]]],{"a":{"b":{"c":[{}]}}}],"]]]]"]`),
		Entry("brackets inside strings only", `["{{{{[[[[","]]]]}}}}"]`),
		Entry("scalars", `[true,false,null,0,-0.5,"x",[],{}]`),
	)

	It("builds texts whose first blocks would pass their bound (slabMax)", func() {
		var text strings.Builder
		text.WriteString(`[{`)
		for i := range 5000 {
			if i > 0 {
				text.WriteByte(',')
			}
			fmt.Fprintf(&text, `"k%d":[%d,{}]`, i, i)
		}
		text.WriteString(`}]`)
		v := mustParse(text.String())
		Expect(marshal(v)).To(Equal(text.String()))
		items, _ := v.Items()
		members, _ := items[0].Members()
		Expect(members).To(HaveLen(5000))
		last, _ := members[4999].Value.Items()
		Expect(marshal(last[0])).To(Equal("4999"))
	})

	It("keeps booleans, numbers and kinds apart in its 32-byte values", func() {
		v := mustParse(`[true,false,1,0,"1",null,[],{},[0],{"a":true}]`)
		items, _ := v.Items()
		kinds := make([]jsonjs.Kind, len(items))
		for i, it := range items {
			kinds[i] = it.Kind()
		}
		Expect(kinds).To(Equal([]jsonjs.Kind{jsonjs.Bool, jsonjs.Bool, jsonjs.Number, jsonjs.Number, jsonjs.String,
			jsonjs.Null, jsonjs.Array, jsonjs.Object, jsonjs.Array, jsonjs.Object}))
		b, ok := items[0].Bool()
		Expect([]bool{b, ok}).To(Equal([]bool{true, true}))
		b, ok = items[1].Bool()
		Expect([]bool{b, ok}).To(Equal([]bool{false, true}))
		b, ok = items[2].Bool() // the number 1 is not true
		Expect([]bool{b, ok}).To(Equal([]bool{false, false}))
		f, ok := items[0].Float() // nor is true the number 1
		Expect(f).To(BeZero())
		Expect(ok).To(BeFalse())
		Expect(jsonjs.Equal(items[0], items[2])).To(BeFalse())
		Expect(jsonjs.Equal(items[1], items[3])).To(BeFalse())
		Expect(jsonjs.Equal(items[6], items[7])).To(BeFalse())
		Expect(jsonjs.Equal(jsonjs.NullValue(), jsonjs.Value{})).To(BeTrue())
		Expect(jsonjs.Equal(jsonjs.ArrayValue(), items[6])).To(BeTrue())
		Expect(jsonjs.Equal(jsonjs.ObjectValue(), items[7])).To(BeTrue())
		Expect(marshal(v)).To(Equal(`[true,false,1,0,"1",null,[],{},[0],{"a":true}]`))
	})
})
