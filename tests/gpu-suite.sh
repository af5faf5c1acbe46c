#!/usr/bin/env bash
# jetrt's full test suite on a GPU machine (written for the H100 machine:
# Ubuntu 24.04, CUDA 13 in /usr/local/cuda, compute-sanitizer, 16 cores).
#
#   bash tests/gpu-suite.sh [PASS...]
#
# PASS is any of: build plain orin memcheck samples bench (default: all of them,
# in that order). Passes can be split across calls (the build directory is reused), e.g.
# `build plain orin` and then `memcheck`, to stay under a per-command time limit.
#   build     Release build, JET_WERROR=ON, samples and tests; then jet-info's report
#   plain     the whole CTest suite
#   orin      the whole CTest suite with JET_PLATFORM=orin (Tegra policy paths on this GPU)
#   memcheck  every gpu_* test alone under compute-sanitizer --tool memcheck --leak-check full
#   samples   the seed-document samples whose tables the README quotes: blur,
#             transpose-bw, zero-copy and managed-matrix (each also under
#             JET_PLATFORM=orin), l2-persist, jet-p2p-bandwidth
#   bench     benchmark programs, if any (hook: build/.../bench/* or jet-bench-*)
# Each pass prints one summary line ("pass plain: N passed, N failed, N skipped").
# Exit status: 0 when every pass run had no failure, 1 otherwise. The script
# never stops at the first failure.
#
# Environment: BUILD_DIR (default build/gpu), JOBS (build jobs, default nproc),
# CTEST_JOBS (default 4; the *_alone tests run serially all the same: CTest's
# RUN_SERIAL), MEMCHECK_JOBS (default 4),
# MEMCHECK_TIMEOUT (seconds per test under compute-sanitizer, default 900),
# JET_CUDA_ARCHS (default "87;90"), OUT (if set, logs are written there; else
# under BUILD_DIR/gpu-suite-logs).
set -u

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
BUILD=${BUILD_DIR:-build/gpu}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 16)}
CTEST_JOBS=${CTEST_JOBS:-4}
MEMCHECK_JOBS=${MEMCHECK_JOBS:-4}
MEMCHECK_TIMEOUT=${MEMCHECK_TIMEOUT:-900} # seconds per test under the sanitizer; 124: it ran out
ARCHS=${JET_CUDA_ARCHS:-87;90}
LOGS=${OUT:-$BUILD/gpu-suite-logs}
mkdir -p "$LOGS" || exit 1
SUMMARY_FILE=$LOGS/summary.txt
FAILED=0
case ":$PATH:" in *:/usr/local/cuda/bin:*) ;; *) export PATH="$PATH:/usr/local/cuda/bin" ;; esac

# EGL/GL: the GPU machine has NVIDIA's vendor libraries but no glvnd dispatch
# libraries or headers; tests/stage-device.sh stages them into .device/gl.
GL_ARGS=()
if [ -d .device/gl/lib ]; then
  export LD_LIBRARY_PATH="$PWD/.device/gl/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  GL_ARGS=("-DJET_GL_PREFIX=$PWD/.device/gl" "-DCMAKE_PREFIX_PATH=$PWD/.device/gl")
