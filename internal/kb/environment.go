package kb

// Environment is the environment a server runs as and an API key belongs
// to. As on the hosted service, sandbox and production are separate: a
// key of one environment is refused by a server of the other.
type Environment string

// The environments.
const (
	Sandbox    Environment = "sandbox"
	Production Environment = "production"
)

// Environments lists the environments, in the order messages name them.
var Environments = []Environment{Sandbox, Production}

// ParseEnvironment returns the environment named s ("sandbox" or
// "production"); CodeInvalid for anything else.
func ParseEnvironment(s string) (Environment, error) {
	switch e := Environment(s); e {
	case Sandbox, Production:
		return e, nil
	}
	return "", Errorf(CodeInvalid, "invalid environment %q: use sandbox or production", s)
}
