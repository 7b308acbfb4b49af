"""The machine's address on its network, for ``magdagdon serve --lan``: the one a phone on the
same network reaches it at. Found without sending a packet.

First the address the machine would send from towards the outside (a UDP socket's ``connect``
only asks the routing table); then, on a network with no default route, the first address of a
network interface that is up and not a loopback one (Linux), or the host name's address.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
import sys

# any address outside the machine's own networks will do: nothing is sent to it (TEST-NET-3)
_PROBE = ("203.0.113.1", 9)
_SIOCGIFFLAGS = 0x8913  # Linux: an interface's flags
_SIOCGIFADDR = 0x8915  # Linux: the IPv4 address of an interface
_IFF_UP = 0x1

_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def is_loopback_host(host: str | None) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) names this machine
    only: a loopback name or address, which no other device can open."""
    host = (host or "").strip("[]").lower()
    if host in _LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class NoNetworkError(OSError):
    """The machine has no network address but loopback ones."""


def usable(address: str) -> bool:
    """Whether another device could reach the machine at ``address``: IPv4, not loopback,
    link-local, unspecified or multicast."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (
        ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast
    )


def routed_address() -> str | None:
    """The source address of the machine's route towards the outside, if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(_PROBE)  # a UDP connect sends nothing: it only picks a route
        except OSError:
            return None
        address = str(probe.getsockname()[0])
    return address if usable(address) else None


def interface_addresses() -> list[str]:
    """The IPv4 addresses of the machine's interfaces that are up, in the kernel's order
    (Linux), or those of its host name elsewhere."""
    if sys.platform.startswith("linux"):
        return _linux_interface_addresses()
    with contextlib.suppress(OSError):
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        return list(dict.fromkeys(str(info[4][0]) for info in infos))
    return []


def _linux_interface_addresses() -> list[str]:
    import fcntl

    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                flags = struct.unpack_from(
                    "H", fcntl.ioctl(sock.fileno(), _SIOCGIFFLAGS, request), 16
                )
                answer = fcntl.ioctl(sock.fileno(), _SIOCGIFADDR, request)
            except OSError:  # gone meanwhile, or no IPv4 address
                continue
            if not flags[0] & _IFF_UP:
                continue
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def primary_address() -> str:
    """The address to print for ``--lan``; :class:`NoNetworkError` when there is none."""
    address = routed_address()
    if address is None:
        address = next((a for a in interface_addresses() if usable(a)), None)
    if address is None:
        raise NoNetworkError(
            "this machine has no network address (only loopback): connect it to the network "
            "your phone is on, or serve without --lan"
        )
    return address
