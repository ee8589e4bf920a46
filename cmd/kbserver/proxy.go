package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// targetURL is the placeholder a proxy URL mask holds for the address of
// the resource.
const targetURL = "{targetURL}"

func proxyAddCommand() *command {
	return &command{
		name:    "proxy add",
		args:    "CUSTID ID",
		summary: "add or change a customer proxy",
		usesDB:  true,
		about: `Proxy add defines a proxy of a customer: an ID that the customer's root,
vendor, package and title settings can name, and the URL mask that turns a
resource's address into the proxied one, with ` + targetURL + ` where the address
goes. Adding an ID that exists changes its name and mask. GET
/rm/rmaccounts/CUSTID/proxies lists the proxies, after the built-in "no
proxy" entry <n>.`,
		example: "kbserver proxy add mylib EZProxy --url-mask 'https://proxy.mylib.example/login?url={targetURL}'\n" +
			"kbserver proxy add mylib campus --name \"Campus proxy\" --url-mask 'https://campus.example/{targetURL}'",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			var name, mask string
			fs.StringVar(&name, "name", "", "display `name` of the proxy (default: ID)")
			fs.StringVar(&mask, "url-mask", "", "the proxy `address`, with "+targetURL+" where the resource's address goes (required)")
			return func(args []string) error {
				custID, id, err := proxyArgs("proxy add", args)
				if err != nil {
					return err
				}
				switch {
				case mask == "":
					return usageErrorf("proxy add", "--url-mask is required: give the proxy address with %s in it", targetURL)
				case !strings.Contains(mask, targetURL):
					return usageErrorf("proxy add", "--url-mask %q has no %s: put it where the resource's address goes", mask, targetURL)
				}
				if name == "" {
					name = id
				}
				return c.proxyAdd(custID, kb.Proxy{ID: id, Name: name, URLMask: mask})
			}
		},
	}
}

func proxyRemoveCommand() *command {
	return &command{
		name:    "proxy remove",
		args:    "CUSTID ID",
		summary: "remove a customer proxy",
		usesDB:  true,
		about: `Proxy remove deletes a proxy of a customer. The root, vendor, package and
title settings that named it fall back to no proxy (<n>).`,
		example: "kbserver proxy remove mylib EZProxy",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			return func(args []string) error {
				custID, id, err := proxyArgs("proxy remove", args)
				if err != nil {
					return err
				}
				return c.proxyRemove(custID, id)
			}
		},
	}
}

// proxyArgs reads the CUSTID and ID arguments of the proxy commands.
func proxyArgs(cmd string, args []string) (custID, id string, err error) {
	switch {
	case len(args) == 0:
		return "", "", usageErrorf(cmd, "CUSTID and ID are missing: name the customer and the proxy")
	case len(args) == 1:
		return "", "", usageErrorf(cmd, "ID is missing: name the proxy after the customer")
	case len(args) > 2:
		return "", "", usageErrorf(cmd, "unexpected argument %q: give CUSTID and ID (quote a --name with spaces)", args[2])
	}
	id = strings.TrimSpace(args[1])
	switch {
	case id == "":
		return "", "", usageErrorf(cmd, "ID is empty: name the proxy")
	case id == kb.NoProxyID:
		return "", "", usageErrorf(cmd, "ID %s is the built-in \"no proxy\" entry: choose another ID", kb.NoProxyID)
	}
	return args[0], id, nil
}

func (c *cli) proxyAdd(custID string, p kb.Proxy) error {
	st, err := c.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.AddProxy(c.ctx, custID, p); err != nil {
		if kb.ErrorCode(err) == kb.CodeNotFound {
			return fmt.Errorf("customer %q does not exist: create it first with 'kbserver customer add %s'", custID, custID)
		}
		return err
	}
	fmt.Fprintf(c.stdout, "Proxy %q (%s) of customer %q saved: %s\n", p.ID, p.Name, custID, p.URLMask)
	return nil
}

func (c *cli) proxyRemove(custID, id string) error {
	st, err := c.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.RemoveProxy(c.ctx, custID, id); err != nil {
		if kb.ErrorCode(err) == kb.CodeNotFound {
			return fmt.Errorf("customer %q has no proxy %q", custID, id)
		}
		return err
	}
	fmt.Fprintf(c.stdout, "Proxy %q of customer %q removed; settings that named it now use no proxy.\n", id, custID)
	return nil
}
