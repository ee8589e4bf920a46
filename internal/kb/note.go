package kb

import "context"

// Note is a customer's note on a resource, shown with it in the
// publication search service (PfNote).
type Note struct {
	ID        int64
	PackageID int64
	TitleID   int64
	Name      string
	Rank      int
	Text      string
	IconURL   string // "" for no icon or the standard icon
	IconID    int64
	AltText   string
	HoverText string
	LinkURL   string
	ShowOn    []string // showOnFlags
}

// ResourceKey names a resource: a title in a package.
type ResourceKey struct {
	PackageID, TitleID int64
}

// NoteStore keeps customers' notes on resources.
type NoteStore interface {
	// AddNote stores a note on a resource the customer can see and
	// returns it with its new id; CodeNotFound when there is no such
	// resource, CodeInvalid when a field is unusable.
	AddNote(ctx context.Context, custID string, n Note) (Note, error)
	// RemoveNote deletes one of the customer's notes; CodeNotFound when it
	// has none with that id.
	RemoveNote(ctx context.Context, custID string, noteID int64) error
	// Notes returns the customer's notes on the resources, each list in
	// rank order then id; resources without notes are absent.
	Notes(ctx context.Context, custID string, keys []ResourceKey) (map[ResourceKey][]Note, error)
}
