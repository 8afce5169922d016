"""Loopback helpers shared by the tests and the benchmarks."""

import socket


def free_port() -> int:
    """A loopback port nobody listens on (for servers to start, or to be unreachable)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
