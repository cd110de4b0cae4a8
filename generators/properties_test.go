package generators_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/retention"
	"github.com/dsh-conform/conform/reference/search"
	"github.com/dsh-conform/conform/reference/spill"
)

// Property tests over the generators: each test names the requirements it
// checks in its name and in its comment. They run rapid's default 100 checks
// per property; the whole file takes a few seconds.

// ---------------------------------------------------------------------------
// helpers

// setting reads an integer member of an op config, or def when absent.
func setting(config jsonjs.Value, key string, def int) int {
	v, ok := config.Get(key)
	if !ok {
		return def
	}
	f, _ := v.Float()
	return int(f)
}

func grepSettings(in search.GrepInput) (maxMatches, maxLine, maxMeta int) {
	return setting(in.Config, "maxMatches", search.DefaultGrepMaxMatches),
		setting(in.Config, "maxLineBytes", search.DefaultGrepMaxLineBytes),
		setting(in.Config, "maxMetaBytes", search.DefaultSearchMetaMaxBytes)
}

func globSettings(in search.GlobInput) (maxResults int, sample bool, maxMeta int) {
	sv, _ := in.Config.Get("sampleOverCap")
	sample, _ = sv.Bool()
	return setting(in.Config, "maxResults", search.DefaultGlobMaxResults), sample,
		setting(in.Config, "maxMetaBytes", search.DefaultSearchMetaMaxBytes)
}

// jsonSize is the SEARCH-JSON-1 measure computed by serializing.
func jsonSize(v jsonjs.Value) int { return len(jsonjs.Marshal(v)) }

// metaLen is the number of list elements of a meta.
func metaLen(m search.Meta) int { return len(m.Files) + len(m.Paths) }

// prefix returns m with its list cut to k elements and truncated set.
func prefix(m search.Meta, k int) search.Meta {
	p := m
	p.Truncated = true
	if m.Shape == search.ShapeMatches {
		p.Files = m.Files[:k]
	} else {
		p.Paths = m.Paths[:k]
	}
	return p
}

// uncappedGrep is the grep projection before the byte cap (SEARCH-META-2).
func uncappedGrep(in search.GrepInput) search.Meta {
	maxMatches, maxLine, _ := grepSettings(in)
	r := search.RetainGrep(in.Value.Matches, maxMatches, maxLine)
	files := search.GroupByFile(r.Items)
	if files == nil {
		files = []search.FileMatches{}
	}
	return search.Meta{Shape: search.ShapeMatches, Files: files, Truncated: r.Truncated, Total: r.Seen}
}

// uncappedGlob is the glob projection before the byte cap (SEARCH-META-3).
func uncappedGlob(in search.GlobInput) search.Meta {
	maxResults, sample, _ := globSettings(in)
	p := search.PageGlob(in.Value.Paths, maxResults, sample, in.Value.Root)
	paths := p.Items
	if paths == nil {
		paths = []string{}
	}
	return search.Meta{Shape: search.ShapePaths, Paths: paths, Truncated: p.Truncated, Total: p.Seen}
}

// checkCap checks a capped meta against its uncapped projection and the cap
// (SEARCH-CAP-1..3, SEARCH-JSON-1): the closed form. The invariants every
// meta keeps whatever its input (SEARCH-CAP-3..5) are stated once, in the
// property table (TestPropertyTable).
func checkCap(t *rapid.T, got, uncapped search.Meta, c int) {
	size := jsonSize(got.Value())
	if got.Size() != size { // SEARCH-JSON-1
		t.Fatalf("Size() = %d but the serialization has %d bytes: %s", got.Size(), size, jsonjs.Marshal(got.Value()))
	}
	if jsonSize(uncapped.Value()) <= c { // SEARCH-CAP-1: fits unchanged
		if d := jsonjs.FirstDifference(got.Value(), uncapped.Value()); d != "" {
			t.Fatalf("a meta that fits (%d <= %d) was changed at %s", jsonSize(uncapped.Value()), c, d)
		}
		return
	}
	if !got.Truncated { // SEARCH-CAP-3
		t.Fatalf("an over-cap meta (%d > %d) is not truncated", jsonSize(uncapped.Value()), c)
	}
	// SEARCH-CAP-2: the largest k in [1, n] whose prefix fits, else 1 (0 for n = 0).
	n, want := metaLen(uncapped), 0
	if n > 0 {
		want = 1
	}
	for k := 1; k <= n; k++ {
		if jsonSize(prefix(uncapped, k).Value()) <= c {
			want = k
		}
	}
	if d := jsonjs.FirstDifference(got.Value(), prefix(uncapped, want).Value()); d != "" {
		t.Fatalf("capped meta is not the %d-element prefix (differs at %s): %s", want, d, jsonjs.Marshal(got.Value()))
	}
}

// noPanic runs f and turns a panic into a test failure.
func noPanic(t *rapid.T, what string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s panicked: %v", what, r)
		}
	}()
	f()
}

// ---------------------------------------------------------------------------
// The property table (issue 20, item 5)

// TestPropertyTable runs the one table of output properties
// (runner.Properties: the invariants every conforming answer keeps, which
// conform run checks on every harness's answer) on the reference's answers
// to drawn inputs of every op: each holds on every one. The tests below
// check what needs more than an answer (closed forms, models of the
// contract) and do not state the table's properties again.
func TestPropertyTable(t *testing.T) {
	for _, op := range generators.DrawnOps() {
		props := runner.PropertiesFor(op)
		if len(props) == 0 {
			t.Fatalf("%s: no property in the table", op)
		}
		t.Run(op, func(t *testing.T) {
			gen, err := generators.OpGenerator(op)
			if err != nil {
				t.Fatal(err)
			}
			rapid.Check(t, func(t *rapid.T) {
				in, err := generators.InputValue(gen.Draw(t, "in"))
				if err != nil {
					t.Fatalf("InputValue: %v", err)
				}
				raw, err := reference.Run(op, jsonjs.Marshal(in))
				if err != nil {
					t.Fatalf("thrown: %v", err) // generated configurations are valid (TestOpRoundTrip)
				}
				out := mustParse(t, raw)
				for _, p := range props {
					if msg := p.Check(in, out); msg != "" {
						t.Fatalf("%s (%s) fails on the reference: %s\ninput %s\noutput %s", p.Requirement, p.Doc, msg, jsonjs.Marshal(in), raw)
					}
				}
			})
		})
	}
}

