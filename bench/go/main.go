// Command gopeer runs the benchmark workloads of bench/ in Go, as a peer of Weft: the same process networks
// (CommsTime, the token ring, fan-in, select over four channels, spawn+join, blocked goroutines, the
// Mandelbrot farm) with unbuffered channels, measured as the Java harnesses measure (2 warm-up rounds, then
// the median of 5), printed as "RESULT key value" lines that bench/run.sh hands to the report.
//
// Usage: gopeer [workload...]   (default: every workload; short-ring1, short-ring64, short-commsTime: one
// short program, a tenth of the size as warm-up then about 100 ms, for bench/first-100ms.sh)
//        gopeer netpp-server | netpp-client PORT FRAME_BYTES   (a ping-pong across two processes: netpp.go)
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

const (
	warmUps = 2
	rounds  = 5
)

// median runs f warmUps+rounds times and returns the median of the timed rounds' figures.
func median(f func() float64) float64 {
	for i := 0; i < warmUps; i++ {
		f()
	}
	xs := make([]float64, rounds)
	for i := range xs {
		xs[i] = f()
	}
	sort.Float64s(xs)
	return xs[rounds/2]
}

func result(key string, v float64) {
	fmt.Printf("RESULT %s.go %.1f\n", key, v)
}

// --- CommsTime: prefix, delta, successor and a consumer in a ring; 4 communications per cycle.

func commsTime(cycles int) float64 {
	a, b, c, d := make(chan int), make(chan int), make(chan int), make(chan int)
	go func() { // prefix
		a <- 0
		for {
			a <- <-c
		}
	}()
	go func() { // delta
		for {
			v := <-a
			b <- v
			d <- v
		}
	}()
	go func() { // successor
		for {
			c <- <-b + 1
		}
	}()
	<-d
	start := time.Now()
	for i := 0; i < cycles; i++ {
		<-d
	}
	elapsed := time.Since(start)
	// Go has no poison: the three stay blocked in the ring once nobody reads d, a few goroutines per round.
	// A done channel and a select in each loop would stop them, at the price of every communication.
	return float64(elapsed.Nanoseconds()) / float64(4*cycles)
}

// --- Token ring: elements in a ring, tokens travelling round it; ns per hop.

func tokenRing(elements, tokens, roundTrips int) float64 {
	links := make([]chan int, elements)
	for i := range links {
		links[i] = make(chan int)
	}
	var wg sync.WaitGroup
	start := time.Now()
	for i := 1; i < elements; i++ {
		in, out := links[i], links[(i+1)%elements]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range in {
				out <- v
			}
			close(out)
		}()
	}
	in, out := links[0], links[1]
	for t := 0; t < tokens; t++ {
		out <- t
	}
	inFlight, arrived := tokens, 0
	for inFlight > 0 {
		v := <-in
		inFlight--
		arrived++
		if arrived+inFlight < roundTrips {
			out <- v
			inFlight++
		}
	}
	close(out)
	for range in { // the close comes round the ring
	}
	wg.Wait()
	return float64(time.Since(start).Nanoseconds()) / float64(arrived*elements)
}

// --- Fan-in: writers goroutines each write perWriter values to one channel; ns per value.

func fanIn(writers, perWriter int) float64 {
	ch := make(chan int)
	start := time.Now()
	for w := 0; w < writers; w++ {
		go func() {
			for i := 1; i <= perWriter; i++ {
				ch <- i
			}
		}()
	}
	sum := 0
	for i := 0; i < writers*perWriter; i++ {
		sum += <-ch
	}
	if sum != writers*perWriter*(perWriter+1)/2 {
		panic("fan-in lost values")
	}
	return float64(time.Since(start).Nanoseconds()) / float64(writers*perWriter)
}

// --- Select: four writers, each on its own channel; the reader selects over all; ns per value.

func selectFour(perWriter int) float64 {
	cs := [4]chan int{make(chan int), make(chan int), make(chan int), make(chan int)}
	start := time.Now()
	for _, c := range cs {
		go func(c chan int) {
			for i := 1; i <= perWriter; i++ {
				c <- i
			}
		}(c)
	}
	sum := 0
	for i := 0; i < 4*perWriter; i++ {
		select {
		case v := <-cs[0]:
			sum += v
		case v := <-cs[1]:
			sum += v
		case v := <-cs[2]:
			sum += v
		case v := <-cs[3]:
			sum += v
		}
	}
	if sum != 4*perWriter*(perWriter+1)/2 {
		panic("select lost values")
	}
	return float64(time.Since(start).Nanoseconds()) / float64(4*perWriter)
}

// --- Spawn+join: start count goroutines that do nothing, then wait for each; ns per goroutine.

func spawnJoin(count int) float64 {
	var wg sync.WaitGroup
	var ran atomic.Int64
	start := time.Now()
	wg.Add(count)
	for i := 0; i < count; i++ {
		go func() {
			ran.Add(1)
			wg.Done()
		}()
	}
	wg.Wait()
	if ran.Load() != int64(count) {
		panic("spawn+join lost goroutines")
	}
	return float64(time.Since(start).Nanoseconds()) / float64(count)
}

