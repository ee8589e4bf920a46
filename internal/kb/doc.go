// Package kb holds kbserver's domain: the knowledge-base model (vendors,
// packages, titles and the resources that place a title in a package), a
// customer's view of it (selection, visibility, customisation), the
// enumerations of the three HTTP APIs, the rules that do not need I/O
// (among them the advanced-search grammar), the store interfaces, and the
// one error type with stable codes.
//
// Nothing in this package performs I/O; the concrete stores live in
// internal/sqlite and internal/postgres and must pass the conformance
// suite in internal/storetest.
package kb
