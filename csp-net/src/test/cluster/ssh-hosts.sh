#!/bin/sh
# SSH hosts on this machine for SshLaunchTest, each an sshd in a network namespace of its own, every file in DIR:
#   ssh-hosts.sh start DIR N   makes a bridge weft-sshbr (10.79.0.1/24) and namespaces weft-ssh-1..N, each joined
#                              to it by a veth pair as 10.79.0.2, 10.79.0.3, ...; starts sshd in each, which lets
#                              root in with the key DIR/id; then: ssh -i DIR/id -o StrictHostKeyChecking=no 10.79.0.2
#   ssh-hosts.sh stop DIR N    stops those sshds and removes the namespaces, veths and bridge (start does it first,
#                              for what a killed run left)
# Needs root, iproute2 and openssh-server (apt-get install openssh-server). Only loopback and veth addresses.
set -eu
cmd=$1
dir=$(realpath -m "$2")
n=$3

# Stops the sshds of namespaces weft-ssh-1..$1 and removes the namespaces, veths and bridge; also what a run that
# was killed before its stop left behind (the next start would otherwise find them: "File exists").
remove() {
    i=1
    while [ $i -le "$1" ]; do
        if ip netns list | grep -qw "weft-ssh-$i"; then
            for pid in $(ip netns pids "weft-ssh-$i"); do kill "$pid" 2>/dev/null || true; done
        fi
        rm -f "$dir/sshd-$i.pid"
        ip netns del "weft-ssh-$i" 2>/dev/null || true
        ip link del "weft-sshv$i" 2>/dev/null || true
        i=$((i + 1))
    done
    ip link del weft-sshbr 2>/dev/null || true
}

case "$cmd" in
start)
    remove "$n"
    mkdir -p "$dir" /run/sshd
    [ -f "$dir/id" ] || ssh-keygen -q -t ed25519 -N '' -f "$dir/id"
    [ -f "$dir/host_key" ] || ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key"
    cp "$dir/id.pub" "$dir/authorized_keys"
    chmod 600 "$dir/authorized_keys"
    ip link add weft-sshbr type bridge
    ip addr add 10.79.0.1/24 dev weft-sshbr
    ip link set weft-sshbr up
    i=1
    while [ $i -le "$n" ]; do
        ns=weft-ssh-$i
        addr=10.79.0.$((i + 1))
        ip netns add $ns
        ip link add weft-sshv$i type veth peer name eth0 netns $ns
        ip link set weft-sshv$i master weft-sshbr up
        ip -n $ns link set lo up
        ip -n $ns addr add $addr/24 dev eth0
        ip -n $ns link set eth0 up
        ip netns exec $ns /usr/sbin/sshd -f /dev/null -o ListenAddress=$addr -o HostKey="$dir/host_key" \
            -o PidFile="$dir/sshd-$i.pid" -o AuthorizedKeysFile="$dir/authorized_keys" -o StrictModes=no \
            -o PermitRootLogin=prohibit-password -o PasswordAuthentication=no -o UsePAM=no -o MaxStartups=50 \
            -o MaxSessions=50
        i=$((i + 1))
    done
    i=1
    while [ $i -le "$n" ]; do # each sshd answers before we return
        j=0
        until ssh -i "$dir/id" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR \
                -o BatchMode=yes -o ConnectTimeout=2 10.79.0.$((i + 1)) true; do
            j=$((j + 1))
            if [ $j -gt 50 ]; then echo "sshd on 10.79.0.$((i + 1)) does not answer" >&2; exit 1; fi
            sleep 0.2
        done
        i=$((i + 1))
    done
    ;;
stop)
    remove "$n"
    ;;
*)
    echo "usage: ssh-hosts.sh start|stop DIR N" >&2
    exit 2
    ;;
esac
