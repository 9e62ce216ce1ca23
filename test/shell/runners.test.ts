import { describe, expect, it } from "vitest";

import { analyzeCommand } from "../../src/grammar/analyze-command.js";

const runners = (line: string): { kind: string; runner: string; targets: string[] }[] =>
  analyzeCommand(line).invocations.map(({ kind, runner, targets }) => ({ kind, runner, targets }));

describe("runner recognition through wrappers", () => {
  it.each([
    ["leading NAME=value", "A=1 B=2 pytest -x", "pytest", "pytest"],
    ["env NAME=value", "env PYTHONHASHSEED=0 python -m pytest", "pytest", "python -m pytest"],
    ["env NAME=value --", "env A=1 -- pytest", "pytest", "pytest"],
    ["env -i", "env -i pytest", "pytest", "pytest"],
    ["env -u NAME", "env -u X pytest", "pytest", "pytest"],
    ["timeout DURATION", "timeout 60 pytest", "pytest", "pytest"],
    ["timeout -s SIG -k DUR DURATION", "timeout -s KILL -k 5 5m python3 -m pytest", "pytest", "python3 -m pytest"],
    ["timeout --preserve-status", "timeout --preserve-status 10.5 go test", "go", "go test"],
    ["time", "time pytest", "pytest", "pytest"],
    ["time -p", "time -p pytest", "pytest", "pytest"],
    ["nice", "nice pytest", "pytest", "pytest"],
    ["nice -n N", "nice -n 10 pytest", "pytest", "pytest"],
    ["nice -N", "nice -5 go test", "go", "go test"],
    ["stdbuf -oL", "stdbuf -oL pytest", "pytest", "pytest"],
    ["stdbuf -o L -e L", "stdbuf -o L -e L pytest", "pytest", "pytest"],
    ["uv run", "uv run pytest -rA", "pytest", "pytest"],
    ["uv run --", "uv run -- pytest", "pytest", "pytest"],
    ["uv run with valued options", "uv run --with x --python 3.12 --frozen pytest", "pytest", "pytest"],
    ["uv run python -m pytest", "uv run python -m pytest", "pytest", "python -m pytest"],
    ["poetry run", "poetry run pytest", "pytest", "pytest"],
    ["pipenv run", "pipenv run pytest", "pytest", "pytest"],
    ["pdm run", "pdm run pytest", "pytest", "pytest"],
    ["hatch run", "hatch run pytest", "pytest", "pytest"],
    ["hatch run env:", "hatch run test:pytest", "pytest", "pytest"],
    ["hatch -e ENV run", "hatch -e test run pytest", "pytest", "pytest"],
    ["rye run", "rye run pytest", "pytest", "pytest"],
    ["coverage run -m pytest", "coverage run -m pytest", "pytest", "coverage run -m pytest"],
    [
      "coverage run [options] -m pytest",
      "coverage run --branch --source=src --rcfile .coveragerc -m pytest",
      "pytest",
      "coverage run --branch --source=src --rcfile .coveragerc -m pytest",
    ],
    ["coverage3 run", "coverage3 run -m pytest", "pytest", "coverage3 run -m pytest"],
    ["python -m coverage run -m pytest", "python -m coverage run -m pytest", "pytest", "python -m coverage run -m pytest"],
    ["wrappers stacked", "env A=1 timeout 60 nice -n 5 uv run pytest", "pytest", "pytest"],
  ])("%s: %j", (_name, line, kind, runner) => {
    expect(runners(line)).toEqual([{ kind, runner, targets: ["."] }]);
  });

  it.each([
    ["env with an unknown option", "env -S 'x' pytest"],
    ["timeout without a duration", "timeout pytest"],
    ["uv run -m (module mode)", "uv run -m pytest"],
    ["uv tool run is no run", "uv tool run pytest"],
    ["nine wrappers deep", "time time time time time time time time time pytest"],
  ])("rejects %s: %j", (_name, line) => {
    expect(runners(line)).toEqual([]);
  });
});

