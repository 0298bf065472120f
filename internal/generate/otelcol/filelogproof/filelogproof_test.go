// Package filelogproof runs the Collector's filelog receiver over the pod
// log files of ../testdata/filelog, configured as
// ../testdata/filelog/receivers.yaml, and keeps the records it makes in
// ../testdata/filelog/records.json, where slogen's own tests count them
// with the count connector (../filelog_test.go).
//
// It is a module of its own because the module proxy serves the
// receiver's pkg/stanza at no release that also serves the tail-sampling
// processor and the count connector slogen's tests run (v0.161.0): the
// receiver here is at v0.149.0, the newest release that resolves alone.
package filelogproof
