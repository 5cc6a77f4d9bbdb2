#!/usr/bin/env python3
"""Delays the packets iptables sends to an NFQUEUE: a stand-in for tc netem's delay, jitter and reorder where the
kernel has no netem. Usage: delayer.py QUEUE DELAY_MS JITTER_MS [REORDER_PERCENT]. Each packet is held
DELAY_MS +- JITTER_MS (uniform), or, with REORDER_PERCENT, that share of packets goes at once while the others
wait DELAY_MS (netem's "delay D reorder P%"). Packets are released by their own deadline, so jitter reorders
them, as netem's does. Speaks the nfnetlink queue protocol itself: no library needed."""
import heapq, os, random, select, socket, struct, sys, time

NETLINK_NETFILTER, SOL_NETLINK, NETLINK_NO_ENOBUFS = 12, 270, 5
NFQNL_MSG_PACKET, NFQNL_MSG_VERDICT, NFQNL_MSG_CONFIG = (3 << 8) | 0, (3 << 8) | 1, (3 << 8) | 2
NLM_F_REQUEST, NLMSG_ERROR = 1, 2
NF_ACCEPT = 1


def attr(kind, payload):
    length = 4 + len(payload)
    return struct.pack("=HH", length, kind) + payload + b"\0" * ((4 - length % 4) % 4)


def message(kind, queue, attrs):
    body = struct.pack("!BBH", socket.AF_UNSPEC, 0, queue) + b"".join(attrs)
    return struct.pack("=IHHII", 16 + len(body), kind, NLM_F_REQUEST, 0, 0) + body


def main():
    queue, delay, jitter = int(sys.argv[1]), float(sys.argv[2]) / 1000, float(sys.argv[3]) / 1000
    reorder = float(sys.argv[4]) / 100 if len(sys.argv) > 4 else 0.0
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_NETFILTER)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    s.setsockopt(SOL_NETLINK, NETLINK_NO_ENOBUFS, 1)
    s.bind((0, 0))
    s.send(message(NFQNL_MSG_CONFIG, queue, [attr(1, struct.pack("!BBH", 1, 0, socket.AF_INET))]))  # bind
    s.send(message(NFQNL_MSG_CONFIG, queue, [attr(2, struct.pack("!IB", 0, 1)),                     # metadata only
                                              attr(3, struct.pack("!I", 100000))]))                 # queue length
    print("delaying", flush=True)
    held, order = [], 0
    while True:
        now = time.monotonic()
        while held and held[0][0] <= now:
            _, _, packet = heapq.heappop(held)
            s.send(message(NFQNL_MSG_VERDICT, queue, [attr(2, struct.pack("!II", NF_ACCEPT, packet))]))
        wait = max(0.0, held[0][0] - now) if held else 1.0
        if not select.select([s], [], [], wait)[0]:
            continue
        data = s.recv(1 << 20)
        at = 0
        while at + 16 <= len(data):
            length, kind = struct.unpack_from("=IH", data, at)
            if kind == NLMSG_ERROR:
                code = struct.unpack_from("=i", data, at + 16)[0]
                if code != 0:
                    sys.exit("nfqueue refused the configuration: " + os.strerror(-code))
            elif kind == NFQNL_MSG_PACKET:
                a = at + 20
                while a + 4 <= at + length:
                    alen, atype = struct.unpack_from("=HH", data, a)
                    if atype & 0x7fff == 1:  # NFQA_PACKET_HDR: id, hw protocol, hook
                        packet = struct.unpack_from("!I", data, a + 4)[0]
                        if reorder:
                            hold = 0.0 if random.random() < reorder else delay
                        else:
                            hold = max(0.0, delay + random.uniform(-jitter, jitter))
                        order += 1
                        heapq.heappush(held, (time.monotonic() + hold, order, packet))
                    a += (alen + 3) & ~3
            at += (length + 3) & ~3


if __name__ == "__main__":
    main()
