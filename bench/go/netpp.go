package main

// A synchronous ping-pong across two processes, for dev.weft.bench.net.TwoProcessPingPong: the server echoes
// every frame (a 4-byte big-endian length, then the frame) back on its connection, a goroutine per connection;
// the client writes one frame, reads its echo whole, and repeats. The frames are the size of Weft's.

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"time"
)

// netppServer listens on a free loopback port, prints "READY <port>", and echoes until its stdin closes.
func netppServer() {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("READY %d\n", l.Addr().(*net.TCPAddr).Port)
	go func() {
		io.Copy(io.Discard, os.Stdin) // the driver closes stdin when it is done
		os.Exit(0)
	}()
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go echo(c)
	}
}

func echo(c net.Conn) {
	defer c.Close()
	frame := make([]byte, 4096)
	for {
		if _, err := io.ReadFull(c, frame[:4]); err != nil {
			return
		}
		n := int(binary.BigEndian.Uint32(frame[:4]))
		if n > len(frame)-4 {
			return
		}
		if _, err := io.ReadFull(c, frame[4:4+n]); err != nil {
			return
		}
		if _, err := c.Write(frame[:4+n]); err != nil {
			return
		}
	}
}

// netppClient connects to the server on port, then reads lines from stdin: each a number n of round trips to
// make; it answers each with "RESULT <ns per round trip>". Frames carry frameBytes bytes after the length.
func netppClient(port, frameBytes int) {
	c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out := make([]byte, 4+frameBytes)
	binary.BigEndian.PutUint32(out, uint32(frameBytes))
	in := make([]byte, len(out))
	lines := bufio.NewScanner(os.Stdin)
	for lines.Scan() {
		n, err := strconv.Atoi(lines.Text())
		if err != nil {
			fmt.Fprintln(os.Stderr, "not a number of round trips:", lines.Text())
			os.Exit(2)
		}
		start := time.Now()
		for i := 0; i < n; i++ {
			binary.BigEndian.PutUint64(out[4+9:], uint64(i)) // the frame's number, as Weft's header has it
			if _, err := c.Write(out); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			if _, err := io.ReadFull(c, in); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			if binary.BigEndian.Uint64(in[4+9:]) != uint64(i) {
				fmt.Fprintln(os.Stderr, "an echo out of order")
				os.Exit(1)
			}
		}
		fmt.Printf("RESULT %.1f\n", float64(time.Since(start).Nanoseconds())/float64(n))
	}
}