// --- Blocked goroutines: bytes of heap and stack per goroutine blocked reading its own channel.

func inUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc + m.StackInuse
}

func blocked(count int, withChannel bool) float64 {
	chans := make([]chan int, count)
	if !withChannel {
		for i := range chans {
			chans[i] = make(chan int)
		}
	}
	var started sync.WaitGroup
	started.Add(count)
	before := inUse()
	for i := range chans {
		if withChannel {
			chans[i] = make(chan int)
		}
		c := chans[i]
		go func() {
			started.Done()
			<-c
		}()
	}
	started.Wait()
	time.Sleep(20 * time.Millisecond) // let the last ones block
	after := inUse()
	for _, c := range chans {
		close(c)
	}
	return float64(after-before) / float64(count)
}

// --- Mandelbrot farm: a farmer hands out rows, workers compute them, a harvester collects; ms per image.

const (
	x0    = -2.2
	spanX = 3.0
	spanY = 2.4
)

func mandelbrotRow(y, width, height, maxIter int) []int {
	out := make([]int, width)
	ci := (float64(y)+0.5)*spanY/float64(height) - spanY/2
	for x := 0; x < width; x++ {
		cr := x0 + (float64(x)+0.5)*spanX/float64(width)
		zr, zi, n := 0.0, 0.0, 0
		for n < maxIter {
			zr2, zi2 := zr*zr, zi*zi
			if zr2+zi2 > 4.0 {
				break
			}
			zi = 2*zr*zi + ci
			zr = zr2 - zi2 + cr
			n++
		}
		out[x] = n
	}
	return out
}

type row struct {
	y    int
	iter []int
}

func mandelbrot(workers, width, height, maxIter int) float64 {
	start := time.Now()
	jobs := make(chan int)
	results := make(chan row)
	go func() {
		for y := 0; y < height; y++ {
			jobs <- y
		}
		close(jobs)
	}()
	for w := 0; w < workers; w++ {
		go func() {
			for y := range jobs {
				results <- row{y, mandelbrotRow(y, width, height, maxIter)}
			}
		}()
	}
	image := make([][]int, height)
	for i := 0; i < height; i++ {
		r := <-results
		image[r.y] = r.iter
	}
	return float64(time.Since(start).Nanoseconds()) / 1e6
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "netpp-server" { // a ping-pong across two processes: see netpp.go
		netppServer()
		return
	}
	if len(os.Args) > 3 && os.Args[1] == "netpp-client" {
		port, _ := strconv.Atoi(os.Args[2])
		frameBytes, _ := strconv.Atoi(os.Args[3])
		netppClient(port, frameBytes)
		return
	}
	workloads := os.Args[1:]
	if len(workloads) == 0 {
		workloads = []string{"commsTime", "tokenRing", "fanIn", "select", "spawnJoin", "blocked", "mandelbrot"}
	}
	runtime.GOMAXPROCS(1) // one carrier, as Weft, Kilim and virtual threads run
	for _, w := range workloads {
		switch w {
		case "commsTime":
			result("CommsTimeBench", median(func() float64 { return commsTime(20_000) }))
		case "tokenRing":
			for _, tokens := range []int{1, 64} {
				result(fmt.Sprintf("TokenRingBench.%d", tokens), median(func() float64 { return tokenRing(256, tokens, 1024) }))
			}
		case "fanIn":
			result("FanInBench", median(func() float64 { return fanIn(8, 10_000) }))
		case "select":
			result("SelectBench", median(func() float64 { return selectFour(10_000) }))
		case "spawnJoin":
			result("spawnJoin", median(func() float64 { return spawnJoin(1_000_000) }))
		case "blocked":
			debug.SetGCPercent(-1) // measure what is in use, not what the collector has not reached yet
			result("blocked", blocked(1_000_000, true))
			result("blockedAlone", blocked(1_000_000, false))
			debug.SetGCPercent(100)
		case "short-ring1", "short-ring64": // one short program: a tenth as warm-up, then ~100 ms (ShortRun)
			tokens := map[string]int{"short-ring1": 1, "short-ring64": 64}[w]
			tokenRing(256, tokens, 2048/10)
			fmt.Printf("RESULT %s %.1f\n", w[len("short-"):], tokenRing(256, tokens, 2048))
		case "short-commsTime":
			commsTime(250_000 / 10)
			fmt.Printf("RESULT commsTime %.1f\n", commsTime(250_000))
		case "mandelbrot":
			for _, workers := range []int{1, 2} {
				runtime.GOMAXPROCS(workers)
				result(fmt.Sprintf("MandelbrotBench.%d", workers), median(func() float64 { return mandelbrot(workers, 400, 300, 500) }))
			}
			runtime.GOMAXPROCS(1)
		default:
			fmt.Fprintln(os.Stderr, "unknown workload", w)
			os.Exit(2)
		}
	}
}
