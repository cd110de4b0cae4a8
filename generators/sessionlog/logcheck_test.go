package sessionlog_test

import (
	"bytes"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/generators/sessionlog"
	"github.com/dsh-conform/conform/internal/logcheck"
)

// The generated logs against the log checker: valid logs give no
// violation, and each mutation gives a violation of its requirement and of
// no other.

func check(l sessionlog.Log) []logcheck.Finding {
	var out []logcheck.Finding
	_, err := logcheck.Check(bytes.NewReader(l.Bytes()), l.Name, logcheck.Defaults(), func(f logcheck.Finding) { out = append(out, f) })
	Expect(err).NotTo(HaveOccurred())
	return out
}

func violations(fs []logcheck.Finding) []string {
	var out []string
	for _, f := range fs {
		if f.Level == logcheck.Violation {
			out = append(out, fmt.Sprintf("%s %s: %s", f.Requirement, f.Level, f.Message))
		}
	}
	return out
}

// reportedAs lists aliases under which the checker may report the rule a
// mutation targets; none are needed: check-log names LOG-CHECK-* rules.
var reportedAs = map[string][]string{}

func sameRule(target, reported string) bool {
	if reported == target {
		return true
	}
	for _, alias := range reportedAs[target] {
		if alias == reported {
			return true
		}
	}
	return false
}

var _ = Describe("Generated logs under internal/logcheck", func() {
	It("Valid(seed) has no violation for seeds 1..200", func() {
		warnings := map[string]int{}
		for seed := 1; seed <= 200; seed++ {
			fs := check(sessionlog.Valid(seed))
			Expect(violations(fs)).To(BeEmpty(), "seed %d", seed)
			for _, f := range fs {
				warnings[f.Requirement+" "+string(f.Level)]++
			}
		}
		GinkgoWriter.Printf("non-violation findings over 200 valid logs: %v\n", warnings)
	})

	It("Big output has no violation", func() {
		var buf bytes.Buffer
		_, err := sessionlog.Big(&buf, 4<<20, 11)
		Expect(err).NotTo(HaveOccurred())
		var fs []logcheck.Finding
		_, err = logcheck.Check(&buf, "big", logcheck.Defaults(), func(f logcheck.Finding) { fs = append(fs, f) })
		Expect(err).NotTo(HaveOccurred())
		Expect(violations(fs)).To(BeEmpty())
	})

	It("each mutation violates its requirement and no other", func() {
		var problems []string
		aliased := map[string]bool{}
		for _, m := range sessionlog.Mutations() {
			hits := 0
			for seed := 1; seed <= 400 && hits < 3; seed++ {
				out, ok := m.Apply(sessionlog.Valid(seed))
				if !ok {
					continue
				}
				hits++
				var own, other []string
				for _, f := range check(out) {
					switch {
					case sameRule(m.Requirement, f.Requirement):
						own = append(own, f.Requirement)
						if f.Requirement != m.Requirement {
							aliased[m.Name+": "+m.Requirement+" reported as "+f.Requirement] = true
						}
					case f.Level == logcheck.Violation:
						other = append(other, f.Requirement+": "+f.Message)
					}
				}
				if len(own) == 0 {
					problems = append(problems, fmt.Sprintf("%s (seed %d): no %s finding", m.Name, seed, m.Requirement))
				}
				for _, o := range other {
					problems = append(problems, fmt.Sprintf("%s (seed %d): also %s", m.Name, seed, o))
				}
			}
			if hits == 0 {
				problems = append(problems, m.Name+": applies to no generated log")
			}
		}
		for a := range aliased {
			GinkgoWriter.Println(a)
		}
		Expect(problems).To(BeEmpty(), strings.Join(problems, "\n"))
	})
})
