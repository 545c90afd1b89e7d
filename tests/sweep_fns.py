"""Module-level functions for the sweep-runner tests (workers import them by name)."""
import os
import time

from numerics.sweep import versioned


@versioned("1")
def square_plus(x, y=0.0):
    return x * x + y


def slow_square(x, delay=0.0):
    time.sleep(delay)
    return x * x


def fails_at_three(x):
    if x == 3:
        raise ValueError("three is not allowed")
    return x


def log_a_point(order, sigma, q):
    from numerics.rdp import log_a

    return float(log_a(q, sigma, order))


def worker_pid(x):
    time.sleep(0.05)
    return os.getpid()


def inner_sweep_pids(n, delay=0.2):
    """A point that sweeps itself (like a claim certifying over boxes): the pids that ran its points."""
    from numerics.sweep import sweep

    return sweep(worker_pid_after, [{"x": i, "delay": delay} for i in range(n)], use_cache=False, desc="inner")


def worker_pid_after(x, delay):
    time.sleep(delay)
    return os.getpid()
