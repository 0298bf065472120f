// Package archtest holds no code: its test enforces the import rules of
// docs/architecture.md over every Go file of the module, tests included.
package archtest
