package matrix

import (
	_ "embed"
	"html/template"
	"io"
)

//go:embed page.html.tmpl
var pageTemplate string

//go:embed page.css
var pageCSS string

//go:embed page.js
var pageJS string

var page = template.Must(template.New("page").Funcs(template.FuncMap{
	"label": Label,
	"icon":  Icon,
	"css":   func() template.CSS { return template.CSS(pageCSS) },
	"js":    func() template.JS { return template.JS(pageJS) },
	"inc":   func(i int) int { return i + 1 },
	// verdicts are the ones a column head names only when some case has them.
	"verdicts": func() []string {
		return []string{"error", "timeout", "crash", "unsupported", "skipped", "xfail", "xpass"}
	},
}).Parse(pageTemplate))

// WriteHTML writes the matrix as one self-contained HTML page: styles and
// script inline, no network; without JavaScript every cell still expands
// (<details>) and only the filters are missing.
func WriteHTML(w io.Writer, m *Matrix) error {
	return page.Execute(w, m)
}
