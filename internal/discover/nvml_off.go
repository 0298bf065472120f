//go:build !nvml || !cgo

package discover

// Read reports that this build cannot reach NVML: it lacks the nvml tag or cgo.
func Read() (Host, []string, error) { return Host{}, nil, ErrNoNVML }
