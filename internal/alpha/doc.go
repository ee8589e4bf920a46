// Package alpha drives the A–Z browse of a library's publication finder:
// the sort keys of title names, the alpha browser menu with its counts and
// the AlphaMenus facet, all following a locale.
//
// # Locale
//
// A [Locale] is parsed from a BCP 47 language tag such as en-US, fr-FR or
// de-DE (en_US is accepted too). It sorts by the collation of its language,
// with accents, case and character width ignored, so "Éclair" sorts between
// "Eagle" and "Ezra". A leading article of the locale's language is ignored
// for sorting and grouping, in any case:
//
//   - English: "the", "a" and "an" ("The Zebra" is under Z);
//   - French: "le", "la", "les" and the elided "l'" or "l’" ("L'Express" is
//     under E);
//   - German: "der", "die" and "das" ("Die Zeit" is under Z).
//
// An article counts only when a space follows it (or, for "l'", directly the
// rest of the name) and something follows: "The" alone stays under T. Only
// the articles of the locale's own language are ignored: "Die Hard" is under
// D in English. Other languages have no articles.
//
// # Which entry a title belongs to
//
// After the article, spaces, punctuation and symbols at the start of a name
// are skipped (" 'Hello'" and "...Hello" are under H), and the first
// remaining character decides: a digit belongs to "0-9"; a letter that
// collates like one of the basic Latin letters a to z belongs to that letter
// (É, é, Ä and Å are under A or E in English, ß is under S); anything else,
// such as a letter of another script ("Россия"), and a name without letters
// or digits, belongs to "Other". A letter that the locale collates as a letter
// of its own, such as Å in Swedish or Ñ in Spanish, belongs to "Other" as
// well. The next entries down take the next characters in the same way,
// again skipping spaces and punctuation: "X-ray" is under X, then Xr, then
// Xra.
//
// # Menu levels and menu ids
//
// The first level has 28 entries, always listed in this order with their
// menu ids: "0-9" (1), "A" (2) to "Z" (27) and "Other" (28).
//
// The entries below a letter, such as "A", are the letter followed by a digit,
// "A0-9", and the letter followed by each of a to z, "Aa" to "Az". Their
// number within the parent (1 for "A0-9", 2 to 27 for "Aa" to "Az") is
// added to the parent's id times 100: "A0-9" is 201, "Aa" is 202, "Ab" is
// 203 and "Az" is 227. The entries below "0-9" are the ten digits "0" (101)
// to "9" (110). "Other" has no entries below it.
//
// The third level follows the same rule one character further, with three
// more kinds of entries: below a letter entry such as "Ab" are "Ab0-9"
// (20301) and "Aba" (20302) to "Abz" (20327); below a group of digits such as
// "A0-9" are its ten digits "A0" (20101) to "A9" (20110); below a digit such
// as "1" (102) are the ten digits "10" (10201) to "19" (10210). A fourth
// level, shown for a third-level entry, continues in the same way, with ids
// such as 2030202 ("Abaa").
//
// A title is counted in every entry on its path down to the deepest entry
// that its name reaches. A title whose name has no further letter or digit,
// or whose next character belongs to "Other", is counted in the entry above
// but in none of the entries below it; so is a title that continues with a
// letter below a digit entry ("1A" is counted in "0-9" and "1" but in none of
// "10" to "19").
//
// # The menu result
//
// A menu is asked for with the menu id of an entry of the first, second or
// third level. The result has four positions, each a list of entries with
// their menu id, characters, order (1-based, in display order) and count of
// titles. Every list shows all its possible entries, those with a count of
// 0 included:
//
//   - position 0: the 28 entries of the first level;
//   - position 1: the entries below the first-level entry of the menu id (for
//     203, the entries below "A");
//   - position 2: the entries below the second-level entry of the menu id
//     (for 203 and for 20302, the entries below "Ab"), empty when the menu id
//     is of the first level;
//   - position 3: the entries below the menu id when it is of the third level
//     (for 20302, the entries below "Aba"), empty otherwise.
//
// The AlphaMenus facet of a publication search counts the first level
// ([Locale.Top] gives a title's entry); its alphamenufacet filter takes an
// entry of any level as the menus spell it ([ParseEntry]: "A", "Ab",
// "A0-9", "12"), which matches the titles the menu counts under it.
package alpha
