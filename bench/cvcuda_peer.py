#!/usr/bin/env python3
"""CV-CUDA peer timings for jet-bench-image (issue 13).

Reads the configuration list jet-bench-image writes with --list-configs,
times every configuration CV-CUDA (the `cvcuda` module, 0.19) has an
operation for, and - in the same run, the same way - a device-to-device torch
copy of the configuration's copy_bytes (the same-bytes reference jetrt is
compared with). Writes a peer file that jet-bench-image --peer reads:

  {"program": ..., "cvcuda_version": ..., ...,
   "results": {
    "KEY": {"cv_ms": X, "copy_ms": Y, ...},      one configuration a line
    "KEY": {"error": "why there is no time"},
  }}

Timing (as jet-bench-image): CUDA events around each call on the torch
stream CV-CUDA runs on; median of --runs calls after --warmup; calls queued
in chunks of 12 behind a GPU spin (torch.cuda._sleep) so the events measure
GPU time, not Python's launch gaps (chunks the host did not finish queueing
in time are counted, and the spin grows); CV-CUDA and copy chunks alternate;
buffers rotate over at least 128 MiB.

What is compared (anything else is recorded as an error with the reason):
  colour     cvtcolor_into with the matching ColorConversion code
  resize     resize_into (NEAREST, LINEAR, AREA), batched as N x H x W x C
  box        averageblur_into; Gaussian: gaussian_into (OpenCV's sigma rule)
  remap      remap_into, absolute map, bilinear source sampling
  flip       flip_into; rotate 180 as flip_into(-1)
  histogram  histogram_into
  dnn        the CV-CUDA chain: cvtcolor_into to RGB8 (NV12, RGBA8 sources),
             then resize_crop_convert_reformat_into to planar float of the
             content size (a letterbox's padding is not written: favours
             CV-CUDA)
Not in CV-CUDA as one call: rotate 90/270 (rotate_into interpolates),
transpose, reduce, 2D copy and fill.

Usage (on the GPU machine, CV-CUDA staged by ../shared/device/stage-cvcuda.sh):
  python3 bench/cvcuda_peer.py CONFIGS.json PEER.json [--runs N] [--warmup N]
          [--only SUBSTR[,SUBSTR...]] [--quick]
"""
import argparse
import json
import math
import statistics
import sys
import time
import traceback

ROTATION_BYTES = 128 << 20
CHUNK = 12

COLOR = {
    # YUV sources
    ("NV12", "RGB8"): "YUV2RGB_NV12", ("NV12", "BGR8"): "YUV2BGR_NV12",
    ("NV12", "RGBA8"): "YUV2RGBA_NV12", ("NV12", "BGRA8"): "YUV2BGRA_NV12",
    ("NV12", "GRAY8"): "YUV2GRAY_NV12",
    ("NV21", "RGB8"): "YUV2RGB_NV21", ("NV21", "BGR8"): "YUV2BGR_NV21",
    ("NV21", "RGBA8"): "YUV2RGBA_NV21", ("NV21", "BGRA8"): "YUV2BGRA_NV21",
    ("NV21", "GRAY8"): "YUV2GRAY_NV21",
    ("I420", "RGB8"): "YUV2RGB_I420", ("I420", "BGR8"): "YUV2BGR_I420",
    ("I420", "RGBA8"): "YUV2RGBA_I420", ("I420", "BGRA8"): "YUV2BGRA_I420",
    ("I420", "GRAY8"): "YUV2GRAY_I420",
    ("YUYV", "RGB8"): "YUV2RGB_YUYV", ("YUYV", "BGR8"): "YUV2BGR_YUYV",
    ("YUYV", "RGBA8"): "YUV2RGBA_YUYV", ("YUYV", "BGRA8"): "YUV2BGRA_YUYV",
    ("YUYV", "GRAY8"): "YUV2GRAY_YUYV",
    ("UYVY", "RGB8"): "YUV2RGB_UYVY", ("UYVY", "BGR8"): "YUV2BGR_UYVY",
    ("UYVY", "RGBA8"): "YUV2RGBA_UYVY", ("UYVY", "BGRA8"): "YUV2BGRA_UYVY",
    ("UYVY", "GRAY8"): "YUV2GRAY_UYVY",
    # to YUV
    ("RGBA8", "NV12"): "RGBA2YUV_NV12", ("RGB8", "NV12"): "RGB2YUV_NV12",
    ("RGBA8", "I420"): "RGBA2YUV_I420", ("RGB8", "I420"): "RGB2YUV_I420",
    # among packed formats
    ("RGBA8", "BGRA8"): "RGBA2BGRA", ("RGBA8", "RGB8"): "RGBA2RGB",
    ("RGBA8", "BGR8"): "RGBA2BGR", ("RGBA8", "GRAY8"): "RGBA2GRAY",
    ("BGRA8", "RGBA8"): "BGRA2RGBA", ("BGRA8", "RGB8"): "BGRA2RGB",
    ("BGRA8", "BGR8"): "BGRA2BGR", ("BGRA8", "GRAY8"): "BGRA2GRAY",
    ("RGB8", "RGBA8"): "RGB2RGBA", ("RGB8", "BGRA8"): "RGB2BGRA",
    ("RGB8", "BGR8"): "RGB2BGR", ("RGB8", "GRAY8"): "RGB2GRAY",
    ("BGR8", "RGBA8"): "BGR2RGBA", ("BGR8", "BGRA8"): "BGR2BGRA",
    ("BGR8", "RGB8"): "BGR2RGB", ("BGR8", "GRAY8"): "BGR2GRAY",
    ("GRAY8", "RGB8"): "GRAY2RGB", ("GRAY8", "BGR8"): "GRAY2BGR",
    ("GRAY8", "RGBA8"): "GRAY2RGBA", ("GRAY8", "BGRA8"): "GRAY2BGRA",
}

