package kbsql

import "fmt"

// KBVersion is the name of the version counter every import bumps: the
// knowledge base's own data changed.
const KBVersion = "kb"

// CustomerVersion is the name of a customer's version counter, which
// every change of the customer's holdings bumps.
func CustomerVersion(custID string) string { return "c:" + custID }

// CollectionVersion is the value of a customer's collection version made
// of the knowledge base's counter and the customer's: it changes whenever
// either does.
func CollectionVersion(kbv, cv int64) string { return fmt.Sprintf("%d.%d", kbv, cv) }
