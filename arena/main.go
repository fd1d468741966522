// Command arena is the Klaverjas bot arena: it referees games between bots, enforcing the
// rules of the ruleset it is given.
package main

import "os"

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}
