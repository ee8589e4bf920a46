package kb

import "strings"

// NewCustomer checks the id and name of a customer to add and returns
// them as stored: the id trimmed, the name the id where it is empty. An id
// may not be empty nor hold spaces, control characters, '/', '?', '#' or
// '.', since it stands in URL paths.
func NewCustomer(id, name string) (string, string, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return "", "", Errorf(CodeMissing, "customer id is empty")
	}
	for _, r := range id {
		if r == '/' || r == '?' || r == '#' || r == '.' || r <= ' ' {
			return "", "", Errorf(CodeInvalid, "customer id %q may not contain spaces, '/', '?', '#' or '.'", id)
		}
	}
	if name == "" {
		name = id
	}
	return id, name, nil
}

// CheckNewProxy checks the id of a customer proxy to add: not empty and not
// the built-in "no proxy" id (CodeInvalid).
func CheckNewProxy(p Proxy) error {
	if p.ID == "" || p.ID == NoProxyID {
		return Errorf(CodeInvalid, "proxy id %q is reserved or empty", p.ID)
	}
	return nil
}
