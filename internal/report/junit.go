package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
)

// Seconds is a duration in seconds as JUnit writes it: a decimal with
// millisecond precision ("0.125").
type Seconds float64

// MarshalXMLAttr writes the value with three decimals.
func (s Seconds) MarshalXMLAttr(name xml.Name) (xml.Attr, error) {
	return xml.Attr{Name: name, Value: strconv.FormatFloat(float64(s), 'f', 3, 64)}, nil
}

// UnmarshalXMLAttr reads any decimal.
func (s *Seconds) UnmarshalXMLAttr(attr xml.Attr) error {
	if attr.Value == "" {
		*s = 0
		return nil
	}
	f, err := strconv.ParseFloat(attr.Value, 64)
	if err != nil {
		return fmt.Errorf("report: junit %s=%q: %w", attr.Name.Local, attr.Value, err)
	}
	*s = Seconds(f)
	return nil
}

// TestSuites is the root element of a JUnit XML report. The count
// attributes are derived from the cases by Tally (Write calls it).
type TestSuites struct {
	XMLName  xml.Name    `xml:"testsuites"`
	Name     string      `xml:"name,attr,omitempty"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     Seconds     `xml:"time,attr"`
	Suites   []TestSuite `xml:"testsuite"`
}

// TestSuite groups test cases, e.g. one checked file or one op.
type TestSuite struct {
	Name      string     `xml:"name,attr"`
	Tests     int        `xml:"tests,attr"`
	Failures  int        `xml:"failures,attr"`
	Errors    int        `xml:"errors,attr"`
	Skipped   int        `xml:"skipped,attr"`
	Time      Seconds    `xml:"time,attr"`
	Timestamp string     `xml:"timestamp,attr,omitempty"` // RFC 3339, optional
	Cases     []TestCase `xml:"testcase"`
	SystemOut string     `xml:"system-out,omitempty"`
}

// TestCase is one verdict. At most one of Failure, Error and Skipped
// should be set; Tally counts a case once, preferring error, then failure,
// then skipped.
type TestCase struct {
	Name      string   `xml:"name,attr"`
	Classname string   `xml:"classname,attr"`
	Time      Seconds  `xml:"time,attr"`
	Failure   *Outcome `xml:"failure,omitempty"`
	Error     *Outcome `xml:"error,omitempty"`
	Skipped   *Outcome `xml:"skipped,omitempty"`
	SystemOut string   `xml:"system-out,omitempty"`
}

// Outcome is the body of a <failure>, <error> or <skipped> element: a one
// line message, an optional type and free text (e.g. one finding a line).
type Outcome struct {
	Message string `xml:"message,attr,omitempty"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// Tally sets the count attributes of the suite from its cases.
func (s *TestSuite) Tally() {
	s.Tests, s.Failures, s.Errors, s.Skipped = len(s.Cases), 0, 0, 0
	for _, c := range s.Cases {
		switch {
		case c.Error != nil:
			s.Errors++
		case c.Failure != nil:
			s.Failures++
		case c.Skipped != nil:
			s.Skipped++
		}
	}
}

// Tally sets the count attributes of every suite and of the root (the sums
// over the suites). Time is left as set.
func (r *TestSuites) Tally() {
	r.Tests, r.Failures, r.Errors, r.Skipped = 0, 0, 0, 0
	for i := range r.Suites {
		s := &r.Suites[i]
		s.Tally()
		r.Tests += s.Tests
		r.Failures += s.Failures
		r.Errors += s.Errors
		r.Skipped += s.Skipped
	}
}

// Write tallies the report and writes it as indented XML with a header.
// Characters XML cannot carry (control characters, lone surrogates) are
// replaced by U+FFFD, so the output always parses back.
func (r *TestSuites) Write(w io.Writer) error {
	r.Tally()
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(r); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// ReadJUnit parses a report written by Write (or any JUnit XML with a
// <testsuites> root).
func ReadJUnit(r io.Reader) (*TestSuites, error) {
	var out TestSuites
	if err := xml.NewDecoder(r).Decode(&out); err != nil {
		return nil, fmt.Errorf("report: junit: %w", err)
	}
	return &out, nil
}

// writeJUnit is the one JUnit writer: the run's, fuzz's and check-log's
// test suites (RunJUnit, Fuzz.JUnit, CheckLogJUnit), every string escaped
// by the XML encoder (Write).
func writeJUnit(w io.Writer, m *Model) error {
	var ts *TestSuites
	switch {
	case m.Run != nil:
		ts = RunJUnit(m.Run)
	case m.Fuzz != nil:
		ts = m.Fuzz.JUnit()
	case m.CheckLog != nil:
		ts = CheckLogJUnit(m.CheckLog)
	default:
		return errNoBody
	}
	return ts.Write(w)
}
