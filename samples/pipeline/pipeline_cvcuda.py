#!/usr/bin/env python3
"""CV-CUDA's version of jet-pipeline's chain, timed the same way, for
jet-pipeline --peer.

Per frame, for 1 and 4 cameras (one NHWC tensor of N cameras per operation):
  1920x1080 NV12 -> RGBA8      cvcuda.cvtcolor_into(YUV2RGBA_NV12)
  Gaussian 5x5, replicate      cvcuda.gaussian_into
  -> 960x540 bilinear          cvcuda.resize_into(LINEAR)
  -> 640x640 letterbox FP16    resize_into (to the 640x360 content),
                               cvtcolor_into(RGBA2RGB), copymakeborder_into
                               (constant pad), convertto_into (to FP16, one
                               scale and offset for all channels: convertto
                               has no per-channel form), reformat_into
                               (NHWC -> NCHW)
All work runs on one torch stream (cvcuda.as_stream). Inputs are rotated
over >= 128 MiB. Frames are queued in chunks of 8 behind a GPU spin
(torch.cuda._sleep, sized from how long the host took to queue the last
chunk), with a torch.cuda.Event between consecutive frames; chunks the host
did not finish queueing in time are counted. The copy equivalent is the same
as jet-pipeline's: per stage a device-to-device torch copy (copy_) of (the
stage's minimal bytes read + written) / 2, chained like the stages, timed the
same way in the same run; its four stage medians are summed.

Usage: python3 pipeline_cvcuda.py [--frames N] [--quick] [--cams 1|4|all]
                                  [--json PATH]
Writes JSON with flat keys cam<N>_frame_median_ms, cam<N>_copy_sum_ms, ...
for jet-pipeline --peer PATH. Exit 0 when it ran, 1 on failure, 2 without a
GPU, torch or cvcuda.
"""
import argparse
import json
import math
import sys
import time

W, H, RW, RH, DW, DH = 1920, 1080, 960, 540, 640, 640
KSIZE = 5
PAD = 114.0
MEAN = 0.456  # one value for all channels (see above)
STD = 0.225
CHUNK = 8
WARMUP = 50
ROTATION_BYTES = 128 << 20


def rows_sampled(dn, sn):
    """Source rows bilinear samples when sn rows become dn (jetrt's rule)."""
    used = [False] * sn
    for d in range(dn):
        num, den, x0, ax = (2 * d + 1) * sn - dn, 2 * dn, 0, 0
        if num > 0:
            x0, ax = num // den, num % den
        if x0 >= sn - 1:
            x0, ax = sn - 1, 0
        used[x0] = True
        if ax:
            used[x0 + 1] = True
    return sum(used)


