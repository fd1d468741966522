package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/urfave/cli/v2"
)

// version is the arena's release, set when it is built:
// go build -ldflags "-X main.version=v1.2.0" (make build sets it from git describe).
var version = ""

func init() {
	// -v is --verbose; --version has no short name.
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Usage: "print the version, the protocol version and how the arena was built"}
	cli.VersionPrinter = func(c *cli.Context) { printVersion(c.App.Writer) }
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the version, the protocol version and how the arena was built",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError{"arena version takes no arguments"}
			}
			printVersion(c.App.Writer)
			return nil
		},
	}
}

// versionLine is the arena's version in one word: the release, the module version, or
// "devel".
func versionLine() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// printVersion writes the version, the protocol version bots must speak, and the build:
// Go version, platform and, when the build recorded it, the commit.
func printVersion(w io.Writer) {
	fmt.Fprintf(w, "arena %s\n", versionLine())
	fmt.Fprintf(w, "protocol version %d (spec.md)\n", protocol.Version)
	build := fmt.Sprintf("%s %s/%s", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, modified string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = ", modified"
				}
			}
		}
		if rev != "" {
			build += fmt.Sprintf(", commit %.12s%s", rev, modified)
		}
	}
	fmt.Fprintf(w, "built with %s\n", build)
}