// ---------------------------------------------------------------------------
// SEARCH-CAP-1..3: the meta byte cap

// TestMetaByteCapGrep_SEARCH_CAP_1_3 checks grep metas against the closed
// form (SEARCH-CAP-1/2), truncated when over the cap (SEARCH-CAP-3), Size =
// len(Marshal) (SEARCH-JSON-1).
func TestMetaByteCapGrep_SEARCH_CAP_1_3(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := generators.GrepInput().Draw(t, "in")
		out, err := search.GrepResult(in)
		if err != nil {
			t.Fatalf("GrepResult: %v", err)
		}
		if out.Meta == nil {
			return // nested call or error result: no meta
		}
		_, _, c := grepSettings(in)
		checkCap(t, *out.Meta, uncappedGrep(in), c)
	})
}

// TestMetaByteCapGlob_SEARCH_CAP_1_3 is TestMetaByteCapGrep for glob.
func TestMetaByteCapGlob_SEARCH_CAP_1_3(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := generators.GlobInput().Draw(t, "in")
		out, err := search.GlobResult(in)
		if err != nil {
			t.Fatalf("GlobResult: %v", err)
		}
		if out.Meta == nil {
			return
		}
		_, _, c := globSettings(in)
		checkCap(t, *out.Meta, uncappedGlob(in), c)
	})
}

// ---------------------------------------------------------------------------
// SEARCH-GREP-2, SEARCH-GLOB-3, SEARCH-RETAIN-1/2: the text's counts (that
// the meta is a prefix of the text, SEARCH-META-6, is the property table's)

var (
	grepTruncatedHeader = regexp.MustCompile(`^Found (\d+) of (\d+) matches$`)
	grepHeader          = regexp.MustCompile(`^Found (\d+) (match|matches)$`)
	globFooter          = regexp.MustCompile(`^\n\n\(Showing (\d+) of (\d+) paths[.,]`)
)

type textGroup struct {
	path string
	rows []string
}

// parseGrepBody splits a grep body into groups (SEARCH-GREP-3): a path line,
// then "Line N: …" rows; groups are separated by one empty line. Generated
// lines and paths hold no "\n", so the split is unambiguous.
func parseGrepBody(body string) []textGroup {
	var groups []textGroup
	start := true
	for _, l := range strings.Split(body, "\n") {
		switch {
		case l == "":
			start = true
		case start:
			groups = append(groups, textGroup{path: l})
			start = false
		default:
			groups[len(groups)-1].rows = append(groups[len(groups)-1].rows, l)
		}
	}
	return groups
}

// TestGrepTextCounts_SEARCH_GREP_2_RETAIN_1 checks that the header counts
// agree with the text and the meta (one retention pass for both,
// SEARCH-RETAIN-1): "Found K of N" with K the number of rows in the body
// and N the meta's total (SEARCH-GREP-2).
func TestGrepTextCounts_SEARCH_GREP_2_RETAIN_1(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := generators.GrepInput().Draw(t, "in")
		out, err := search.GrepResult(in)
		if err != nil || out.Meta == nil {
			return
		}
		m := *out.Meta
		n := len(in.Value.Matches)
		if n == 0 {
			if out.Content != "No matches found" || len(m.Files) != 0 {
				t.Fatalf("zero matches: content %q, %d meta files", out.Content, len(m.Files))
			}
			return
		}
		header, rest, ok := strings.Cut(out.Content, "\n\n")
		if !ok {
			t.Fatalf("no header in %q", out.Content)
		}
		var k, total int
		truncated := false
		if g := grepTruncatedHeader.FindStringSubmatch(header); g != nil {
			k, _ = strconv.Atoi(g[1])
			total, _ = strconv.Atoi(g[2])
			truncated = true
			i := strings.LastIndex(rest, "\n\n(")
			if i < 0 || !strings.HasSuffix(rest, ")") {
				t.Fatalf("truncated text without a recovery footer: %q", out.Content)
			}
			rest = rest[:i]
		} else if g := grepHeader.FindStringSubmatch(header); g != nil {
			k, _ = strconv.Atoi(g[1])
			total = k
			if (k == 1) != (g[2] == "match") {
				t.Fatalf("header %q: wrong number", header)
			}
		} else {
			t.Fatalf("bad header %q", header)
		}
		groups := parseGrepBody(rest)
		rows := 0
		for _, g := range groups {
			rows += len(g.rows)
		}
		if rows != k || total != m.Total || total != n {
			t.Fatalf("header %q: body has %d rows, meta total %d, N %d", header, rows, m.Total, n)
		}
		if !truncated && len(m.Files) < len(groups) && !m.Truncated {
			t.Fatalf("meta drops groups of an untruncated text but is not truncated")
		}
	})
}

// TestGlobTextCounts_SEARCH_GLOB_3_RETAIN_2 checks that the footer counts
// agree with the page and the total (SEARCH-GLOB-3, SEARCH-RETAIN-2).
func TestGlobTextCounts_SEARCH_GLOB_3_RETAIN_2(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := generators.GlobInput().Draw(t, "in")
		out, err := search.GlobResult(in)
		if err != nil || out.Meta == nil {
			return
		}
		m := *out.Meta
		n := len(in.Value.Paths)
		if n == 0 {
			if out.Content != "No files found" || len(m.Paths) != 0 {
				t.Fatalf("zero paths: content %q, %d meta paths", out.Content, len(m.Paths))
			}
			return
		}
		body := out.Content
		if i := strings.LastIndex(body, "\n\n(Showing "); i >= 0 {
			g := globFooter.FindStringSubmatch(body[i:])
			if g == nil {
				t.Fatalf("bad footer %q", body[i:])
			}
			body = body[:i]
			shown, _ := strconv.Atoi(g[1])
			total, _ := strconv.Atoi(g[2])
			if lines := strings.Count(body, "\n") + 1; shown != lines || total != n || total != m.Total {
				t.Fatalf("footer %q: page has %d lines, N %d, meta total %d", g[0], lines, n, m.Total)
			}
		}
	})
}