fi
if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && ! ls /usr/share/glvnd/egl_vendor.d/*nvidia* >/dev/null 2>&1; then
  for f in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json /etc/glvnd/egl_vendor.d/10_nvidia.json; do
    [ -f "$f" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$f && break
  done
fi

LINES=()
summary() {
  LINES+=("$*")
  echo "$*" | tee -a "$SUMMARY_FILE"
}

TESTS_BIN=$BUILD/tests/jet-tests
JET_INFO=$BUILD/samples/jet-info

pass_build() {
  local t0=$SECONDS rc
  {
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DJET_WERROR=ON \
          -DJET_BUILD_TESTS=ON -DJET_BUILD_SAMPLES=ON "-DJET_CUDA_ARCHS=$ARCHS" "${GL_ARGS[@]}" &&
      cmake --build "$BUILD" -j "$JOBS"
  } >"$LOGS/build.log" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then
    tail -40 "$LOGS/build.log"
    summary "pass build: FAILED (exit $rc, $((SECONDS - t0))s; see $LOGS/build.log)"
    FAILED=1
    return 1
  fi
  summary "pass build: ok ($((SECONDS - t0))s, Release, JET_WERROR=ON, JET_CUDA_ARCHS=$ARCHS, $(grep -c 'warning:' "$LOGS/build.log") warnings; $(grep -oE '(EGL|GL) interop: (on|off)' "$LOGS/build.log" | tr '\n' ' '))"
  echo "--- jet-info"
  "$JET_INFO" 2>&1 | tee "$LOGS/jet-info.txt"
  rc=${PIPESTATUS[0]}
  echo "--- jet-info --platform orin"
  "$JET_INFO" --platform orin 2>&1 | tee "$LOGS/jet-info-orin.txt" | sed -n '/^policy/,$p'
  if [ "$rc" -ne 0 ]; then
    summary "jet-info: exit $rc (2 = no CUDA device): the GPU tests will skip"
    FAILED=1
  fi
  return 0
}

have_build() {
  if [ ! -x "$TESTS_BIN" ]; then
    summary "pass $1: FAILED (no $TESTS_BIN: run the build pass first)"
    FAILED=1
    return 1
  fi
}

# ctest pass: NAME [ENV=VALUE...]
pass_ctest() {
  local name=$1 log=$LOGS/ctest-$1.log t0=$SECONDS total passed skipped failed
  shift
  have_build "$name" || return 1
  env "$@" ctest --test-dir "$BUILD" --output-on-failure -j "$CTEST_JOBS" --timeout 300 >"$log" 2>&1
  total=$(grep -cE 'Test +#[0-9]+: ' "$log")
  passed=$(grep -cE 'Test +#[0-9]+: .* Passed ' "$log")
  skipped=$(grep -cE 'Test +#[0-9]+: .*\*\*\*Skipped ' "$log")
  failed=$((total - passed - skipped))
  if [ "$total" -eq 0 ]; then
    failed=1
    tail -20 "$log"
  fi
  grep -E 'Test +#[0-9]+: ' "$log" | grep -vE ' Passed |\*\*\*Skipped ' | sed 's/^/  /'
  local skipped_gpu
  skipped_gpu=$(grep -E 'Test +#[0-9]+: gpu_.*\*\*\*Skipped ' "$log" | sed -E 's/.*#[0-9]+: ([a-z0-9_]+).*/\1/' | tr '\n' ' ')
  [ -z "$skipped_gpu" ] || echo "  skipped gpu tests ($name): $skipped_gpu"
  summary "pass $name: $passed passed, $failed failed, $skipped skipped ($((SECONDS - t0))s)"
  [ "$failed" -eq 0 ] || FAILED=1
}

memcheck_one() {
  local name=$1 sanitizer=$2 log=$LOGS/memcheck/$1.log rc
  # Tests provoke CUDA API errors on purpose and check the statuses themselves,
  # so API errors are not reported; memory errors and leaks are.
  timeout "$MEMCHECK_TIMEOUT" "$sanitizer" --tool memcheck --error-exitcode 99 --leak-check full \
    --report-api-errors no "$TESTS_BIN" "$name" >"$log" 2>&1
  rc=$?
  echo "$rc" >"$LOGS/memcheck/$name.rc"
}

pass_memcheck() {
  local t0=$SECONDS sanitizer names n passed=0 failed=0 skipped=0 errors=0 rc e
  have_build memcheck || return 1
  sanitizer=$(command -v compute-sanitizer || true)
  for c in /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer; do
    [ -n "$sanitizer" ] || { [ -x "$c" ] && sanitizer=$c; }
  done
  if [ -z "$sanitizer" ]; then
    summary "pass memcheck: FAILED (compute-sanitizer not found)"
    FAILED=1
    return 1
  fi
  rm -rf "$LOGS/memcheck"
  mkdir -p "$LOGS/memcheck"
  # Tests that repeat thousands of cycles to measure growth themselves would
  # take hours under the sanitizer: MEMCHECK_SKIP (a regex) leaves them out.
  names=$("$TESTS_BIN" --list gpu_ | grep -vE "${MEMCHECK_SKIP:-_cycles|cycles_}" || true)
  echo "memcheck: leaving out $("$TESTS_BIN" --list gpu_ | grep -cE "${MEMCHECK_SKIP:-_cycles|cycles_}") cycle test(s) (MEMCHECK_SKIP)"
  n=0
  for name in $names; do
    case $name in *_alone) continue ;; esac
    memcheck_one "$name" "$sanitizer" &
    n=$((n + 1))
    if [ "$n" -ge "$MEMCHECK_JOBS" ]; then
      wait -n
      n=$((n - 1))
    fi
  done
  wait
  for name in $names; do
    case $name in *_alone) memcheck_one "$name" "$sanitizer" ;; esac
  done
  for name in $names; do
    rc=$(cat "$LOGS/memcheck/$name.rc" 2>/dev/null || echo 255)
    e=$(grep -oE 'ERROR SUMMARY: [0-9]+' "$LOGS/memcheck/$name.log" | grep -oE '[0-9]+$' | tail -1)
    e=${e:-0}
    errors=$((errors + e))
    # A test that skips before its first CUDA call exits 77, which
    # compute-sanitizer replaces with its own 255 (no instrumented call); the
    # runner's last line still says "NAME: skipped".
    [ "$rc" = 255 ] && [ "$e" = 0 ] && grep -qx "$name: skipped" "$LOGS/memcheck/$name.log" && rc=77
    case $rc in
      0) passed=$((passed + 1)) ;;
      77)
        skipped=$((skipped + 1))
        echo "  memcheck $name: skipped"
        ;;
      *)
        failed=$((failed + 1))
        echo "  memcheck $name: exit $rc, $e errors (log: $LOGS/memcheck/$name.log)"
        grep -m 12 -E '=========|FAILED|CHECK' "$LOGS/memcheck/$name.log" | sed 's/^/    /'
        ;;
    esac
  done
  summary "pass memcheck: $passed passed, $failed failed (errors: $errors), $skipped skipped ($((SECONDS - t0))s)"
  [ "$failed" -eq 0 ] && [ "$errors" -eq 0 ] || FAILED=1
}

