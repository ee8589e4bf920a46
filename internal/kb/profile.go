package kb

import (
	"context"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// ProfileID names a publication search profile: custid.groupid.profileid.
type ProfileID struct {
	CustomerID, GroupID, ProfileID string
}

// String returns the profile in its custid.groupid.profileid form.
func (p ProfileID) String() string { return p.CustomerID + "." + p.GroupID + "." + p.ProfileID }

// ParseProfileID reads custid.groupid.profileid: three non-empty parts of
// letters, digits, '-' and '_', separated by dots.
func ParseProfileID(s string) (ProfileID, error) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return ProfileID{}, Errorf(CodeInvalid, "Profile %q is malformed: it must be custid.groupid.profileid (three parts separated by dots).", s)
	}
	for i, part := range parts {
		name := [...]string{"custid", "groupid", "profileid"}[i]
		if part == "" {
			return ProfileID{}, Errorf(CodeInvalid, "Profile %q is malformed: its %s is empty (custid.groupid.profileid).", s, name)
		}
		if e := LimitID.Exceeded(part); e != "" {
			return ProfileID{}, Errorf(CodeInvalid, "The %s of a profile %s.", name, e)
		}
		for _, r := range part {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
				return ProfileID{}, Errorf(CodeInvalid, "Profile %q is malformed: %q may hold only letters, digits, '-' and '_'.", s, part)
			}
		}
	}
	return ProfileID{parts[0], parts[1], parts[2]}, nil
}

// Profile is a publication search profile and how it is entered: with its
// password (stored as a PasswordHash), and without one when Guest is set.
type Profile struct {
	ID           ProfileID
	PasswordHash string // "" when the profile has no password
	Guest        bool
	// RequestURL is the library's interlibrary-loan request form, which
	// the link resolver offers with the citation appended when nothing
	// held gives the full text; "" for none.
	RequestURL string
}

// ProfileStore keeps publication search profiles.
type ProfileStore interface {
	// SaveProfile creates the profile, or changes the password hash and
	// guest access of an existing one. The customer must exist
	// (CodeNotFound).
	SaveProfile(ctx context.Context, p Profile) error
	// LookupProfile returns a profile; CodeNotFound when there is none.
	LookupProfile(ctx context.Context, id ProfileID) (Profile, error)
	// SetProfileRequestURL sets a profile's RequestURL ("" for none);
	// CodeNotFound when there is no such profile, CodeInvalid when the
	// address is not one (CheckRequestURL).
	SetProfileRequestURL(ctx context.Context, id ProfileID, url string) error
	// Profiles lists the profiles of the customer, or of every customer
	// when custID is "", in the order of their names.
	Profiles(ctx context.Context, custID string) ([]Profile, error)
}

// Password hashes are PBKDF2-HMAC-SHA256: slow on purpose, so that a
// stolen database does not give the passwords away cheaply. The stored
// form is "pbkdf2-sha256$ITERATIONS$SALT$KEY" (salt and key base64url).
const (
	passwordScheme     = "pbkdf2-sha256"
	passwordIterations = 210_000
	passwordKeyLen     = 32
)

// HashPassword returns the stored form of a password, with a new random
// salt.
func HashPassword(password string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("password salt: %w", err)
	}
	key, err := pbkdf2.Key(sha256.New, password, salt, passwordIterations, passwordKeyLen)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	enc := base64.RawURLEncoding
	return passwordScheme + "$" + strconv.Itoa(passwordIterations) + "$" + enc.EncodeToString(salt) + "$" + enc.EncodeToString(key), nil
}

// CheckPassword reports whether password matches the stored hash,
// comparing in constant time. A malformed hash matches nothing.
func CheckPassword(hash, password string) bool {
	f := strings.Split(hash, "$")
	if len(f) != 4 || f[0] != passwordScheme {
		return false
	}
	iter, err := strconv.Atoi(f[1])
	if err != nil || iter < 1 {
		return false
	}
	enc := base64.RawURLEncoding
	salt, err1 := enc.DecodeString(f[2])
	want, err2 := enc.DecodeString(f[3])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false
	}
	got, err := pbkdf2.Key(sha256.New, password, salt, iter, len(want))
	return err == nil && hmac.Equal(got, want)
}

// CheckRequestURL checks a profile's interlibrary-loan request form: ""
// (none), or an absolute http or https address within LimitURL. The
// resolver appends the citation as OpenURL 0.1 keys to its query.
func CheckRequestURL(s string) error {
	if s == "" {
		return nil
	}
	if err := CheckText("request form address", s, LimitURL); err != nil {
		return err
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (!strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https")) {
		return Errorf(CodeInvalid, "The request form address %q is not an absolute http or https address.", s)
	}
	return nil
}
