#!/bin/sh
# The README's two commands on a fresh clone, the way a new user or CI meets them (issue 17,
# section 1). Run before a release, as root, from the repository:
#
#   scripts/check-fresh-clone.sh [root|nobody|no-pyenv|all]   (default: all)
#
#   root      clone as root: `npm run demo`, then `npm test`
#   nobody    clone owned by the unprivileged user nobody: `npm run demo` (the bootstrap cannot
#             apt-install there, so it may only say what is missing), then the install hint for a
#             PATH without go and bubblewrap, which must name both packages
#   no-pyenv  clone as root with the machine image's pyenv out of reach (a private mount namespace
#             with an empty tmpfs over it, and PATH without it): `npm run demo`, then `npm test`
#
# Each clone is made from HEAD (commit first) into a fresh directory under $TMPDIR, removed after.
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-all}
base=$(mktemp -d "${TMPDIR:-/tmp}/ae-fresh-clone-XXXXXX")
chmod 755 "$base"
trap 'rm -rf "$base"' EXIT
pyenv_root=${PYENV_ROOT:-/root/.pyenv}

say() { printf '\n== %s\n' "$*"; }

fresh_clone() {
  git clone -q --no-hardlinks "$repo" "$1"
}

# PATH without pyenv (or any entry under the pyenv root).
path_without_pyenv() {
  printf '%s' "$PATH" | tr ':' '\n' | grep -v -e "^$pyenv_root" -e '^$' | paste -sd: -
}

check_root() {
  say "root: fresh clone, npm run demo, npm test"
  fresh_clone "$base/root"
  (cd "$base/root" && npm run demo && npm test)
}

check_nobody() {
  say "nobody: fresh clone, npm run demo"
  fresh_clone "$base/nobody"
  mkdir -p "$base/nobody-home"
  chown -R nobody "$base/nobody" "$base/nobody-home"
  runuser -u nobody -- env HOME="$base/nobody-home" PATH="$(path_without_pyenv)" sh -c "cd '$base/nobody' && npm run demo"
  say "nobody: the bootstrap's hint when go and bubblewrap are missing"
  hint=$(runuser -u nobody -- env HOME="$base/nobody-home" PATH=/nonexistent /bin/sh -c "cd '$base/nobody' && /usr/bin/node scripts/bootstrap.mjs 2>&1" || true)
  printf '%s\n' "$hint"
  printf '%s' "$hint" | grep -q 'apt-get install -y .*golang-go' || { echo "the hint does not name golang-go"; exit 1; }
  printf '%s' "$hint" | grep -q 'apt-get install -y .*bubblewrap' || { echo "the hint does not name bubblewrap"; exit 1; }
}

check_no_pyenv() {
  say "no-pyenv: fresh clone, pyenv out of reach, npm run demo, npm test"
  fresh_clone "$base/no-pyenv"
  unshare --mount --propagation private sh -c "
    set -e
    if [ -d '$pyenv_root' ]; then mount -t tmpfs tmpfs '$pyenv_root'; fi
    export PATH='$(path_without_pyenv)'
    unset PYENV_ROOT PYENV_VERSION
    python3 -c 'import sys; print(\"python3 is\", sys.executable, sys.version.split()[0])'
    cd '$base/no-pyenv' && npm run demo && npm test
  "
}

case "$mode" in
  root) check_root ;;
  nobody) check_nobody ;;
  no-pyenv) check_no_pyenv ;;
  all) check_root; check_nobody; check_no_pyenv ;;
  *) echo "usage: $0 [root|nobody|no-pyenv|all]" >&2; exit 64 ;;
esac
say "fresh-clone checks passed: $mode"