// ---------------------------------------------------------------------------
// SEARCH-SAMPLE-1..5: top-level sampling

// sampleKey is the grouping key of SEARCH-SAMPLE-1/2, written from the
// contract text: the root-relative form, leading separators stripped, up to
// the first separator.
func sampleKey(path, root string) string {
	rel := path
	if root == "." {
		rel = strings.TrimPrefix(path, "./")
	} else if r := strings.TrimRight(root, "/"); r == "" {
		rel = strings.TrimLeft(path, "/")
	} else if path == r {
		rel = ""
	} else if strings.HasPrefix(path, r+"/") {
		rel = path[len(r)+1:]
	}
	rel = strings.TrimLeft(rel, "/")
	if i := strings.IndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return rel
}

// TestSampleAcrossTopLevel_SEARCH_SAMPLE_1_5 compares the sampler with a
// model written from the contract: groups by top-level key in first-seen
// order (SEARCH-SAMPLE-1..3), round robin until maxItems are taken
// (SEARCH-SAMPLE-4), items regrouped with shown/total group counts
// (SEARCH-SAMPLE-5).
func TestSampleAcrossTopLevel_SEARCH_SAMPLE_1_5(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := generators.GlobValue().Draw(t, "value")
		maxItems := rapid.IntRange(1, len(v.Paths)+1).Draw(t, "maxItems")
		var keys []string
		groups := map[string][]string{}
		for _, p := range v.Paths {
			k := sampleKey(p, v.Root)
			if _, ok := groups[k]; !ok {
				keys = append(keys, k)
			}
			groups[k] = append(groups[k], p)
		}
		taken := map[string]int{}
		for n, progress := 0, true; n < maxItems && progress; {
			progress = false
			for _, k := range keys {
				if n < maxItems && taken[k] < len(groups[k]) {
					taken[k]++
					n++
					progress = true
				}
			}
		}
		want := search.Sample{Items: []string{}, Total: len(keys)}
		for _, k := range keys {
			if taken[k] > 0 {
				want.Shown++
				want.Items = append(want.Items, groups[k][:taken[k]]...)
			}
		}
		got := search.SampleAcrossTopLevel(v.Paths, maxItems, v.Root)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("root %q, max %d, paths %q:\n got %+v\nwant %+v", v.Root, maxItems, v.Paths, got, want)
		}
	})
}

// ---------------------------------------------------------------------------
// SEARCH-NARROW-1..7: narrowing

// viewMatchesMeta checks SEARCH-NARROW-7: the view repeats the meta's shape,
// list (unchanged, unknown members included), truncated and total.
func viewMatchesMeta(t *rapid.T, v *search.View, meta jsonjs.Value) {
	shapeV, _ := meta.Get("shape")
	shape, _ := shapeV.Str()
	key := "paths"
	if shape == search.ShapeMatches {
		key = "files"
	}
	list, _ := meta.Get(key)
	truncV, _ := meta.Get("truncated")
	trunc, _ := truncV.Bool()
	totalV, _ := meta.Get("total")
	total, _ := totalV.Float()
	want := jsonjs.ObjectValue(
		jsonjs.Member{Key: "card", Value: jsonjs.StringValue("search")},
		jsonjs.Member{Key: "shape", Value: jsonjs.StringValue(shape)},
		jsonjs.Member{Key: key, Value: list},
		jsonjs.Member{Key: "truncated", Value: jsonjs.BoolValue(trunc)},
		jsonjs.Member{Key: "total", Value: jsonjs.NumberValue(total)},
	)
	if d := jsonjs.FirstDifference(v.Value(), want); d != "" {
		t.Fatalf("view differs from the meta at %s: view %s, meta %s", d, jsonjs.Marshal(v.Value()), jsonjs.Marshal(meta))
	}
	if got, wantB := jsonjs.Marshal(v.Value()), jsonjs.Marshal(want); !bytes.Equal(got, wantB) {
		t.Fatalf("view member order: %s, want %s", got, wantB)
	}
}

// TestNarrowIsTotal_SEARCH_NARROW_1 feeds any JSON value (well-formed and
// malformed metas, arbitrary values): ViewFromMeta never panics and returns
// nil or a view that repeats the meta (SEARCH-NARROW-1, SEARCH-NARROW-7).
func TestNarrowIsTotal_SEARCH_NARROW_1(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		meta := generators.AnyMeta().Draw(t, "meta")
		var v *search.View
		noPanic(t, "ViewFromMeta", func() { v = search.ViewFromMeta(meta) })
		if v != nil {
			viewMatchesMeta(t, v, meta)
		}
	})
}

// TestNarrowAcceptsWellFormed_SEARCH_NARROW_2_7 checks that every
// well-formed meta (either shape, empty lists, any finite numbers, unknown
// members at every level, any member order) narrows to its view
// (SEARCH-NARROW-2..7).
func TestNarrowAcceptsWellFormed_SEARCH_NARROW_2_7(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		meta := generators.Meta(true).Draw(t, "meta")
		v := search.ViewFromMeta(meta)
		if v == nil {
			t.Fatalf("well-formed meta rejected: %s", jsonjs.Marshal(meta))
		}
		viewMatchesMeta(t, v, meta)
	})
}

