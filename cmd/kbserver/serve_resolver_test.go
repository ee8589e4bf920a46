package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/httpapi/apitest"
)

// TestServeResolverStatistics: serve records what its link resolver saw
// and writes the last counts when it stops, so that a server started
// again over the store reports every request.
func TestServeResolverStatistics(t *testing.T) {
	db := tempDB(t)
	args := []string{"serve", "--demo", "--demo-titles", "2000", "--addr", "127.0.0.1:0", "--db", db}
	s := startServe(t, args...)
	key, curl := s.waitCurl(t)
	base := strings.SplitN(curl, "/rm/", 2)[0]
	res, body := apitest.Do(t, http.DefaultClient, "GET", base+"/pf/pfaccount/demo.main.az/publications?count=1&orderby=titlename", nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("publications: %d %s", res.StatusCode, body)
	}
	var pubs struct {
		SearchResult struct {
			Data struct {
				Records []struct {
					TitleName string `json:"titleName"`
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(body), &pubs); err != nil || len(pubs.SearchResult.Data.Records) == 0 {
		t.Fatalf("no title in the demo's collection: %v %s", err, body)
	}
	for _, q := range []string{"title=" + url.QueryEscape(pubs.SearchResult.Data.Records[0].TitleName) + "&sid=test", "issn=1234-5679&title=Nothing+Held&sid=test"} {
		res, body := apitest.Do(t, http.DefaultClient, "GET", base+"/openurl/demo.main.az?"+q, nil, "Accept", "application/json")
		if res.StatusCode != http.StatusOK {
			t.Fatalf("openurl %s: %d %s", q, res.StatusCode, body)
		}
	}
	if err := s.stop(t); err != nil {
		t.Fatalf("serve: %v", err)
	}
	s = startServe(t, "serve", "--addr", "127.0.0.1:0", "--db", db, "--environment", "sandbox")
	base = "http://" + s.listeningAddr(t)
	res, body = apitest.Do(t, http.DefaultClient, "GET", base+"/rm/rmaccounts/demo/resolver/statistics?by=source", nil, "x-api-key", key)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("statistics: %d %s", res.StatusCode, body)
	}
	var stats struct {
		Totals struct {
			Requests, FullText, NotFound int64
		} `json:"totals"`
	}
	if err := json.Unmarshal([]byte(body), &stats); err != nil {
		t.Fatal(err)
	}
	if stats.Totals.Requests != 2 || stats.Totals.NotFound != 1 {
		t.Errorf("statistics after a restart: %s; want 2 requests, 1 without full text", body)
	}
}