CHANNELS = {"GRAY8": 1, "GRAYF32": 1, "RGB8": 3, "BGR8": 3, "RGBA8": 4, "BGRA8": 4,
            "YUYV": 2, "UYVY": 2}
YUV420 = ("NV12", "NV21", "I420")


class Unsupported(Exception):
    """CV-CUDA has no such operation or configuration."""


def image_shape(fmt, n, w, h):
    """NHWC shape CV-CUDA takes for one image format (4:2:0 as one plane of 1.5 H rows)."""
    if fmt in YUV420:
        return (n, h * 3 // 2, w, 1)
    if fmt not in CHANNELS:
        raise Unsupported("format %s" % fmt)
    return (n, h, w, CHANNELS[fmt])


def letterbox(sw, sh, dw, dh):
    """Content rectangle of jet_dnn_preprocess (tests/ref/ref_image.h)."""
    if dw * sh <= dh * sw:
        return dw, max(1, (sh * dw + sw // 2) // sw)
    return max(1, (sw * dh + sh // 2) // sh), dh


class Peer:
    def __init__(self, args):
        import torch
        import cvcuda
        self.torch = torch
        self.cv = cvcuda
        self.args = args
        self.torch_stream = torch.cuda.current_stream()
        self.stream = cvcuda.as_stream(self.torch_stream)
        self.sleep_cycles = 4_000_000
        self.keep = []
        self.have_sleep = hasattr(torch.cuda, "_sleep")
        self.primer = None if self.have_sleep else torch.empty(512 << 20, dtype=torch.uint8,
                                                                device="cuda")

    # ---------------------------------------------------------------- buffers
    def rand(self, shape, dtype="u8"):
        t = self.torch
        if dtype == "f32":
            return t.rand(shape, dtype=t.float32, device="cuda")
        return t.randint(0, 256, shape, dtype=t.uint8, device="cuda")

    def empty(self, shape, dtype="u8"):
        t = self.torch
        dt = {"u8": t.uint8, "f32": t.float32, "f16": t.float16, "s32": t.int32}[dtype]
        return t.empty(shape, dtype=dt, device="cuda")

    def tensor(self, t, layout="NHWC"):
        self.keep.append(t)  # the torch memory outlives the CV-CUDA view of it
        return self.cv.as_tensor(t, layout)

    @staticmethod
    def sets_for(set_bytes):
        return max(2, min(256, math.ceil(ROTATION_BYTES / max(1, set_bytes))))

    # ---------------------------------------------------------------- timing
    def prime(self):
        if self.have_sleep:
            self.torch.cuda._sleep(self.sleep_cycles)
        else:
            self.primer.fill_(0)

    def timed(self, calls, count, out):
        """Time @count calls (rotating over @calls) in chunks; appends ms to @out."""
        torch = self.torch
        done = 0
        host_bound = 0
        while done < count:
            c = min(CHUNK, count - done)
            ev = [torch.cuda.Event(enable_timing=True) for _ in range(c + 1)]
            primed = torch.cuda.Event()
            self.prime()
            primed.record(self.torch_stream)
            ev[0].record(self.torch_stream)
            for i in range(c):
                calls[(self.rot + i) % len(calls)]()
                ev[i + 1].record(self.torch_stream)
            self.rot += c
            if primed.query():
                host_bound += 1
                self.sleep_cycles = min(self.sleep_cycles * 2, 32_000_000)
            torch.cuda.synchronize()
            out.extend(ev[i].elapsed_time(ev[i + 1]) for i in range(c))
            done += c
        return host_bound

    def measure(self, calls, copies):
        runs, warmup = self.args.runs, self.args.warmup
        self.rot = 0
        for i in range(warmup):
            calls[i % len(calls)]()
            copies[i % len(copies)]()
        self.torch.cuda.synchronize()
        tc, tk = [], []
        hb = 0
        while len(tc) < runs:
            n = min(CHUNK, runs - len(tc))
            hb += self.timed(calls, n, tc)
            hb += self.timed(copies, n, tk)
        return statistics.median(tc), min(tc), statistics.median(tk), hb

    def copies(self, copy_bytes):
        n = max(4, int(copy_bytes) // 4 * 4)
        pairs = self.sets_for(2 * n)
        bufs = [(self.empty((n,)), self.empty((n,))) for _ in range(pairs)]
        for a, _ in bufs:
            a.fill_(0x5a)
        return [lambda a=a, b=b: b.copy_(a, non_blocking=True) for a, b in bufs]

    # ---------------------------------------------------------------- operations
    def build(self, c):
        """Returns (calls, function name) for configuration @c, or raises Unsupported."""
        cv = self.cv
        op, n = c["op"], c.get("count", 1)
        w, h, dw, dh = c["width"], c["height"], c["dst_width"], c["dst_height"]
        src_f, dst_f = c["src"], c["dst"]
        sdt = "f32" if src_f == "GRAYF32" else "u8"
        S = self.stream

        if op in ("color", "color_batch"):
            code_name = COLOR.get((src_f, dst_f))
            if not code_name or not hasattr(cv.ColorConversion, code_name):
                raise Unsupported("no ColorConversion for %s>%s" % (src_f, dst_f))
            code = getattr(cv.ColorConversion, code_name)
            ss, ds = image_shape(src_f, n, w, h), image_shape(dst_f, n, w, h)
            k = self.sets_for(n * (math.prod(ss[1:]) + math.prod(ds[1:])))
            sets = [(self.tensor(self.rand(ss)), self.tensor(self.empty(ds))) for _ in range(k)]
            return [lambda s=s, d=d: cv.cvtcolor_into(d, s, code, stream=S) for s, d in sets], \
                "cvtcolor_into(%s)" % code_name

        if op in ("resize", "resize_batch"):
            interp = {"nearest": cv.Interp.NEAREST, "linear": cv.Interp.LINEAR,
                      "area": cv.Interp.AREA}[c["interp"]]
            ss, ds = image_shape(src_f, n, w, h), image_shape(dst_f, n, dw, dh)
            esz = 4 if sdt == "f32" else 1
            k = self.sets_for(esz * (math.prod(ss) + math.prod(ds)))
            sets = [(self.tensor(self.rand(ss, sdt)), self.tensor(self.empty(ds, sdt)))
                    for _ in range(k)]
            return [lambda s=s, d=d: cv.resize_into(d, s, interp, stream=S) for s, d in sets], \
                "resize_into(%s)" % c["interp"]

        if op in ("box", "gauss", "remap"):
            border = {"replicate": cv.Border.REPLICATE, "reflect101": cv.Border.REFLECT101,
                      "constant": cv.Border.CONSTANT}[c["border"]]
            ss = image_shape(src_f, 1, w, h)
            esz = 4 if sdt == "f32" else 1
            set_bytes = 2 * esz * math.prod(ss) + (8 * dw * dh if op == "remap" else 0)
            k = self.sets_for(set_bytes)
            sets = []
            for _ in range(k):
                s, d = self.tensor(self.rand(ss, sdt)), self.tensor(self.empty(ss, sdt))
                m = None
                if op == "remap":
                    m = self.tensor(self.remap_map(dw, dh))
                sets.append((s, d, m))
            if op == "box":
                ks = c["ksize"]
                return [lambda s=s, d=d: cv.averageblur_into(d, s, (ks, ks), (-1, -1), border,
                                                             stream=S) for s, d, _ in sets], \
                    "averageblur_into"
            if op == "gauss":
                ks = c["ksize"]
                sigma = 0.3 * ((ks - 1) * 0.5 - 1) + 0.8
                return [lambda s=s, d=d: cv.gaussian_into(d, s, (ks, ks), (sigma, sigma), border,
                                                          stream=S) for s, d, _ in sets], \
                    "gaussian_into"
            return [lambda s=s, d=d, m=m: cv.remap_into(d, s, m, src_interp=cv.Interp.LINEAR,
                                                        map_interp=cv.Interp.NEAREST,
                                                        map_type=cv.Remap.ABSOLUTE,
                                                        align_corners=False, border=border,
                                                        stream=S) for s, d, m in sets], \
                "remap_into"

        if op in ("flip", "rotate"):
            if op == "rotate" and c.get("rotation") != 180:
                raise Unsupported("no exact 90/270-degree rotation (rotate_into interpolates)")
            code = -1 if op == "rotate" else {"h": 1, "v": 0, "both": -1}[c["flip"]]
            ss = image_shape(src_f, 1, w, h)
            esz = 4 if sdt == "f32" else 1
            k = self.sets_for(2 * esz * math.prod(ss))
            sets = [(self.tensor(self.rand(ss, sdt)), self.tensor(self.empty(ss, sdt)))
                    for _ in range(k)]
            return [lambda s=s, d=d: cv.flip_into(d, s, code, stream=S) for s, d in sets], \
                "flip_into(%d)" % code

        if op == "histogram":
            ss = image_shape(src_f, 1, w, h)
            k = self.sets_for(math.prod(ss))
            sets = [(self.tensor(self.rand(ss)), self.tensor(self.empty((1, 256, 1), "s32"), "HWC"))
                    for _ in range(k)]
            return [lambda s=s, d=d: cv.histogram_into(d, s, stream=S) for s, d in sets], \
                "histogram_into"

        if op in ("dnn", "dnn_batch"):
            return self.build_dnn(c)

        raise Unsupported("no CV-CUDA equivalent of %s" % op)

    def remap_map(self, dw, dh):
        t = self.torch
        y = t.arange(dh, device="cuda", dtype=t.float32).view(dh, 1).expand(dh, dw)
        x = t.arange(dw, device="cuda", dtype=t.float32).view(1, dw).expand(dh, dw)
        fx = x + 0.37 + 2.0 * t.sin(y / 211.0)
        fy = y + 0.21 + 2.0 * t.cos(x / 307.0)
        return t.stack((fx, fy), dim=-1).unsqueeze(0).contiguous()

    def build_dnn(self, c):
        cv = self.cv
        S = self.stream
        n = c.get("count", 1)
        w, h, dw, dh = c["width"], c["height"], c["dst_width"], c["dst_height"]
        cw, ch = letterbox(w, h, dw, dh) if c.get("letterbox") else (dw, dh)
        dt = "f16" if c.get("dtype") == "f16" else "f32"
        if c["src"] == "NV12":
            code = cv.ColorConversion.YUV2RGB_NV12
            ss = image_shape("NV12", n, w, h)
        elif c["src"] == "RGBA8":
            code = cv.ColorConversion.RGBA2RGB
            ss = image_shape("RGBA8", n, w, h)
        else:
            raise Unsupported("DNN source %s" % c["src"])
        rgb_shape = (n, h, w, 3)
        rgb = self.tensor(self.empty(rgb_shape))  # the chain's intermediate, reused
        esz = 2 if dt == "f16" else 4
        k = self.sets_for(math.prod(ss) + 3 * esz * n * dw * dh)
        scale = 1.0 / (255.0 * 0.226)
        offset = -0.449 / 0.226
        sets = [(self.tensor(self.rand(ss)), self.tensor(self.empty((n, 3, ch, cw), dt), "NCHW"))
                for _ in range(k)]

        def chain(s, d):
            cv.cvtcolor_into(rgb, s, code, stream=S)
            cv.resize_crop_convert_reformat_into(d, rgb, (cw, ch), cv.Interp.LINEAR, (0, 0),
                                                 manip=cv.ChannelManip.NO_OP, scale=scale,
                                                 offset=offset, stream=S)
        return [lambda s=s, d=d: chain(s, d) for s, d in sets], \
            "cvtcolor_into + resize_crop_convert_reformat_into (padding not written)"

    # ---------------------------------------------------------------- one configuration
    def run(self, c):
        self.keep = []
        calls, fn = self.build(c)
        copies = self.copies(c["copy_bytes"])
        for f in calls[:1]:  # a refusal raises here, outside the timing
            f()
        self.torch.cuda.synchronize()
        cv_ms, cv_min, copy_ms, hb = self.measure(calls, copies)
        del calls, copies
        self.keep = []
        return {"cv_ms": round(cv_ms, 6), "copy_ms": round(copy_ms, 6),
                "cv_min_ms": round(cv_min, 6), "host_bound_chunks": hb, "function": fn}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("configs")
    ap.add_argument("out")
    ap.add_argument("--runs", type=int)
    ap.add_argument("--warmup", type=int)
    ap.add_argument("--only")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    with open(args.configs) as f:
        spec = json.load(f)
    args.runs = args.runs or (7 if args.quick else spec.get("runs", 21))
    args.warmup = args.warmup if args.warmup is not None else (2 if args.quick
                                                               else spec.get("warmup", 3))
    configs = spec["configs"]
    if args.only:
        subs = args.only.split(",")
        configs = [c for c in configs if any(s in c["key"] for s in subs)]

    header = {"program": "cvcuda_peer.py", "configs_file": args.configs,
              "runs": args.runs, "warmup": args.warmup}
    results = {}
    t0 = time.time()
    try:
        peer = Peer(args)
        import torch
        header["cvcuda_version"] = str(getattr(peer.cv, "__version__", "unknown"))
        header["torch_version"] = torch.__version__
        header["device"] = torch.cuda.get_device_name()
    except Exception as e:  # no GPU, no cvcuda, no torch: every entry says why
        peer = None
        reason = "CV-CUDA unavailable: %s: %s" % (type(e).__name__, e)
        print(reason, file=sys.stderr)
        for c in configs:
            results[c["key"]] = {"error": reason}

    ok, refused = 0, 0 if peer else len(configs)
    for i, c in enumerate(configs if peer else []):
        key = c["key"]
        try:
            results[key] = peer.run(c)
            ok += 1
        except Unsupported as e:
            results[key] = {"error": "not in CV-CUDA: %s" % e}
            refused += 1
        except Exception as e:  # CV-CUDA refused the configuration, or ran out of memory
            msg = "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
            results[key] = {"error": "CV-CUDA refused: " + msg[:300]}
            refused += 1
            if args.only:
                traceback.print_exc()
            try:
                peer.torch.cuda.synchronize()
            except Exception:
                pass
        if (i + 1) % 100 == 0:
            print("%d/%d configurations, %.0f s" % (i + 1, len(configs), time.time() - t0),
                  file=sys.stderr)

    header["seconds"] = round(time.time() - t0, 1)
    with open(args.out, "w") as f:
        f.write("{\n")
        for k, v in header.items():
            f.write("  %s: %s,\n" % (json.dumps(k), json.dumps(v)))
        f.write('  "results": {\n')
        items = list(results.items())
        for j, (k, v) in enumerate(items):
            f.write("    %s: %s%s\n" % (json.dumps(k), json.dumps(v), "," if j + 1 < len(items)
                                         else ""))
        f.write("  }\n}\n")
    print("cvcuda_peer: %d timed, %d without a CV-CUDA time, %.0f s -> %s"
          % (ok, refused, time.time() - t0, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