// TestNarrowRejectsMalformed_SEARCH_NARROW_2_6 checks every malformed class
// separately: each gives no view (SEARCH-NARROW-2 envelope, -3 numbers, -4
// discriminant, -5 matches shape, -6 paths shape).
func TestNarrowRejectsMalformed_SEARCH_NARROW_2_6(t *testing.T) {
	for _, class := range generators.MalformedMetaClasses() {
		t.Run(class, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				meta := generators.MalformedMeta(class).Draw(t, "meta")
				if v := search.ViewFromMeta(meta); v != nil {
					t.Fatalf("malformed meta (%s) accepted: %s", class, jsonjs.Marshal(meta))
				}
			})
		})
	}
}

// TestNarrowOfProjection_SEARCH_NARROW_7 checks narrow(project(x)) = the op's
// view for grep and glob, both on the meta value and on its JSON text
// (SEARCH-NARROW-7, SEARCH-PRESENT-1/2).
func TestNarrowOfProjection_SEARCH_NARROW_7(t *testing.T) {
	check := func(t *rapid.T, meta *search.Meta, view *search.View) {
		if meta == nil {
			return
		}
		for _, mv := range []jsonjs.Value{meta.Value(), mustParse(t, jsonjs.Marshal(meta.Value()))} {
			v := search.ViewFromMeta(mv)
			if v == nil || view == nil {
				t.Fatalf("narrowing %s: %v, op view %v", jsonjs.Marshal(mv), v, view)
			}
			if d := jsonjs.FirstDifference(v.Value(), view.Value()); d != "" {
				t.Fatalf("narrowed meta differs from the op's view at %s", d)
			}
			viewMatchesMeta(t, v, mv)
		}
	}
	t.Run("grep", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			out, err := search.GrepResult(generators.GrepInput().Draw(t, "in"))
			if err != nil {
				t.Fatal(err)
			}
			check(t, out.Meta, out.View)
		})
	})
	t.Run("glob", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			out, err := search.GlobResult(generators.GlobInput().Draw(t, "in"))
			if err != nil {
				t.Fatal(err)
			}
			check(t, out.Meta, out.View)
		})
	})
}

// TestPresent_SEARCH_PRESENT_1_3 checks the presenters over drawn
// search.present inputs: no view for an error, an absent meta or arguments
// failing the schema; otherwise the narrowed view exactly when its shape is
// the tool's (SEARCH-PRESENT-1..3).
func TestPresent_SEARCH_PRESENT_1_3(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := generators.PresentInput().Draw(t, "in")
		out, err := search.Present(in)
		if err != nil {
			t.Fatalf("Present: %v", err)
		}
		want := (*search.View)(nil)
		argsOK := true
		if in.Args.Present {
			if in.Tool == search.Grep {
				_, bad := search.DecodeGrepArgs(in.Args.Value)
				argsOK = bad == nil
			} else {
				_, bad := search.DecodeGlobArgs(in.Args.Value)
				argsOK = bad == nil
			}
		}
		if argsOK && !in.Result.IsError && in.Result.Meta.Present {
			if v := search.ViewFromMeta(in.Result.Meta.Value); v != nil && (v.Shape == search.ShapeMatches) == (in.Tool == search.Grep) {
				want = v
			}
		}
		switch {
		case (out.View == nil) != (want == nil):
			t.Fatalf("view %v, want %v", out.View, want)
		case want != nil && !jsonjs.Equal(out.View.Value(), want.Value()):
			t.Fatalf("view %s, want %s", jsonjs.Marshal(out.View.Value()), jsonjs.Marshal(want.Value()))
		}
	})
}

func mustParse(t *rapid.T, b []byte) jsonjs.Value {
	v, err := jsonjs.Parse(b)
	if err != nil {
		t.Fatalf("parse %q: %v", b, err)
	}
	return v
}

// ---------------------------------------------------------------------------
// RET-TEXT-*, RET-UTF8-*, RET-ITEM-*: retention windows

// textStream returns the bytes and strategy of a retain.text input.
func textStream(t *rapid.T, in retention.TextInput) ([]byte, retention.TextStrategy) {
	var b []byte
	for _, c := range in.Chunks {
		b = append(b, c...)
	}
	for _, c := range in.ChunksBase64 {
		d, err := base64.StdEncoding.DecodeString(c)
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, d...)
	}
	s, err := retention.ParseTextStrategy(in.Strategy.Kind, in.Strategy.MaxBytes, in.Strategy.HeadBytes, in.Strategy.TailBytes)
	if err != nil {
		t.Fatal(err)
	}
	return b, s
}

func stripBOM(b []byte) string { return string(bytes.TrimPrefix(b, []byte("\uFEFF"))) }

