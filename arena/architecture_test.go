package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestArchitectureMap holds the README's architecture section to the code: its table names
// every package of the module, and for each the packages of the module it imports, exactly as
// `go list` sees them (test files aside).
func TestArchitectureMap(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	const module = "github.com/klaverjas-arena/arena/"
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}	{{join .Imports ","}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	actual := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		pkg, imports, _ := strings.Cut(strings.TrimSpace(line), "\t")
		var own []string
		for imp := range strings.SplitSeq(imports, ",") {
			if strings.HasPrefix(imp, module) {
				own = append(own, strings.TrimPrefix(imp, module))
			}
		}
		actual[strings.TrimPrefix(pkg, module)] = own
	}

	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	documented := readmeArchitecture(t, readme)
	for pkg, imports := range actual {
		doc, ok := documented[pkg]
		if !ok {
			t.Errorf("README's architecture table does not list package %s (it imports %v)", pkg, imports)
			continue
		}
		slices.Sort(imports)
		slices.Sort(doc)
		if !slices.Equal(imports, doc) {
			t.Errorf("package %s imports %v; README's architecture table says %v", pkg, imports, doc)
		}
	}
	for pkg := range documented {
		if _, ok := actual[pkg]; !ok {
			t.Errorf("README's architecture table lists %s, which is not a package of the module", pkg)
		}
	}
}

// readmeArchitecture reads the table of the README's "## Architecture" section: rows
// "| `package` | what it owns | `import`, `import` |", with "-" for no imports.
func readmeArchitecture(t *testing.T, readme []byte) map[string][]string {
	t.Helper()
	row := regexp.MustCompile("^\\| `([a-z0-9/]+)` \\|.*\\| (.*) \\|$")
	quoted := regexp.MustCompile("`([a-z0-9/]+)`")
	pkgs := map[string][]string{}
	in := false
	sc := bufio.NewScanner(bytes.NewReader(readme))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## Architecture"
			continue
		}
		m := row.FindStringSubmatch(line)
		if !in || m == nil {
			continue
		}
		imports := []string{}
		for _, q := range quoted.FindAllStringSubmatch(m[2], -1) {
			imports = append(imports, q[1])
		}
		pkgs[m[1]] = imports
	}
	if len(pkgs) == 0 {
		t.Fatal("README.md has no \"## Architecture\" section with a package table")
	}
	return pkgs
}