describe("runner recognition: interpreters and spellings", () => {
  it.each([
    ["pytest", "pytest", "pytest", "pytest"],
    ["py.test", "py.test", "pytest", "py.test"],
    ["pytest-3", "pytest-3", "pytest", "pytest-3"],
    ["a venv path", ".venv/bin/pytest", "pytest", ".venv/bin/pytest"],
    ["an absolute path", "/usr/bin/pytest", "pytest", "/usr/bin/pytest"],
    ["python -m pytest", "python -m pytest", "pytest", "python -m pytest"],
    ["python3 -m pytest", "python3 -m pytest", "pytest", "python3 -m pytest"],
    ["python3.X with -B", "python3.11 -B -m pytest", "pytest", "python3.11 -B -m pytest"],
    ["pypy3", "pypy3 -m pytest", "pytest", "pypy3 -m pytest"],
    ["-W X and -X X", "python -W error -X dev -m pytest", "pytest", "python -W error -X dev -m pytest"],
    ["joined -Wignore", "python -Wignore -m pytest", "pytest", "python -Wignore -m pytest"],
    [
      "-OO -u -E -I -P -q -s -S -v",
      "python -OO -u -E -I -P -q -s -S -v -m pytest",
      "pytest",
      "python -OO -u -E -I -P -q -s -S -v -m pytest",
    ],
    ["an interpreter path", "/usr/bin/python3 -m pytest", "pytest", "/usr/bin/python3 -m pytest"],
    ["a venv interpreter", ".venv/bin/python -m pytest", "pytest", ".venv/bin/python -m pytest"],
    ["go test", "go test", "go", "go test"],
    ["a go path", "/usr/local/go/bin/go test", "go", "/usr/local/go/bin/go test"],
    ["python tests/runtests.py", "python tests/runtests.py", "django", "python tests/runtests.py"],
    ["python ./tests/runtests.py", "python ./tests/runtests.py", "django", "python ./tests/runtests.py"],
    ["./tests/runtests.py", "./tests/runtests.py", "django", "./tests/runtests.py"],
    ["python manage.py test", "python manage.py test", "django", "python manage.py test"],
    ["./manage.py test", "./manage.py test", "django", "./manage.py test"],
    ["django-admin test", "django-admin test", "django", "django-admin test"],
    ["python -m django test", "python -m django test", "django", "python -m django test"],
    ["coverage run tests/runtests.py", "coverage run tests/runtests.py", "django", "coverage run tests/runtests.py"],
    ["python -m unittest", "python -m unittest", "unittest", "python -m unittest"],
  ])("%s: %j", (_name, line, kind, runner) => {
    expect(runners(line)).toEqual([{ kind, runner, targets: ["."] }]);
  });

  it.each([
    ["python runtests.py from inside tests/", "cd tests && python runtests.py", "/repo"],
    ["./runtests.py from inside tests/", "./runtests.py", "/repo/tests"],
  ])("%s", (_name, line, cwd) => {
    expect(analyzeCommand(line, { cwd }).invocations.map((i) => i.kind)).toEqual(["django"]);
  });

  it.each([
    ["echo pytest", "echo pytest"],
    ["grep -r pytest", "grep -r pytest ."],
    ["git commit -m 'make pytest pass'", 'git commit -m "make pytest pass"'],
    ["a heredoc body", "cat <<EOF\npytest -q\nEOF"],
    ["python runtests.py outside tests/", "python runtests.py"],
    ["manage.py migrate", "python manage.py migrate"],
    ["pip install pytest", "pip install pytest"],
    ["which pytest", "which pytest"],
    ["python -c", "python -c 'import pytest' -m pytest"],
    ["python -i", "python -i -m pytest"],
    ["go vet", "go vet ./..."],
    ["go build", "go build ./..."],
    ["npm test", "npm test"],
    ["cargo build", "cargo build"],
    ["make test", "make test"],
    ["tox", "tox -e py"],
    ["python -m pip", "python -m pip install pytest"],
    ["an opaque line", 'pytest "tests/a.py'],
  ])("is no invocation: %s", (_name, line) => {
    expect(runners(line)).toEqual([]);
  });
});

