package matrix

// Label is a cell status in words, and Icon its sign: a cell is told by
// text and icon as well as colour (issue 14, accessible page).
func Label(status string) string {
	switch status {
	case Passed:
		return "passed"
	case Failed:
		return "failed"
	case XFail:
		return "expected failure"
	case NotExercised:
		return "not exercised"
	case Unsupported:
		return "unsupported"
	case "not-selected":
		return "not selected"
	case "check-log":
		return "check-log"
	case "excluded":
		return "excluded"
	case "uncovered":
		return "uncovered"
	}
	return status
}

// Icon is the sign shown before a cell's label.
func Icon(status string) string {
	switch status {
	case Passed:
		return "✓"
	case Failed:
		return "✗"
	case XFail:
		return "≈"
	case Unsupported:
		return "⊘"
	case "check-log":
		return "≡"
	case "excluded":
		return "∅"
	case "uncovered":
		return "?"
	}
	return "–"
}
