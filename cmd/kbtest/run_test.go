package main

import (
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"start","Package":"x/a"}`,
		`{"Action":"run","Package":"x/a","Test":"TestOK"}`,
		`{"Action":"output","Package":"x/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}`,
		`{"Action":"pass","Package":"x/a","Test":"TestOK"}`,
		`{"Action":"run","Package":"x/a","Test":"TestPG"}`,
		`{"Action":"output","Package":"x/a","Test":"TestPG","Output":"--- SKIP: TestPG (0.00s)\n"}`,
		`{"Action":"output","Package":"x/a","Test":"TestPG","Output":"    db_test.go:12: no PostgreSQL: set KBSERVER_TEST_POSTGRES\n"}`,
		`{"Action":"skip","Package":"x/a","Test":"TestPG"}`,
		`{"Action":"run","Package":"x/a","Test":"TestPG/sub"}`,
		`{"Action":"skip","Package":"x/a","Test":"TestPG/sub"}`,
		`{"Action":"output","Package":"x/a","Output":"PASS\n"}`,
		`{"Action":"output","Package":"x/a","Output":"ok  \tx/a\t0.01s\n"}`,
		`{"Action":"pass","Package":"x/a"}`,
		`{"Action":"run","Package":"x/b","Test":"TestBad"}`,
		`{"Action":"output","Package":"x/b","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}`,
		`{"Action":"output","Package":"x/b","Test":"TestBad","Output":"    b_test.go:3: got 1, want 2\n"}`,
		`{"Action":"fail","Package":"x/b","Test":"TestBad"}`,
		`{"Action":"output","Package":"x/b","Output":"FAIL\n"}`,
		`{"Action":"output","Package":"x/b","Output":"FAIL\tx/b\t0.01s\n"}`,
		`{"Action":"fail","Package":"x/b"}`,
		`{"Action":"output","Package":"x/e","Output":"?   \tx/e\t[no test files]\n"}`,
		`{"Action":"skip","Package":"x/e"}`,
		`{"ImportPath":"x/c","Action":"build-output","Output":"c.go:1:1: expected package\n"}`,
		`{"Action":"run","Package":"x/d","Test":"TestChrome"}`,
		`{"Action":"output","Package":"x/d","Test":"TestChrome","Output":"=== RUN   TestChrome\n"}`,
		`{"Action":"output","Package":"x/d","Test":"TestChrome","Output":"    b_test.go:9: no PostgreSQL: set KBSERVER_TEST_POSTGRES\n"}`,
		`{"Action":"output","Package":"x/d","Test":"TestChrome","Output":"--- SKIP: TestChrome (0.00s)\n"}`,
		`{"Action":"skip","Package":"x/d","Test":"TestChrome"}`,
		`not json`,
	}, "\n")
	var out strings.Builder
	if err := report(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	want := "ok  \tx/a\t0.01s\n" +
		"--- FAIL: TestBad (0.00s)\n    b_test.go:3: got 1, want 2\n" +
		"FAIL\nFAIL\tx/b\t0.01s\n" +
		"?   \tx/e\t[no test files]\n" +
		"c.go:1:1: expected package\n" +
		"not json\n" +
		"kbtest: 2 tests were skipped; this run did not test them:\n" +
		"  no PostgreSQL: set KBSERVER_TEST_POSTGRES\n" +
		"      x/a TestPG\n" +
		"      x/d TestChrome\n"
	if out.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", out.String(), want)
	}
	out.Reset()
	if err := report(strings.NewReader(`{"Action":"pass","Package":"x/a"}`), &out); err != nil || out.String() != "kbtest: no test was skipped.\n" {
		t.Errorf("no skips: %q, %v", out.String(), err)
	}
}
