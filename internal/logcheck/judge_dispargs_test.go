package logcheck_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Issue 22: dispatch arguments (dispargs.go). A start keeps its argument
// text and the tree is built late; whatever the order of starts and
// settles, each settle must be compared with its own start's arguments
// (CODE-DISPATCH-3, deep-equal), never with another sub-call's.

// disp is one dispatch event of call_code's sub-call n.
type disp struct {
	settle bool
	n      int
	args   string
}

func start(n int, args string) disp  { return disp{false, n, args} }
func settle(n int, args string) disp { return disp{true, n, args} }

var seqField = regexp.MustCompile(`"seq":(\d+),`)

// dispatchLog is valid-base.jsonl with its start and settle (seq 11, 12)
// replaced by events, numbered from 11, and the later events renumbered.
func dispatchLog(events ...disp) []byte {
	GinkgoHelper()
	b, err := os.ReadFile(filepath.Join("testdata", "rules", "valid-base.jsonl"))
	Expect(err).NotTo(HaveOccurred())
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		m := seqField.FindStringSubmatch(l)
		seq := -1
		if m != nil {
			seq, _ = strconv.Atoi(m[1])
		}
		switch {
		case seq == 11:
			for i, e := range events {
				id := fmt.Sprintf(`"rootCallId":"call_code","parentCallId":"call_code","subCallId":"call_code:code:%d","name":"grep","arguments":%s`, e.n, e.args)
				if e.settle {
					out = append(out, fmt.Sprintf(`{"type":"tool/code-dispatch","seq":%d,"time":1785591990009,"data":{%s,"isError":false,"content":[{"type":"text","text":"No matches found"}]}}`, 11+i, id))
				} else {
					out = append(out, fmt.Sprintf(`{"type":"tool/code-dispatch-start","seq":%d,"time":1785591990009,"data":{%s}}`, 11+i, id))
				}
			}
		case seq == 12:
		case seq > 12:
			out = append(out, strings.Replace(l, m[0], `"seq":`+strconv.Itoa(seq-2+len(events))+`,`, 1))
		default:
			out = append(out, l)
		}
	}
	return []byte(strings.Join(out, "\n") + "\n")
}

var _ = Describe("check-log's judge, dispatch arguments of several sub-calls (issue 22)", func() {
	const a, b = `{"pattern":"x"}`, `{"pattern":"y"}`

	It("keeps the one sub-call of the base log valid", func() {
		Expect(findings(dispatchLog(start(1, a), settle(1, a)))).To(BeEmpty())
	})

	It("accepts two sub-calls with byte-equal arguments, settled in either order", func() {
		Expect(findings(dispatchLog(start(1, a), start(2, a), settle(1, a), settle(2, a)))).To(BeEmpty())
		Expect(findings(dispatchLog(start(1, a), start(2, a), settle(2, a), settle(1, a)))).To(BeEmpty())
		Expect(findings(dispatchLog(start(1, a), settle(1, a), start(2, a), settle(2, a)))).To(BeEmpty())
	})

	It("compares each settle with its own start only", func() {
		// Sub-call 2's settle repeats sub-call 1's arguments: one violation,
		// on sub-call 2; sub-call 1 is fine.
		log := dispatchLog(start(1, a), start(2, b), settle(1, a), settle(2, a))
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-CODE-6")}), "%q", got)
		Expect(got[0]).To(ContainSubstring("seq 14 "), "sub-call 2's settle is the fourth event")
	})

	It("reports a second settle once, and still pairs the other sub-call", func() {
		// LOG-CHECK-CODE-6: at most one settle per subCallId. The second
		// settle of sub-call 2 is compared with nothing, so sub-call 1's
		// own settle (equal arguments) stays valid.
		log := dispatchLog(start(1, a), start(2, a), settle(2, a), settle(2, a), settle(1, a))
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-CODE-6")}), "%q", got)
		Expect(got[0]).To(ContainSubstring("seq 14 "), "the second settle is the fourth event")
	})
})
