"""The Python reference for bench/judge: the log check as public Python harnesses write it.

pytest: read the whole log, split it into lines, keep lines that start with a status word, cut the
` - message` off FAILED lines, and map the second word (the id) to the first (the status); this is
the shape of SWE-bench's `parse_log_pytest`. go: read the whole stream, json-decode every line and
count the pass and fail actions that name a test.

Usage: python3 reference.py pytest|go FILE RUNS -> one JSON line: best and median seconds, peak RSS.
"""
import json
import resource
import sys
import time

STATUSES = ("PASSED", "FAILED", "SKIPPED", "ERROR", "XFAIL")


def check_pytest(path):
    with open(path, encoding="utf-8", errors="replace") as handle:
        log = handle.read()
    statuses = {}
    for line in log.split("\n"):
        if not line.startswith(STATUSES):
            continue
        if line.startswith("FAILED"):
            line = line.replace(" - ", " ")
        words = line.split()
        if len(words) > 1:
            statuses[words[1]] = words[0]
    return {"ids": len(statuses)}


def check_go(path):
    with open(path, encoding="utf-8", errors="replace") as handle:
        log = handle.read()
    passed = failed = 0
    for line in log.split("\n"):
        if not line:
            continue
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if not isinstance(event, dict) or not isinstance(event.get("Test"), str):
            continue
        if event.get("Action") == "pass":
            passed += 1
        elif event.get("Action") == "fail":
            failed += 1
    return {"pass": passed, "fail": failed}


def main():
    kind, path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    check = check_pytest if kind == "pytest" else check_go
    times = []
    summary = None
    for _ in range(runs):
        summary = None
        started = time.perf_counter()
        summary = check(path)
        times.append(time.perf_counter() - started)
    times.sort()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6
    print(json.dumps({"best": times[0], "median": times[len(times) // 2], "maxRssMb": peak_mb, "summary": summary}))


if __name__ == "__main__":
    main()
