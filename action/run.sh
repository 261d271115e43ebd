#!/usr/bin/env bash
# The GitHub Action's step (action.yml; docs/ci.md "The GitHub Action"): downloads the release archive for the
# runner, verifies it against the release's SHA256SUMS, runs fanout check once for SARIF, annotations and the
# Markdown report (appended to the job summary), and exits as check does.
# Inputs arrive as FANOUT_EXPORT, FANOUT_SCHEMA, FANOUT_FAIL_ON, FANOUT_BASELINE and FANOUT_VERSION;
# FANOUT_RELEASE_URL, the folder holding the archives and SHA256SUMS, replaces the GitHub release (a mirror, a test).
# Its own messages go to stderr, so that stdout carries only check's workflow commands.
set -euo pipefail

fail() {
    echo "::error title=fanout action::$*"
    exit 2
}
say() { echo "fanout action: $*" >&2; }

action=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}
export=${FANOUT_EXPORT:-}
[ -n "$export" ] || fail "the input 'export' is empty: give the export to check"
[ -e "$export" ] || fail "the export '$export' does not exist (did the job check out the repository, or make it?)"
version=${FANOUT_VERSION:-$(cat "$action/VERSION")}
version=${version#v}
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] || fail "the input 'version' is '$version', not a version such as 1.2.3"
for variable in RUNNER_TEMP GITHUB_OUTPUT GITHUB_STEP_SUMMARY; do
    [ -n "${!variable:-}" ] || fail "$variable is not set: this script runs as a step of a GitHub Actions job"
done

case "${RUNNER_OS:-}/${RUNNER_ARCH:-}" in
    Linux/X64) arch=x86_64 ;;
    *) fail "no release archive for ${RUNNER_OS:-an unknown OS} on ${RUNNER_ARCH:-an unknown CPU}: the releases hold Linux x86_64 only (runs-on: ubuntu-latest)" ;;
esac
name=fanout-$version-linux-$arch.tar.gz
# The archive is linked on Debian 12 (glibc 2.36: arc4random); an older glibc would fail at start with a loader error.
glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | sed -n 's/^glibc //p')
if [ -n "$glibc" ] && [ "$(printf '%s\n' 2.36 "$glibc" | sort -V | head -1)" != 2.36 ]; then
    fail "the release archive needs glibc 2.36 or later, and this runner has $glibc (ubuntu-24.04 or later: runs-on: ubuntu-latest)"
fi

if [ -n "${FANOUT_RELEASE_URL:-}" ]; then
    base=${FANOUT_RELEASE_URL%/}
else
    # github.action_repository is empty inside composite actions (actions/runner#2525); the runner checks an action
    # out at …/_actions/OWNER/REPO/REF, which names it.
    repository=${GITHUB_ACTION_REPOSITORY:-}
    if [ -z "$repository" ] && [[ $action =~ /_actions/([^/]+)/([^/]+)/[^/]+$ ]]; then
        repository=${BASH_REMATCH[1]}/${BASH_REMATCH[2]}
    fi
    [ -n "$repository" ] || fail "cannot tell which repository's releases hold Fanout (a local action?): set FANOUT_RELEASE_URL"
    base=${GITHUB_SERVER_URL:-https://github.com}/$repository/releases/download/v$version
fi

folder=$RUNNER_TEMP/fanout-$version
rm -rf "$folder" && mkdir -p "$folder/bin"
say "downloading $base/$name"
curl -fsSL --retry 3 -o "$folder/$name" "$base/$name" || fail "could not download $base/$name"
curl -fsSL --retry 3 -o "$folder/SHA256SUMS" "$base/SHA256SUMS" || fail "could not download $base/SHA256SUMS"
expected=$(awk -v name="$name" '$2 == name || $2 == "*" name { print $1 }' "$folder/SHA256SUMS")
[ -n "$expected" ] || fail "$base/SHA256SUMS lists no $name"
actual=$(sha256sum "$folder/$name" | cut -d' ' -f1)
[ "$actual" = "$expected" ] || fail "$name has SHA-256 $actual, but SHA256SUMS says $expected: not installing it"
tar -xzf "$folder/$name" -C "$folder/bin" fanout || fail "$name holds no fanout"
fanout=$folder/bin/fanout
say "$("$fanout" --version)"

sarif=$folder/fanout.sarif markdown=$folder/fanout.md
arguments=(check "$export" --fail-on "${FANOUT_FAIL_ON:-error}"
    --format sarif --output "$sarif" --format markdown --output "$markdown" --format github)
[ -z "${FANOUT_SCHEMA:-}" ] || arguments+=(--schema "$FANOUT_SCHEMA")
[ -z "${FANOUT_BASELINE:-}" ] || arguments+=(--baseline "$FANOUT_BASELINE")
set +e
"$fanout" "${arguments[@]}"
status=$?
set -e

# The summary may already hold earlier steps' text: appended, never replaced.
[ ! -f "$markdown" ] || cat "$markdown" >>"$GITHUB_STEP_SUMMARY"
[ ! -f "$sarif" ] || echo "sarif=$sarif" >>"$GITHUB_OUTPUT"
echo "exit-code=$status" >>"$GITHUB_OUTPUT"
[ "$status" -le 1 ] || echo "::error title=fanout check::fanout check could not check $export (exit $status): its message is above"
exit "$status"
