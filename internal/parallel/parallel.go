// Package parallel runs independent pieces of work on a few goroutines.
package parallel

import "sync"

// Each calls do(i) for every i in [0, n) on at most workers goroutines at
// once, handing each index to the first that is free, and returns when
// every call has.
func Each(n, workers int, do func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for i := range next {
				do(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
