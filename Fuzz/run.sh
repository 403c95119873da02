#!/usr/bin/env bash
# Fuzzes PushSim's parsers with libFuzzer: Fuzz/run.sh TARGET [LENGTH]
#   TARGET  json | scenario | partial | folder | auth | http2 | http1 | measured | aead | signature | x509 | tls | control | sendlog | all
#   LENGTH  seconds (e.g. 30s, the default 10s) or executions per target (e.g. 1000000)
# Builds .build/fuzz/pushsim-fuzz once (swiftc -sanitize=fuzzer: every module of
# Package.swift as a library, Fuzz/FuzzEntry.swift as a module of its own on top),
# starts from the seed corpus in Fuzz/corpus/TARGET and keeps what it learns in
# .build/fuzz/corpus-TARGET. A crash leaves its input in .build/fuzz/ and exits non-zero.
# FUZZ_SANITIZE=fuzzer,address adds AddressSanitizer (slower). HTTP2 is built with
# PUSHSIM_INVARIANTS, so the connection checks its books after every call.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: Fuzz/run.sh json|scenario|partial|folder|auth|http2|http1|measured|aead|signature|x509|tls|control|sendlog|all [seconds like 30s | executions like 1000000]}
length=${2:-10s}
build=.build/fuzz
binary=$build/pushsim-fuzz
sanitize=${FUZZ_SANITIZE:-fuzzer}
mkdir -p "$build"

# The modules in dependency order (Package.swift's layers), each a static library; the
# entry point is a module of its own on top. One -package-name makes `package` visible.
modules=(Base Kernel FakeAPNs Provider Device SendLog Simulator ScenarioFormat Reports Studies TLSCrypto X509 ProviderAuth HTTP2 HTTP1 TLS Transport Live CLI)

# Rebuilt when a source is newer than the binary.
if [ ! -x "$binary" ] || [ -n "$(find Sources Fuzz -name '*.swift' -newer "$binary" | head -1)" ]; then
    echo "building $binary ($sanitize)" >&2
    flags=(-O -parse-as-library -package-name PushSim -sanitize="$sanitize" -I "$build" -L "$build")
    links=()
    for module in "${modules[@]}"; do
        mapfile -t sources < <(find "Sources/$module" -name '*.swift' | sort)
        checks=()
        [ "$module" = HTTP2 ] && checks=(-DPUSHSIM_INVARIANTS)
        # A fresh archive: ar keeps the members of sources removed since, which would link stale code.
        rm -f "$build/lib$module.a"
        swiftc "${flags[@]}" "${checks[@]}" -module-name "$module" -emit-library -static -emit-module \
            -emit-module-path "$build/$module.swiftmodule" -o "$build/lib$module.a" "${sources[@]}"
        links=("-l$module" "${links[@]}")
    done
    swiftc "${flags[@]}" -module-name PushSimFuzz Fuzz/*.swift "${links[@]}" -o "$binary"
fi

run() {
    local name=$1 options=()
    case "$length" in
        *s) options=(-max_total_time="${length%s}") ;;
        *) options=(-runs="$length") ;;
    esac
    mkdir -p "$build/corpus-$name"
    echo "fuzzing $name ($length)" >&2
    PUSHSIM_FUZZ_TARGET=$name "$binary" "${options[@]}" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$build/crash-$name-" "$build/corpus-$name" "Fuzz/corpus/$name"
}

case "$target" in
    all) for name in json scenario partial folder auth http2 http1 measured aead signature x509 tls control sendlog; do run "$name"; done ;;
    json|scenario|partial|folder|auth|http2|http1|measured|aead|signature|x509|tls|control|sendlog) run "$target" ;;
    *) echo "unknown target $target: json, scenario, partial, folder, auth, http2, http1, measured, aead, signature, x509, tls, control, sendlog or all" >&2; exit 64 ;;
esac
