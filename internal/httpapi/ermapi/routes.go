// Package ermapi serves the resource management service under
// /rm/rmaccounts/{custid}: administrative access details, assignments,
// contacts, external document references and licenses. None of its
// operations is served yet: each answers 501 Not Implemented (code 1012)
// after the same API-key check as the holdings service.
package ermapi

import "github.com/kbserver/kbserver/internal/httpapi/web"

// Routes returns every route of the resource management service. A route
// with no Handler in the table answers 501 until it is given one. Every
// route requires the x-api-key header of the customer in its path.
//
// The specification does not show the path that deletes an assignment;
// kbserver uses DELETE .../assignment/{id}, the path that creates one, so
// the wildcard names the object on POST and the assignment on DELETE. It
// names the license {licenseid} on GET and PUT alike.
func Routes(keys web.KeyLookup) []web.Route {
	routes := []web.Route{
		// Administrative access details.
		{Pattern: "POST /rm/rmaccounts/{custid}/adminaccess"},
		{Pattern: "GET /rm/rmaccounts/{custid}/adminaccess"},
		{Pattern: "GET /rm/rmaccounts/{custid}/adminaccess/{id}"},
		{Pattern: "PUT /rm/rmaccounts/{custid}/adminaccess/{id}"},
		{Pattern: "DELETE /rm/rmaccounts/{custid}/adminaccess/{id}"},

		// Assignments.
		{Pattern: "GET /rm/rmaccounts/{custid}/assignment"},
		{Pattern: "POST /rm/rmaccounts/{custid}/assignment/{id}"},
		{Pattern: "DELETE /rm/rmaccounts/{custid}/assignment/{id}"},

		// Contacts.
		{Pattern: "POST /rm/rmaccounts/{custid}/contact"},
		{Pattern: "GET /rm/rmaccounts/{custid}/contact"},
		{Pattern: "GET /rm/rmaccounts/{custid}/contact/{id}"},
		{Pattern: "PUT /rm/rmaccounts/{custid}/contact/{id}"},
		{Pattern: "DELETE /rm/rmaccounts/{custid}/contact/{id}"},

		// External document references.
		{Pattern: "POST /rm/rmaccounts/{custid}/externaldocument"},
		{Pattern: "PUT /rm/rmaccounts/{custid}/externaldocument/{id}"},
		{Pattern: "DELETE /rm/rmaccounts/{custid}/externaldocument/{id}"},

		// Licenses.
		{Pattern: "POST /rm/rmaccounts/{custid}/license"},
		{Pattern: "GET /rm/rmaccounts/{custid}/license"},
		{Pattern: "GET /rm/rmaccounts/{custid}/license/assignment"},
		{Pattern: "GET /rm/rmaccounts/{custid}/license/{licenseid}"},
		{Pattern: "PUT /rm/rmaccounts/{custid}/license/{licenseid}"},
	}
	web.FillNotImplemented(routes)
	auth := web.RequireCustomerKey(keys)
	for i := range routes {
		routes[i].Handler = auth(routes[i].Handler)
	}
	return routes
}
