package spec

import (
	"slices"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/schema"
)

// TestSchemaTakesEveryKind holds the schema's sli values to model.Kinds:
// a kind added to the model but not to #SLO.sli would be refused in every
// spec, with no test of the kind's own failing.
func TestSchemaTakesEveryKind(t *testing.T) {
	root := cuecontext.New().CompileBytes(schema.Source, cue.Filename(schema.Filename))
	sli := root.LookupPath(cue.MakePath(cue.Def("#SLO"), cue.Str("sli").Optional()))
	op, args := sli.Expr()
	if op != cue.OrOp {
		t.Fatalf("#SLO.sli is not a disjunction of kinds: %v", sli)
	}
	var inSchema []string
	for _, a := range args {
		s, err := a.String()
		if err != nil {
			t.Fatalf("#SLO.sli: %v", err)
		}
		inSchema = append(inSchema, s)
	}
	var inModel []string
	for _, k := range model.Kinds {
		inModel = append(inModel, string(k))
	}
	if !slices.Equal(inSchema, inModel) {
		t.Errorf("schema/slogen.cue's #SLO.sli is %v, model.Kinds %v: list the same kinds, in the same order, in both", inSchema, inModel)
	}
}
