package kbsql

// KBVersion is the name of the version counter every import bumps: the
// knowledge base's own data changed.
const KBVersion = "kb"

// CustomerVersion is the name of a customer's version counter, which
// every change of the customer's holdings bumps.
func CustomerVersion(custID string) string { return "c:" + custID }
