#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/setup/every-interface.py ADDRESS: exit 0 when listening on ADDRESS
would listen on every interface of this host (an unspecified address in any
spelling: 0.0.0.0, 0, 0.0, 0x0, 000.0.0.0, ::, ::0, 0:0::0, [::],
::ffff:0.0.0.0, *, an empty string, or a name that resolves to one), 1 when
it is one address, 2 on a usage error.  pipelines/remote-reconstruct.sh
refuses those without AOOCT_LISTEN_ALL=1; parsed here with Python's
ipaddress and the C library's inet_aton and getaddrinfo, because a shell
pattern cannot know every spelling."""
import ipaddress
import socket
import sys


def unspecified(text):
    a = text.strip()
    if a in ("", "*"):
        return True
    if a.startswith("[") and a.endswith("]"):
        a = a[1:-1]
    a = a.split("%", 1)[0]  # an IPv6 zone (fe80::1%eth0)
    try:
        ip = ipaddress.ip_address(a)
    except ValueError:
        ip = None
    if ip is None:
        try:
            # the C library's IPv4 spellings (0, 0.0, 0x0, 00.0.0.0 ...)
            ip = ipaddress.IPv4Address(socket.inet_aton(a))
        except OSError:
            ip = None
    if ip is not None:
        mapped = getattr(ip, "ipv4_mapped", None)
        return ip.is_unspecified or (mapped is not None and mapped.is_unspecified)
    # a host name: what the elements would bind to
    try:
        infos = socket.getaddrinfo(a, None, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError):
        return False  # not resolvable: the element says so
    return any(unspecified(info[4][0]) for info in infos)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: every-interface.py ADDRESS", file=sys.stderr)
        sys.exit(2)
    sys.exit(0 if unspecified(sys.argv[1]) else 1)
