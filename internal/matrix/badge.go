package matrix

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Badge is a shields.io endpoint answer (https://shields.io/badges/endpoint-badge).
func Badge(c Column) []byte {
	// The count is of the requirements the run checked, and says so: a
	// run of one op must not read as the whole catalogue (issue 21).
	msg, colour := fmt.Sprintf("%d/%d checked", c.Passed, c.Checked), "brightgreen"
	switch c.Result {
	case ResultIncomplete:
		msg, colour = "incomplete", "lightgrey"
	case ResultNonconformant:
		msg, colour = "nonconformant", "red"
	case ResultPartial:
		msg, colour = fmt.Sprintf("%d/%d checked, partial", c.Passed, c.Checked), "yellow"
	}
	var b []byte
	b = append(b, `{"schemaVersion":1,"label":"conform","message":`...)
	b = jsonjs.AppendString(b, msg)
	b = append(b, `,"color":`...)
	b = jsonjs.AppendString(b, colour)
	return append(b, "}\n"...)
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// BadgeFile is the badge's file name: name-version.json, reduced to safe
// characters; the column key keeps two unnamed reports apart.
func BadgeFile(c Column) string {
	base := strings.Trim(unsafeName.ReplaceAllString(strings.TrimSpace(c.Name+"-"+c.Version), "_"), "._-")
	if base == "" || strings.HasPrefix(c.Name, "(") {
		base = "report-" + c.Key
	}
	return base + ".json"
}

// WriteBadges writes one badge per column into dir, creating it; two
// columns with the same file name are an error, not an overwrite.
func WriteBadges(dir string, m *Matrix) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	seen := map[string]string{}
	var written []string
	for _, c := range m.Columns {
		name := BadgeFile(c)
		if prev, ok := seen[name]; ok {
			return written, fmt.Errorf("%s and %s both make badge %s (same implementation name and version)", prev, c.File, name)
		}
		seen[name] = c.File
		path := filepath.Join(dir, name)
		if err := report.WriteFile(path, Badge(c)); err != nil {
			return written, err
		}
		written = append(written, path)
	}
	return written, nil
}
