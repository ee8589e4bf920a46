package main

import (
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// TestAPIKeyEnvironment checks that apikey add binds the key to the
// environment --environment names, production by default, and says which.
func TestAPIKeyEnvironment(t *testing.T) {
	db := tempDB(t)
	kbs(t, "customer", "add", "lib1", "--db", db).mustSucceed(t, "customer add")
	cases := []struct {
		flags []string
		want  kb.Environment
	}{
		{nil, kb.Production},
		{[]string{"--environment", "sandbox"}, kb.Sandbox},
		{[]string{"--environment=production"}, kb.Production},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.flags, " "), func(t *testing.T) {
			args := append([]string{"apikey", "add", "lib1", "--db", db}, c.flags...)
			r := kbs(t, args...).mustSucceed(t, "apikey add")
			if want := "created for the " + string(c.want) + " environment"; !strings.Contains(r.stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
			}
			st := openDB(t, db)
			key, err := st.LookupAPIKey(t.Context(), kb.HashAPIKey(strings.TrimSpace(r.stdout)))
			if err != nil || key.CustomerID != "lib1" || key.Environment != c.want {
				t.Errorf("stored key = %+v, %v; want customer lib1, environment %s", key, err, c.want)
			}
		})
	}
}

// TestAPIKeyEnvironmentUsage checks that an environment that is not one
// is a usage error naming the allowed values, and adds no key.
func TestAPIKeyEnvironmentUsage(t *testing.T) {
	db := tempDB(t)
	kbs(t, "customer", "add", "lib1", "--db", db).mustSucceed(t, "customer add")
	for _, bad := range []string{"staging", "", "Sandbox"} {
		t.Run(bad, func(t *testing.T) {
			r := kbs(t, "apikey", "add", "lib1", "--key", "a-key-of-my-own-0123", "--environment", bad, "--db", db)
			want := `--environment "` + bad + `" is not valid: use one of sandbox, production`
			if r.code != 2 || !strings.Contains(r.stderr, want) || r.stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", r.code, r.stdout, r.stderr, want)
			}
		})
	}
	st := openDB(t, db)
	if _, err := st.LookupAPIKey(t.Context(), kb.HashAPIKey("a-key-of-my-own-0123")); kb.ErrorCode(err) != kb.CodeUnauthenticated {
		t.Errorf("a refused apikey add stored its key: %v", err)
	}
}
