// Target coverage: which printed ids lie inside a requested target, per runner.
import { describe, expect, it } from "vitest";

import { goTargetCovers, pytestTargetCovers, unittestLabel, unittestTargetCovers } from "../../src/observers/index.js";

describe("pytest targets", () => {
  it.each([
    [".", "tests/t.py::test_a", true],
    ["tests", "tests/t.py::test_a", true],
    ["tests/", "tests/t.py::test_a", true],
    ["./tests/t.py", "tests/t.py::C::test_m", true],
    ["tests", "tests2/t.py::test_a", false],
    ["tests/t.py::test_a", "tests/t.py::test_a[1-x]", true],
    ["tests/t.py::test_a", "tests/t.py::test_ab", false],
    ["tests/t.py::C", "tests/t.py::C::test_m", true],
    ["tests/t.py::test_param[a b-c]", "tests/t.py::test_param[a b-c]", true],
  ])("%s covers %s: %s", (target, id, covered) => {
    expect(pytestTargetCovers(target, id)).toEqual(covered);
  });
});

describe("go targets", () => {
  it.each([
    ["./...", "example.com/m/calc::TestAdd", true],
    ["./calc", "example.com/m/calc::TestAdd", true],
    ["./calc", "example.com/m/calculator::TestAdd", false],
    ["./calc::TestAdd", "example.com/m/calc::TestAdd/small", true],
    ["./calc::TestAdd", "example.com/m/calc::TestAddParallel", false],
    ["example.com/m/calc", "example.com/m/calc::TestAdd", true],
    ["./x/...", "example.com/m/x/y::TestA", true],
    ["./x/...", "example.com/m/xy::TestA", false],
  ])("%s covers %s: %s", (target, id, covered) => {
    expect(goTargetCovers(target, id)).toEqual(covered);
  });
});

describe("Django and unittest labels", () => {
  it.each([
    ["admin_utils", "admin_utils"],
    ["tests/admin_utils", "admin_utils"],
    ["tests/admin_utils/tests.py::Example::test_one", "admin_utils.tests.Example.test_one"],
    [".", ""],
    ["/abs/path", null],
    ["bad-label", null],
  ])("%s -> %s", (target, label) => {
    expect(unittestLabel(target)).toEqual(label);
  });

  it.each([
    ["admin_utils", "admin_utils.tests.Example.test_one", true],
    ["admin", "admin_utils.tests.Example.test_one", false],
    ["basic.tests.BasicTests.test_one", "basic.tests.BasicTests.test_one", true],
  ])("%s covers %s: %s", (target, id, covered) => {
    expect(unittestTargetCovers(target, id)).toEqual(covered);
  });
});