def letterbox(sw, sh, dw, dh):
    if dw * sh <= dh * sw:
        return dw, max(1, (sh * dw + sw // 2) // sw)
    return max(1, (sw * dh + sh // 2) // sh), dh


def stage_bytes(cams):
    wh = W * H
    cw, ch = letterbox(RW, RH, DW, DH)
    per = [
        1.5 * wh + 4.0 * wh,
        8.0 * wh,
        4.0 * W * rows_sampled(RH, H) + 4.0 * RW * RH,
        4.0 * RW * rows_sampled(ch, RH) + 6.0 * DW * DH,
    ]
    return [p * cams for p in per]


def copy_bytes(b):
    return (int(b / 2) + 255) // 256 * 256


def stats(v):
    v = sorted(v)
    n = len(v)
    if not n:
        return {"median_ms": 0.0, "p99_ms": 0.0, "min_ms": 0.0, "mean_ms": 0.0}
    med = v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])
    k = max(0, int(math.ceil(0.99 * n)) - 1)
    return {"median_ms": med, "p99_ms": v[k], "min_ms": v[0], "mean_ms": sum(v) / n}


class Timer:
    """Chunks of frames behind a GPU spin, an event between frames."""

    def __init__(self, torch, stream):
        self.torch, self.stream = torch, stream
        self.sleep = getattr(torch.cuda, "_sleep", None)
        self.cycles_per_ms = 0.0
        self.filler = None
        if self.sleep is not None:
            a = torch.cuda.Event(enable_timing=True)
            b = torch.cuda.Event(enable_timing=True)
            with torch.cuda.stream(stream):
                a.record(stream)
                self.sleep(20_000_000)
                b.record(stream)
            b.synchronize()
            ms = a.elapsed_time(b)
            self.cycles_per_ms = 20_000_000 / ms if ms > 0 else 0.0
        if self.cycles_per_ms <= 0:
            self.sleep = None
            self.filler = torch.empty(1 << 28, dtype=torch.uint8, device="cuda")

    def prime(self, host_ms):
        if self.sleep is not None:
            self.sleep(int(self.cycles_per_ms * (1.5 * host_ms + 0.5)))
        else:  # no torch.cuda._sleep: memory fills as the primer
            for _ in range(max(1, int(host_ms / 0.1) + 1)):
                self.filler.fill_(0)

    def run(self, frames, marks, fn):
        """fn(i, ev, base) queues frame i and records ev[base + 1 .. base + marks].
        Returns per-mark times (lists) and the host-bound chunk count."""
        torch = self.torch
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(CHUNK * marks + 1)]
        primed = torch.cuda.Event()
        times = [[] for _ in range(marks)]
        host_bound, host_ms, done = 0, 0.0, 0
        while done < frames:
            c = min(CHUNK, frames - done)
            self.prime(host_ms)
            primed.record(self.stream)
            ev[0].record(self.stream)
            h0 = time.monotonic()
            for i in range(c):
                fn(done + i, ev, i * marks)
            host_ms = (time.monotonic() - h0) * 1e3
            if primed.query():
                host_bound += 1
            self.stream.synchronize()
            for i in range(c):
                for m in range(marks):
                    a = i * marks + m
                    times[m].append(ev[a].elapsed_time(ev[a + 1]))
            done += c
        return times, host_bound


def run_cams(torch, cvcuda, timer, stream, cams, frames, out):
    cvs = cvcuda.as_stream(stream)
    dev = "cuda"
    u8, f16 = torch.uint8, torch.float16
    frame_bytes = cams * W * H * 3 // 2
    nslots = max(2, -(-ROTATION_BYTES // frame_bytes))
    ins = [torch.randint(0, 256, (cams, H * 3 // 2, W, 1), dtype=u8, device=dev) for _ in range(nslots)]
    cw, ch = letterbox(RW, RH, DW, DH)
    ox, oy = (DW - cw) // 2, (DH - ch) // 2
    rgba = torch.empty((cams, H, W, 4), dtype=u8, device=dev)
    blur = torch.empty_like(rgba)
    small = torch.empty((cams, RH, RW, 4), dtype=u8, device=dev)
    content = torch.empty((cams, ch, cw, 4), dtype=u8, device=dev)
    content3 = torch.empty((cams, ch, cw, 3), dtype=u8, device=dev)
    boxed = torch.empty((cams, DH, DW, 3), dtype=u8, device=dev)
    half = torch.empty((cams, DH, DW, 3), dtype=f16, device=dev)
    single = torch.empty((cams, DH, DW, 3), dtype=torch.float32, device=dev)
    nchw = torch.empty((cams, 3, DH, DW), dtype=f16, device=dev)
    t = lambda x, layout: cvcuda.as_tensor(x, layout)  # noqa: E731
    cv_in = [t(x, "NHWC") for x in ins]
    cv_rgba, cv_blur, cv_small = t(rgba, "NHWC"), t(blur, "NHWC"), t(small, "NHWC")
    cv_content, cv_content3, cv_boxed = t(content, "NHWC"), t(content3, "NHWC"), t(boxed, "NHWC")
    cv_half, cv_single, cv_nchw = t(half, "NHWC"), t(single, "NHWC"), t(nchw, "NCHW")
    sigma = 0.3 * ((KSIZE - 1) * 0.5 - 1) + 0.8  # jetrt's and OpenCV's rule for sigma <= 0
    scale, offset = 1.0 / (255.0 * STD), -MEAN / STD
    fp16 = {"path": "cvcuda.convertto_into to F16"}

    def frame_ops(slot):
        cvcuda.cvtcolor_into(cv_rgba, cv_in[slot], cvcuda.ColorConversion.YUV2RGBA_NV12, stream=cvs)
        cvcuda.gaussian_into(cv_blur, cv_rgba, (KSIZE, KSIZE), (sigma, sigma), cvcuda.Border.REPLICATE,
                             stream=cvs)
        cvcuda.resize_into(cv_small, cv_blur, cvcuda.Interp.LINEAR, stream=cvs)
        cvcuda.resize_into(cv_content, cv_small, cvcuda.Interp.LINEAR, stream=cvs)
        cvcuda.cvtcolor_into(cv_content3, cv_content, cvcuda.ColorConversion.RGBA2RGB, stream=cvs)
        cvcuda.copymakeborder_into(cv_boxed, cv_content3, cvcuda.Border.CONSTANT, [PAD, PAD, PAD],
                                   top=oy, left=ox, stream=cvs)
        if fp16["path"].startswith("cvcuda"):
            cvcuda.convertto_into(cv_half, cv_boxed, scale, offset, stream=cvs)
        else:
            cvcuda.convertto_into(cv_single, cv_boxed, scale, offset, stream=cvs)
            half.copy_(single)
        cvcuda.reformat_into(cv_nchw, cv_half, stream=cvs)

    with torch.cuda.stream(stream):
        try:
            frame_ops(0)
            stream.synchronize()
        except Exception as e:  # an older CV-CUDA without FP16 convertto
            fp16["path"] = "cvcuda.convertto_into to F32, then torch copy_ to FP16 (%s)" % e
            frame_ops(0)
            stream.synchronize()
        for i in range(WARMUP):
            frame_ops(i % nslots)
        stream.synchronize()

        def jet_like(i, ev, base):
            frame_ops(i % nslots)
            ev[base + 1].record(stream)

        times, host_bound = timer.run(frames, 1, jet_like)
        frame = stats(times[0])

        sb = stage_bytes(cams)
        cb = [copy_bytes(b) for b in sb]
        big = max(cb)
        src = torch.empty(ROTATION_BYTES + 2 * big, dtype=u8, device=dev).fill_(0x5A)
        a = torch.zeros(big, dtype=u8, device=dev)
        b = torch.zeros(big, dtype=u8, device=dev)
        slots = src.numel() // cb[0]

        def copies(i, ev, base):
            s0 = (i % slots) * cb[0]
            pairs = [(a, src[s0:s0 + cb[0]]), (b, a), (a, b), (b, a)]
            for s in range(4):
                dst, frm = pairs[s]
                dst[:cb[s]].copy_(frm[:cb[s]])
                ev[base + s + 1].record(stream)

        for i in range(WARMUP):
            copies(i, [torch.cuda.Event() for _ in range(5)], 0)
        stream.synchronize()
        ctimes, _ = timer.run(frames, 4, copies)
    cstats = [stats(x) for x in ctimes]
    p = "cam%d_" % cams
    out[p + "frame_median_ms"] = frame["median_ms"]
    out[p + "frame_p99_ms"] = frame["p99_ms"]
    out[p + "frame_min_ms"] = frame["min_ms"]
    out[p + "host_bound_chunks"] = host_bound
    out[p + "copy_stage_median_ms"] = [s["median_ms"] for s in cstats]
    out[p + "copy_sum_ms"] = sum(s["median_ms"] for s in cstats)
    out[p + "stage_bytes"] = sb
    out[p + "slots"] = nslots
    out[p + "fp16_path"] = fp16["path"]
    print("%d camera(s): CV-CUDA frame %.4f ms (p99 %.4f%s), copy equivalent %.4f ms (%s), %s"
          % (cams, frame["median_ms"], frame["p99_ms"],
             ", host fell behind in %d chunks" % host_bound if host_bound else "",
             out[p + "copy_sum_ms"], ", ".join("%.4f" % s["median_ms"] for s in cstats),
             fp16["path"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=10000)
    ap.add_argument("--quick", action="store_true", help="1000 frames")
    ap.add_argument("--cams", choices=["1", "4", "all"], default="all")
    ap.add_argument("--json", default="pipeline_cvcuda.json")
    args = ap.parse_args()
    frames = 1000 if args.quick else args.frames
    if frames < 1:
        ap.error("--frames must be >= 1")
    out = {"program": "pipeline_cvcuda", "frames": frames, "warmup": WARMUP,
           "rotation_min_bytes": ROTATION_BYTES, "mean": MEAN, "std": STD, "pad": PAD,
           "chain": "1920x1080 NV12 -> RGBA8 -> Gaussian 5x5 replicate -> 960x540 linear -> "
                    "640x640 letterbox FP16 NCHW"}
    try:
        import torch
        import cvcuda
    except ImportError as e:
        print("pipeline_cvcuda: cannot import torch and cvcuda: %s" % e, file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("pipeline_cvcuda: no CUDA device", file=sys.stderr)
        return 2
    out["device"] = torch.cuda.get_device_name(0)
    out["torch_version"] = torch.__version__
    out["cvcuda_version"] = getattr(cvcuda, "__version__", "unknown")
    print("device 0: %s; torch %s; CV-CUDA %s; %d frames" % (out["device"], out["torch_version"],
                                                            out["cvcuda_version"], frames))
    stream = torch.cuda.Stream()
    timer = Timer(torch, stream)
    out["primer"] = "torch.cuda._sleep" if timer.sleep is not None else "tensor fill"
    failed = 0
    for cams in ([1, 4] if args.cams == "all" else [int(args.cams)]):
        try:
            run_cams(torch, cvcuda, timer, stream, cams, frames, out)
        except Exception as e:
            failed += 1
            out["cam%d_error" % cams] = "%s: %s" % (type(e).__name__, e)
            print("%d camera(s): failed: %s" % (cams, out["cam%d_error" % cams]), file=sys.stderr)
    with open(args.json, "w") as f:
        json.dump(out, f, indent=2)
    print("json: %s" % args.json)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
