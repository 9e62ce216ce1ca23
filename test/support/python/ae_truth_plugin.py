"""Independent truth for pytest runs: records each report as pytest's hooks see it (no printed text).

Loaded with `-p ae_truth_plugin` through PYTEST_ADDOPTS by test/support, writing JSON lines to
AE_TRUTH_FILE. Under xdist only the controller records (it receives every worker's reports).
"""
import json
import os


def _write(entry):
    path = os.environ.get("AE_TRUTH_FILE")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(entry) + "\n")


def _is_worker(config):
    return hasattr(config, "workerinput")


def pytest_configure(config):
    global _config
    _config = config


_config = None


def pytest_runtest_logreport(report):
    if _config is not None and _is_worker(_config):
        return
    _write(
        {
            "kind": "test",
            "nodeid": report.nodeid,
            "when": report.when,
            "outcome": report.outcome,
            "wasxfail": hasattr(report, "wasxfail"),
        }
    )


def pytest_collectreport(report):
    if _config is not None and _is_worker(_config):
        return
    if report.failed:
        _write({"kind": "collect", "nodeid": report.nodeid, "outcome": report.outcome})
