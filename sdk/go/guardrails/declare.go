// Hand-written, not generated: codegen/generate-sdk.mjs copies it from codegen/gensdk/overlays/.

package guardrails

import (
	"fmt"
	"path/filepath"

	"github.com/pulumi-guardrails/pulumi-guardrails/sdk/go/guardrails/internal"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// DeclaredResources is what one declared guardrail became: its Guardrail, and its member and
// key sets when the file declares them (nil otherwise).
type DeclaredResources struct {
	Guardrail *Guardrail
	Members   *GuardrailMemberAssignment
	Keys      *GuardrailKeyAssignment
}

// declaredAnswer is loadGuardrailFiles' answer with each guardrail's settings kept as the
// provider wrote them (the Guardrail's args, in its property names).
type declaredAnswer struct {
	Guardrails []struct {
		Id       string                 `pulumi:"id"`
		Settings map[string]interface{} `pulumi:"settings"`
		Members  *DeclaredAssignmentSet `pulumi:"members"`
		Keys     *DeclaredAssignmentSet `pulumi:"keys"`
	} `pulumi:"guardrails"`
}

// DeclareGuardrails is the Go twin of the TypeScript `declareGuardrails`: it loads one
// guardrail YAML/JSON file, or every *.yaml, *.yml, *.json file of a folder (path relative to
// the program's folder, or absolute), through the plugin's loadGuardrailFiles (the same
// loader and messages: every problem at once, with file:line:column, before any resource),
// then registers a Guardrail per stable id (logical name namePrefix+id), plus its member set
// (namePrefix+id+"-members") and key set (namePrefix+id+"-keys"). opts apply to every resource.
func DeclareGuardrails(ctx *pulumi.Context, path string, namePrefix string, opts ...pulumi.ResourceOption) (map[string]*DeclaredResources, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	var answer declaredAnswer
	invokeOpts := internal.PkgInvokeDefaultOpts(nil)
	if err := ctx.Invoke("guardrails:index:loadGuardrailFiles", &LoadGuardrailFilesArgs{Path: abs}, &answer, invokeOpts...); err != nil {
		return nil, err
	}
	out := map[string]*DeclaredResources{}
	for _, g := range answer.Guardrails {
		var guardrail Guardrail
		name := namePrefix + g.Id
		err := ctx.RegisterResource("guardrails:index:Guardrail", name, pulumi.ToMap(g.Settings), &guardrail, internal.PkgResourceDefaultOpts(opts)...)
		if err != nil {
			return nil, fmt.Errorf("guardrail %s: %w", g.Id, err)
		}
		entry := &DeclaredResources{Guardrail: &guardrail}
		if g.Members != nil {
			entry.Members, err = NewGuardrailMemberAssignment(ctx, name+"-members", &GuardrailMemberAssignmentArgs{
				GuardrailId:   guardrail.ID(),
				MemberUserIds: pulumi.ToStringArray(g.Members.Ids),
				Exclusive:     pulumi.Bool(g.Members.Exclusive),
			}, opts...)
			if err != nil {
				return nil, err
			}
		}
		if g.Keys != nil {
			entry.Keys, err = NewGuardrailKeyAssignment(ctx, name+"-keys", &GuardrailKeyAssignmentArgs{
				GuardrailId: guardrail.ID(),
				KeyHashes:   pulumi.ToStringArray(g.Keys.Ids),
				Exclusive:   pulumi.Bool(g.Keys.Exclusive),
			}, opts...)
			if err != nil {
				return nil, err
			}
		}
		out[g.Id] = entry
	}
	return out, nil
}
