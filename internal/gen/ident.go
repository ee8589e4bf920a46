package gen

// issnSpace and isbnSpace are the sizes of the number spaces behind the
// generated identifiers: the 7 digits of an ISSN before its check digit and
// the 9 digits of an ISBN-13 between the 978 prefix and its check digit.
const (
	issnSpace = 10_000_000
	isbnSpace = 1_000_000_000
)

// appendISSN appends the ISSN whose first seven digits are x (in
// [0,issnSpace)), hyphenated, with its check digit: "0317-8471".
func appendISSN(b []byte, x int) []byte {
	var d [7]byte
	for i := 6; i >= 0; i-- {
		d[i] = byte(x % 10)
		x /= 10
	}
	sum := 0
	for i, v := range d {
		sum += int(v) * (8 - i)
	}
	check := (11 - sum%11) % 11
	for i, v := range d {
		if i == 4 {
			b = append(b, '-')
		}
		b = append(b, '0'+v)
	}
	if check == 10 {
		return append(b, 'X')
	}
	return append(b, byte('0'+check))
}

// appendISBN appends the ISBN-13 "978" + the nine digits of x (in
// [0,isbnSpace)) + its check digit, without hyphens.
func appendISBN(b []byte, x int) []byte {
	var d [12]byte
	d[0], d[1], d[2] = 9, 7, 8
	for i := 11; i >= 3; i-- {
		d[i] = byte(x % 10)
		x /= 10
	}
	sum := 0
	for i, v := range d {
		if i%2 == 0 {
			sum += int(v)
		} else {
			sum += 3 * int(v)
		}
	}
	for _, v := range d {
		b = append(b, '0'+v)
	}
	return append(b, byte('0'+(10-sum%10)%10))
}
