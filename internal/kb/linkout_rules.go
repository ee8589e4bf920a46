package kb

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
)

// TargetURLPlaceholder is the place in a proxy's URL mask where the target
// URL goes. It is matched without regard to ASCII case.
const TargetURLPlaceholder = "{targetURL}"

// TargetURL returns the address a link-out sends a patron to: the resource
// URL with its tokens filled in, passed through the proxy mask.
//
// Each token (vendor or package) that has a fact name has every occurrence
// of its fact name in the URL replaced by the customer's value, in one pass:
// a value is never searched for fact names in turn. When both tokens have
// the same fact name, the package's value wins. Values are inserted as they
// are, not escaped: a token may stand for a path segment, a query value or
// a host name, and only the customer knows which. A token the customer has
// not filled in leaves its fact name in the URL, so that the broken link
// shows what is missing instead of silently pointing somewhere else.
//
// When ProxyMask holds the placeholder {targetURL} (in any ASCII case),
// every occurrence of it is replaced by the URL, unescaped, as EZproxy's
// "login?url=" form expects. A mask without the placeholder cannot carry
// the target, and following it would land every patron on the proxy's home
// page: the URL is then returned unproxied. An empty URL gives "".
func TargetURL(l ResourceLink) string {
	if l.URL == "" {
		return ""
	}
	var pairs []string
	for _, t := range []*Token{l.PackageToken, l.VendorToken} {
		if t != nil && t.FactName != "" && t.Value != "" {
			pairs = append(pairs, t.FactName, t.Value)
		}
	}
	u := l.URL
	if len(pairs) > 0 {
		u = strings.NewReplacer(pairs...).Replace(u)
	}
	if indexFoldASCII(l.ProxyMask, TargetURLPlaceholder) < 0 {
		return u
	}
	var b strings.Builder
	rest := l.ProxyMask
	for {
		i := indexFoldASCII(rest, TargetURLPlaceholder)
		if i < 0 {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:i])
		b.WriteString(u)
		rest = rest[i+len(TargetURLPlaceholder):]
	}
}

