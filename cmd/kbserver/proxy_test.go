package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/kb"
)

func TestProxyCommands(t *testing.T) {
	db := tempDB(t)
	kbs(t, "customer", "add", "lib1", "--db", db).mustSucceed(t, "customer add")
	const mask = "https://proxy.lib1.example/login?url={targetURL}"
	r := kbs(t, "proxy", "add", "lib1", "EZProxy", "--url-mask", mask, "--db", db).mustSucceed(t, "proxy add")
	if !strings.Contains(r.stdout, `Proxy "EZProxy" (EZProxy) of customer "lib1" saved`) {
		t.Errorf("proxy add printed %q", r.stdout)
	}
	kbs(t, "--db", db, "proxy", "add", "--name", "Campus proxy", "lib1", "campus", "--url-mask", "https://campus.example/{targetURL}").mustSucceed(t, "proxy add --name")
	// Adding an existing id changes it.
	kbs(t, "proxy", "add", "lib1", "campus", "--name", "Campus", "--url-mask", "https://c.example/{targetURL}", "--db", db).mustSucceed(t, "proxy add again")

	st := openDB(t, db)
	proxies := func() []kb.Proxy {
		t.Helper()
		ps, err := st.Proxies(t.Context(), "lib1")
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	want := []kb.Proxy{
		{ID: kb.NoProxyID, Name: "None"},
		{ID: "EZProxy", Name: "EZProxy", URLMask: mask},
		{ID: "campus", Name: "Campus", URLMask: "https://c.example/{targetURL}"},
	}
	if diff := cmp.Diff(want, proxies()); diff != "" {
		t.Errorf("proxies (-want +got):\n%s", diff)
	}

	// A removed proxy falls back to no proxy where it was named.
	if err := st.UpdateRoot(t.Context(), "lib1", kb.RootSettings{ProxyID: "campus"}); err != nil {
		t.Fatal(err)
	}
	r = kbs(t, "proxy", "remove", "lib1", "campus", "--db", db).mustSucceed(t, "proxy remove")
	if !strings.Contains(r.stdout, `Proxy "campus" of customer "lib1" removed`) {
		t.Errorf("proxy remove printed %q", r.stdout)
	}
	if diff := cmp.Diff(want[:2], proxies()); diff != "" {
		t.Errorf("proxies after remove (-want +got):\n%s", diff)
	}
	if root, err := st.Root(t.Context(), "lib1"); err != nil || root.ProxyID != kb.NoProxyID {
		t.Errorf("root proxy after remove: %q, %v; want %s", root.ProxyID, err, kb.NoProxyID)
	}

	if r := kbs(t, "proxy", "remove", "lib1", "campus", "--db", db); r.code != 1 || !strings.Contains(r.stderr, `customer "lib1" has no proxy "campus"`) {
		t.Errorf("second remove: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := kbs(t, "proxy", "add", "nobody", "X", "--url-mask", mask, "--db", db); r.code != 1 || !strings.Contains(r.stderr, `customer "nobody" does not exist`) {
		t.Errorf("proxy of an unknown customer: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestProxyUsageErrors(t *testing.T) {
	db := tempDB(t)
	const mask = "https://p.example/{targetURL}"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"proxy", "list"}, `unknown subcommand "list" of proxy: use add, remove`},
		{[]string{"proxy", "add", "--url-mask", mask}, "CUSTID and ID are missing"},
		{[]string{"proxy", "add", "lib1", "--url-mask", mask}, "ID is missing"},
		{[]string{"proxy", "add", "lib1", " ", "--url-mask", mask}, "ID is empty"},
		{[]string{"proxy", "add", "lib1", "<n>", "--url-mask", mask}, `ID <n> is the built-in "no proxy" entry`},
		{[]string{"proxy", "add", "lib1", "P", "extra", "--url-mask", mask}, `unexpected argument "extra"`},
		{[]string{"proxy", "add", "lib1", "P"}, "--url-mask is required"},
		{[]string{"proxy", "add", "lib1", "P", "--url-mask", "https://p.example/?u={url}"}, "has no {targetURL}"},
		{[]string{"proxy", "remove", "lib1"}, "ID is missing"},
		{[]string{"proxy", "remove", "lib1", "<n>"}, `ID <n> is the built-in "no proxy" entry`},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := kbs(t, append(c.args, "--db", db)...)
			if r.code != 2 || !strings.Contains(r.stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", r.code, r.stderr, c.want)
			}
		})
	}
}