// TestTextWindow_RET_TEXT_3_7_RET_UTF8_1_4 checks the text retainer over
// drawn streams and budgets: push decisions follow omittedAt (RET-TEXT-3;
// one per chunk, and truncated as the last one, are the property table's);
// the result does not depend on chunking (RET-TEXT-4); nothing omitted means
// the whole stream decoded once (RET-TEXT-5); otherwise the kept bytes never
// exceed the budgets, the omitted count is total minus kept,
// and for valid UTF-8 the text is exactly the longest head piece and
// shortest tail piece ending and starting on codepoint boundaries, each
// with one leading BOM removed (RET-TEXT-6, RET-UTF8-1/2/3/4), so no
// codepoint is ever split. The text is always valid UTF-8.
func TestTextWindow_RET_TEXT_3_7_RET_UTF8_1_4(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := generators.RetainTextInput().Draw(t, "in")
		out, err := retention.RetainText(in)
		if err != nil {
			t.Fatalf("RetainText: %v", err)
		}
		b, s := textStream(t, in)
		T, P, S := len(b), s.Prefix, s.Suffix
		omittedAt := func(n int) int { p := min(n, P); return n - p - min(n-p, S) }
		// RET-TEXT-3: each decision follows omittedAt (one per push, and
		// the last one's truncated, are the property table's).
		n := 0
		for i, d := range out.Pushes[:min(len(out.Pushes), len(in.Chunks)+len(in.ChunksBase64))] {
			var size int
			if in.Chunks != nil {
				size = len(in.Chunks[i])
			} else {
				raw, _ := base64.StdEncoding.DecodeString(in.ChunksBase64[i])
				size = len(raw)
			}
			before := omittedAt(n)
			n += size
			want := retention.Decision{Kept: omittedAt(n) <= before, Truncated: omittedAt(n) > 0}
			if d != want {
				t.Fatalf("push %d: %+v, want %+v", i, d, want)
			}
		}
		if !utf8.ValidString(out.Text) {
			t.Fatalf("text is not valid UTF-8: %q", out.Text)
		}
		if out.Truncated != (T > P+S) {
			t.Fatalf("truncated %v for %d bytes in %d+%d", out.Truncated, T, P, S)
		}
		valid := utf8.Valid(b)
		if !out.Truncated { // RET-TEXT-5
			if out.OmittedBytes.Kind != retention.None {
				t.Fatalf("omitted %+v without truncation", out.OmittedBytes)
			}
			if valid && out.Text != stripBOM(b) {
				t.Fatalf("text %q, want the whole stream %q", out.Text, stripBOM(b))
			}
		} else {
			kept := T - out.OmittedBytes.Count
			if out.OmittedBytes.Kind != retention.Exact || kept < 0 || kept > P+S {
				t.Fatalf("omitted %+v of %d bytes with budgets %d+%d", out.OmittedBytes, T, P, S)
			}
			if valid { // RET-TEXT-6, RET-UTF8-1/2
				hb := P
				for hb > 0 && !utf8.RuneStart(b[hb]) {
					hb--
				}
				tb := T - S
				for tb < T && !utf8.RuneStart(b[tb]) {
					tb++
				}
				want := stripBOM(b[:hb]) + stripBOM(b[tb:])
				if out.Text != want || out.OmittedBytes.Count != T-hb-(T-tb) {
					t.Fatalf("text %q omitted %d, want %q omitted %d (P=%d S=%d T=%d)", out.Text, out.OmittedBytes.Count, want, T-hb-(T-tb), P, S, T)
				}
				if len(out.Text) > P+S {
					t.Fatalf("text of %d bytes over the budget %d", len(out.Text), P+S)
				}
			}
		}
		// RET-TEXT-4: one push, byte-by-byte pushes and drawn cuts all finish alike.
		whole, _ := retention.NewText(s)
		whole.Push(b)
		bytewise, _ := retention.NewText(s)
		for i := range b {
			bytewise.Push(b[i : i+1])
		}
		for _, r := range []retention.RetainedText{whole.Finish(), bytewise.Finish()} {
			if r != out.RetainedText {
				t.Fatalf("rechunked result %+v differs from %+v", r, out.RetainedText)
			}
		}
	})
}

// TestItemWindow_RET_ITEM_2_3 checks the head item retainer against its
// closed form: the first maxItems items are kept, truncated iff something
// was dropped, and each push reports kept while the window has room
// (RET-ITEM-2/3; seen = kept + omitted is the property table's).
func TestItemWindow_RET_ITEM_2_3(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := generators.RetainItemsInput().Draw(t, "in")
		out, err := retention.RetainItems(in)
		if err != nil {
			t.Fatalf("RetainItems: %v", err)
		}
		f, _ := in.Strategy.MaxItems.Float()
		k := min(len(in.Items), int(f))
		if len(out.Items) != k || out.Kept != k || out.Seen != len(in.Items) || out.Truncated != (k < len(in.Items)) {
			t.Fatalf("%d items, max %v: got items %d kept %d seen %d truncated %v", len(in.Items), f, len(out.Items), out.Kept, out.Seen, out.Truncated)
		}
		for i := range out.Items {
			if !jsonjs.Equal(out.Items[i], in.Items[i]) {
				t.Fatalf("item %d changed", i)
			}
		}
		for i, d := range out.Pushes {
			if want := (retention.Decision{Kept: i < k, Truncated: i >= k}); d != want {
				t.Fatalf("push %d: %+v, want %+v", i, d, want)
			}
		}
	})
}

// ---------------------------------------------------------------------------
// SPILL-CAP-1, SPILL-RES-2: the spill policy

// TestSpillNeverExceedsCap_SPILL_CAP_1_RES_2 checks drawn spill.preview
// inputs (that a replacement is never larger than maxInlineBytes and
// strictly smaller than the original is the property table's SPILL-CAP-1):
// text at or under the cap, a
// non-text block, read in the result arm and an absent setting never spill
// (SPILL-RES-2, SPILL-LOG-2, SPILL-CFG-1); a failed save keeps the original
// (SPILL-KEEP-1); the original is kept only when the notice alone does not
// fit (SPILL-CAP-1).
func TestSpillNeverExceedsCap_SPILL_CAP_1_RES_2(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := generators.SpillPreviewInput().Draw(t, "in")
		out, err := spill.PreviewOp(in)
		if err != nil {
			t.Fatalf("PreviewOp: %v", err)
		}
		blocks := in.Blocks
		if in.Text != nil {
			blocks = []spill.Block{spill.TextBlock(*in.Text)}
		}
		text, allText := spill.Flatten(blocks)
		size := jsonjs.UTF8Len(text)
		if in.MaxInlineBytes == nil {
			if out.Content != nil || out.Save != nil {
				t.Fatalf("policy acted without maxInlineBytes")
			}
			return
		}
		f, _ := in.MaxInlineBytes.Float()
		c := int(f)
		applies := allText && size > c && !(in.ToolName == "read" && in.Arm != spill.ArmDispatch)
		if !applies {
			if out.Content != nil || out.Save != nil {
				t.Fatalf("policy acted on %d bytes under cap %d (allText %v, tool %q, arm %q)", size, c, allText, in.ToolName, in.Arm)
			}
			return
		}
		if out.Save == nil || out.Save.Text != text {
			t.Fatalf("no save of the flattened text")
		}
		switch {
		case in.Ref == nil:
			if out.Content != nil {
				t.Fatalf("replaced content after a failed save")
			}
		case out.Content != nil: // its size is the property table's SPILL-CAP-1
		default:
			if notice := spill.Notice(size, in.Ref.Locator, in.Ref.RetrievalHint); jsonjs.UTF8Len(notice) <= c {
				t.Fatalf("original kept although the notice (%d bytes) fits in %d", jsonjs.UTF8Len(notice), c)
			}
		}
	})
}

