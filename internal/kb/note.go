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
	// returns it with its new id (ShowOn never nil). The note must pass
	// Note.Validate (CodeMissing, CodeInvalid). CodeNotFound when the
	// customer does not exist, the package does not or is another
	// customer's custom package, or the title is not in that package.
	// PackageID and TitleID name the resource; the ID given is ignored.
	AddNote(ctx context.Context, custID string, n Note) (Note, error)
	// RemoveNote deletes one of the customer's notes; CodeNotFound when it
	// has none with that id.
	RemoveNote(ctx context.Context, custID string, noteID int64) error
	// Notes returns the customer's notes on the resources, each list in
	// rank order then id; resources without notes are absent from the
	// map, which is never nil. ShowOn is never nil. It is called for each
	// page of search results (up to 100 resources), so a store reads all
	// the keys at once.
	Notes(ctx context.Context, custID string, keys []ResourceKey) (map[ResourceKey][]Note, error)
}
