package referee

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestFaultKindsDocumented keeps the fault kinds of fault.go and spec.md §7's table of them
// the same set, so that a new kind cannot be added on one side only. FaultDisabled is the
// one kind no bot is sent (the arena stops starting the bot): it is in the deal log only.
func TestFaultKindsDocumented(t *testing.T) {
	declared := faultKindConstants(t)
	if len(declared) < 9 {
		t.Fatalf("found %d fault kinds in fault.go: %v", len(declared), declared)
	}
	spec, err := os.ReadFile("../spec.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(spec), "A bot **faults** when it")
	if !ok {
		t.Fatal(`spec.md has no "A bot **faults** when it" table`)
	}
	table, _, _ = strings.Cut(strings.TrimLeft(table, "\n"), "\n\n")
	var documented []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|").FindAllStringSubmatch(table, -1) {
		documented = append(documented, m[1])
	}
	want := slices.DeleteFunc(slices.Clone(declared), func(k string) bool { return k == string(FaultDisabled) })
	slices.Sort(want)
	slices.Sort(documented)
	if !slices.Equal(want, documented) {
		t.Errorf("fault kinds in fault.go (less disabled) %v, in spec.md §7 %v", want, documented)
	}
}

// faultKindConstants returns the values of the FaultKind constants declared in fault.go.
func faultKindConstants(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "fault.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "FaultKind" {
				continue
			}
			for _, val := range v.Values {
				lit, ok := val.(*ast.BasicLit)
				if !ok {
					t.Fatalf("a FaultKind constant that is not a string literal: %T", val)
				}
				k, _ := strconv.Unquote(lit.Value)
				kinds = append(kinds, k)
			}
		}
	}
	return kinds
}