// ---------------------------------------------------------------------------
// CODE-JSON-1/2: run_code rendering

// maxIndent is the longest run of leading spaces over the lines of s.
func maxIndent(s string) int {
	m := 0
	for _, l := range strings.Split(s, "\n") {
		m = max(m, len(l)-len(strings.TrimLeft(l, " ")))
	}
	return m
}

// TestRenderValueRoundTrips_CODE_JSON_2 checks that the rendering of any
// lossless non-string value parses back to an equal value (property order
// aside; -0 cannot occur, CODE-LOSSLESS-1) with indentation capped at 10
// (CODE-JSON-2), and that a string renders as itself (CODE-JSON-1).
func TestRenderValueRoundTrips_CODE_JSON_2(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := generators.LosslessJSONValue(9).Draw(t, "value")
		r := codemode.RenderValue(v)
		if s, ok := v.Str(); ok {
			if r != s {
				t.Fatalf("string rendered as %q", r)
			}
			return
		}
		back, err := jsonjs.Parse([]byte(r))
		if err != nil {
			t.Fatalf("rendering does not parse: %v\n%s", err, r)
		}
		if d := jsonjs.FirstDifference(back, v); d != "" {
			t.Fatalf("round trip differs at %s:\n%s", d, r)
		}
		if maxIndent(r) > 10 {
			t.Fatalf("indentation %d > 10:\n%s", maxIndent(r), r)
		}
	})
}

// TestRunCodeContent_CODE_RENDER_1_JSON_2 checks the op: a successful run
// with no logs and a non-string result has content that parses back to the
// result (CODE-RENDER-1, CODE-JSON-2); only failing arguments or a
// reported failure make an
// error (CODE-ERR-1, CODE-LOSSLESS-1: generated results are lossless), and a
// failed run's text starts with the failure line (CODE-FAIL-1).
func TestRunCodeContent_CODE_RENDER_1_JSON_2(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := generators.RunCodeInput().Draw(t, "in")
		out, err := codemode.Result(in)
		if err != nil {
			t.Fatalf("Result: %v", err)
		}
		// Generated results are lossless, so only the arguments (CODE-ERR-1)
		// or a reported failure (CODE-FAIL-1) make an error.
		desc, _ := in.Args.Get("description")
		descText, _ := desc.Str()
		wantError := len(codemode.CheckArgs(in.Args)) > 0 || jsonjs.IsBlank(descText) || in.Run.Error != nil
		if out.IsError != wantError {
			t.Fatalf("isError %v, want %v: %q", out.IsError, wantError, out.Content)
		}
		if out.IsError {
			if e := in.Run.Error; e != nil && out.Error != nil && out.Error.Code == codemode.CodeRunFailedCode &&
				!strings.HasPrefix(out.Content, "Error: code run failed ("+e.Kind+"): "+e.Message) {
				t.Fatalf("failure text %q", out.Content)
			}
			return
		}
		r := in.Run.Result
		if r == nil || r.Kind() == jsonjs.String || strings.Join(in.Run.Logs, "\n") != "" {
			return
		}
		back, err := jsonjs.Parse([]byte(out.Content))
		if err != nil || !jsonjs.Equal(back, *r) {
			t.Fatalf("content %q does not parse back to the result (%v)", out.Content, err)
		}
	})
}

// ---------------------------------------------------------------------------
// CODE-DISPATCH-*: the dispatch validator

// TestDispatchWellFormedAccepted_CODE_DISPATCH_1_4 checks that well-formed
// sequences (starts 1..m in order, settles after their starts in any order,
// same identity and arguments) have no violation (CODE-DISPATCH-1..4,
// LOG-CHECK-CODE-4/6).
func TestDispatchWellFormedAccepted_CODE_DISPATCH_1_4(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seq := generators.Dispatches(0).Draw(t, "seq")
		if v := codemode.ValidateDispatches(seq.Outer, seq.Events, false); v != nil {
			t.Fatalf("well-formed sequence rejected: %v", v)
		}
	})
}

// cloneEvents copies the events deeply enough to mutate starts and settles.
func cloneEvents(evs []codemode.DispatchEvent) []codemode.DispatchEvent {
	out := make([]codemode.DispatchEvent, len(evs))
	for i, e := range evs {
		if e.Start != nil {
			s := *e.Start
			e.Start = &s
		}
		if e.Settle != nil {
			s := *e.Settle
			e.Settle = &s
		}
		out[i] = e
	}
	return out
}

// subID is the subCallId of an event.
func subID(e codemode.DispatchEvent) string {
	if e.Start != nil {
		return e.Start.SubCallID
	}
	return e.Settle.SubCallID
}

// setSubID renames the sub-call id of every event of sub-call from.
func setSubID(evs []codemode.DispatchEvent, from, to string) {
	for _, e := range evs {
		if subID(e) != from {
			continue
		}
		if e.Start != nil {
			e.Start.SubCallID = to
		} else {
			e.Settle.SubCallID = to
		}
	}
}

// indexOf returns the index of the start (start=true) or settle of sub.
func indexOf(evs []codemode.DispatchEvent, sub string, start bool) int {
	for i, e := range evs {
		if subID(e) == sub && (e.Start != nil) == start {
			return i
		}
	}
	return -1
}

