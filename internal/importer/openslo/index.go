package openslo

import (
	"fmt"

	"github.com/slogen-dev/slogen/internal/importer"
)

// index holds the named objects of every file read, by kind and name, so
// that an SLO may refer to an SLI, a DataSource or an AlertPolicy in
// another file of the same import.
type index map[string]map[string]Object

func newIndex(objects []Object) (index, error) {
	ix := index{}
	for _, o := range objects {
		if ix[o.Kind] == nil {
			ix[o.Kind] = map[string]Object{}
		}
		if prev, dup := ix[o.Kind][o.Name]; dup {
			return nil, &importer.Error{At: o.At, Field: "metadata.name", Msg: fmt.Sprintf("%s %q is also the %s at %s; names are unique per kind: rename one", o.Kind, o.Name, o.Kind, prev.At)}
		}
		ix[o.Kind][o.Name] = o
	}
	return ix, nil
}

// ref finds a named object of a kind; ok is false when the import holds
// none by that name.
func (ix index) ref(kind, name string) (Object, bool) {
	o, ok := ix[kind][name]
	return o, ok
}
