package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"strings"
	"unicode"

	"github.com/kbserver/kbserver/internal/kb"
)

// minKeyLength is the shortest API key apikey add accepts with --key.
const minKeyLength = 16

func apikeyAddCommand() *command {
	return &command{
		name:    "apikey add",
		args:    "CUSTID",
		summary: "create an API key for a customer",
		usesDB:  true,
		about: `Apikey add creates an API key for a customer and prints it on stdout. Only
a hash of the key is stored: the key cannot be shown again, so keep it now.
Without --key, a random key is generated (recommended). Clients send the
key in the x-api-key header.

A key belongs to one environment, sandbox or production (the default). A
server admits only the keys of its own environment (serve --environment:
production by default, sandbox with --demo) and answers a key of the
other with 401 naming the key's environment.`,
		example: "kbserver apikey add mylib\nKEY=$(kbserver apikey add mylib)\nkbserver apikey add mylib --environment sandbox\nkbserver apikey add mylib --key \"$(openssl rand -base64 32)\"",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			var key, env string
			fs.StringVar(&key, "key", "", fmt.Sprintf("use this `key` instead of a random one (at least %d characters, no spaces)", minKeyLength))
			fs.StringVar(&env, "environment", string(kb.Production), "the `environment` the key is for: "+environmentNames())
			return func(args []string) error {
				switch {
				case len(args) == 0:
					return usageErrorf("apikey add", "CUSTID is missing: name the customer the key is for")
				case len(args) > 1:
					return usageErrorf("apikey add", "unexpected argument %q", args[1])
				}
				if key != "" {
					if err := checkKey(key); err != nil {
						return usageErrorf("apikey add", "--key: %v", err)
					}
				}
				e, err := kb.ParseEnvironment(env)
				if err != nil {
					return usageErrorf("apikey add", "--environment %q is not valid: use one of %s", env, environmentNames())
				}
				return c.apikeyAdd(args[0], key, e)
			}
		},
	}
}

func apikeyRevokeCommand() *command {
	return &command{
		name:    "apikey revoke",
		args:    "KEY",
		summary: "revoke an API key",
		usesDB:  true,
		about: `Apikey revoke deletes an API key: requests that send it are refused from
then on. KEY "-" reads the key from the first line of standard input, which
keeps it out of the shell history.`,
		example: "kbserver apikey revoke 'Zm9vYmFy...'\necho \"$KEY\" | kbserver apikey revoke -",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			return func(args []string) error {
				switch {
				case len(args) == 0:
					return usageErrorf("apikey revoke", "KEY is missing: give the key to revoke (or - to read it from stdin)")
				case len(args) > 1:
					return usageErrorf("apikey revoke", "unexpected argument %q", args[1])
				}
				return c.apikeyRevoke(args[0])
			}
		},
	}
}

// environmentNames lists the environments for messages: "sandbox, production".
func environmentNames() string {
	names := make([]string, len(kb.Environments))
	for i, e := range kb.Environments {
		names[i] = string(e)
	}
	return strings.Join(names, ", ")
}

// checkKey checks a key given with --key.
func checkKey(key string) error {
	if len(key) < minKeyLength {
		return fmt.Errorf("the key is too short: use at least %d characters", minKeyLength)
	}
	if strings.IndexFunc(key, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return errors.New("the key may not contain spaces or control characters")
	}
	return nil
}

func (c *cli) apikeyAdd(custID, key string, env kb.Environment) error {
	st, err := c.openCustomerStore(custID)
	if err != nil {
		return err
	}
	defer st.Close()
	if key == "" {
		key = kb.NewAPIKey()
	}
	if err := st.AddAPIKey(c.ctx, custID, kb.HashAPIKey(key), env); err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, key)
	fmt.Fprintf(c.stderr, "API key for customer %q created for the %s environment: only servers running as %s admit it.\n", custID, env, env)
	fmt.Fprintln(c.stderr, "Keep it now: only its hash is stored, so it cannot be shown again.")
	return nil
}

func (c *cli) apikeyRevoke(key string) error {
	if key == "-" {
		line, err := bufio.NewReader(c.stdin).ReadString('\n')
		if err != nil && line == "" {
			return errors.New("no key on standard input")
		}
		key = strings.TrimSpace(line)
	}
	st, err := c.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.RevokeAPIKey(c.ctx, kb.HashAPIKey(key)); err != nil {
		if kb.ErrorCode(err) == kb.CodeNotFound {
			return errors.New("no such API key (it may have been revoked already)")
		}
		return err
	}
	fmt.Fprintln(c.stdout, "API key revoked.")
	return nil
}