// indexFoldASCII returns the index of the first occurrence of sub in s,
// comparing ASCII letters without regard to case and every other byte
// exactly, or -1. Unicode case folding is deliberately not applied: it
// would let, for example, the Kelvin sign match a "k".
func indexFoldASCII(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		match := true
		for j := 0; j < len(sub); j++ {
			if lowerASCII(s[i+j]) != lowerASCII(sub[j]) {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Link-out tokens.
const (
	// MinLinkSecretLen is the shortest secret NewLinkSigner accepts.
	MinLinkSecretLen = 16
	// linkMACLen is the length of a token's MAC: HMAC-SHA256 truncated
	// to 128 bits.
	linkMACLen = 16
	// maxLinkTokenLen bounds the tokens Verify decodes. A first-version
	// token is well under 200 characters (two decimal ids, a customer id,
	// a MAC); a resolver's token also carries a citation's DOI, of at
	// most maxDOI bytes, encoded twice in base64 (16/9 of its size).
	maxLinkTokenLen = 512 + 2*maxDOI
	// linkMACDomain starts the MAC input, so that a MAC made with the
	// same secret for any other purpose never verifies as a link-out.
	linkMACDomain = "kbserver link-out v1\x00"
)

// linkB64 is the encoding of both parts of a token: unpadded base64url,
// strict so that each token has exactly one spelling.
var linkB64 = base64.RawURLEncoding.Strict()

// LinkSigner makes and checks the opaque link-out tokens of the publication
// search service (linkOutTargetUrl). A token names a customer and one of
// its resources and carries an HMAC-SHA256 of them under the server's
// secret, so a patron cannot re-point a link at another resource or
// another customer's collection.
//
// A token is two unpadded base64url parts joined by a dot: the payload
// "packageID|titleID|custID" (the ids in canonical decimal; the customer id
// last, so that it may itself hold a '|'), and the first 16 bytes of
// HMAC-SHA256(secret, "kbserver link-out v1" NUL payload). Tokens do not
// expire: a link-out stays valid as long as the resource stays in the
// customer's collection, which the server checks on every use.
//
// The zero LinkSigner verifies nothing; Sign panics on it.
type LinkSigner struct {
	key []byte
}

// NewLinkSigner returns a signer over secret, which it copies. It panics
// when secret is shorter than MinLinkSecretLen bytes: a short key would
// make links forgeable, and the store creates 32 random bytes.
func NewLinkSigner(secret []byte) LinkSigner {
	if len(secret) < MinLinkSecretLen {
		panic("kb: link-signing secret shorter than " + strconv.Itoa(MinLinkSecretLen) + " bytes")
	}
	return LinkSigner{key: append([]byte(nil), secret...)}
}

// Sign returns the link-out token of the customer's resource: URL-safe,
// opaque to clients, and the same for the same inputs and secret.
func (s LinkSigner) Sign(custID string, key ResourceKey) string {
	if len(s.key) == 0 {
		panic("kb: LinkSigner without a secret")
	}
	payload := strconv.FormatInt(key.PackageID, 10) + "|" + strconv.FormatInt(key.TitleID, 10) + "|" + custID
	return linkB64.EncodeToString([]byte(payload)) + "." + linkB64.EncodeToString(s.mac([]byte(payload)))
}

// Verify returns the customer and resource a token names. A token that is
// malformed, too long, or whose MAC does not match (tampered with, or made
// with another secret) is CodeNotFound, "Link not found": to a client, a
// forged link is just a link that does not exist. The MAC is checked in
// constant time before the payload is read.
//
// A token with a DOI is refused: Verify could not say where it leads
// (VerifyLink can).
func (s LinkSigner) Verify(token string) (custID string, key ResourceKey, err error) {
	custID, key, target, err := s.VerifyLink(token)
	if err != nil || target.DOI != "" {
		return "", ResourceKey{}, NotFound("Link")
	}
	return custID, key, nil
}

// LinkVia says which page a link-out was made for, so that its clicks
// are counted by where patrons came from.
type LinkVia string

// Link-out origins.
const (
	ViaAZ       LinkVia = "az"       // the A–Z page and the publication search service
	ViaResolver LinkVia = "resolver" // the link resolver's answers
)

// LinkTarget is what a link-out token says beyond its resource: the page
// it was made for and, for an article-level link of the resolver, the DOI
// it leads to (through the resource's proxy) instead of the resource's
// address.
type LinkTarget struct {
	Via LinkVia
	DOI string
}

// linkV2 starts the payload of a token that carries a LinkTarget:
// "v2|via|packageID|titleID|base64url(DOI)|custID". A first-version
// payload starts with a decimal id, never with a letter.
const linkV2 = "v2|"

// SignLink returns the token of a link-out of the customer's resource to
// target. A target of the A–Z page without a DOI gives the same token as
// Sign, so that the links the service has handed out stay the same. A
// target without Via is the A–Z page's.
func (s LinkSigner) SignLink(custID string, key ResourceKey, target LinkTarget) string {
	if target.Via == "" {
		target.Via = ViaAZ
	}
	if target.Via == ViaAZ && target.DOI == "" {
		return s.Sign(custID, key)
	}
	if len(s.key) == 0 {
		panic("kb: LinkSigner without a secret")
	}
	payload := linkV2 + string(target.Via) + "|" + strconv.FormatInt(key.PackageID, 10) + "|" + strconv.FormatInt(key.TitleID, 10) +
		"|" + linkB64.EncodeToString([]byte(target.DOI)) + "|" + custID
	return linkB64.EncodeToString([]byte(payload)) + "." + linkB64.EncodeToString(s.mac([]byte(payload)))
}

// VerifyLink is Verify for tokens of either version: it also returns the
// token's target (ViaAZ and no DOI for a first-version token).
func (s LinkSigner) VerifyLink(token string) (custID string, key ResourceKey, target LinkTarget, err error) {
	notFound := NotFound("Link")
	if len(s.key) == 0 || len(token) > maxLinkTokenLen {
		return "", ResourceKey{}, target, notFound
	}
	p64, m64, ok := strings.Cut(token, ".")
	if !ok || p64 == "" {
		return "", ResourceKey{}, target, notFound
	}
	payload, err := linkB64.DecodeString(p64)
	if err != nil {
		return "", ResourceKey{}, target, notFound
	}
	mac, err := linkB64.DecodeString(m64)
	if err != nil || len(mac) != linkMACLen || !hmac.Equal(mac, s.mac(payload)) {
		return "", ResourceKey{}, target, notFound
	}
	p := string(payload)
	if !strings.HasPrefix(p, linkV2) {
		custID, key, ok = parseLinkPayload(p)
		if !ok {
			return "", ResourceKey{}, target, notFound
		}
		return custID, key, LinkTarget{Via: ViaAZ}, nil
	}
	parts := strings.SplitN(p[len(linkV2):], "|", 3)
	if len(parts) != 3 {
		return "", ResourceKey{}, target, notFound
	}
	via := LinkVia(parts[0])
	fields := strings.SplitN(parts[1]+"|"+parts[2], "|", 4) // packageID, titleID, b64(DOI), custID
	if len(fields) != 4 {
		return "", ResourceKey{}, target, notFound
	}
	doi, err := linkB64.DecodeString(fields[2])
	if err != nil {
		return "", ResourceKey{}, target, notFound
	}
	custID, key, ok = parseLinkPayload(fields[0] + "|" + fields[1] + "|" + fields[3])
	if !ok || (via != ViaAZ && via != ViaResolver) {
		return "", ResourceKey{}, target, notFound
	}
	return custID, key, LinkTarget{Via: via, DOI: string(doi)}, nil
}

// mac returns the truncated MAC of a payload.
func (s LinkSigner) mac(payload []byte) []byte {
	h := hmac.New(sha256.New, s.key)
	h.Write([]byte(linkMACDomain))
	h.Write(payload)
	return h.Sum(nil)[:linkMACLen]
}

// parseLinkPayload splits "packageID|titleID|custID"; ok is false unless
// both ids are positive canonical decimals and the customer id is not
// empty. Only payloads whose MAC matched get here, so a failure means a
// signer bug or a leaked secret, not a client's typo.
func parseLinkPayload(p string) (custID string, key ResourceKey, ok bool) {
	parts := strings.SplitN(p, "|", 3)
	if len(parts) != 3 || parts[2] == "" {
		return "", ResourceKey{}, false
	}
	var ids [2]int64
	for i, s := range parts[:2] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 || strconv.FormatInt(n, 10) != s {
			return "", ResourceKey{}, false
		}
		ids[i] = n
	}
	return parts[2], ResourceKey{PackageID: ids[0], TitleID: ids[1]}, true
}
