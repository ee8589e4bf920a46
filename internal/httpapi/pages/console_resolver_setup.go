package pages

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/kbserver/kbserver/internal/httpapi/pfapi"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/resolver"
)

// resolverSetupPage is the console's link resolver page: each profile's
// resolver address and interlibrary-loan form, and the test form.
type resolverSetupPage struct {
	frame
	Flash, Error string
	Profiles     []resolverProfile
	// The test: what was pasted, the profile it ran for, the answer.
	Test, TestProfile string
	Tested            bool
	Answer            *testAnswer
}

// resolverProfile is one profile on the page.
type resolverProfile struct {
	ID, Address, Scholar, Access, RequestURL string
}

// testAnswer is a test resolution as the staff read it: why each held
// resource gives the full text or not.
type testAnswer struct {
	Citation  []menuField
	Notes     []string
	MatchedBy string
	FullText  bool
	Results   []testResult
	Request   string
}

// testResult is one resource of a test resolution.
type testResult struct {
	Title, Package, Coverage, Verdict string
	Covered                           bool
	Links                             []struct{ Level, Target string }
}

// consoleResolverSetup serves /console/resolver/setup: the customer's
// profiles with their link resolver's address, Google Scholar's address
// and the interlibrary-loan form (saved by POST), and a test form that
// resolves a pasted OpenURL without counting it in the statistics.
func (p *pages) consoleResolverSetup(w http.ResponseWriter, r *http.Request, s *staff) error {
	ctx := r.Context()
	data := resolverSetupPage{frame: consoleFrame(s, "Link resolver")}
	status := http.StatusOK
	if r.Method == http.MethodPost {
		id, err := kb.ParseProfileID(r.PostFormValue("profile"))
		if err == nil && id.CustomerID != s.CustomerID {
			err = kb.NotFound("Profile")
		}
		if err == nil {
			err = p.store.SetProfileRequestURL(ctx, id, strings.TrimSpace(r.PostFormValue("requesturl")))
		}
		if err == nil {
			http.Redirect(w, r, r.URL.Path+"?saved="+url.QueryEscape(id.String()), http.StatusSeeOther)
			return nil
		}
		if kb.ErrorCode(err) == kb.CodeInternal {
			return fmt.Errorf("set the request form of %s: %w", r.PostFormValue("profile"), err)
		}
		status, data.Error = web.InPlace(w, err)
	}
	profiles, err := p.store.Profiles(ctx, s.CustomerID)
	if err != nil {
		return fmt.Errorf("profiles of %s: %w", s.CustomerID, err)
	}
	base := strings.TrimSuffix(pfapi.LinkOutURL(r, ""), pfapi.LinkOutPath)
	var test kb.Profile
	q := r.URL.Query()
	data.Test, data.TestProfile = q.Get("openurl"), q.Get("testprofile")
	saved := r.URL.Query().Get("saved")
	for i, pr := range profiles {
		if pr.ID.String() == saved { // only the customer's own profiles are named
			data.Flash = "Saved the request form of " + saved + "."
		}
		access := "password"
		if pr.Guest {
			access = "guest access"
			if pr.PasswordHash != "" {
				access = "guest access or password"
			}
		}
		data.Profiles = append(data.Profiles, resolverProfile{ID: pr.ID.String(), Address: base + OpenURLPath(pr.ID),
			Scholar: base + "/scholar/" + pr.ID.String() + "/institutional_links.xml", Access: access, RequestURL: pr.RequestURL})
		if pr.ID.String() == data.TestProfile || (i == 0 && data.TestProfile == "") {
			test = pr
		}
	}
	if r.Method == http.MethodGet && strings.TrimSpace(data.Test) != "" {
		data.Tested = true
		if data.Answer, err = p.testResolve(r, s.CustomerID, test, data.Test); err != nil {
			if kb.ErrorCode(err) == kb.CodeInternal {
				return err
			}
			status, data.Error = web.InPlace(w, err)
		}
	}
	return render(w, status, "console_resolver_setup", data)
}

// testResolve resolves a pasted OpenURL (a whole address, or its query)
// for the console, quietly.
func (p *pages) testResolve(r *http.Request, custID string, prof kb.Profile, pasted string) (*testAnswer, error) {
	pasted = strings.TrimSpace(pasted)
	if i := strings.IndexByte(pasted, '?'); i >= 0 {
		pasted = pasted[i+1:]
	}
	values, err := url.ParseQuery(pasted)
	if err != nil {
		return nil, kb.Errorf(kb.CodeInvalid, "The OpenURL cannot be read: %v.", err)
	}
	c, err := kb.ParseCitation(values, p.resolver.Today())
	if err != nil {
		return nil, err
	}
	if !c.Matchable() {
		return nil, kb.Errorf(kb.CodeMissing, "The OpenURL has nothing to match on: it needs an ISSN, an ISBN or a title.")
	}
	res, err := p.resolver.Resolve(resolver.Quietly(r.Context()), custID, c)
	if err != nil {
		return nil, fmt.Errorf("test resolution for %s: %w", custID, err)
	}
	links, err := p.resolverLinks(r, custID)
	if err != nil {
		return nil, err
	}
	ans := links.answer(r, res)
	menu := p.menu(r, prof.ID, prof, links.labels, res, ans)
	out := &testAnswer{Citation: menu.Citation, Notes: c.Notes, MatchedBy: res.MatchedBy, FullText: res.FullText(), Request: menu.RequestHref}
	for i, x := range res.Results {
		t := testResult{Title: x.Title.Name, Package: x.Resource.PackageName, Coverage: coverageWords(x.Resource), Covered: x.Covered()}
		t.Verdict = "Gives the full text."
		if !x.Covered() {
			t.Verdict = x.Reason.Words()
		}
		for _, l := range ans.Results[i].Links {
			t.Links = append(t.Links, struct{ Level, Target string }{l.Level, l.Target})
		}
		out.Results = append(out.Results, t)
	}
	return out, nil
}