# The samples each run once (180 s at most), output in $LOGS/sample-NAME.log.
pass_samples() {
  local t0=$SECONDS ran=0 failed=0 rc name bin envs
  have_build samples || return 1
  for spec in blur transpose-bw zero-copy zero-copy:orin managed-matrix managed-matrix:orin \
              l2-persist p2p-bandwidth/jet-p2p-bandwidth; do
    envs=()
    case $spec in *:orin) envs=(JET_PLATFORM=orin); spec=${spec%:orin} ;; esac
    bin=$BUILD/samples/${spec%%/*}/${spec##*/}
    name=${spec##*/}${envs:+-orin}
    echo "--- sample $name"
    if [ ! -x "$bin" ]; then
      echo "  sample $name: not built ($bin)"
      failed=$((failed + 1))
      continue
    fi
    env "${envs[@]}" timeout 180 "$bin" 2>&1 | tee "$LOGS/sample-$name.log"
    rc=${PIPESTATUS[0]}
    ran=$((ran + 1))
    if [ "$rc" -ne 0 ]; then
      failed=$((failed + 1))
      echo "  sample $name: exit $rc"
    fi
  done
  summary "pass samples: $ran ran, $failed failed ($((SECONDS - t0))s)"
  [ "$failed" -eq 0 ] || FAILED=1
}

# Hook for benchmarks: any executable under $BUILD/bench/ or named jet-bench-*
# runs once (120 s each at most), output in $LOGS/bench-NAME.log.
pass_bench() {
  local t0=$SECONDS ran=0 failed=0 b rc
  local benches
  benches=$(find "$BUILD" -type f -perm -u+x \( -path "$BUILD/bench/*" -o -name 'jet-bench-*' \) \
              ! -path '*/CMakeFiles/*' 2>/dev/null | sort)
  if [ -z "$benches" ]; then
    summary "pass bench: no benchmark programs yet"
    return 0
  fi
  for b in $benches; do
    echo "--- bench $(basename "$b")"
    timeout 120 "$b" 2>&1 | tee "$LOGS/bench-$(basename "$b").log"
    rc=${PIPESTATUS[0]}
    ran=$((ran + 1))
    if [ "$rc" -ne 0 ]; then
      failed=$((failed + 1))
      echo "  bench $(basename "$b"): exit $rc"
    fi
  done
  summary "pass bench: $ran ran, $failed failed ($((SECONDS - t0))s)"
  [ "$failed" -eq 0 ] || FAILED=1
}

PASSES=("$@")
[ ${#PASSES[@]} -gt 0 ] || PASSES=(build plain orin memcheck samples bench)
echo "gpu-suite: passes ${PASSES[*]}; build dir $BUILD; logs in $LOGS" | tee -a "$SUMMARY_FILE"
for p in "${PASSES[@]}"; do
  echo
  echo "=== pass $p"
  case $p in
    build)
      if ! pass_build; then
        summary "remaining passes not run: the build failed"
        break
      fi
      ;;
    plain) pass_ctest plain ;;
    orin) pass_ctest orin JET_PLATFORM=orin ;;
    memcheck) pass_memcheck ;;
    samples) pass_samples ;;
    bench) pass_bench ;;
    *) summary "unknown pass $p (build plain orin memcheck samples bench)"; FAILED=1 ;;
  esac
done

echo
echo "=== gpu-suite summary"
printf '%s\n' "${LINES[@]}"
if [ "$FAILED" -ne 0 ]; then
  echo "gpu-suite: FAILED"
  exit 1
fi
echo "gpu-suite: all passes ok"
exit 0
