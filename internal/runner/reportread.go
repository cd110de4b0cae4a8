package runner

import (
	"fmt"

	"github.com/dsh-conform/conform/internal/regfile"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// MaxReportBytes bounds a JSON run report read back (conform diff,
// --rerun-failed, baseline write --from): a run of every embedded case,
// all failing with diffs and 4 KiB of stderr each, is under 4 MiB. A
// bigger file is refused before it is parsed.
const MaxReportBytes = 8 * regfile.MiB

// ParseReport parses the text of a run report with JSON.parse semantics
// (jsonjs: case-sensitive names, the last duplicate wins) and checks its
// format and version. Errors do not name the file; callers do.
func ParseReport(data []byte) (jsonjs.Value, error) {
	v, err := jsonjs.Parse(data)
	if err != nil {
		return v, fmt.Errorf("not a JSON run report: %v", err)
	}
	if v.Kind() != jsonjs.Object {
		return v, fmt.Errorf("not a JSON run report: a JSON %s, not an object", v.Kind())
	}
	format, hasFormat := v.Get("format")
	version, hasVersion := v.Get("version")
	f, _ := format.Str()
	n, _ := version.Float()
	switch {
	case !hasFormat:
		return v, fmt.Errorf("no \"format\" member: not a conform run report (`conform run --format json` writes one)")
	case f != ReportFormat:
		return v, fmt.Errorf("format %s, want %q (a `conform run --format json` report)", jsonjs.Marshal(format), ReportFormat)
	case !hasVersion:
		return v, fmt.Errorf("no \"version\" member")
	case n != ReportVersion:
		return v, fmt.Errorf("report version %s, this conform reads version %d", jsonjs.Marshal(version), ReportVersion)
	}
	return v, nil
}
