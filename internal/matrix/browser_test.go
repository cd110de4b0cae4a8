package matrix_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/matrix"
	"github.com/dsh-conform/conform/spec"
)

// The browser test (issue 14): the page loaded from file:// in Debian's
// chromium, headless. Without chromium it skips, saying so, except under
// CI=true, where it fails (.ci/run installs chromium). Screenshots go to
// $CONFORM_SCREENSHOTS, or a temporary directory named in the output.

func chromiumPath() string {
	GinkgoHelper()
	for _, p := range []string{os.Getenv("CONFORM_CHROMIUM"), "/usr/bin/chromium"} {
		if p != "" {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	msg := "chromium not found (/usr/bin/chromium, $CONFORM_CHROMIUM, PATH): the browser test cannot run; install Debian's chromium (apt-get install -y chromium)"
	if os.Getenv("CI") == "true" {
		Fail(msg + " — CI=true, so this fails instead of skipping")
	}
	Skip("SKIPPED: " + msg)
	return ""
}

// browser starts a headless chromium with a new empty profile.
func browser() context.Context {
	GinkgoHelper()
	path := chromiumPath()
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(GinkgoT().TempDir()), chromedp.WindowSize(1400, 1000))
	ctx, cancel := chromedp.NewContext(alloc)
	ctx, cancelTime := context.WithTimeout(ctx, 2*time.Minute)
	DeferCleanup(func() { cancelTime(); cancel(); cancelAlloc() })
	return ctx
}

func screenshotDir() string {
	GinkgoHelper()
	dir := os.Getenv("CONFORM_SCREENSHOTS")
	if dir == "" {
		var err error
		dir, err = os.MkdirTemp("", "conform-screenshots-")
		Expect(err).NotTo(HaveOccurred())
	}
	Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
	return dir
}

// writePage writes the matrix page into a temporary directory and returns
// its file:// URL.
func writePage(m *matrix.Matrix) string {
	GinkgoHelper()
	path := filepath.Join(GinkgoT().TempDir(), "matrix.html")
	f, err := os.Create(path)
	Expect(err).NotTo(HaveOccurred())
	Expect(matrix.WriteHTML(f, m)).To(Succeed())
	Expect(f.Close()).To(Succeed())
	return "file://" + path
}

func eval[T any](ctx context.Context, js string) T {
	GinkgoHelper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	Expect(err).NotTo(HaveOccurred(), js)
	return v
}

// wantText is what a cell shows, from the model.
func wantText(c matrix.Cell) string {
	if c.Status == matrix.Failed {
		n := "cases"
		if c.Fail == 1 {
			n = "case"
		}
		return fmt.Sprintf("%sfailed (%d %s)", matrix.Icon(c.Status), c.Fail, n)
	}
	s := matrix.Icon(c.Status) + matrix.Label(c.Status)
	if c.Pass > 0 {
		s += fmt.Sprintf(" (%d)", c.Pass)
	}
	return s
}

// visibleRows are the ids of the rows the filters leave shown.
const visibleRows = `Array.from(document.querySelectorAll("tr.row")).filter(r => r.offsetParent !== null).map(r => r.dataset.id)`

var _ = Describe("the page in a browser", Label("browser"), func() {
	It("shows every cell as the reports say, expands a failing cell, filters, and screenshots", func() {
		m := build("reference", "number-go", "meta-ascii")
		ctx := browser()
		Expect(chromedp.Do(ctx, chromedp.Navigate(writePage(m)))).To(Succeed())

		// Every cell's status and text against the model built from the reports.
		got := eval[map[string]string](ctx, `Object.fromEntries(Array.from(document.querySelectorAll("td[data-col]")).map(td =>
			[td.closest("tr").dataset.id + " " + td.dataset.col, td.dataset.status + "|" + (td.querySelector("summary") || td).innerText.trim()]))`)
		want := map[string]string{}
		for _, a := range m.Areas {
			for _, r := range a.Rows {
				for i, c := range r.Cells {
					want[r.ID+" "+m.Columns[i].Key] = c.Status + "|" + wantText(c)
				}
			}
		}
		Expect(normalise(got)).To(Equal(normalise(want)))
		heads := eval[[]string](ctx, `Array.from(document.querySelectorAll("thead th[data-col]")).map(th => th.innerText)`)
		Expect(heads).To(HaveLen(3))
		Expect(heads[0]).To(ContainSubstring("CONFORMANT"))
		Expect(heads[1]).To(ContainSubstring("NONCONFORMANT"))

		dir := screenshotDir()
		full, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(dir, "matrix-full.png"), full, 0o644)).To(Succeed())
		top, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(dir, "matrix-top.png"), top, 0o644)).To(Succeed())

		// Expanding number-go's CODE-NUM-1 cell shows its cases' diffs.
		num := cellOf(m, "CODE-NUM-1", 1)
		sel := `tr[data-id="CODE-NUM-1"] td[data-col="c1"]`
		Expect(eval[bool](ctx, `document.querySelector('`+sel+` details').open`)).To(BeFalse(), "closed before the click")
		Expect(chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel+" summary")), chromedp.WaitVisible(chromedp.CSS(sel+" .diff")))).To(Succeed())
		diff := eval[string](ctx, `document.querySelector('`+sel+` .diff').innerText`)
		Expect(diff).To(Equal(num.Cases[0].Diffs[0]))
		Expect(eval[int](ctx, `document.querySelectorAll('`+sel+` .case').length`)).To(Equal(num.Fail))
		Expect(eval[string](ctx, `document.querySelector('`+sel+` .repro').innerText`)).To(Equal(num.Cases[0].Reproduce))
		shot, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(sel)))
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(dir, "matrix-expanded-cell.png"), shot, 0o644)).To(Succeed())

		// Filters: failing rows, an area, an implementation, the id search.
		all := eval[[]string](ctx, visibleRows)
		Expect(all).To(HaveLen(len(rowsWhere(m, func(a string, r matrix.Row) bool { return true }))))
		eval[bool](ctx, `(e => { e.click(); return true })(document.getElementById("f-failing"))`)
		Expect(eval[[]string](ctx, visibleRows)).To(Equal(rowsWhere(m, func(_ string, r matrix.Row) bool { return r.AnyFailed })))
		set := func(id, v string) {
			eval[bool](ctx, fmt.Sprintf(`(e => { e.value = %q; e.dispatchEvent(new Event(e.tagName === "INPUT" ? "input" : "change")); return true })(document.getElementById(%q))`, v, id))
		}
		set("f-col", "c1")
		Expect(eval[[]string](ctx, visibleRows)).To(Equal([]string{"CODE-NUM-1"}))
		Expect(eval[[]string](ctx, `Array.from(document.querySelectorAll("[data-col]")).filter(e => e.offsetParent !== null).map(e => e.dataset.col).filter((v, i, a) => a.indexOf(v) === i)`)).To(Equal([]string{"c1"}))
		eval[bool](ctx, `(e => { e.click(); return true })(document.getElementById("f-failing"))`)
		set("f-col", "")
		set("f-area", "codemode")
		Expect(eval[[]string](ctx, visibleRows)).To(Equal(rowsWhere(m, func(a string, _ matrix.Row) bool { return a == "codemode" })))
		set("f-area", "")
		set("f-search", "cap-")
		Expect(eval[[]string](ctx, visibleRows)).To(Equal(rowsWhere(m, func(_ string, r matrix.Row) bool { return strings.Contains(r.ID, "CAP-") })))
		fmt.Fprintf(GinkgoWriter, "screenshots: %s\n", dir)
		AddReportEntry("screenshots", dir)
	})

	It("is readable with JavaScript off: no filters, every row shown, cells still open", func() {
		m := build("reference", "number-go")
		ctx := browser()
		noScript := chromedp.Action[chromedp.Void](func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
			_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return chromedp.Void{}, err
		})
		Expect(chromedp.Do(ctx, chromedp.Navigate("about:blank"), noScript, chromedp.Navigate(writePage(m)))).To(Succeed())
		Expect(eval[string](ctx, `document.getElementById("f-count").textContent`)).To(BeEmpty(), "the page's script did not run")
		Expect(eval[bool](ctx, `document.getElementById("filters").offsetParent === null`)).To(BeTrue(), "filters hidden")
		Expect(eval[[]string](ctx, visibleRows)).To(HaveLen(len(spec.IDs())))
		sel := `tr[data-id="CODE-NUM-1"] td[data-col="c1"]`
		Expect(chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel+" summary")), chromedp.WaitVisible(chromedp.CSS(sel+" .diff")))).To(Succeed())
	})

	It("loads a page of 100 reports (load time logged)", func() {
		names := []string{"reference", "number-go", "meta-ascii"}
		var many []string
		for i := 0; i < 100; i++ {
			many = append(many, names[i%len(names)])
		}
		m := build(many...)
		url := writePage(m)
		ctx := browser()
		Expect(chromedp.Do(ctx, chromedp.Navigate("about:blank"))).To(Succeed())
		start := time.Now()
		Expect(chromedp.Do(ctx, chromedp.Navigate(url))).To(Succeed())
		count := eval[string](ctx, `document.getElementById("f-count").textContent`)
		took := time.Since(start)
		Expect(count).To(Equal(fmt.Sprintf("%d of %d requirements shown", len(rowsWhere(m, func(string, matrix.Row) bool { return true })), len(rowsWhere(m, func(string, matrix.Row) bool { return true })))))
		Expect(eval[int](ctx, `document.querySelectorAll("td[data-col]").length`)).To(Equal(100 * len(rowsWhere(m, func(string, matrix.Row) bool { return true }))))
		st, err := os.Stat(strings.TrimPrefix(url, "file://"))
		Expect(err).NotTo(HaveOccurred())
		fmt.Fprintf(GinkgoWriter, "browser load of a page of 100 reports (%d bytes): %v\n", st.Size(), took)
		AddReportEntry("load time, 100 reports", took.String())
		start = time.Now()
		shown := eval[[]string](ctx, `document.getElementById("f-failing").click(), `+visibleRows)
		fmt.Fprintf(GinkgoWriter, "only failing rows, 100 reports: %v\n", time.Since(start))
		Expect(shown).To(Equal(rowsWhere(m, func(_ string, r matrix.Row) bool { return r.AnyFailed })))
	})
})

// rowsWhere lists the ids of the rows a predicate keeps, in page order.
func rowsWhere(m *matrix.Matrix, keep func(area string, r matrix.Row) bool) []string {
	out := []string{}
	for _, a := range m.Areas {
		for _, r := range a.Rows {
			if keep(a.Name, r) {
				out = append(out, r.ID)
			}
		}
	}
	return out
}

// normalise folds the whitespace innerText puts between the icon and the label.
func normalise(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = strings.Join(strings.Fields(v), "")
	}
	return out
}
