package rules

import (
	"time"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// RawSLI is the SLO's error and request rates over w read from its raw
// series alone, split by its group_by labels as its recordings are: the
// trees the rules record, without the request recording the errors read
// in place of the requests query (sliQuery), so that it reads history
// from before the rules ran.
func RawSLI(slo model.SLO, w time.Duration) (errs, reqs pql.Expr) {
	errs, reqs = groupedSLI(slo)
	return Rewindow(errs, w, 0), Rewindow(reqs, w, 0)
}
