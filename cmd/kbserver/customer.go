package main

import (
	"flag"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

func customerAddCommand() *command {
	return &command{
		name:    "customer add",
		args:    "CUSTID",
		summary: "create a customer (a library account)",
		usesDB:  true,
		about: `Customer add creates a customer: the account a library uses in the API paths
(/rm/rmaccounts/CUSTID/...), with its own vendor for its custom packages.
CUSTID may not contain spaces, '/', '?', '#' or '.'. Create an API key for
the customer with 'kbserver apikey add CUSTID'.`,
		example: "kbserver customer add mylib --name \"My Library\"\nkbserver --db kb.db customer add branch-2",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			var name string
			fs.StringVar(&name, "name", "", "display `name` of the customer (default: CUSTID)")
			return func(args []string) error {
				switch {
				case len(args) == 0:
					return usageErrorf("customer add", "CUSTID is missing: name the customer to create")
				case len(args) > 1:
					return usageErrorf("customer add", "unexpected argument %q: give one CUSTID (quote a --name with spaces)", args[1])
				}
				return c.customerAdd(args[0], name)
			}
		},
	}
}

func (c *cli) customerAdd(id, name string) error {
	st, err := c.createStore()
	if err != nil {
		return err
	}
	defer st.Close()
	cust, err := st.AddCustomer(c.ctx, id, name)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "Customer %q (%s) added; its own vendor has id %d.\n", cust.ID, cust.Name, cust.VendorID)
	fmt.Fprintf(c.stdout, "Create an API key for it with: kbserver apikey add %s\n", cust.ID)
	return nil
}

// openCustomerStore opens the store and checks that the customer exists
// (requireCustomer); the caller closes the store.
func (c *cli) openCustomerStore(custID string) (kb.Store, error) {
	st, err := c.openStore()
	if err != nil {
		return nil, err
	}
	if err := c.requireCustomer(st, custID); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

// requireCustomer returns an error that says how to create the customer
// when st has no customer custID.
func (c *cli) requireCustomer(st kb.Store, custID string) error {
	if _, err := st.Customer(c.ctx, custID); err != nil {
		if kb.ErrorCode(err) == kb.CodeNotFound {
			return fmt.Errorf("customer %q does not exist: create it first with 'kbserver customer add %s'", custID, custID)
		}
		return err
	}
	return nil
}
