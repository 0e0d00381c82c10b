"""Originals that leave traces in their sandbox, and one that reports what
it finds (warm interpreter tests): a driver forked from a warm interpreter
must find the sandbox as a fresh start finds it, whatever an earlier driver
left there."""
import ctypes
import os
import subprocess

from pyspark.sql.functions import udf
from pyspark.sql.types import StringType


@udf(returnType=StringType())
def leave_traces(tag):
    """Writes files in /tmp and /dev/shm, creates a System V shared
    memory segment and starts a process that outlives the driver."""
    with open("/tmp/left-" + tag, "w") as f:
        f.write(tag)
    os.makedirs("/tmp/dir-" + tag + "/inner", exist_ok=True)
    try:
        with open("/dev/shm/left-" + tag, "w") as f:
            f.write(tag)
    except OSError:
        pass
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmget(0, 4096, 0o1600)  # IPC_PRIVATE, IPC_CREAT | 0600
    subprocess.Popen(["sleep", "600"], start_new_session=True)
    return "left " + tag


def _listing(root):
    try:
        return sorted(os.listdir(root))
    except OSError as e:
        return ["<%s>" % type(e).__name__]


@udf(returnType=StringType())
def look_around(_):
    """What a driver sees of its sandbox: /tmp and /dev/shm, the System V
    IPC objects, the other processes' commands, its own state."""
    procs = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                with open("/proc/%s/cmdline" % entry, "rb") as f:
                    procs.append(f.read().split(b"\0")[0].decode())
            except OSError:
                pass
    ipc = []
    for kind in ("shm", "sem", "msg"):
        try:
            with open("/proc/sysvipc/" + kind) as f:
                ipc.append("%s:%d" % (kind, len(f.read().splitlines()) - 1))
        except OSError:
            ipc.append(kind + ":?")
    tmp = [n for n in _listing("/tmp") if not n.startswith("udfx-python-")]
    return repr({
        "tmp": tmp,
        "shm": _listing("/dev/shm"),
        "ipc": ipc,
        "procs": sorted(p.rsplit("/", 1)[-1] for p in procs if "sleep" in p),
        "cwd": os.getcwd(),
        "argv": [os.path.basename(a) for a in __import__("sys").argv],
    })


@udf(returnType=StringType())
def exit_on(n):
    """Ends its process with status 5 on the row 7, as a C extension's
    exit() would."""
    if n == 7:
        os._exit(5)
    return str(n)
