package retention

import "fmt"

// Items is a head window over items: it keeps the first maxItems pushed and
// counts the rest (RET-ITEM-*).
type Items[T any] struct {
	max     int
	items   []T
	seen    int
	omitted int
}

// NewItems returns a head item retainer. maxItems must be >= 0 (RET-ITEM-1).
func NewItems[T any](maxItems int) (*Items[T], error) {
	if maxItems < 0 {
		return nil, fmt.Errorf("maxItems must be a non-negative integer")
	}
	return &Items[T]{max: maxItems}, nil
}

// Push offers one item (RET-ITEM-2).
func (r *Items[T]) Push(item T) Decision {
	r.seen++
	if len(r.items) < r.max {
		r.items = append(r.items, item)
		return Decision{Kept: true}
	}
	r.omitted++
	return Decision{Kept: false, Truncated: true}
}

// RetainedItems is the outcome of an item window (RET-ITEM-3).
// Invariant: Seen = Kept + omitted count.
type RetainedItems[T any] struct {
	Items     []T      `json:"items"`
	Truncated bool     `json:"truncated"`
	Seen      int      `json:"seen"`
	Kept      int      `json:"kept"`
	Omitted   Omission `json:"omitted"`
}

// Finish returns the outcome; the retainer may not be used afterwards.
func (r *Items[T]) Finish() RetainedItems[T] {
	items := r.items
	if items == nil {
		items = []T{}
	}
	out := RetainedItems[T]{Items: items, Seen: r.seen, Kept: len(items), Omitted: Omission{Kind: None}}
	if r.omitted > 0 {
		out.Truncated = true
		out.Omitted = Omission{Kind: Exact, Count: r.omitted}
	}
	return out
}

// Head retains the first maxItems of items in one call.
func Head[T any](items []T, maxItems int) (RetainedItems[T], error) {
	r, err := NewItems[T](maxItems)
	if err != nil {
		return RetainedItems[T]{}, err
	}
	for _, it := range items {
		r.Push(it)
	}
	return r.Finish(), nil
}
