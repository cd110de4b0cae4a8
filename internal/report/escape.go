package report

// The escapers of every report format (issue 21: safe to read). Every
// string from outside conform (the handshake, answers, member names,
// messages, stderr, file names, process names, log contents, a saved
// report being converted) reaches a report through one of these, chosen
// by the format; JSON, JUnit XML and HTML escape through their encoders.

import (
	"fmt"
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text is outside text made safe for one line of a text or terminal
// report: line breaks, tabs, C0 and C1 controls, DEL, bidi and other
// invisible format characters, U+2028 and U+2029 and invalid UTF-8 are
// written as visible escapes (\n, \x1b, \u202e), so nothing an adapter or
// a log says can move the cursor, reorder the line, set the clipboard or
// start a line of the report.
func Text(s string) string { return escapeText(s, false) }

// TextBlock is Text for a block whose lines the caller indents: line
// feeds and tabs stay, everything else Text escapes is escaped.
func TextBlock(s string) string { return escapeText(s, true) }

// Hidden reports whether r is a character Text escapes.
func Hidden(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true // C0, DEL, C1
	case r == 0x2028, r == 0x2029:
		return true // line and paragraph separators
	}
	// Cf: bidi embeddings, overrides and isolates (U+202A-U+202E,
	// U+2066-U+2069, U+200E/F, U+061C), zero-width characters, U+FEFF,
	// soft hyphen, tags.
	return unicode.Is(unicode.Cf, r)
}

func escapeText(s string, block bool) string {
	clean := true
	for _, r := range s {
		if Hidden(r) && !(block && (r == '\n' || r == '\t')) || r == utf8.RuneError {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case block && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case Hidden(r) && r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case Hidden(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// MDCode is outside text as a Markdown code span, where GitHub forms no
// HTML, link, image, emphasis, heading, mention (@user, @org/team), issue
// reference (#N) or autolinked URL: Text-escaped, between backtick fences
// longer than any run of backticks inside, padded when it starts or ends
// with one. In a table cell, Table escapes its pipes.
func MDCode(s string) string {
	s = Text(s)
	if s == "" {
		return "(empty)"
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// MDFence is outside text as a fenced Markdown code block, its fence
// longer than any run of backticks inside so no line can close it early;
// the text is TextBlock-escaped. info is conform's own (e.g. "json"). The
// block ends with a line feed.
func MDFence(info, s string) string {
	s = strings.TrimRight(TextBlock(s), "\n")
	fence := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	return fence + info + "\n" + s + "\n" + fence + "\n"
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// HTMLCode is outside text as an inline <code> element for the HTML a
// Markdown report holds (a <details> summary): Text-escaped, then
// HTML-escaped; GitHub forms no mention or link inside <code>.
func HTMLCode(s string) string {
	return "<code>" + html.EscapeString(Text(s)) + "</code>"
}