// dispatchMutations are single mutations of a well-formed sequence with
// m >= 2 starts, each of which the validator must reject.
var dispatchMutations = map[string]func(t *rapid.T, seq generators.DispatchSequence) []codemode.DispatchEvent{
	"drop-start": func(t *rapid.T, seq generators.DispatchSequence) []codemode.DispatchEvent {
		k := rapid.IntRange(1, seq.Starts).Draw(t, "k")
		evs := cloneEvents(seq.Events)
		i := indexOf(evs, codemode.SubCallID(seq.Outer, k), true)
		return append(evs[:i:i], evs[i+1:]...)
	},
	"duplicate-start": func(t *rapid.T, seq generators.DispatchSequence) []codemode.DispatchEvent {
		k := rapid.IntRange(1, seq.Starts).Draw(t, "k")
		evs := cloneEvents(seq.Events)
		i := indexOf(evs, codemode.SubCallID(seq.Outer, k), true)
		return append(evs[:i+1:i+1], append([]codemode.DispatchEvent{evs[i]}, evs[i+1:]...)...)
	},
	"renumber-skip": func(t *rapid.T, seq generators.DispatchSequence) []codemode.DispatchEvent {
		k := rapid.IntRange(1, seq.Starts).Draw(t, "k")
		evs := cloneEvents(seq.Events)
		for j := seq.Starts; j >= k; j-- { // k..m become k+1..m+1
			setSubID(evs, codemode.SubCallID(seq.Outer, j), codemode.SubCallID(seq.Outer, j+1))
		}
		return evs
	},
	"settle-before-start": func(t *rapid.T, seq generators.DispatchSequence) []codemode.DispatchEvent {
		sub := codemode.SubCallID(seq.Outer, rapid.IntRange(1, seq.Starts).Draw(t, "k"))
		evs := cloneEvents(seq.Events)
		si, ti := indexOf(evs, sub, true), indexOf(evs, sub, false)
		settle := evs[ti]
		evs = append(evs[:ti:ti], evs[ti+1:]...)
		return append(evs[:si:si], append([]codemode.DispatchEvent{settle}, evs[si:]...)...)
	},
	"settle-arguments-changed": func(t *rapid.T, seq generators.DispatchSequence) []codemode.DispatchEvent {
		sub := codemode.SubCallID(seq.Outer, rapid.IntRange(1, seq.Starts).Draw(t, "k"))
		evs := cloneEvents(seq.Events)
		s := evs[indexOf(evs, sub, false)].Settle
		s.Arguments = jsonjs.ObjectValue(jsonjs.Member{Key: "changed", Value: s.Arguments})
		return evs
	},
	"settle-name-changed": func(t *rapid.T, seq generators.DispatchSequence) []codemode.DispatchEvent {
		sub := codemode.SubCallID(seq.Outer, rapid.IntRange(1, seq.Starts).Draw(t, "k"))
		evs := cloneEvents(seq.Events)
		s := evs[indexOf(evs, sub, false)].Settle
		s.Name += "x"
		return evs
	},
	"wrong-parent-prefix": func(t *rapid.T, seq generators.DispatchSequence) []codemode.DispatchEvent {
		k := rapid.IntRange(1, seq.Starts).Draw(t, "k")
		evs := cloneEvents(seq.Events)
		setSubID(evs, codemode.SubCallID(seq.Outer, k), codemode.SubCallID("other"+seq.Outer, k))
		return evs
	},
	"wrong-parent-call-id": func(t *rapid.T, seq generators.DispatchSequence) []codemode.DispatchEvent {
		evs := cloneEvents(seq.Events)
		e := evs[rapid.IntRange(0, len(evs)-1).Draw(t, "event")]
		if e.Start != nil {
			e.Start.ParentCallID = "other"
		} else {
			e.Settle.ParentCallID = "other"
		}
		return evs
	},
	"code-0": func(t *rapid.T, seq generators.DispatchSequence) []codemode.DispatchEvent {
		evs := cloneEvents(seq.Events)
		setSubID(evs, codemode.SubCallID(seq.Outer, 1), seq.Outer+":code:0")
		return evs
	},
	"code-01": func(t *rapid.T, seq generators.DispatchSequence) []codemode.DispatchEvent {
		k := rapid.IntRange(1, min(seq.Starts, 9)).Draw(t, "k")
		evs := cloneEvents(seq.Events)
		setSubID(evs, codemode.SubCallID(seq.Outer, k), fmt.Sprintf("%s:code:0%d", seq.Outer, k))
		return evs
	},
	"drop-settle": func(t *rapid.T, seq generators.DispatchSequence) []codemode.DispatchEvent {
		sub := codemode.SubCallID(seq.Outer, rapid.IntRange(1, seq.Starts).Draw(t, "k"))
		evs := cloneEvents(seq.Events)
		i := indexOf(evs, sub, false)
		return append(evs[:i:i], evs[i+1:]...)
	},
}

// TestDispatchMutationRejected_CODE_DISPATCH_1_4 applies each single
// mutation to well-formed sequences (drop a start, duplicate a start,
// renumber to skip, settle before its start, change the settle's arguments
// or name, a wrong parent prefix or parent id, ":code:0", ":code:01", drop a
// settle): every mutated sequence is rejected (CODE-DISPATCH-1..4,
// LOG-CHECK-CODE-4/6).
func TestDispatchMutationRejected_CODE_DISPATCH_1_4(t *testing.T) {
	names := []string{"drop-start", "duplicate-start", "renumber-skip", "settle-before-start", "settle-arguments-changed",
		"settle-name-changed", "wrong-parent-prefix", "wrong-parent-call-id", "code-0", "code-01", "drop-settle"}
	if len(names) != len(dispatchMutations) {
		t.Fatalf("mutation list out of date")
	}
	for _, name := range names {
		mutate := dispatchMutations[name]
		t.Run(name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				seq := generators.Dispatches(2).Draw(t, "seq")
				evs := mutate(t, seq)
				if v := codemode.ValidateDispatches(seq.Outer, evs, false); len(v) == 0 {
					t.Fatalf("mutation %s accepted", name)
				}
			})
		})
	}
}

// ---------------------------------------------------------------------------
// Op round trip and Drawn

