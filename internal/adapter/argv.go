package adapter

import (
	"errors"
	"fmt"
	"strings"
)

// SplitCommand splits an --adapter string into an argv the way a POSIX
// shell splits words, without running a shell: blanks separate words;
// '...' keeps everything literally; "..." keeps everything but \ before
// $ ` " \ and newline; outside quotes a backslash keeps the next character
// (and drops a newline). Shell syntax that would need a shell to mean
// anything (| & ; < > ( ) $ `, a leading ~, a leading VAR=value) is an
// error rather than a literal argument; quote it to pass it through.
func SplitCommand(s string) ([]string, error) {
	var (
		words   []string
		cur     strings.Builder
		inWord  bool
		escaped bool // the current word's first character was quoted or escaped
	)
	end := func() {
		if inWord {
			words = append(words, cur.String())
		}
		cur.Reset()
		inWord, escaped = false, false
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == ' ' || r == '\t' || r == '\n':
			end()
		case r == '\'':
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				j++
			}
			if j >= len(rs) {
				return nil, errors.New("unterminated ' quote")
			}
			if !inWord {
				escaped = true
			}
			cur.WriteString(string(rs[i+1 : j]))
			inWord, i = true, j // '' is an empty word
		case r == '"':
			if !inWord {
				escaped = true
			}
			inWord = true
			j := i + 1
			for ; j < len(rs) && rs[j] != '"'; j++ {
				switch c := rs[j]; {
				case c == '\\' && j+1 < len(rs) && strings.ContainsRune("$`\"\\\n", rs[j+1]):
					if rs[j+1] != '\n' {
						cur.WriteRune(rs[j+1])
					}
					j++
				case c == '$' || c == '`':
					return nil, fmt.Errorf("%q inside double quotes would need a shell to expand it; use single quotes or \\%c", c, c)
				default:
					cur.WriteRune(c)
				}
			}
			if j >= len(rs) {
				return nil, errors.New(`unterminated " quote`)
			}
			i = j
		case r == '\\':
			if i+1 >= len(rs) {
				return nil, errors.New("trailing backslash")
			}
			i++
			if rs[i] == '\n' {
				continue // line continuation
			}
			if !inWord {
				escaped = true
			}
			cur.WriteRune(rs[i])
			inWord = true
		case strings.ContainsRune("|&;<>()$`", r):
			return nil, fmt.Errorf("%q is shell syntax, and the adapter command is not run through a shell; quote it, or put the pipeline in a script", r)
		case r == '~' && !inWord:
			return nil, errors.New("a leading ~ would need a shell to expand it; give the path in full")
		default:
			if r == '=' && !escaped && len(words) == 0 && isShellName(cur.String()) {
				return nil, fmt.Errorf("%s=… is a shell variable assignment; to set the adapter's environment use env: env %s=… CMD", cur.String(), cur.String())
			}
			cur.WriteRune(r)
			inWord = true
		}
	}
	end()
	if len(words) == 0 {
		return nil, errors.New("empty adapter command")
	}
	return words, nil
}

// isShellName reports whether s is a shell variable name.
func isShellName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
