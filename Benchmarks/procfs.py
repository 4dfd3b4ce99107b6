"""What Linux says of a running process in /proc, for the benchmarks and Scripts/reliability.py.

Imported by path (each caller puts this folder on sys.path), so it stays standard library only.
"""

import pathlib


def memory_bytes(pid, field="VmRSS"):
    """A memory figure of /proc/PID/status in bytes: VmRSS (resident now) or VmHWM (peak resident);
    0 once the process is gone."""
    try:
        for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def peak_memory_bytes(pid):
    """The process's peak resident memory so far (VmHWM), in bytes."""
    return memory_bytes(pid, "VmHWM")