const options = (line: string): object[] =>
  analyzeCommand(line).invocations.map(({ targets, filtered, runsTests }) => ({ targets, filtered, runsTests }));

describe("option tables: values never become targets", () => {
  it.each([
    ["pytest -k expr", "pytest -k 'a and b' tests/t.py", ["tests/t.py"], true, true],
    ["pytest -m mark", "pytest -m slow tests", ["tests"], true, true],
    ["pytest -p no:cacheprovider", "pytest -p no:cacheprovider t.py", ["t.py"], false, true],
    ["pytest -n 4", "pytest -n 4 t.py", ["t.py"], false, true],
    ["pytest --timeout 30", "pytest --timeout 30 t.py", ["t.py"], false, true],
    ["pytest -W error", "pytest -W error t.py", ["t.py"], false, true],
    ["pytest --junitxml f", "pytest --junitxml f.xml t.py", ["t.py"], false, true],
    ["pytest -o k=v", "pytest -o addopts= t.py", ["t.py"], false, true],
    ["pytest --tb short --maxfail 1", "pytest --tb short --maxfail 1 t.py", ["t.py"], false, true],
    ["pytest -c and --rootdir (another config file may hold any selection)", "pytest -c cfg.ini --rootdir r t.py", ["t.py"], true, true],
    ["pytest -o python_functions=... changes what is collected", "pytest -o python_functions=test_other t.py", ["t.py"], true, true],
    ["pytest -p of a plugin may drop tests; -p no:X may not", "pytest -p dropper -p no:cacheprovider t.py", ["t.py"], true, true],
    ["go -args -test.run selects what the go flags do not show", "go test ./... -args -test.run=TestOther", ["./..."], true, true],
    ["go -args -test.v only reports", "go test ./... -args -test.v", ["./..."], false, true],
    ["pytest @args.txt holds options the line does not show", "pytest t.py @args.txt", ["t.py", "@args.txt"], true, true],
    ["pytest joined -kfoo -n4", "pytest -kfoo -n4 t.py", ["t.py"], true, true],
    ["pytest clustered -qx", "pytest -qx t.py", ["t.py"], false, true],
    ["pytest --cov takes an optional value", "pytest --cov src -q", ["."], false, true],
    ["pytest --cov before an option", "pytest --cov -q t.py", ["t.py"], false, true],
    ["pytest --deselect", "pytest --deselect t.py::a t.py", ["t.py"], true, true],
    ["pytest node ids stay whole", "pytest 't.py::C::test_x[a-1]'", ["t.py::C::test_x[a-1]"], false, true],
    ["pytest after --", "pytest -- -weird.py", ["-weird.py"], false, true],
    ["go -run X -count 1 -timeout 5m -tags t -p 4", "go test -run X -count 1 -timeout 5m -tags t -p 4 ./pkg", ["./pkg"], true, true],
    ["go -run=X", "go test -run=TestA ./...", ["./..."], true, true],
    ["go -coverprofile", "go test -coverprofile c.out ./a ./b", ["./a", "./b"], false, true],
    ["go -args stops", "go test ./a -args -x y", ["./a"], false, true],
    ["go flags after packages", "go test ./... -v -count=1", ["./..."], false, true],
    ["django --settings --parallel -v", "python tests/runtests.py --settings s --parallel 2 -v 2 migrations", ["migrations"], false, true],
    ["django --parallel without a number", "python tests/runtests.py --parallel admin_views", ["admin_views"], false, true],
    ["django --shuffle SEED", "python tests/runtests.py --shuffle 42 forms", ["forms"], false, true],
    ["manage.py --settings -t", "python manage.py test --settings a.b -t . app", ["app"], false, true],
    ["manage.py -p pattern narrows", "python manage.py test -p 'test_x*.py' app", ["app"], true, true],
    ["unittest labels", "python -m unittest -v tests.test_x tests.test_y", ["tests.test_x", "tests.test_y"], false, true],
    ["unittest discover -s", "python -m unittest discover -s tests", ["tests"], false, true],
  ])("%s", (_name, line, targets, filtered, runsTests) => {
    expect(options(line)).toEqual([{ targets, filtered, runsTests }]);
  });
});

