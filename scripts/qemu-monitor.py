#!/usr/bin/env python3
"""Send one command to a QEMU human monitor on a Unix socket and print its answer.
Usage: qemu-monitor.py SOCKET 'info registers -a'   (scripts/boot.sh, on a timeout)"""
import socket
import sys


def drain(s, quiet=2.0):
    """Everything QEMU writes until it has been silent for QUIET seconds."""
    s.settimeout(quiet)
    out = b""
    try:
        while True:
            d = s.recv(65536)
            if not d:
                break
            out += d
    except socket.timeout:
        pass
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    drain(s, 1.0)  # the banner and the first prompt
    s.sendall(sys.argv[2].encode() + b"\n")
    out = drain(s).decode(errors="replace").replace("\r", "")
    # Drop the echo of the command (with its cursor codes) and the prompt.
    lines = [l for l in out.split("\n") if not l.startswith("(qemu)") and "\x1b" not in l]
    sys.stdout.write("\n".join(lines).strip("\n") + "\n")


if __name__ == "__main__":
    main()
