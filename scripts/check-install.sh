#!/usr/bin/env bash
# A user's build, checked as CI checks it: the `release` preset (warnings as errors here, as in every
# build CI makes), installed into a temporary prefix and run from there, away from the source tree:
# `ayar-cli profiles`, `ayar-cli study presets` and a short benchmark against the installed
# ayar-engine's timing simulator.
# Then the .deb: its dependencies must be Debian's runtime packages, and the programs must run from
# the package's own layout. Arguments: none. Takes a few minutes after the first build.
set -euo pipefail
cd "$(dirname "$0")/.."
source_dir=$(pwd)
./scripts/setup.sh
cmake --preset release -DAYAR_WERROR=ON >/dev/null
cmake --build --preset release

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say() { printf 'check-install: %s\n' "$*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

say "installing into a temporary prefix"
cmake --install build/release --prefix "$work/prefix" >/dev/null
for f in bin/ayar-cli bin/ayar-engine share/ayar/engines/vllm.json share/ayar/profiles/cpu-quick.json share/ayar/studies/smoke.json; do
  [ -e "$work/prefix/$f" ] || fail "the install has no $f"
done

cd "$work"
cli=$work/prefix/bin/ayar-cli
"$cli" profiles >profiles.txt || fail "ayar-cli profiles exited with $?"
grep -q '^sharegpt-8rps$' profiles.txt || fail "ayar-cli profiles does not list sharegpt-8rps: $(cat profiles.txt)"
"$cli" study presets >studies.txt || fail "ayar-cli study presets exited with $?"
grep -q '^smoke$' studies.txt || fail "ayar-cli study presets does not list smoke: $(cat studies.txt)"

say "a short benchmark against the installed ayar-engine (timing simulator)"
"$cli" bench --engine bundled --model qwen3-0.6b --device sim --engine-arg=--sim-profile=fixed:5,1 \
  --dataset-name random --random-input-len 32 --random-output-len 8 --num-prompts 20 --request-rate 50 \
  --seed 1 --store "$work/ayar.db" >bench.txt 2>&1 || { cat bench.txt >&2; fail "ayar-cli bench exited with an error"; }
grep -q 'Successful requests: *20 *$' bench.txt || { cat bench.txt >&2; fail "the benchmark did not complete 20 requests"; }
"$cli" runs show 1 --store "$work/ayar.db" >show.txt
grep -q "engine: *$work/prefix/bin/ayar-engine " show.txt ||
  { cat show.txt >&2; fail "the run did not use the installed ayar-engine"; }

say "the .deb"
(cd "$source_dir/build/release" && cpack -G DEB >/dev/null)
deb=$(ls "$source_dir"/build/release/ayar_*.deb)
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libc6 libcurl4 libsqlite3-0 libpcre2-8-0 libstdc++6; do
  [[ ", $depends," == *", $lib "* || ", $depends," == *", $lib,"* ]] || fail "$deb does not depend on $lib: $depends"
done
dpkg-deb -x "$deb" "$work/deb"
"$work/deb/usr/bin/ayar-cli" profiles | grep -q '^cpu-quick$' || fail "the packaged ayar-cli does not find its profiles"
"$work/deb/usr/bin/ayar-engine" --version >/dev/null || fail "the packaged ayar-engine does not run"
say "ok: $(basename "$deb") depends on $depends"