describe("selection modes and modes that run no test", () => {
  it.each([
    ["pytest --lf", "pytest --lf", true, true],
    ["pytest --last-failed", "pytest --last-failed", true, true],
    ["pytest --sw", "pytest --sw", true, true],
    ["pytest --stepwise", "pytest --stepwise", true, true],
    ["pytest --ignore", "pytest --ignore tests/slow", true, true],
    ["pytest -x is no selection", "pytest -x", false, true],
    ["go -skip", "go test -skip TestSlow ./...", true, true],
    ["django --tag", "python tests/runtests.py --tag slow", true, true],
    ["django --exclude-tag", "python tests/runtests.py --exclude-tag slow", true, true],
    ["django -k", "python manage.py test -k login", true, true],
    ["django --start-at", "python tests/runtests.py --start-at forms", true, true],
    ["unittest -k", "python -m unittest -k login", true, true],
    ["pytest --collect-only", "pytest --collect-only", false, false],
    ["pytest --co", "pytest --co -q", false, false],
    ["pytest --help", "pytest --help", false, false],
    ["pytest -h", "pytest -h", false, false],
    ["pytest --version", "pytest --version", false, false],
    ["pytest --fixtures", "pytest --fixtures", false, false],
    ["pytest --markers", "pytest --markers", false, false],
    ["pytest --setup-plan", "pytest --setup-plan", false, false],
    ["pytest with a value option missing its value", "pytest -k", true, false],
    ["go -list", "go test -list . ./...", false, false],
    // -run '^$' selects no test; with -bench or -fuzz the benchmarks or the fuzz target still run.
    ["go -run '^$' -bench", "go test -run '^$' -bench . ./...", true, true],
    ["go -run '^$' -fuzz", "go test -run '^$' -fuzz FuzzX ./fuzzing", true, true],
    ["go -run=^$", "go test -run=^$ ./...", true, false],
    ["go -c", "go test -c ./pkg", false, false],
    ["django --help", "python manage.py test --help", false, false],
    ["unittest -h", "python -m unittest -h", false, false],
  ])("%s", (_name, line, filtered, runsTests) => {
    expect(analyzeCommand(line).invocations.map((i) => ({ filtered: i.filtered, runsTests: i.runsTests }))).toEqual([
      { filtered, runsTests },
    ]);
  });
});

describe("report files, json and verbosity", () => {
  it.each([
    ["--junitxml=FILE", "pytest --junitxml=r.xml", { reportFiles: ["r.xml"], json: false, verbose: false }],
    ["--junit-xml FILE", "pytest --junit-xml r.xml", { reportFiles: ["r.xml"], json: false, verbose: false }],
    ["--report-log", "pytest --report-log=log.jsonl", { reportFiles: ["log.jsonl"], json: false, verbose: false }],
    ["--json-report default file", "pytest --json-report", { reportFiles: [".report.json"], json: false, verbose: false }],
    ["-rA", "pytest -rA", { reportFiles: [], json: false, verbose: true }],
    ["-ra has no P", "pytest -ra", { reportFiles: [], json: false, verbose: false }],
    ["-rfEP", "pytest -rfEP", { reportFiles: [], json: false, verbose: true }],
    ["-vv", "pytest -vv", { reportFiles: [], json: false, verbose: true }],
    ["go -json -v", "go test -json -v ./...", { reportFiles: [], json: true, verbose: true }],
    ["go -json=false", "go test -json=false ./...", { reportFiles: [], json: false, verbose: false }],
    ["django -v 2", "python tests/runtests.py -v 2", { reportFiles: [], json: false, verbose: true }],
    ["django --verbosity=1", "python tests/runtests.py --verbosity=1", { reportFiles: [], json: false, verbose: false }],
    ["unittest -v", "python -m unittest -v", { reportFiles: [], json: false, verbose: true }],
  ])("%s", (_name, line, expected) => {
    expect(analyzeCommand(line).invocations.map(({ reportFiles, json, verbose }) => ({ reportFiles, json, verbose }))).toEqual([expected]);
  });
});

