package fuzz_test

import (
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/internal/fuzz"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// escapedPair is an astral character spelled as its escaped surrogate
// pair, which jsonjs never writes (it writes the character).
var escapedPair = regexp.MustCompile(`\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}`)

// widened draws n inputs of op's variant at the seeds pairs uses, with the
// plain input each was drawn from.
func widened(op, variant string, n int) (plain, wide []fuzz.Input) {
	for _, p := range pairs(op, variant, n) {
		a, err := fuzz.NewInput(p[0])
		Expect(err).NotTo(HaveOccurred())
		b, err := fuzz.NewInput(p[1])
		Expect(err).NotTo(HaveOccurred(), "%s %s", op, variant)
		plain, wide = append(plain, a), append(wide, b)
	}
	return plain, wide
}

// member returns the member at path below v ("*": any element of an
// array), calling found with each one reached and whether it is present.
func member(v jsonjs.Value, path []string, found func(m jsonjs.Value, present bool)) {
	if path[0] == "*" {
		items, _ := v.Items()
		for _, it := range items {
			member(it, path[1:], found)
		}
		return
	}
	if v.Kind() != jsonjs.Object {
		return
	}
	m, ok := v.Get(path[0])
	if len(path) == 1 {
		found(m, ok)
		return
	}
	if ok {
		member(m, path[1:], found)
	}
}

// objectKeys returns the keys of each object of a JSON text, as written
// (a repeated key twice).
func objectKeys(text []byte) [][]string {
	var out [][]string
	var walk func(raw []byte)
	walk = func(raw []byte) {
		switch raw[0] {
		case '{':
			keys := []string{}
			jsonjs.EachRawMember(raw, func(k, v []byte) bool {
				key, ok := generators.In(string(k)).Str()
				Expect(ok).To(BeTrue())
				keys = append(keys, key)
				walk(v)
				return true
			})
			out = append(out, keys)
		case '[':
			i := jsonjs.RawSkipSpace(raw, 1)
			for i < len(raw) && raw[i] != ']' {
				end := jsonjs.RawSkipValue(raw, i)
				walk(raw[i:end])
				i = jsonjs.RawSkipSpace(raw, end)
				if raw[i] == ',' {
					i = jsonjs.RawSkipSpace(raw, i+1)
				}
			}
		}
	}
	walk(text)
	return out
}

// repeated returns the keys that repeat in one object's key list.
func repeated(keys []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k] {
			out = append(out, k)
		}
		seen[k] = true
	}
	return out
}

// signatureClass is jsonjs's duplicate filter's class of a key (its
// keySignature mod 64): a parser bug that skips one class is found only by
// a repeated key of that class.
func signatureClass(k string) int {
	if k == "" {
		return 0
	}
	return (len(k)*7 + int(k[0]) + int(k[len(k)-1])*3) % 64
}

// containers counts the elements of v's containers, at any depth, and
// the containers of 17–64 elements.
func containers(v jsonjs.Value) (elements, mid int) {
	var n int
	if items, ok := v.Items(); ok {
		n = len(items)
		for _, it := range items {
			e, m := containers(it)
			elements, mid = elements+e, mid+m
		}
	}
	if members, ok := v.Members(); ok {
		n = len(members)
		for _, m := range members {
			e, mm := containers(m.Value)
			elements, mid = elements+e, mid+mm
		}
	}
	if n >= 17 && n <= 64 {
		mid++
	}
	return elements + n, mid
}

// loneBeforeMultiByte reports a lone surrogate (WTF-8: ED A0–BF xx)
// right before the lead byte of a multi-byte UTF-8 character.
func loneBeforeMultiByte(s string) bool {
	for i := 0; i+3 < len(s); i++ {
		if s[i] == 0xED && s[i+1] >= 0xA0 && s[i+3] >= 0xC2 {
			return true
		}
	}
	return false
}

// stringsOf returns every string of v, keys left out.
func stringsOf(v jsonjs.Value) []string {
	if s, ok := v.Str(); ok {
		return []string{s}
	}
	var out []string
	if items, ok := v.Items(); ok {
		for _, it := range items {
			out = append(out, stringsOf(it)...)
		}
	}
	if members, ok := v.Members(); ok {
		for _, m := range members {
			out = append(out, stringsOf(m.Value)...)
		}
	}
	return out
}

