//go:build linux

package botproc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestFaultKindsAreTheReferees: this package reports faults only with the referee's named
// kinds (referee.FaultTimeout, …), never a kind of its own, a conversion to referee.FaultKind
// or a string literal, so a kind it reports is always one the referee, the log and spec.md
// know (referee's TestFaultKindsDocumented keeps those the same).
func TestFaultKindsAreTheReferees(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.TypeSpec:
				if strings.Contains(x.Name.Name, "Kind") {
					t.Errorf("%s: type %s: fault kinds are referee.FaultKind", fset.Position(x.Pos()), x.Name.Name)
				}
			case *ast.CallExpr:
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "FaultKind" {
					t.Errorf("%s: a conversion to referee.FaultKind: use a named kind", fset.Position(x.Pos()))
				}
				if id, ok := x.Fun.(*ast.SelectorExpr); ok && id.Sel.Name == "newFault" && len(x.Args) > 0 {
					checked++
					checkKind(t, fset, x.Args[0])
				}
			case *ast.KeyValueExpr:
				if id, ok := x.Key.(*ast.Ident); ok && id.Name == "Kind" {
					checked++
					checkKind(t, fset, x.Value)
				}
			}
			return true
		})
	}
	if checked < 10 {
		t.Errorf("checked %d fault kinds in this package's sources: the test no longer finds them", checked)
	}
}

// checkKind requires e to be a named kind of the referee.
func checkKind(t *testing.T, fset *token.FileSet, e ast.Expr) {
	t.Helper()
	sel, ok := e.(*ast.SelectorExpr)
	if id, isIdent := e.(*ast.Ident); isIdent && id.Name == "k" {
		return // newFault's own parameter
	}
	if ok && sel.Sel.Name == "Kind" {
		return // the kind of a fault made here, passed on
	}
	if !ok || !strings.HasPrefix(sel.Sel.Name, "Fault") {
		t.Errorf("%s: fault kind %s: use one of the referee's named kinds", fset.Position(e.Pos()), exprString(e))
		return
	}
	if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "referee" {
		t.Errorf("%s: fault kind from %s: use one of the referee's named kinds", fset.Position(e.Pos()), exprString(e))
	}
}

func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.BasicLit:
		return x.Value
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	}
	return "expression"
}
