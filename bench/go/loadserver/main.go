// Command loadserver is the Go peer of bench/servers.sh: a goroutine per connection on Go's net package,
// answering each HTTP/1.1 request (a header block ending in an empty line) with a small keep-alive response,
// as dev.weft.bench.net.LoadServer does on Weft, virtual threads and Netty. Each connection reads into a
// 4 KiB buffer, as the Java servers do. Prints "READY <port>" once it listens, and on SIGUSR1, after a full
// collection, "MEM <heap in use> <goroutine stacks in use>" (bytes, from the runtime's memstats).
//
// Usage: loadserver <port>   (GOMAXPROCS sets its processors)
package main

import (
	"fmt"
	"net"
	"os"
	"os/signal"
	"runtime"
	"syscall"
)

var response = []byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok")

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:"+os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Listen for SIGUSR1 before announcing READY: the script signals at once, and unhandled it kills.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGUSR1)
	go reportMemory(signals)
	fmt.Println("READY", ln.Addr().(*net.TCPAddr).Port)
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go serve(c)
	}
}

// reportMemory prints the heap and the goroutine stacks in use after a full collection, at each SIGUSR1.
func reportMemory(signals <-chan os.Signal) {
	for range signals {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		fmt.Println("MEM", m.HeapInuse, m.StackInuse)
	}
}

// serve answers every complete request as it arrives; a request split over reads is counted once whole.
func serve(c net.Conn) {
	defer c.Close()
	buf := make([]byte, 4096)
	out := make([]byte, 0, len(response))
	matched := 0 // bytes of "\r\n\r\n" seen at the end of what was read so far
	for {
		n, err := c.Read(buf)
		if err != nil {
			return
		}
		requests := 0
		for _, b := range buf[:n] {
			matched = next(matched, b)
			if matched == 4 {
				requests++
				matched = 0
			}
		}
		if requests > 0 {
			out = out[:0]
			for i := 0; i < requests; i++ {
				out = append(out, response...)
			}
			if _, err := c.Write(out); err != nil {
				return
			}
		}
	}
}

// next advances the match of "\r\n\r\n" by one byte.
func next(matched int, b byte) int {
	if b == "\r\n\r\n"[matched] {
		return matched + 1
	}
	if b == '\r' {
		return 1
	}
	return 0
}
