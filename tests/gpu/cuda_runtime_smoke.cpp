// A smoke test of the CUDA device module (src/runtime/cuda.cpp) on a real GPU: allocation and
// reuse, host <-> device copies of dense buffers, of a crop of a bigger buffer (which must not
// touch memory outside the crop) and of a buffer with a negative stride, device-to-device
// buffer copies, and kernels written by hand in PTX loaded and launched through the entry points
// generated code calls, with dynamic shared memory above the default limit, launches over the
// limits refused with a message, a PTX error reported with the JIT log, and a reload after
// halide_device_release.
//
// Not part of ctest: built by the target gpu_cuda_runtime_smoke (excluded from `all`) from the
// runtime's sources alone, so it needs only the NVIDIA driver where it runs. Prints a PASS or
// FAIL line per check and exits nonzero when one failed.

#include <loom/runtime/loom_runtime_cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace {

// Two kernels over n int32s, for sm_50 and later: out[i] = in[i] + 1, and out[i] = in[i] + 2
// through dynamic shared memory 96 KiB in (so the launch must opt in to more than 48 KiB).
const char kPtx[] = R"(
.version 7.0
.target sm_50
.address_size 64

.visible .entry add_one(.param .u64 in, .param .u64 out, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.s32 %p1, %r5, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mul.wide.s32 %rd5, %r5, 4;
    add.s64 %rd6, %rd3, %rd5;
    ld.global.u32 %r6, [%rd6];
    add.s32 %r7, %r6, 1;
    add.s64 %rd7, %rd4, %rd5;
    st.global.u32 [%rd7], %r7;
DONE:
    ret;
}

.extern .shared .align 4 .b8 scratch[];

.visible .entry add_two_through_shared(.param .u64 in, .param .u64 out, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.s32 %p1, %r5, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mul.wide.s32 %rd5, %r5, 4;
    add.s64 %rd6, %rd3, %rd5;
    ld.global.u32 %r6, [%rd6];
    shl.b32 %r7, %r4, 2;
    add.s32 %r7, %r7, 98304;
    mov.u32 %r8, scratch;
    add.s32 %r8, %r8, %r7;
    st.shared.u32 [%r8], %r6;
    ld.shared.u32 %r9, [%r8];
    add.s32 %r9, %r9, 2;
    add.s64 %rd7, %rd4, %rd5;
    st.global.u32 [%rd7], %r9;
DONE:
    ret;
}
)";

// The same module with an error (an undefined register) for the JIT log check.
const char kBadPtx[] = R"(
.version 7.0
.target sm_50
.address_size 64
.visible .entry broken()
{
    mov.u32 %undeclared, 1;
    ret;
}
)";

std::vector<std::string> messages;
bool verbose = false; // LOOM_SMOKE_VERBOSE: print every message as it comes
void capture(void *, const char *msg) {
    messages.push_back(msg);
    if (verbose) std::printf("    message: %s\n", msg);
}

int failures = 0;
void check(bool ok, const std::string &what) {
    std::printf("%s %s\n", ok ? "PASS" : "FAIL", what.c_str());
    if (!ok) {
        failures++;
        for (const std::string &m : messages) std::printf("    message: %s\n", m.c_str());
    }
    messages.clear();
}

bool last_message_has(const std::string &what) {
    return !messages.empty() && messages.back().find(what) != std::string::npos;
}

/// An int32 host buffer over `data` with the given dimensions (min, extent, stride).
struct Buf {
    std::vector<halide_dimension_t> dims;
    halide_buffer_t b = {};
    Buf(int32_t *host, std::vector<halide_dimension_t> d) : dims(std::move(d)) {
        b.host = (uint8_t *)host;
        b.type = halide_type_of<int32_t>();
        b.dimensions = (int)dims.size();
        b.dim = dims.data();
    }
    Buf(const Buf &) = delete;
};

const halide_device_interface_t *cuda() { return halide_cuda_device_interface(); }

/// Launches kernel `name` over n elements from in to out (blocks of `threads`).
int launch(void *state, const char *name, halide_buffer_t *in, halide_buffer_t *out, int32_t n,
           int threads, int shared = 0) {
    uint64_t in_ptr = in->device, out_ptr = out->device;
    size_t sizes[] = {8, 8, 4, 0};
    void *args[] = {&in_ptr, &out_ptr, &n, nullptr};
    int8_t is_buffer[] = {1, 1, 0, 0};
    int blocks = (n + threads - 1) / threads;
    return halide_cuda_run(nullptr, state, name, blocks, 1, 1, threads, 1, 1, shared, sizes, args,
                           is_buffer);
}

