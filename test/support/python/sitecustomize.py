"""Independent truth for unittest and Django runs: records each outcome as the result object sees it.

Loaded through PYTHONPATH by test/support (only when AE_TRUTH_FILE is set). It patches the base
unittest.TestResult, so every result class (TextTestResult, Django's) reports here, without reading
any printed text: the printed text is what the parsers under test read.
"""
import json
import os

_path = os.environ.get("AE_TRUTH_FILE")

if _path:
    import unittest.result as _result

    def _record(outcome, test, extra=None):
        entry = {"outcome": outcome, "id": test.id()}
        if extra:
            entry.update(extra)
        with open(_path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry) + "\n")

    def _wrap(name, outcome):
        original = getattr(_result.TestResult, name)

        def wrapper(self, test, *args, **kwargs):
            _record(outcome, test)
            return original(self, test, *args, **kwargs)

        setattr(_result.TestResult, name, wrapper)

    _wrap("addSuccess", "passed")
    _wrap("addFailure", "failed")
    _wrap("addError", "error")
    _wrap("addSkip", "skipped")
    _wrap("addExpectedFailure", "expected-failure")
    _wrap("addUnexpectedSuccess", "unexpected-success")

    _original_sub = _result.TestResult.addSubTest

    def _add_sub_test(self, test, subtest, err):
        if err is not None:
            # A failing subtest fails its parent test; the parent gets no addSuccess call.
            _record("subtest-failed", test, {"subtest": subtest.id()})
        return _original_sub(self, test, subtest, err)

    _result.TestResult.addSubTest = _add_sub_test
