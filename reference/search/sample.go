package search

import "strings"

// Sample is a top-level sample of glob paths (SEARCH-SAMPLE-5).
type Sample struct {
	Items []string
	Shown int // groups with at least one path taken
	Total int // all groups
}

// sep is the path separator; the reference fixes POSIX. On POSIX a backslash
// is an ordinary filename character.
const sep = "/"

// rootRelative derives the grouping form of a path (SEARCH-SAMPLE-1). The
// displayed path never changes.
func rootRelative(path, root string) string {
	if root == "." {
		return strings.TrimPrefix(path, "./")
	}
	r := strings.TrimRight(root, sep)
	switch {
	case r == "":
		return strings.TrimLeft(path, sep)
	case path == r:
		return ""
	case strings.HasPrefix(path, r+sep):
		return path[len(r)+len(sep):]
	}
	return path
}

// topLevelKey is the first segment of the root-relative form, after leading
// separators are stripped (SEARCH-SAMPLE-2).
func topLevelKey(path, root string) string {
	key, _, _ := strings.Cut(strings.TrimLeft(rootRelative(path, root), sep), sep)
	return key
}

// SampleAcrossTopLevel takes up to maxItems paths round-robin across their
// top-level entries (SEARCH-SAMPLE-3/4) and returns them regrouped, groups in
// first-seen order and each group's paths in input order (SEARCH-SAMPLE-5).
func SampleAcrossTopLevel(paths []string, maxItems int, root string) Sample {
	index := make(map[string]int)
	var groups [][]string
	for _, p := range paths {
		k := topLevelKey(p, root)
		i, ok := index[k]
		if !ok {
			i = len(groups)
			index[k] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], p)
	}
	// Rounds visit only groups that still have paths, so the work is linear
	// in the paths taken plus the groups.
	taken := make([]int, len(groups)) // paths taken from each group
	active := make([]int, len(groups))
	for g := range active {
		active[g] = g
	}
	for n := 0; n < maxItems && len(active) > 0; {
		next := active[:0]
		for _, g := range active {
			if n == maxItems {
				next = append(next, g)
				continue
			}
			taken[g]++
			n++
			if taken[g] < len(groups[g]) {
				next = append(next, g)
			}
		}
		active = next
	}
	s := Sample{Items: []string{}, Total: len(groups)}
	for g, k := range taken {
		if k > 0 {
			s.Shown++
			s.Items = append(s.Items, groups[g][:k]...)
		}
	}
	return s
}
