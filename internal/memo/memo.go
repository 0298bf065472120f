// Package memo keeps values computed once per key, for the caches of one
// build.
package memo

import "sync"

// Memo computes each key's value once and keeps it; safe for concurrent
// use, a caller asking for a value being computed waits for it. The zero
// value is ready to use.
type Memo[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]func() V
}

// Get is k's value, computed by compute the first time it is asked for.
func (m *Memo[K, V]) Get(k K, compute func(K) V) V {
	m.mu.Lock()
	f, ok := m.m[k]
	if !ok {
		if m.m == nil {
			m.m = map[K]func() V{}
		}
		f = sync.OnceValue(func() V { return compute(k) })
		m.m[k] = f
	}
	m.mu.Unlock()
	return f()
}
