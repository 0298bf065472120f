//go:build !cgo

package discover

import (
	"errors"
	"testing"
)

func TestReadWithoutCgo(t *testing.T) {
	if _, _, err := Read(); !errors.Is(err, ErrNoCgo) {
		t.Fatalf("err = %v; want ErrNoCgo", err)
	}
}
