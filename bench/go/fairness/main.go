// Command fairness is a closed-loop HTTP/1.1 load client that tells how evenly a server shares itself among
// its connections, which wrk's percentiles cannot: each connection sends a request, reads the whole response
// and sends the next, and the client reports the latency percentiles of all requests, then the spread of the
// connections' mean latencies (equal means: every connection is served as often) and, within a connection,
// its 90th percentile over its mean (a connection served now early, now late in the server's turns), and a
// histogram of the connections' means.
// It expects the responses of bench/servers.sh's servers (a fixed 2-byte body).
//
// Usage: fairness <host:port> <connections> <seconds>   (3 s of load before the measured seconds)
package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"sort"
	"strconv"
	"sync"
	"time"
)

var (
	request  = []byte("GET / HTTP/1.1\r\nHost: weft\r\n\r\n")
	response = len("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok")
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: fairness <host:port> <connections> <seconds>")
		os.Exit(2)
	}
	conns, err1 := strconv.Atoi(os.Args[2])
	seconds, err2 := strconv.Atoi(os.Args[3])
	if err1 != nil || err2 != nil || conns < 1 || seconds < 1 {
		fmt.Fprintln(os.Stderr, "connections and seconds must be positive whole numbers")
		os.Exit(2)
	}
	from := time.Now().Add(3 * time.Second)
	until := from.Add(time.Duration(seconds) * time.Second)
	latencies := make([][]time.Duration, conns) // per connection, its measured requests
	failed, firstError := 0, error(nil)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range latencies {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if err := load(os.Args[1], from, until, &latencies[i]); err != nil {
				mu.Lock()
				if failed++; firstError == nil {
					firstError = err
				}
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "%d of %d connections failed, the first with: %v\n", failed, conns, firstError)
	}
	report(latencies, seconds, failed)
}

// load runs one connection's requests until the end of the measurement, keeping the latencies from its start.
func load(addr string, from, until time.Time, out *[]time.Duration) error {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	buf := make([]byte, response)
	for {
		start := time.Now()
		if start.After(until) {
			return nil
		}
		if _, err := c.Write(request); err != nil {
			return err
		}
		if _, err := io.ReadFull(c, buf); err != nil {
			return err
		}
		if start.After(from) {
			*out = append(*out, time.Since(start))
		}
	}
}

func report(latencies [][]time.Duration, seconds, failed int) {
	var all []time.Duration
	var means, spreads []float64
	for _, l := range latencies {
		if len(l) == 0 {
			continue
		}
		all = append(all, l...)
		sorted := append([]time.Duration(nil), l...)
		sort.Slice(sorted, func(a, b int) bool { return sorted[a] < sorted[b] })
		var sum time.Duration
		for _, d := range sorted {
			sum += d
		}
		mean := float64(sum) / float64(len(sorted))
		means = append(means, mean/1e6)
		spreads = append(spreads, float64(sorted[len(sorted)*9/10])/mean)
	}
	if len(all) == 0 {
		fmt.Fprintln(os.Stderr, "no request completed")
		os.Exit(1)
	}
	sort.Slice(all, func(a, b int) bool { return all[a] < all[b] })
	sort.Float64s(means)
	sort.Float64s(spreads)
	ms := func(q float64) float64 { return float64(all[int(q*float64(len(all)-1))]) / 1e6 }
	at := func(s []float64, q float64) float64 { return s[int(q*float64(len(s)-1))] }
	fmt.Printf("requests/s %.0f, failed connections %d\n", float64(len(all))/float64(seconds), failed)
	fmt.Printf("latency ms: p50 %.1f p90 %.1f p99 %.1f\n", ms(.5), ms(.9), ms(.99))
	fmt.Printf("connections' mean latency ms: p1 %.1f p10 %.1f p50 %.1f p90 %.1f p99 %.1f\n",
		at(means, .01), at(means, .1), at(means, .5), at(means, .9), at(means, .99))
	steps := histogram(means)
	fmt.Printf("connections by mean latency, %d equal steps from %.1f to %.1f ms: %v\n", len(steps),
		means[0], means[len(means)-1], steps)
	fmt.Printf("within a connection, p90 / mean: median %.2f, p90 %.2f\n", at(spreads, .5), at(spreads, .9))
}

// histogram counts the sorted values in 12 equal steps from the least to the greatest: one hump when every
// connection is served alike, a hump and a tail (or two humps) when some are served less often than others.
func histogram(sorted []float64) []int {
	counts := make([]int, 12)
	lo, width := sorted[0], sorted[len(sorted)-1]-sorted[0]
	for _, v := range sorted {
		k := len(counts) - 1
		if width > 0 {
			k = min(int((v-lo)/width*float64(len(counts))), len(counts)-1)
		}
		counts[k]++
	}
	return counts
}