var _ = Describe("widening variants (issue 22, item 6)", func() {
	// Every entry of the optional-member table is drawn in each of its
	// readings, and the reference answers every draw.
	type reading struct{ path, how string }
	optionals := map[string][]reading{
		"grep.result": {
			{"config", "absent"}, {"config.maxMatches", "null"}, {"config.maxMatches", "absent"}, {"config.maxLineBytes", "null"},
			{"config.maxMetaBytes", "null"}, {"nested", "null"}, {"nested", "absent"}, {"spill", "absent"},
			{"spill.saved", "null"}, {"spill.locator", "null"}, {"spill.retrievalHint", "null"},
		},
		"glob.result": {
			{"config.maxResults", "null"}, {"config.maxResults", "absent"}, {"config.maxMetaBytes", "null"},
			{"nested", "null"}, {"spill", "absent"}, {"spill.saved", "null"},
		},
		"search.present": {
			{"args", "null"}, {"args", "absent"}, {"result.isError", "null"}, {"result.isError", "absent"},
			{"result.meta", "null"}, {"result.meta", "absent"},
		},
		"run_code.result": {
			{"run.result", "null"}, {"run.result", "absent"}, {"run.error", "null"}, {"run.error", "absent"}, {"run.error", "falsy"},
		},
		"spill.preview": {
			{"text", "null"}, {"blocks", "null"}, {"blocks.*.text", "null"}, {"blocks.*.text", "absent"},
			{"ref", "null"}, {"ref", "absent"}, {"toolName", "absent"}, {"arm", "absent"},
		},
	}
	for op, readings := range optionals {
		It("draws "+op+"'s optional members null and absent, and the reference answers each", func() {
			plain, wide := widened(op, "optional-members", 400)
			got := map[reading]bool{}
			for i, in := range wide {
				Expect(in.Text).NotTo(Equal(plain[i].Text), "case %d changes no member", i)
				_, err := fuzz.Golden(op, in.Text)
				Expect(err).NotTo(HaveOccurred(), "%s", in.Text)
				for _, r := range readings {
					member(in.Value, strings.Split(r.path, "."), func(m jsonjs.Value, present bool) {
						b, isBool := m.Bool()
						f, isNumber := m.Float()
						str, isString := m.Str()
						switch {
						case !present:
							got[reading{r.path, "absent"}] = true
						case m.IsNull():
							got[reading{r.path, "null"}] = true
						case isBool && !b, isNumber && f == 0, isString && str == "":
							got[reading{r.path, "falsy"}] = true
						}
					})
				}
			}
			for _, r := range readings {
				Expect(got).To(HaveKey(r), "%s never %s", r.path, r.how)
			}
		})
	}

	It("gives a completed run logs that are not strings, or none, and never a failed run", func() {
		bad, none := 0, 0
		_, wide := widened("run_code.result", "optional-members", 400)
		for _, in := range wide {
			run, _ := in.Value.Get("run")
			e, failed := run.Get("error")
			if failed {
				b, isBool := e.Bool()
				f, isNumber := e.Float()
				s, isString := e.Str()
				failed = !(e.IsNull() || isBool && !b || isNumber && f == 0 || isString && s == "")
			}
			logs, ok := run.Get("logs")
			if !ok {
				Expect(failed).To(BeFalse(), "a failed run without logs: %s", in.Text)
				none++
				continue
			}
			items, _ := logs.Items()
			for _, l := range items {
				if l.Kind() != jsonjs.String {
					Expect(failed).To(BeFalse(), "a failed run with a log that is no string: %s", in.Text)
					bad++
					break
				}
			}
		}
		Expect(bad).To(BeNumerically(">", 0))
		Expect(none).To(BeNumerically(">", 0))
	})

	It("never draws null where upstream's adapter refuses it", func() {
		for _, op := range []string{"grep.result", "glob.result", "spill.preview"} {
			_, wide := widened(op, "optional-members", 300)
			for _, in := range wide {
				for _, key := range []string{"config", "spill", "toolName", "arm"} {
					m, ok := in.Value.Get(key)
					Expect(ok && m.IsNull()).To(BeFalse(), "%s: %s null in %s", op, key, in.Text)
				}
			}
		}
	})

	It("repeats keys without changing the parsed input", func() {
		for _, op := range generators.DrawnOps() {
			plain, wide := widened(op, "repeated-keys", 200)
			repeats := 0
			for i, in := range wide {
				// the same value, members in the same order: the same answer is due
				Expect(string(generators.Case{Input: in.Value}.InputText())).To(Equal(string(plain[i].Text)), op)
				for _, keys := range objectKeys(in.Text) {
					if len(repeated(keys)) > 0 {
						repeats++
						break
					}
				}
			}
			Expect(repeats).To(Equal(len(wide)), "%s: every draw repeats a key", op)
		}
	})

	// signature-keys wraps the value at run.result or items[0] in an object
	// of one key; its class is drawn, and the text writes it twice.
	wrapped := func(op string, text []byte) []string {
		var raw []byte
		if op == "run_code.result" {
			raw = jsonjs.RawMembers(jsonjs.RawMembers(text, "run")[0], "result")[0]
		} else {
			items := jsonjs.RawMembers(text, "items")[0]
			i := jsonjs.RawSkipSpace(items, 1)
			raw = items[i:jsonjs.RawSkipValue(items, i)]
		}
		keys := objectKeys(raw)
		return keys[len(keys)-1] // the outermost object comes last
	}

	It("repeats keys of every signature class where the op takes any JSON, and the reference answers each", func() {
		classes := map[int]bool{}
		for _, op := range []string{"run_code.result", "retain.items"} {
			_, wide := widened(op, "signature-keys", 300)
			for _, in := range wide {
				_, err := fuzz.Golden(op, in.Text)
				Expect(err).NotTo(HaveOccurred(), "%s", in.Text)
				keys := wrapped(op, in.Text)
				Expect(keys).To(HaveLen(2), "%s", in.Text)
				Expect(keys[1]).To(Equal(keys[0]))
				classes[signatureClass(keys[0])] = true
			}
		}
		for c := range 64 {
			Expect(classes).To(HaveKey(c), "no repeated key of signature class %d", c)
		}
	})

	// A parser whose duplicate filter skips class 0 misses a repeat only
	// in an object whose keys are all of that class: the empty key among
	// them.
	It("repeats the empty key, alone in its object", func() {
		empty := 0
		for _, op := range []string{"run_code.result", "retain.items"} {
			_, wide := widened(op, "signature-keys", 300)
			for _, in := range wide {
				if keys := wrapped(op, in.Text); keys[0] == "" {
					empty++
				}
			}
		}
		Expect(empty).To(BeNumerically(">", 0))
	})

	for _, op := range []string{"run_code.result", "retain.items"} {
		It("draws "+op+" past the parser's presized slab, with containers of 17–64 elements", func() {
			_, wide := widened(op, "past-slab", 60)
			for _, in := range wide {
				elements, mid := containers(in.Value)
				Expect(elements).To(BeNumerically(">", 4096))
				Expect(mid).To(BeNumerically(">", 4096/64))
				_, err := fuzz.Golden(op, in.Text)
				Expect(err).NotTo(HaveOccurred())
			}
		})
	}

	It("puts rare characters into free text: astral U+10000–U+103FF escaped as \\uD800…, ECMAScript spaces, a lone surrogate before a multi-byte character; the reference answers each", func() {
		// Each class killed a mutant 14,000 cases had missed (docs/mutation.md, "Fuzz strength").
		classes := map[string]*regexp.Regexp{
			"escaped pair led by \\uD800": regexp.MustCompile(`\\u[dD]800\\u[dD][c-fC-F][0-9a-fA-F]{2}`),
			"U+2000":                      regexp.MustCompile(`\x{2000}|\\u2000`),
		}
		seen := map[string]map[string]bool{}
		for _, op := range generators.DrawnOps() {
			seen[op] = map[string]bool{}
			_, wide := widened(op, "rare-text", 300)
			for _, in := range wide {
				_, err := fuzz.Golden(op, in.Text)
				Expect(err).NotTo(HaveOccurred(), "%s %s", op, in.Text)
				for name, re := range classes {
					if re.Match(in.Text) {
						seen[op][name] = true
					}
				}
				if loneBeforeMultiByte(strings.Join(stringsOf(in.Value), "\x00")) {
					seen[op]["lone surrogate, then a multi-byte character"] = true
				}
			}
		}
		// Where the misses were: retain.text's chunks and spill.preview's
		// text (ToUTF8), run_code's description (blankness), any string (the pair).
		classes["lone surrogate, then a multi-byte character"] = nil
		for _, op := range []string{"retain.text", "spill.preview", "run_code.result", "grep.result"} {
			for name := range classes {
				Expect(seen[op]).To(HaveKey(name), "%s never drew %s", op, name)
			}
		}
	})

	It("respells strings and numbers without changing the parsed input", func() {
		pairs, exponents := 0, 0
		for _, op := range generators.DrawnOps() {
			plain, wide := widened(op, "respelled", 100)
			for i, in := range wide {
				Expect(string(generators.Case{Input: in.Value}.InputText())).To(Equal(string(plain[i].Text)), op)
				text := string(in.Text)
				if escapedPair.MatchString(text) {
					pairs++
				}
				for _, e := range []string{"e0", "E0", "e21", "E+", "E-", "e-0"} {
					if strings.Contains(text, e) {
						exponents++
						break
					}
				}
			}
		}
		Expect(pairs).To(BeNumerically(">", 0), "no escaped surrogate pair")
		Expect(exponents).To(BeNumerically(">", 0), "no respelled number")
	})
})
