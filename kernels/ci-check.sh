# Sourced by .ci/run: check_kernel_images ARCHIVE SM
# Extracts the embedded kernel images (section .rodata.jetrt_kernels) from every
# object in ARCHIVE and checks that they hold a real CUDA cubin for sm_SM (an ELF
# with e_machine EM_CUDA = 190 whose flags name that SM) and PTX text. Works for
# any target architecture: the section is copied out as raw bytes.
check_kernel_images() {
  local archive sm=$2 tmp oc
  archive=$(realpath "$1")
  tmp=$(mktemp -d)
  (cd "$tmp" && ar x "$archive") || { rm -rf "$tmp"; return 1; }
  : >"$tmp/images.bin"
  # The host objcopy reads only the host's object format; the cross one the target's.
  for o in "$tmp"/*.o; do
    for oc in objcopy aarch64-linux-gnu-objcopy; do
      if command -v "$oc" >/dev/null &&
         "$oc" -O binary --only-section=.rodata.jetrt_kernels "$o" "$o.bin" 2>/dev/null; then
        cat "$o.bin" >>"$tmp/images.bin"
        break
      fi
    done
  done
  python3 - "$tmp/images.bin" "$sm" <<'PY'
import re, struct, sys
data = open(sys.argv[1], "rb").read()
want = int(sys.argv[2])
cubins = []
for m in re.finditer(rb"\x7fELF\x02\x01", data):
    o = m.start()
    if o + 64 > len(data) or struct.unpack_from("<H", data, o + 18)[0] != 190:
        continue
    flags = struct.unpack_from("<I", data, o + 48)[0]
    # CUDA 13 ELF ABI (OSABI 0x41) keeps the SM in bits 8..15; the older one in bits 0..7.
    sm = (flags >> 8) & 0xFF if data[o + 7] == 0x41 else flags & 0xFF
    cubins.append(sm)
ptx = sorted(set(int(t) for t in re.findall(rb"\.target sm_(\d+)", data)))
print(f"  embedded: {len(data)} bytes; cubins for sm {sorted(set(cubins))}; PTX for sm {ptx}")
ok = want in cubins and len(ptx) > 0
if not ok:
    print(f"  missing: {'sm_%d cubin' % want if want not in cubins else ''} {'PTX' if not ptx else ''}")
sys.exit(0 if ok else 1)
PY
  local rc=$?
  rm -rf "$tmp"
  return $rc
}
