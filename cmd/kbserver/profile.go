package main

import (
	"bufio"
	"flag"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

func profileAddCommand() *command {
	return &command{
		name:    "profile add",
		args:    "CUSTID.GROUPID.PROFILEID",
		summary: "add or change a publication search profile",
		usesDB:  true,
		about: `Profile add creates a publication search profile of a customer, the
{profile} of /pf/pfaccount/{profile}/…, or changes the password and guest
access of an existing one. A request with the profile's password in the
header password is admitted; one without a password only when the profile
has guest access. The password is stored as a slow salted hash
(PBKDF2-SHA256), never in clear. Give --password - to read it from the
first line of standard input instead of the command line (which shell
history and process lists can show).

The profile is also the link resolver's: /openurl/{profile} resolves
citations over the customer's collection. --request-url sets the
library's interlibrary-loan request form, which the resolver offers (with
the citation appended as OpenURL keys) when nothing held gives the full
text; --request-url '' removes it, and leaving it out keeps it.`,
		example: "kbserver profile add mylib.main.az --guest\n" +
			"kbserver profile add mylib.staff.az --password 'correct horse'\n" +
			"printf '%s\\n' \"$PF_PASSWORD\" | kbserver profile add mylib.main.az --password - --guest\n" +
			"kbserver profile add mylib.main.az --guest --request-url 'https://library.example.edu/ill/request'",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			var password string
			var guest bool
			fs.StringVar(&password, "password", "", "the profile's `password` (- reads it from standard input)")
			fs.BoolVar(&guest, "guest", false, "admit requests without a password")
			var requestURL optionalString
			fs.Var(&requestURL, "request-url", "the interlibrary-loan request form the link resolver offers (`URL`; '' for none)")
			return func(args []string) error {
				switch {
				case len(args) == 0:
					return usageErrorf("profile add", "CUSTID.GROUPID.PROFILEID is missing: name the profile")
				case len(args) > 1:
					return usageErrorf("profile add", "unexpected argument %q: give one profile (flags go before it)", args[1])
				}
				id, err := kb.ParseProfileID(args[0])
				if err != nil {
					return usageErrorf("profile add", "%s", kb.ErrorMessage(err))
				}
				if password == "-" {
					line, err := bufio.NewReader(c.stdin).ReadString('\n')
					if err != nil && line == "" {
						return fmt.Errorf("profile add: read the password from standard input: %w", err)
					}
					password = strings.TrimRight(line, "\r\n")
				}
				if password == "" && !guest {
					return usageErrorf("profile add", "give --password, --guest or both: a profile without either admits nobody")
				}
				if requestURL.set {
					if err := kb.CheckRequestURL(requestURL.value); err != nil {
						return usageErrorf("profile add", "--request-url: %s", kb.ErrorMessage(err))
					}
				}
				return c.profileAdd(id, password, guest, requestURL)
			}
		},
	}
}

// optionalString is a string flag that knows whether it was given.
type optionalString struct {
	value string
	set   bool
}

func (o *optionalString) String() string { return o.value }

func (o *optionalString) Set(s string) error {
	o.value, o.set = s, true
	return nil
}

func (c *cli) profileAdd(id kb.ProfileID, password string, guest bool, requestURL optionalString) error {
	p := kb.Profile{ID: id, Guest: guest}
	if password != "" {
		h, err := kb.HashPassword(password)
		if err != nil {
			return err
		}
		p.PasswordHash = h
	}
	st, err := c.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.SaveProfile(c.ctx, p); err != nil {
		if kb.ErrorCode(err) == kb.CodeNotFound {
			return fmt.Errorf("customer %q does not exist: create it first with 'kbserver customer add %s'", id.CustomerID, id.CustomerID)
		}
		return err
	}
	if requestURL.set {
		if err := st.SetProfileRequestURL(c.ctx, id, requestURL.value); err != nil {
			return err
		}
	}
	access := "password only"
	switch {
	case guest && password != "":
		access = "password, or guest access without one"
	case guest:
		access = "guest access, no password"
	}
	fmt.Fprintf(c.stdout, "Profile %s saved (%s).\n", id, access)
	if requestURL.set && requestURL.value != "" {
		fmt.Fprintf(c.stdout, "Its link resolver offers the request form %s.\n", requestURL.value)
	}
	return nil
}