void dense_round_trip() {
    const int n = 1000;
    std::vector<int32_t> data(n);
    for (int i = 0; i < n; i++) data[i] = 3 * i - 7;
    Buf a(data.data(), {{0, n, 1}});
    check(halide_copy_to_device(nullptr, &a.b, cuda()) == 0 && a.b.device != 0,
          "dense buffer: allocated and copied to the device");
    for (int32_t &v : data) v = 0;
    a.b.set_device_dirty();
    int r = halide_copy_to_host(nullptr, &a.b);
    bool same = true;
    for (int i = 0; i < n; i++) same = same && data[i] == 3 * i - 7;
    check(r == 0 && same, "dense buffer: device -> host gives back the values");

    // A freed allocation is reused by the next buffer of its size.
    uint64_t old = a.b.device;
    check(halide_device_free(nullptr, &a.b) == 0, "dense buffer: freed");
    check(halide_device_malloc(nullptr, &a.b, cuda()) == 0 && a.b.device == old,
          "allocation pool: the next malloc of the same size reuses the freed allocation");
    check(halide_device_free(nullptr, &a.b) == 0 &&
              halide_reuse_device_allocations(nullptr, false) == 0 &&
              halide_reuse_device_allocations(nullptr, true) == 0,
          "allocation pool: released by halide_reuse_device_allocations(false)");
}

void crop_round_trip() {
    const int w = 64, h = 48;
    std::vector<int32_t> data(w * h);
    for (int i = 0; i < w * h; i++) data[i] = i;
    Buf big(data.data(), {{0, w, 1}, {0, h, w}});
    check(halide_copy_to_device(nullptr, &big.b, cuda()) == 0, "2-D buffer: copied to the device");
    // The host forgets; the device keeps the originals.
    for (int32_t &v : data) v = -1;

    const int x0 = 10, y0 = 5, cw = 20, ch = 17;
    Buf crop(data.data() + x0 + y0 * w, {{x0, cw, 1}, {y0, ch, w}});
    check(halide_device_crop(nullptr, &big.b, &crop.b) == 0 &&
              crop.b.device == big.b.device + (uint64_t)(x0 + y0 * w) * 4,
          "crop: aliases the parent's allocation at the crop's min");
    crop.b.set_device_dirty();
    int r = halide_copy_to_host(nullptr, &crop.b);
    bool inside = true, outside = true;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            bool in = x >= x0 && x < x0 + cw && y >= y0 && y < y0 + ch;
            int32_t v = data[x + y * w];
            if (in) inside = inside && v == x + y * w;
            if (!in) outside = outside && v == -1;
        }
    }
    check(r == 0 && inside, "crop: device -> host copies the crop's elements");
    check(outside, "crop: device -> host leaves host memory outside the crop alone");

    // Host -> device through the crop changes only the crop on the device.
    for (int y = y0; y < y0 + ch; y++) {
        for (int x = x0; x < x0 + cw; x++) data[x + y * w] = 100000 + x + y * w;
    }
    crop.b.set_host_dirty();
    r = halide_copy_to_device(nullptr, &crop.b, nullptr);
    check(halide_device_release_crop(nullptr, &crop.b) == 0, "crop: released");
    big.b.set_host_dirty(false);
    big.b.set_device_dirty();
    for (int32_t &v : data) v = -2;
    r = r || halide_copy_to_host(nullptr, &big.b);
    bool ok = true;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            bool in = x >= x0 && x < x0 + cw && y >= y0 && y < y0 + ch;
            ok = ok && data[x + y * w] == (in ? 100000 : 0) + x + y * w;
        }
    }
    check(r == 0 && ok, "crop: host -> device writes the crop's elements and no others");

    // Device -> device: a separate dense buffer gets a region of big's device memory (marked
    // as the newest copy; it equals the host's).
    big.b.set_device_dirty();
    std::vector<int32_t> small_data(cw * ch, -3);
    Buf small(small_data.data(), {{x0, cw, 1}, {y0, ch, cw}});
    r = halide_buffer_copy(nullptr, &big.b, cuda(), &small.b);
    bool device_side = r == 0 && small.b.device_dirty() && small_data[0] == -3;
    r = r || halide_copy_to_host(nullptr, &small.b);
    ok = true;
    for (int y = y0; y < y0 + ch; y++) {
        for (int x = x0; x < x0 + cw; x++) {
            ok = ok && small_data[(x - x0) + (y - y0) * cw] == 100000 + x + y * w;
        }
    }
    check(device_side && r == 0 && ok, "buffer_copy: device -> device copies the region");
    halide_device_free(nullptr, &small.b);
    halide_device_free(nullptr, &big.b);
}

