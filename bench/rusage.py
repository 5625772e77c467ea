"""Run one command and print what the kernel counted for it, as JSON on stdout:
minor page faults (first touches of memory pages), peak RSS in kB, and CPU seconds.
The command's own output is discarded. Used by bench/node-floor.mjs.
Usage: python3 bench/rusage.py CMD [ARG ...]"""
import json, resource, subprocess, sys

if len(sys.argv) < 2:
    sys.exit("usage: python3 bench/rusage.py CMD [ARG ...]")
status = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"status": status, "minorFaults": r.ru_minflt, "maxRssKb": r.ru_maxrss, "cpuSeconds": round(r.ru_utime + r.ru_stime, 4)}))
