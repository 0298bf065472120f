//go:build !nvml || !cgo

package discover

import (
	"errors"
	"testing"
)

func TestReadWithoutNVML(t *testing.T) {
	if _, _, err := Read(); !errors.Is(err, ErrNoNVML) {
		t.Fatalf("err = %v; want ErrNoNVML", err)
	}
}