// typedRun runs an op on its typed input, bypassing JSON.
func typedRun(op string, in any) (any, error) {
	switch op {
	case reference.OpGrepResult:
		return search.GrepResult(in.(search.GrepInput))
	case reference.OpGlobResult:
		return search.GlobResult(in.(search.GlobInput))
	case reference.OpSearchPresent:
		return search.Present(in.(search.PresentInput))
	case reference.OpRunCodeResult:
		return codemode.Result(in.(codemode.ResultInput))
	case reference.OpRetainItems:
		return retention.RetainItems(in.(retention.ItemsInput))
	case reference.OpRetainText:
		return retention.RetainText(in.(retention.TextInput))
	case reference.OpSpillPreview:
		return spill.PreviewOp(in.(spill.PreviewInput))
	}
	return nil, fmt.Errorf("unknown op %s", op)
}

// TestOpRoundTrip runs every generated input of every op through
// reference.Run as JSON: never an *InputError (the generators and InputValue
// write what docs/ops.md describes), never a panic, never a thrown error
// (generated configurations are valid), always valid JSON out, and the same
// bytes as running the typed input directly (InputValue is faithful).
func TestOpRoundTrip(t *testing.T) {
	for _, op := range generators.DrawnOps() {
		t.Run(op, func(t *testing.T) {
			gen, err := generators.OpGenerator(op)
			if err != nil {
				t.Fatal(err)
			}
			rapid.Check(t, func(t *rapid.T) {
				typed := gen.Draw(t, "in")
				in, err := generators.InputValue(typed)
				if err != nil {
					t.Fatalf("InputValue: %v", err)
				}
				var out []byte
				noPanic(t, "reference.Run", func() { out, err = reference.Run(op, jsonjs.Marshal(in)) })
				var inErr *reference.InputError
				if errors.As(err, &inErr) {
					t.Fatalf("input error: %v\n%s", err, jsonjs.Marshal(in))
				}
				if err != nil {
					t.Fatalf("thrown: %v\n%s", err, jsonjs.Marshal(in))
				}
				if !json.Valid(out) {
					t.Fatalf("invalid JSON output: %s", out)
				}
				if _, err := jsonjs.Parse(out); err != nil {
					t.Fatalf("output does not parse: %v", err)
				}
				direct, err := typedRun(op, typed)
				if err != nil {
					t.Fatalf("typed run: %v", err)
				}
				want, err := reference.Encode(direct)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(out, want) {
					t.Fatalf("JSON run differs from the typed run:\n got %s\nwant %s\ninput %s", out, want, jsonjs.Marshal(in))
				}
			})
		})
	}
}

// knownRequirements reads the requirement IDs of spec/requirements.yaml.
func knownRequirements(t *testing.T) map[string]bool {
	b, err := os.ReadFile("../spec/requirements.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s*- id: (\S+)`).FindAllSubmatch(b, -1) {
		ids[string(m[1])] = true
	}
	return ids
}

// TestDrawnIsDeterministic checks that Drawn returns the same cases on every
// call (the fixtures depend on it), that cases validate, are named gen-NNN
// and cite known requirements.
func TestDrawnIsDeterministic(t *testing.T) {
	known := knownRequirements(t)
	for _, op := range generators.DrawnOps() {
		a, err := generators.Drawn(op, 25)
		if err != nil {
			t.Fatal(err)
		}
		b, err := generators.Drawn(op, 25)
		if err != nil {
			t.Fatal(err)
		}
		if len(a) != 25 || len(b) != 25 {
			t.Fatalf("%s: %d and %d cases", op, len(a), len(b))
		}
		distinct := map[string]bool{}
		for i := range a {
			if a[i].Name != fmt.Sprintf("gen-%03d", i+1) || a[i].Op != op || a[i].Description != fmt.Sprintf("generated case, seed %d", i+1) {
				t.Fatalf("%s case %d: %+v", op, i, a[i])
			}
			if err := a[i].Validate(); err != nil {
				t.Fatal(err)
			}
			for _, r := range a[i].Requirements {
				if !known[r] {
					t.Fatalf("%s: unknown requirement %s", op, r)
				}
			}
			ja, jb := jsonjs.Marshal(a[i].Input), jsonjs.Marshal(b[i].Input)
			if !bytes.Equal(ja, jb) || a[i].ID() != b[i].ID() || strings.Join(a[i].Requirements, ",") != strings.Join(b[i].Requirements, ",") {
				t.Fatalf("%s: case %s differs between calls:\n%s\n%s", op, a[i].ID(), ja, jb)
			}
			distinct[string(ja)] = true
		}
		if len(distinct) < 20 {
			t.Errorf("%s: only %d distinct inputs in 25 cases", op, len(distinct))
		}
	}
	if _, err := generators.Drawn("no.such.op", 1); err == nil {
		t.Fatal("Drawn accepted an unknown op")
	}
}

// TestJSONValueReachesDepth checks the JSON generator's reach: values nested
// 6 deep or more, -0, integer-like keys and lone surrogates all occur.
func TestJSONValueReachesDepth(t *testing.T) {
	var deep, negZero, indexKey, surrogate bool
	var depth func(v jsonjs.Value, d int) int
	depth = func(v jsonjs.Value, d int) int {
		best := d
		if items, ok := v.Items(); ok {
			for _, it := range items {
				best = max(best, depth(it, d+1))
			}
		}
		if members, ok := v.Members(); ok {
			for _, m := range members {
				if _, ok := jsonjs.ArrayIndex(m.Key); ok {
					indexKey = true
				}
				best = max(best, depth(m.Value, d+1))
			}
		}
		if f, ok := v.Float(); ok && f == 0 && math.Signbit(f) {
			negZero = true
		}
		if s, ok := v.Str(); ok && !utf8.ValidString(s) {
			surrogate = true
		}
		return best
	}
	for seed := 1; seed <= 300; seed++ {
		if depth(generators.JSONValue(9).Example(seed), 0) >= 6 {
			deep = true
		}
	}
	if !deep || !negZero || !indexKey || !surrogate {
		t.Fatalf("reach: deep %v, -0 %v, index keys %v, lone surrogates %v", deep, negZero, indexKey, surrogate)
	}
}
