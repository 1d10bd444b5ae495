// gensdk writes a Pulumi SDK from a package schema with Pulumi's own code generators, for when
// `pulumi package gen-sdk` cannot: it asks the language host (GeneratePackage), and the hosts
// buildable here (sdk v3.68.0) predate that call. Usage: gensdk <schema.json> <nodejs|python|go> <outdir>
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"

	"github.com/blang/semver"
)

// noLoader refuses every package: the guardrails schema refers to no other package.
type noLoader struct{}

func (noLoader) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("no package %s here", pkg)
}

func (noLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, fmt.Errorf("no package %s here", d.Name)
}

func (noLoader) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("no package %s here", pkg)
}

func (noLoader) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, fmt.Errorf("no package %s here", d.Name)
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gensdk:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 3 {
		return fmt.Errorf("usage: gensdk <schema.json> <nodejs|python|go> <outdir>")
	}
	raw, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return err
	}
	pkg, diags, err := schema.BindSpec(spec, noLoader{}, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return diags
	}
	var files map[string][]byte
	switch args[1] {
	case "nodejs":
		files, err = nodejs.GeneratePackage("gensdk", pkg, nil, nil, false, noLoader{})
	case "python":
		files, err = python.GeneratePackage("gensdk", pkg, nil, noLoader{})
	case "go":
		files, err = gogen.GeneratePackage("gensdk", pkg, nil)
	default:
		return fmt.Errorf("unknown language %q", args[1])
	}
	if err != nil {
		return err
	}
	for name, data := range files {
		path := filepath.Join(args[2], name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
