package kbsql

import "strconv"

// KBVersion is the name of the version counter every import bumps: the
// knowledge base's own data changed.
const KBVersion = "kb"

// TitlesVersion is the name of the version counter of what the title
// index holds (kb.TitleFeed): every import bumps it, and so does every
// write of a custom title's fields or of a custom package's titles.
const TitlesVersion = "titles"

// CustomerVersion is the name of a customer's version counter, which
// every write of the customer's own data that an answer shows bumps: its
// holdings (selections, customisations, custom packages and titles,
// vendor and package tokens and proxies), its root proxy and labels, and
// its proxies. Notes, ERM objects, profiles, keys, link-out counts and
// holdings snapshots do not: no answer that is kept by version shows them.
func CustomerVersion(custID string) string { return customerVersionPrefix + custID }

// customerVersionPrefix begins the name of every customer's version.
const customerVersionPrefix = "c:"

// collectionVersion is the value of CollectionVersion for the two
// counters.
func collectionVersion(kbVersion, customerVersion int64) string {
	return strconv.FormatInt(kbVersion, 10) + "." + strconv.FormatInt(customerVersion, 10)
}
