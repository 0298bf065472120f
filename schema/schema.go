// Package schema holds the CUE definition of a slogen spec, embedded so that
// the binary validates specs without reading anything from disk.
package schema

import _ "embed"

// Source is the CUE schema; #Spec is the definition every spec file must satisfy.
//
//go:embed slogen.cue
var Source []byte

// Filename is how the schema is named in error positions.
const Filename = "schema/slogen.cue"
