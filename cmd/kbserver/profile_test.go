package main

import (
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

func TestProfileAdd(t *testing.T) {
	db := tempDB(t)
	kbs(t, "customer", "add", "lib1", "--db", db).mustSucceed(t, "customer add")
	r := kbs(t, "profile", "add", "lib1.main.az", "--password", "s3cret", "--db", db).mustSucceed(t, "profile add")
	if !strings.Contains(r.stdout, "Profile lib1.main.az saved (password only)") {
		t.Errorf("profile add printed %q", r.stdout)
	}
	r = runCLI(t, invocation{args: []string{"profile", "add", "--db", db, "--guest", "--password", "-", "lib1.main.guest"}, stdin: "from-stdin\n"}).
		mustSucceed(t, "profile add --password -")
	if !strings.Contains(r.stdout, "password, or guest access") {
		t.Errorf("profile add printed %q", r.stdout)
	}
	st := openDB(t, db)
	for _, tc := range []struct {
		id, password string
		guest        bool
	}{{"az", "s3cret", false}, {"guest", "from-stdin", true}} {
		p, err := st.LookupProfile(t.Context(), kb.ProfileID{CustomerID: "lib1", GroupID: "main", ProfileID: tc.id})
		if err != nil {
			t.Fatal(err)
		}
		if p.Guest != tc.guest || !kb.CheckPassword(p.PasswordHash, tc.password) || strings.Contains(p.PasswordHash, tc.password) {
			t.Errorf("profile %s = %+v; want guest %v and a hash of %q", tc.id, p, tc.guest, tc.password)
		}
	}

	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"profile", "add", "lib1.main"}, 2, "custid.groupid.profileid"},
		{[]string{"profile", "add", "lib1.main.x"}, 2, "give --password, --guest or both"},
		{[]string{"profile", "add"}, 2, "CUSTID.GROUPID.PROFILEID is missing"},
		{[]string{"profile", "add", "nobody.main.x", "--guest"}, 1, `customer "nobody" does not exist`},
	} {
		r := kbs(t, append(tc.args, "--db", db)...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, r.code, r.stderr, tc.code, tc.msg)
		}
	}
}
