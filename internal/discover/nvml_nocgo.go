//go:build !cgo

package discover

// Read reports that NVML cannot be reached without cgo.
func Read() (Host, []string, error) { return Host{}, nil, ErrNoCgo }
