package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// errorAll answers the handshake listing every op, then fails every case
// with an error answer, so that the report lists every case's input.
const errorAll = `read -r hello
echo '{"protocol":1,"implementation":{"name":"error-all","version":"1","language":"sh"},"ops":["grep.result","glob.result","search.present","run_code.result","retain.items","retain.text","spill.preview"]}'
while read -r line; do
  case "$line" in *'"cmd":"bye"'*) exit 0;; esac
  id=$(printf '%s' "$line" | sed 's/^{"cmd":"run","id":"\([^"]*\)".*/\1/')
  printf '{"id":"%s","error":{"message":"no"}}\n' "$id"
done
`

var _ = Describe("JSON reports are read by strict readers (issue 21)", Ordered, func() {
	var path string
	var data []byte
	BeforeAll(func() {
		path = filepath.Join(GinkgoT().TempDir(), "r.json")
		r := conform("", "run", "-j", "2", "--format", "json", "--out", path, "--", script(errorAll))
		Expect(r.code).To(Equal(exitNonconform), r.stderr)
		var err error
		data, err = os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(bytes.Contains(data, []byte(`"inputText"`))).To(BeTrue(), "some embedded inputs hold lone surrogates")
	})

	It("jq (Debian's) reads the report with every case input", func() {
		jq, err := exec.LookPath("jq")
		if err != nil {
			Skip("jq is not installed (apt-get install -y jq; .ci/run installs it)")
		}
		out, err := exec.Command(jq, "-e", `.cases | length > 700 and all(.[]; has("input") or has("inputText"))`, path).CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		Expect(string(out)).To(Equal("true\n"))
		// an input nested past report.StrictDepth is its text alone (jq 1.6 reads 256 levels)
		out, err = exec.Command(jq, "-r", `.cases[] | select(.id == "run_code.result/run-code-json-3000-nested-arrays") | .inputText | length`, path).CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		Expect(string(out)).To(Equal("6097\n"))
		out, err = exec.Command(jq, "-r", ".nonconformant | length", path).CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
	})

	It("Python's json, Node's JSON.parse and Go's encoding/json read it", func() {
		if py, err := exec.LookPath("python3"); err == nil {
			out, err := exec.Command(py, "-c", "import json,sys; json.load(open(sys.argv[1], encoding='utf-8'))", path).CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), string(out))
		}
		if node, err := exec.LookPath("node"); err == nil {
			out, err := exec.Command(node, "-e", "JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'))", path).CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), string(out))
		}
		var v map[string]any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber() // inputs keep their number spellings (1e400)
		Expect(dec.Decode(&v)).To(Succeed())
	})

	It("conform's own reader gets every input back exactly", func() {
		rep, err := report.ReadRun(path, data)
		Expect(err).NotTo(HaveOccurred())
		cases, err := rtCases()
		Expect(err).NotTo(HaveOccurred())
		want := map[string][]byte{}
		for _, c := range cases {
			want[c.ID] = jsonjs.CompactRaw(c.Input)
		}
		Expect(rep.Cases).To(HaveLen(len(cases)))
		for _, c := range rep.Cases {
			Expect(string(c.Input)).To(Equal(string(want[c.ID])), c.ID)
		}
	})
})
