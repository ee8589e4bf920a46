package pages_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// TestConsoleManage: the settings, the holdings snapshot and custom
// packages and titles, each written through the holdings service's store
// method and seen where the API would show it.
func TestConsoleManage(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	cookie, csrf := f.signIn(t, "lib-key")
	form := func(kv ...string) url.Values { return formOf(csrf, kv...) }

	t.Run("settings", func(t *testing.T) {
		if status, body := f.postAs(t, cookie, "/console/settings", form("proxy", "", "label1", strings.Repeat("x", 101))); status != 400 || !strings.Contains(body, "Label 1") {
			t.Errorf("a label too long: status %d, want 400 naming it", status)
		}
		if status, _ := f.postAs(t, cookie, "/console/settings", form("proxy", "", "label1", "Local note", "finder1", "on")); status != http.StatusSeeOther {
			t.Fatalf("save settings: status %d", status)
		}
		root, err := f.store.Root(ctx, "lib")
		if err != nil || root.Labels[0] != (kb.Label{ID: 1, DisplayLabel: "Local note", DisplayOnPublicationFinder: true}) || root.ProxyID != kb.NoProxyID {
			t.Errorf("root after the form: %+v, %v", root, err)
		}
		// The label shows a title's field on the A–Z page.
		l, err := f.store.Titles(ctx, "lib", kb.TitleQuery{Search: "Atlas of Anatomy", Type: kb.SearchExactMatch, Page: kb.Page{Count: 1, Number: 1}})
		if err != nil || len(l.Titles) != 1 {
			t.Fatal(err)
		}
		res := fmt.Sprintf("/console/resources/%d/%d/%d", f.vendor, f.pkgs["Health Books"], l.Titles[0].ID)
		if status, _ := f.postAs(t, cookie, res, form("selected", "on", "udf1", "Shelved in room 3")); status != http.StatusSeeOther {
			t.Fatalf("set a user-defined field: status %d", status)
		}
		if _, _, body := f.get(t, "/az/lib.main.az/?search=atlas"); !strings.Contains(body, "Local note: Shelved in room 3") {
			t.Error("the A–Z page does not show the labelled field")
		}
	})

	t.Run("snapshot", func(t *testing.T) {
		if status, _ := f.postAs(t, cookie, "/console/snapshot", form()); status != http.StatusSeeOther {
			t.Fatalf("build: status %d", status)
		}
		if st, err := f.store.WaitSnapshot(ctx, "lib"); err != nil || st.Status != kb.SnapshotCompleted {
			t.Fatalf("snapshot: %+v, %v", st, err)
		}
		if _, _, body := f.get(t, "/console/snapshot", "Cookie", cookie); !strings.Contains(body, "Completed") || !strings.Contains(body, "/console/snapshot/kbart") {
			t.Error("the snapshot page does not offer the completed snapshot")
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.srv.URL+"/console/snapshot/kbart", nil)
		req.Header.Set("Cookie", cookie)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		rd, err := kbart.NewReader(resp.Body)
		if err != nil {
			t.Fatalf("the download is not KBART: %v", err)
		}
		rows := 0
		for {
			if _, err := rd.Next(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			rows++
		}
		if cd := resp.Header.Get("Content-Disposition"); rows != 47 || !strings.Contains(cd, "attachment") {
			t.Errorf("download: %d rows (want the 47 holdings), Content-Disposition %q", rows, cd)
		}
	})

	t.Run("custom package and title", func(t *testing.T) {
		status, h := f.postFollow(t, cookie, "/console/packages/new", form("name", "Local Archive", "contenttype", "4"))
		if status != http.StatusSeeOther {
			t.Fatalf("create the package: status %d", status)
		}
		pkgPath, _, _ := strings.Cut(h, "?")
		if status, body := f.postAs(t, cookie, "/console/packages/new", form("name", "Local Archive", "contenttype", "4")); status != 400 || !strings.Contains(body, "already exists") {
			t.Errorf("the same name again: status %d, want 400 (as the API) saying it exists", status)
		}
		status, h = f.postFollow(t, cookie, pkgPath+"/titles", form("titlename", "Town Gazette", "pubtype", "newspaper", "url", f.site.URL+"/title/gazette"))
		if status != http.StatusSeeOther {
			t.Fatalf("add a title: status %d", status)
		}
		titlePath, _, _ := strings.Cut(h, "?")
		if _, _, body := f.get(t, "/az/lib.main.az/?search=gazette"); !strings.Contains(body, "Town Gazette") || !strings.Contains(body, "Local Archive") {
			t.Error("the custom title is not on the A–Z page")
		}
		if status, _ := f.postAs(t, cookie, titlePath, form("selected", "on", "titlename", "Town Gazette and Herald", "pubtype", "newspaper")); status != http.StatusSeeOther {
			t.Fatalf("rename the title: status %d", status)
		}
		if l, err := f.store.Titles(ctx, "lib", kb.TitleQuery{Search: "Herald", Type: kb.SearchContains, Page: kb.Page{Count: 5, Number: 1}}); err != nil || l.Total != 1 {
			t.Errorf("the renamed title: %+v, %v", l, err)
		}
		if status, _ := f.postAs(t, cookie, titlePath, form()); status != http.StatusSeeOther {
			t.Fatalf("delete the title: status %d", status)
		}
		if status, _, _ := f.get(t, titlePath, "Cookie", cookie); status != 404 {
			t.Errorf("the deleted title's page: status %d, want 404", status)
		}
		if status, _ := f.postAs(t, cookie, pkgPath, form("name", "Local Archive")); status != http.StatusSeeOther {
			t.Fatalf("delete the package: status %d", status)
		}
		m := regexp.MustCompile(`/packages/(\d+)/(\d+)`).FindStringSubmatch(pkgPath)
		var vendorID, packageID int64
		fmt.Sscan(m[1], &vendorID)
		fmt.Sscan(m[2], &packageID)
		if _, err := f.store.Package(ctx, "lib", vendorID, packageID); kb.ErrorCode(err) != kb.CodeNotFound {
			t.Errorf("the deleted package: %v, want CodeNotFound", err)
		}
	})
}
