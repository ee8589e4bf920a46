package kbsql

import "github.com/kbserver/kbserver/internal/kb"

// NewNote checks a note to add (kb.Note.Validate) and gives it an empty
// show-on list where it has none, as it is stored and returned.
func NewNote(n *kb.Note) error {
	if err := n.Validate(); err != nil {
		return err
	}
	if n.ShowOn == nil {
		n.ShowOn = []string{}
	}
	return nil
}

// UniqueKeys returns keys without repeats, in first-seen order: a store
// reads each resource's notes once however often a page names it.
func UniqueKeys(keys []kb.ResourceKey) []kb.ResourceKey {
	out := make([]kb.ResourceKey, 0, len(keys))
	seen := make(map[kb.ResourceKey]bool, len(keys))
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}
