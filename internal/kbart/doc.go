// Package kbart reads, checks and writes KBART Phase II title lists
// (NISO RP-9-2014): tab-separated files with one row per title and the 25
// standard columns publication_title … access_type.
//
// Real files are rarely clean, so the Reader repairs what it safely can and
// says what it did. It works on an io.Reader only (no file system, no
// network) and is built for the import hot path: no regular expressions,
// one allocation per clean row (and one per 256 rows for the values of
// non-standard columns), and no Repairs or Problems slice for a clean row.
//
// # What the reader returns
//
// NewReader either returns a Reader or refuses the input with an error that
// wraps ErrNotKBART and says why. Next returns each data row as a Row whose
// Values are in standard order whatever the file's column order, and whose
// Extra holds the values of the file's non-standard columns, named by
// Reader.ExtraColumns.
//
// Each problem of a row is a Problem in Row.Problems: its kind, the field,
// the original value, what was done and why. The kinds are Repaired (a
// wrong value changed into what it meant), Flagged (a suspicious value kept,
// or cleared because it cannot be used), Normalized (a harmless change, see
// below) and Rejected. Row.Repairs has one message per Repaired or Flagged
// problem, each naming the field and its original value, such as
//
//	date_first_issue_online "15/11/2010" read as 2010-11-15
//
// so that a clean file whose only quirks are normalisations reports no row
// as repaired.
//
// A row that cannot be used is returned as a *RowError (the caller may go
// on reading), whose Problem (of kind Rejected) names the field at fault and
// whose Values hold what could be read of the row, so that its title_id,
// identifiers and URL say which title it stood for. Any other error from
// Next is fatal. Reader.FileNotes lists facts about the whole file
// (encoding, columns); notes on quirks repeated on every row, such as
// CSV-style quoting, are given there once, when first seen, and not as
// problems of each row.
//
// # Normalisations
//
// These changes lose nothing and are Normalized problems, not repairs:
//
//   - white space (Unicode spaces, NBSP, a stray byte order mark) trimmed
//     around a value, a value of spaces becoming empty;
//   - a byte order mark at the start of a data line removed;
//   - a row shorter than the header: the missing fields read as empty;
//   - a time of day 00:00:00 (or 00:00, with or without a zone) dropped
//     from a date;
//   - publication_type Serial, MONOGRAPH and so on in lower case;
//     publication_type inferred when the file has no such column (Phase I),
//     or when it is empty and the identifiers decide (an ISBN and no ISSN,
//     or the reverse; noted once for the file);
//   - access_type in upper case, free and paid read as F and P;
//   - coverage_depth fulltext, abstracts and selected articles in lower
//     case;
//   - embargo_info in KBART notation written canonically (r6m as R6M);
//   - the check character x of an ISSN in upper case;
//   - the values of several notes columns (notes and coverage_notes)
//     joined.
//
// File-level changes (a byte order mark or UTF-16 at the start of the file,
// CSV-style quoting, header variants) are file notes.
//
// # Refused inputs
//
// These return an error wrapping ErrNotKBART and no Reader: empty input; an
// HTML (or XML) page; a header line without a tab ("comma-separated" when
// it has commas, "not tab-separated (fixed-width or space-separated)"
// otherwise); a header without a publication_title column. The header is
// the first line, among the first 20 non-blank ones, that mentions
// publication_title; the lines before it are skipped as a preamble (noted).
//
// # Encodings and lines
//
//   - A UTF-8 byte order mark is removed; UTF-16LE and UTF-16BE (with a byte
//     order mark, or recognised by their zero bytes) are transcoded. Both
//     are file notes.
//   - A value that is not valid UTF-8 is decoded as Windows-1252, or as Mac
//     OS Roman when it holds a byte Windows-1252 leaves undefined (and, from
//     then on, for the rest of the file). Noted.
//   - Double-encoded UTF-8 ("fÃ¼r" for "für") is repaired when mapping each
//     character back to its Latin-1/Windows-1252 byte gives valid UTF-8.
//     Noted.
//   - Lines end at LF, CRLF or a lone CR, in any mix; the last line needs no
//     newline. Lines holding only spaces and tabs are skipped silently.
//     Row.Line is the physical line number after decoding.
//   - A line whose last field opens a double-quoted value that is closed at
//     the start of one of the next four lines is joined with them, the line
//     breaks becoming spaces (noted).
//   - A byte order mark at the start of a data line (left by concatenating
//     files) is removed.
//
// # Header
//
// Column names are compared trimmed, without quotes and in any case. The
// Phase I name coverage_notes is read as notes, and a few variants are
// accepted: a leading "#", trailing "_", spaces or no underscores
// ("onlineidentifier") and the misspelling mongraph_edition (each noted).
// Columns may come in any order. Missing standard columns read as empty, a
// Phase I header (no Phase II column) is recognised, duplicate names keep
// the first column (a standard name beats a variant), and empty names at
// the end of the header are ignored: one file note each. Every column read
// as notes is kept: when a file has both notes and coverage_notes, a row's
// non-empty value is kept, and two different values are joined with "; ",
// in header order.
//
// The other columns (bestppn, zdb_id, doi, collection, a column without a
// name, ...) are kept as extra columns: see Reader.ExtraColumns for their
// names (made unique), and Row.Extra for their values, which are cleaned
// like the others (trimmed, decoded, unquoted; not HTML-decoded) and cut at
// 10,000 characters (a repair). At most 64 are kept; the others are dropped,
// with a file note.
//
// A header line found again among the data (concatenated files) is reported
// as a *RowError with the reason "repeated header line skipped" (Problem
// reason "repeated header line"): it is recognised by publication_title in
// the title column and a standard column name in another one. Its columns
// are not re-mapped.
//
// # Rows
//
//   - A row with fewer fields than the header reads the missing ones as
//     empty (a normalisation, noted when a standard column is missing).
//     Fields beyond the header are dropped (flagged only when one of them is
//     not empty).
//   - Shifted rows, whose values do not sit under their header column, are
//     repaired when the fix is certain: a row one field longer than the
//     header whose first field is empty and whose second is not an ISSN or
//     ISBN has its leading empty field dropped (the Portico case); a field
//     that opens a double-quoted value and a later field that closes it,
//     in a row longer than the header, are joined, the tabs between becoming
//     spaces (a tab inside a quoted value).
//   - Other shifted rows are rejected, the reason naming the values found
//     in the wrong column. A row is looked at when a value sits where it
//     cannot belong: publication_type other than serial or monograph, a
//     word in a date field, or serial, monograph or a URL in a field up to
//     3 columns away from an empty publication_type or a title_url without
//     a URL (publication_title and notes aside). For each shift of 1 to 3
//     columns either way,
//     a field of recognisable form (identifiers, dates, title_url,
//     embargo_info, coverage_depth, publication_type, access_type)
//     supports the shift when its own column does not hold a value of its
//     form and the shifted column does, and contradicts it in the reverse
//     case. The row is shifted when two fields support a shift, one of them
//     with a wrong value in its own column or a value that cannot be where
//     it was found, and every contradicting field comes before every
//     supporting one.
//   - Rejected (*RowError) too: a row whose publication_title is empty
//     after the repairs below or is a spreadsheet error value ("#N/A",
//     "#REF!", "#VALUE!", "#NAME?" and the like; the message names the
//     row's identifiers so it can be found), a value longer than the
//     stores accept (titles and publishers of more than 1,000 characters,
//     URLs of more than 2,000), and a line without any tab when the header
//     has more than one column.
//
// # Values
//
// Every value is trimmed (Unicode spaces, NBSP and stray byte order marks
// included), so a value of spaces becomes empty. CSV-style quoting ("…"
// with "" for a quote inside) is removed when the value as read is wholly
// quoted that way; other quotes are kept, and so are the quotes that
// decoding an entity gives ("&quot;Ihre Werte&quot;" is read as
// "\"Ihre Werte\""). Control characters become spaces (noted). HTML
// character references in publication_title and publisher_name are decoded
// when complete ("&amp;", "&#8212;"; not "AT&T" nor "&quote;"), noted. These
// lexical steps repeat until nothing changes, so that reading a file
// written from read values changes nothing. A spreadsheet error value
// ("#N/A", ...) in a field other than publication_title is cleared and
// flagged.
//
// Dates (date_first_issue_online, date_last_issue_online,
// date_monograph_published_print, date_monograph_published_online) become
// YYYY, YYYY-MM or YYYY-MM-DD, each change noted. Accepted: those three
// forms; timestamps (2008-05-19 00:00:00, 2008-05-19T00:00:00Z); d/m/yyyy,
// m/d/yyyy and d.m.yyyy (a first number over 12 is a day, a second number
// over 12 makes it month/day; when both are 12 or less the file's earlier
// unambiguous dates decide, else day/month is assumed for four-digit years
// and month/day for two-digit ones, and the note says which); two-digit
// years (yy up to the current year's last two digits plus one is 20yy,
// else 19yy); yyyy/mm/dd and mm/yyyy; YYYYMM and YYYYMMDD; 2010-1-5;
// bracketed years [1840]; spreadsheet floats 2013.0; Excel serial day
// numbers from 10000 to 80000 (43214.0, 28491; days since 1899-12-30);
// ranges of years 1848-1857 or 1977/1978 (the first year, or the last one
// for date_last_issue_online); years named in words. A value made only of
// years, day numbers, English month and season names, "circa", "to",
// "and" and punctuation ("1929 Jan.-June", "1905 Jan.-Mar.",
// "Jul-Sep 1853", "1883-1884 June", "1873, 1885-1887", "1896-[1901]")
// gives its first year, or its last one for date_last_issue_online, as a
// range does; a year followed by a space or comma and other words
// ("1901 September 21 - 1909") gives that year, or for
// date_last_issue_online a year ending the value. Anything else, an
// impossible month or day, or a year outside 1000..2100 is cleared and
// flagged (a word in a date field, such as "Serial" or a publisher's name,
// with the reason "a word, not a date"). A date_last_issue_online before
// date_first_issue_online is kept, flagged. A timestamp at midnight is a
// normalisation; the other changes are repairs.
//
// print_identifier and online_identifier: an ISSN without its hyphen, with
// a space or with a lowercase x is rewritten as 1234-567X; a leading "#"
// before an ISSN or ISBN is removed; an ISSN or ISBN with a wrong check
// digit, and a value that is neither ISSN- nor ISBN-shaped (a DOI, free
// text), are kept, with a note. ISBNs are otherwise kept as written.
//
// publication_type: serial and monograph in any case become lower case. Any
// other value, and an empty one, is inferred (noted): monograph when an
// identifier is ISBN-shaped and none ISSN-shaped, serial in the opposite
// case, otherwise serial when date_first_issue_online is set and monograph
// when it is not.
//
// embargo_info in KBART notation (see ParseEmbargo) is written canonically
// (R10Y;P30D); any other value (a date, "Moving Wall: 3 years", a
// publisher) is kept, with a note. access_type F, P, H and PF are upper
// case, free and paid become F and P, a literal trailing "\r" is removed;
// any other value is kept, with a note. coverage_depth fulltext, abstracts
// and selected articles are lower case; other values (Volltext, ebook) and
// the remaining fields are kept as they are.
//
// # Writer
//
// Writer writes the 25 standard columns (and any extra ones) with LF line
// endings; see Writer for how it protects values. A file written with
// NewWriter(w, r.ExtraColumns()...) from rows read by r, each written as
// its Values followed by its Extra, reads back with the same values, extra
// columns and extra values.
package kbart
