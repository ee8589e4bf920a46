package kbart

import "strings"

// This file recognises the error values that spreadsheets write in a cell
// whose formula failed (a lookup that found nothing gives "#N/A"). Such a
// value is not data: a title made of one rejects its row, and in any other
// field it is cleared.

// spreadsheetErrors lists the error values of Excel, LibreOffice and Google
// Sheets, in upper case.
var spreadsheetErrors = [...]string{
	"#N/A", "#REF!", "#VALUE!", "#NAME?", "#DIV/0!", "#NULL!", "#NUM!",
	"#SPILL!", "#CALC!", "#FIELD!", "#GETTING_DATA", "#ERROR!", "#N/A N/A",
}

// isSpreadsheetError reports whether v (trimmed) is a spreadsheet error
// value, in any case.
func isSpreadsheetError(v string) bool {
	if len(v) < 3 || v[0] != '#' {
		return false
	}
	for _, e := range spreadsheetErrors {
		if strings.EqualFold(v, e) {
			return true
		}
	}
	return false
}