describe("shadowed runners", () => {
  it.each([
    ["a function with the runner's name", "pytest(){ echo 5 passed; }; pytest", true],
    ["a function keyword definition", "function pytest { :; }; pytest", true],
    ["an alias", "alias pytest=true; pytest", true],
    ["a PATH= prepend on the command", "PATH=./fake:$PATH pytest", true],
    ["an exported PATH prepend", "export PATH=./fake:$PATH && pytest", true],
    ["env PATH=", "env PATH=/tmp/x:$PATH pytest", true],
    ["a function shadowing the interpreter", "python(){ :; }; python -m pytest", true],
    ["a function shadowing a wrapper", "timeout(){ :; }; timeout 5 pytest", true],
    ["a function defined by a static eval", `eval "pytest() { echo 5 passed; }"; pytest`, true],
    ["an alias defined by eval", "eval alias pytest=true; pytest", true],
    ["a PATH prepend made by eval", "eval 'export PATH=./fake:$PATH'; pytest", true],
    ["an eval that defines no runner name", `eval "export X=1"; pytest`, false],
    // What an eval of expansions runs is not known when the line is read: not analysed (docs/shell.md).
    // What `eval` runs is only known when its text is static: anything built at run time may define the runner.
    ["an eval of a command's output shadows", `eval "$(pyenv init -)" && pytest`, true],
    ["a PATH append is fine", "export PATH=$PATH:/opt/bin; pytest", false],
    ["another function name is fine", "helper(){ :; }; pytest", false],
    ["nothing redefined", "pytest", false],
  ])("%s", (_name, line, shadowed) => {
    const shadows = analyzeCommand(line).invocations.map((i) => i.shadowed);
    expect(shadows.at(-1)).toEqual(shadowed);
  });
});

describe("afterStash and repeated", () => {
  it.each([
    ["git stash && pytest", "git stash && pytest", [true]],
    ["git stash push", "git stash push -m wip; pytest", [true]],
    ["git stash save", "git stash save; pytest", [true]],
    ["git stash -u", "git stash -u && pytest", [true]],
    ["pop ends it", "git stash && pytest; git stash pop && pytest", [true, false]],
    ["apply ends it", "git stash; git stash apply; pytest", [false]],
    ["git stash list is no stash", "git stash list; pytest", [false]],
    ["git -C dir stash", "git -C repo stash && pytest", [true]],
    ["no stash", "pytest", [false]],
  ])("%s", (_name, line, expected) => {
    expect(analyzeCommand(line).invocations.map((i) => i.afterStash)).toEqual(expected);
  });

  it.each([
    ["a for loop", "for f in a b; do pytest $f; done", [true]],
    ["a while loop", "while true; do pytest; done", [true]],
    ["a function body", "run(){ pytest; }; run", [true]],
    ["an if body runs at most once", "if true; then pytest; fi", [false]],
    ["plain", "pytest", [false]],
  ])("repeated inside %s", (_name, line, expected) => {
    expect(analyzeCommand(line).invocations.map((i) => i.repeated)).toEqual(expected);
  });
});
