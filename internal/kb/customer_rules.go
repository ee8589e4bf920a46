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
	if err := CheckText("A customer id", id, LimitID); err != nil {
		return "", "", err
	}
	for _, r := range id {
		if r == '/' || r == '?' || r == '#' || r == '.' || r <= ' ' {
			return "", "", Errorf(CodeInvalid, "customer id %q may not contain spaces, '/', '?', '#' or '.'", id)
		}
	}
	if name == "" {
		name = id
	}
	// The name is the customer's own vendor's, which the stores index.
	if err := CheckText("A customer name", name, LimitName); err != nil {
		return "", "", err
	}
	return id, name, nil
}

// CheckNewProxy checks a customer proxy to add: its id not empty and not
// the built-in "no proxy" id, and its id, name and URL mask within their
// limits (CodeInvalid).
func CheckNewProxy(p Proxy) error {
	if p.ID == "" || p.ID == NoProxyID {
		return Errorf(CodeInvalid, "proxy id %q is reserved or empty", p.ID)
	}
	if err := CheckText("A proxy id", p.ID, LimitID); err != nil {
		return err
	}
	if err := CheckText("A proxy name", p.Name, LimitShort); err != nil {
		return err
	}
	return CheckText("A proxy URL mask", p.URLMask, LimitURL)
}