void negative_stride_round_trip() {
    const int n = 300;
    std::vector<int32_t> data(n);
    for (int i = 0; i < n; i++) data[i] = i * i;
    // Element x (0..n-1) lives at data[n - 1 - x].
    Buf rev(data.data() + n - 1, {{0, n, -1}});
    int r = halide_copy_to_device(nullptr, &rev.b, cuda());
    for (int32_t &v : data) v = 0;
    rev.b.set_device_dirty();
    r = r || halide_copy_to_host(nullptr, &rev.b);
    bool ok = true;
    for (int i = 0; i < n; i++) ok = ok && data[i] == i * i;
    check(r == 0 && ok, "negative stride: host -> device -> host keeps the values");
    halide_device_free(nullptr, &rev.b);
}

void kernels() {
    const int n = 5000;
    std::vector<int32_t> in_data(n), out_data(n, 0);
    for (int i = 0; i < n; i++) in_data[i] = 7 * i - 1000;
    Buf in(in_data.data(), {{0, n, 1}});
    Buf out(out_data.data(), {{0, n, 1}});
    int r = halide_copy_to_device(nullptr, &in.b, cuda());
    r = r || halide_device_malloc(nullptr, &out.b, cuda());
    check(r == 0, "kernels: input and output on the device");

    static void *state = nullptr;
    r = halide_cuda_initialize_kernels(nullptr, &state, kPtx, sizeof(kPtx));
    void *first = state;
    check(r == 0 && state != nullptr, "kernels: the PTX loads");
    r = halide_cuda_initialize_kernels(nullptr, &state, kPtx, sizeof(kPtx));
    check(r == 0 && state == first, "kernels: a second initialisation keeps the loaded module");

    auto verify = [&](int add) {
        out.b.set_device_dirty();
        if (halide_copy_to_host(nullptr, &out.b) != 0) return false;
        for (int i = 0; i < n; i++) {
            if (out_data[i] != in_data[i] + add) return false;
        }
        return true;
    };
    r = launch(state, "add_one", &in.b, &out.b, n, 128);
    check(r == 0 && verify(1), "kernels: add_one computes in + 1");
    halide_cuda_finalize_kernels(nullptr, state);

    r = launch(state, "add_two_through_shared", &in.b, &out.b, n, 128, 100 * 1024);
    check(r == 0 && verify(2), "kernels: 100 KiB of dynamic shared memory (opted in)");

    r = launch(state, "add_one", &in.b, &out.b, n, 4096);
    check(r != 0 && last_message_has("add_one") && last_message_has("4096") &&
              last_message_has("at most"),
          "kernels: a block of 4096 threads is refused with a message");
    r = launch(state, "add_two_through_shared", &in.b, &out.b, n, 128, 1 << 20);
    check(r != 0 && last_message_has("shared memory"),
          "kernels: 1 MiB of shared memory is refused with a message");
    r = launch(state, "no_such_kernel", &in.b, &out.b, n, 128);
    check(r != 0 && last_message_has("no_such_kernel"), "kernels: an unknown kernel is named");

    void *bad_state = nullptr;
    r = halide_cuda_initialize_kernels(nullptr, &bad_state, kBadPtx, sizeof(kBadPtx));
    check(r != 0 && last_message_has("undeclared"),
          "kernels: a PTX error is reported with the JIT log");

    int major = 0, minor = 0;
    r = cuda()->compute_capability(nullptr, &major, &minor);
    std::printf("     GPU compute capability %d.%d\n", major, minor);
    check(r == 0 && major >= 5, "compute_capability");

    // Releasing unloads the module and the context; the next run loads both again.
    halide_device_free(nullptr, &in.b);
    halide_device_free(nullptr, &out.b);
    halide_device_release(nullptr, cuda());
    check(messages.empty(), "halide_device_release");
    in.b.set_host_dirty(false);
    r = halide_copy_to_device(nullptr, &in.b, cuda());
    r = r || halide_device_malloc(nullptr, &out.b, cuda());
    r = r || halide_cuda_initialize_kernels(nullptr, &state, kPtx, sizeof(kPtx));
    r = r || launch(state, "add_one", &in.b, &out.b, n, 256);
    check(r == 0 && verify(1), "kernels: run again after halide_device_release");
    halide_device_free(nullptr, &in.b);
    halide_device_free(nullptr, &out.b);
}

} // namespace

int main() {
    verbose = std::getenv("LOOM_SMOKE_VERBOSE") != nullptr;
    halide_set_error_handler(capture);
    dense_round_trip();
    crop_round_trip();
    negative_stride_round_trip();
    kernels();
    halide_device_release(nullptr, cuda());
    std::printf("%s: %d check(s) failed\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
