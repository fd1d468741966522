//go:build linux

package botproc_test

import (
	"context"
	"fmt"
	"time"

	"github.com/klaverjas-arena/arena/referee/botproc"
	"github.com/rs/zerolog"
)

// A bot is a program speaking lines; here a shell loop that answers each request, thinking
// aloud with an info line first, and silently takes in the other lines.
func Example() {
	p, err := botproc.Start(context.Background(), botproc.Spec{
		Name: "echo",
		Argv: []string{"/bin/sh", "-c", `while read -r cmd arg; do
			if [ "$cmd" = req ]; then echo "info thinking about $arg"; echo "ans $arg"; fi
		done`},
	}, zerolog.Nop())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Stop(time.Second)

	r, err := p.Exchange([]byte("event played JH\nreq play\n"), true, 5*time.Second)
	if err != nil {
		fmt.Println(err) // a *botproc.Fault: Timeout, Crash, Garbage, Flood, ...
		return
	}
	fmt.Printf("%q %q\n", r.Infos, r.Line)
	// Output: ["info thinking about play"] "ans play"
}
