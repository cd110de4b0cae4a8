package matrix

import (
	"crypto/sha256"
	"encoding/hex"
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

// maxBadgeBase bounds a badge file name's stem, far under every file
// system's 255-byte name limit (issue 21: a 300-byte implementation name
// failed every badge).
const maxBadgeBase = 80

// BadgeFile is the badge's file name: name-version.json, reduced to safe
// characters; a stem over maxBadgeBase bytes is cut and keeps a hash of
// the whole name, so names that share a long prefix stay apart.
func BadgeFile(c Column) string {
	full := strings.TrimSpace(c.Name + "-" + c.Version)
	base := strings.Trim(unsafeName.ReplaceAllString(full, "_"), "._-")
	if base == "" || strings.HasPrefix(c.Name, "(") {
		base = "report-" + c.Key
	}
	if len(base) > maxBadgeBase {
		sum := sha256.Sum256([]byte(full))
		base = strings.TrimRight(base[:maxBadgeBase-13], "._-") + "-" + hex.EncodeToString(sum[:6])
	}
	return base + ".json"
}

// WriteBadges writes one badge per column into dir, creating it. Two
// columns whose names make the same file get the column key added, so
// each column has its own badge.
func WriteBadges(dir string, m *Matrix) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var written []string
	for _, c := range m.Columns {
		name := BadgeFile(c)
		if seen[name] {
			name = strings.TrimSuffix(name, ".json") + "-" + c.Key + ".json"
		}
		seen[name] = true
		path := filepath.Join(dir, name)
		if err := report.WriteFile(path, Badge(c)); err != nil {
			return written, fmt.Errorf("%s: %v", name, err)
		}
		written = append(written, path)
	}
	return written, nil
}
