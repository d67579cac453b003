// The CUDA device API (include/loom/runtime/loom_runtime_cuda.h): device memory, copies and
// kernel launches through the CUDA driver API, behind halide_cuda_device_interface() (see
// device_interface.h for what the runtime's halide_device_* functions leave to it).
//
// The driver is opened with dlopen at first use and its entry points looked up by name, so
// nothing here needs CUDA's headers or libraries to build, link or start; the few driver types
// and constants used are declared below with the driver's ABI. Everything runs in the primary
// context of one device (halide_get_gpu_device), retained once per process and pushed around
// each call so that any thread may call. Kernels go on the default (legacy) stream, which orders
// them with the synchronous copies used here.

#include <loom/runtime/loom_runtime_cuda.h>

#include "runtime/device_interface.h"
#include "runtime/message.h"
#include "runtime/runtime_libc.h"

extern "C" {
void *dlopen(const char *file, int mode);
void *dlsym(void *handle, const char *name);
char *dlerror(void);
}

// The driver API's types and constants (cuda.h), with their ABI values.
namespace loom_runtime {

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;

/// CUDA_MEMCPY2D (the _v2 layout, with size_t fields).
struct CudaMemcpy2D {
    size_t src_x_bytes, src_y;
    int src_memory_type;
    const void *src_host;
    CUdeviceptr src_device;
    void *src_array;
    size_t src_pitch;
    size_t dst_x_bytes, dst_y;
    int dst_memory_type;
    void *dst_host;
    CUdeviceptr dst_device;
    void *dst_array;
    size_t dst_pitch;
    size_t width_bytes, height;
};

/// The driver entry points used, with the exported names of their current versions.
#define LOOM_CUDA_FUNCTIONS(X)                                                                     \
    X(cuInit, "cuInit", (unsigned int flags))                                                      \
    X(cuDeviceGetCount, "cuDeviceGetCount", (int *count))                                          \
    X(cuDeviceGet, "cuDeviceGet", (CUdevice * device, int ordinal))                                \
    X(cuDeviceGetAttribute, "cuDeviceGetAttribute", (int *value, int attribute, CUdevice device))  \
    X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", (CUcontext * ctx, CUdevice device))    \
    X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", (CUdevice device))                \
    X(cuCtxPushCurrent, "cuCtxPushCurrent_v2", (CUcontext ctx))                                    \
    X(cuCtxPopCurrent, "cuCtxPopCurrent_v2", (CUcontext * ctx))                                    \
    X(cuCtxSynchronize, "cuCtxSynchronize", ())                                                    \
    X(cuModuleLoadDataEx, "cuModuleLoadDataEx",                                                    \
      (CUmodule * module, const void *image, unsigned int n, int *options, void **values))         \
    X(cuModuleUnload, "cuModuleUnload", (CUmodule module))                                         \
    X(cuModuleGetFunction, "cuModuleGetFunction",                                                  \
      (CUfunction * function, CUmodule module, const char *name))                                  \
    X(cuFuncGetAttribute, "cuFuncGetAttribute", (int *value, int attribute, CUfunction function))  \
    X(cuFuncSetAttribute, "cuFuncSetAttribute", (CUfunction function, int attribute, int value))   \
    X(cuLaunchKernel, "cuLaunchKernel",                                                            \
      (CUfunction function, unsigned int grid_x, unsigned int grid_y, unsigned int grid_z,         \
       unsigned int block_x, unsigned int block_y, unsigned int block_z,                           \
       unsigned int shared_bytes, CUstream stream, void **params, void **extra))                   \
    X(cuMemAlloc, "cuMemAlloc_v2", (CUdeviceptr * ptr, size_t bytes))                              \
    X(cuMemFree, "cuMemFree_v2", (CUdeviceptr ptr))                                                \
    X(cuMemcpyHtoD, "cuMemcpyHtoD_v2", (CUdeviceptr dst, const void *src, size_t bytes))           \
    X(cuMemcpyDtoH, "cuMemcpyDtoH_v2", (void *dst, CUdeviceptr src, size_t bytes))                 \
    X(cuMemcpyDtoD, "cuMemcpyDtoD_v2", (CUdeviceptr dst, CUdeviceptr src, size_t bytes))           \
    X(cuMemcpy2D, "cuMemcpy2D_v2", (const CudaMemcpy2D *copy))                                     \
    X(cuMemcpy2DUnaligned, "cuMemcpy2DUnaligned_v2", (const CudaMemcpy2D *copy))                   \
    X(cuGetErrorName, "cuGetErrorName", (CUresult error, const char **name))                       \
    X(cuGetErrorString, "cuGetErrorString", (CUresult error, const char **text))

struct CudaDriver {
#define LOOM_CUDA_DECLARE(name, symbol, params) CUresult(*name) params;
    LOOM_CUDA_FUNCTIONS(LOOM_CUDA_DECLARE)
#undef LOOM_CUDA_DECLARE
};

/// A pipeline's kernels: what its `void *` state global points to once
/// halide_cuda_initialize_kernels has run. Kept for the life of the process (the global keeps
/// pointing to it); device_release unloads the module, and the next run loads it again.
struct CudaKernelState {
    CudaKernelState *next; ///< all states, for device_release
    CUcontext context;     ///< the context `module` was loaded into
    CUmodule module;       ///< null: not loaded
};

/// A freed allocation kept for reuse.
struct CudaPooled {
    CUdeviceptr ptr;
    size_t bytes; ///< rounded (round_allocation)
};

const int kCudaPoolSize = 64;

/// Everything the module holds, guarded by cuda_mutex (`ready` is also read without it).
struct CudaState {
    bool load_failed;   ///< the driver could not be opened: `failure` says why, for good
    char failure[512];  ///< the message of a failed load
    void *library;      ///< the driver, once opened and initialised
    CudaDriver fn;      ///< its entry points
    bool ready;         ///< `context` is retained and the limits below are read
    CUdevice device;    ///< the device `context` is the primary context of
    int ordinal;        ///< its number
    CUcontext context;  ///< the primary context
    int max_threads;    ///< per block
    int max_block[3];   ///< block dimensions
    int max_grid[3];    ///< grid dimensions
    int shared_default; ///< shared memory per block without opting in
    int shared_optin;   ///< shared memory per block a kernel may opt in to
    int max_pitch;      ///< of 2-D copies
    int cc_major, cc_minor;
    bool sync_after_launch; ///< HL_CUDA_SYNC
    CudaKernelState *kernels;
    CudaPooled pool[kCudaPoolSize];
    int pooled;
};

// External linkage, so that when several AOT pipelines carry the runtime they share one driver,
// context, pool and interface (see error_handler.cpp).
SyncStorage cuda_mutex;
CudaState cuda_state;
bool cuda_pool_registered = false;
extern halide_device_allocation_pool cuda_allocation_pool;
extern const halide_device_interface_impl_t cuda_device_interface_impl;
extern const halide_device_interface_t cuda_device_interface;

} // namespace loom_runtime

using namespace loom_runtime;

namespace {

// Driver constants.
const CUresult CUDA_SUCCESS = 0;
const CUresult CUDA_ERROR_INVALID_VALUE = 1;
const CUresult CUDA_ERROR_STUB_LIBRARY = 34;
const CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
const CUresult CUDA_ERROR_NO_BINARY_FOR_GPU = 209;
const CUresult CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
const int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
const int CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2; // Y, Z follow
const int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5;  // Y, Z follow
const int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
const int CU_DEVICE_ATTRIBUTE_MAX_PITCH = 11;
const int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
const int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
const int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
const int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
const int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
const int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
const int CU_JIT_ERROR_LOG_BUFFER = 5;
const int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
const int CU_MEMORYTYPE_HOST = 1;
const int CU_MEMORYTYPE_DEVICE = 2;
const int RTLD_LAZY = 1;

CudaDriver &fn = cuda_state.fn;

class CudaLock {
public:
    CudaLock() { pthread_mutex_lock(&cuda_mutex); }
    ~CudaLock() { pthread_mutex_unlock(&cuda_mutex); }
};

/// Appends the driver's name and description of r, and what to do where it helps.
Message &describe(Message &m, CUresult r) {
    const char *name = NULL, *text = NULL;
    if (fn.cuGetErrorName && fn.cuGetErrorName(r, &name) != CUDA_SUCCESS) name = NULL;
    if (fn.cuGetErrorString && fn.cuGetErrorString(r, &text) != CUDA_SUCCESS) text = NULL;
    if (name) {
        m << name;
    } else {
        m << "CUDA error " << (int)r;
    }
    if (text) m << " (" << text << ")";
    if (r == CUDA_ERROR_STUB_LIBRARY) {
        m << " (the CUDA toolkit's stub libcuda.so was loaded instead of the driver's: is the "
             "NVIDIA driver installed?)";
    }
    // The errors a kernel leaves behind surface at the next call that waits for it.
    if (r >= 700 && r < 720) {
        m << "; an earlier kernel may have failed (set HL_CUDA_SYNC=1 to check each launch), and "
             "the context is unusable until the process restarts";
    }
    return m;
}

/// Reports "CUDA: <what>: <the driver's error>" and returns code.
int cuda_fail(void *uc, int code, const char *what, CUresult r) {
    Message m;
    m << "CUDA: " << what << ": ";
    return report(uc, describe(m, r), code);
}

bool env_flag(const char *name) {
    const char *s = getenv(name);
    return s && *s && !(s[0] == '0' && s[1] == 0);
}

/// Opens the driver and initialises it, once; a failure is kept and reported every time.
/// Holds cuda_mutex; fills m instead of reporting.
bool load_driver_locked(Message &m) {
    if (cuda_state.library) return true;
    if (cuda_state.load_failed) {
        m << cuda_state.failure;
        return false;
    }
    // The reason libcuda.so.1 did not open is kept before dlerror's text is overwritten.
    Message not_opened, why;
    void *lib = dlopen("libcuda.so.1", RTLD_LAZY);
    if (!lib) {
        const char *e = dlerror();
        not_opened << "CUDA: cannot load libcuda.so.1: " << (e ? e : "not found")
                   << "; is the NVIDIA driver installed?";
        lib = dlopen("libcuda.so", RTLD_LAZY);
        if (!lib) why << not_opened.str();
    }
    if (lib) {
        void *p = NULL;
#define LOOM_CUDA_LOOKUP(name, symbol, params)                                                     \
    if (lib && !(p = dlsym(lib, symbol))) {                                                        \
        why << "CUDA: the driver (libcuda.so.1) has no " << symbol                                 \
            << "; it is older than Loom needs (CUDA 11 or newer)";                                 \
        lib = NULL;                                                                                \
    } else if (lib) {                                                                              \
        fn.name = (decltype(fn.name))p;                                                            \
    }
        LOOM_CUDA_FUNCTIONS(LOOM_CUDA_LOOKUP)
#undef LOOM_CUDA_LOOKUP
    }
    if (lib) {
        CUresult r = fn.cuInit(0);
        if (r != CUDA_SUCCESS) {
            why << "CUDA: the driver could not initialise (cuInit): ";
            describe(why, r);
            lib = NULL;
        }
    }
    if (!lib) {
        cuda_state.load_failed = true;
        halide_string_to_string(cuda_state.failure, cuda_state.failure + sizeof(cuda_state.failure),
                                why.str());
        m << cuda_state.failure;
        return false;
    }
    cuda_state.library = lib;
    return true;
}

/// Retains the primary context of the chosen device and reads its limits. Holds cuda_mutex;
/// fills m instead of reporting.
bool create_context_locked(void *uc, Message &m) {
    if (cuda_state.ready) return true;
    if (!load_driver_locked(m)) return false;
    int count = 0;
    CUresult r = fn.cuDeviceGetCount(&count);
    if (r != CUDA_SUCCESS || count <= 0) {
        m << "CUDA: the driver sees no CUDA device";
        if (r != CUDA_SUCCESS) describe(m << ": ", r);
        return false;
    }
    int ordinal = halide_get_gpu_device(uc);
    if (ordinal < 0) ordinal = 0;
    if (ordinal >= count) {
        m << "CUDA: GPU " << ordinal << " was asked for (HL_GPU_DEVICE or halide_set_gpu_device), "
          << "but there are only " << count;
        return false;
    }
    CUdevice device;
    CUcontext ctx = NULL;
    r = fn.cuDeviceGet(&device, ordinal);
    if (r == CUDA_SUCCESS) r = fn.cuDevicePrimaryCtxRetain(&ctx, device);
    if (r != CUDA_SUCCESS) {
        m << "CUDA: cannot get the context of GPU " << ordinal << ": ";
        describe(m, r);
        return false;
    }
    CudaState &s = cuda_state;
    struct {
        int *value;
        int attribute;
    } attributes[] = {
        {&s.max_threads, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
        {&s.max_block[0], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X},
        {&s.max_block[1], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + 1},
        {&s.max_block[2], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + 2},
        {&s.max_grid[0], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X},
        {&s.max_grid[1], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + 1},
        {&s.max_grid[2], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + 2},
        {&s.shared_default, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK},
        {&s.shared_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN},
        {&s.max_pitch, CU_DEVICE_ATTRIBUTE_MAX_PITCH},
        {&s.cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
        {&s.cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
    };
    for (auto &a : attributes) {
        r = fn.cuDeviceGetAttribute(a.value, a.attribute, device);
        if (r != CUDA_SUCCESS) {
            fn.cuDevicePrimaryCtxRelease(device);
            m << "CUDA: cannot read the limits of GPU " << ordinal << ": ";
            describe(m, r);
            return false;
        }
    }
    if (s.shared_optin < s.shared_default) s.shared_optin = s.shared_default;
    s.device = device;
    s.ordinal = ordinal;
    s.context = ctx;
    s.sync_after_launch = env_flag("HL_CUDA_SYNC");
    __atomic_store_n(&s.ready, true, __ATOMIC_RELEASE);
    return true;
}

/// Makes the module's context current for one call (creating it at first use), and restores
/// the thread's previous context after. A failure is reported with `code` in `error`.
class CudaContext {
public:
    CudaContext(void *uc, int code) {
        if (!__atomic_load_n(&cuda_state.ready, __ATOMIC_ACQUIRE)) {
            Message m;
            bool ok;
            {
                CudaLock lock;
                ok = create_context_locked(uc, m);
            }
            if (!ok) {
                error = report(uc, m, code);
                return;
            }
            // Registered outside cuda_mutex: halide_reuse_device_allocations holds the pools'
            // lock while it calls into the pool, which takes cuda_mutex.
            if (!__atomic_exchange_n(&cuda_pool_registered, true, __ATOMIC_ACQ_REL)) {
                halide_register_device_allocation_pool(&cuda_allocation_pool);
            }
        }
        context = cuda_state.context;
        CUresult r = fn.cuCtxPushCurrent(context);
        if (r != CUDA_SUCCESS) {
            error = cuda_fail(uc, code, "cannot make the context current", r);
            return;
        }
        pushed = true;
    }
    ~CudaContext() {
        if (pushed) {
            CUcontext previous;
            fn.cuCtxPopCurrent(&previous);
        }
    }
    CudaContext(const CudaContext &) = delete;
    CudaContext &operator=(const CudaContext &) = delete;

    int error = 0;
    CUcontext context = NULL;

private:
    bool pushed = false;
};

// ---- Allocations ----

/// The size allocations of n bytes get: a quarter of a power of two at most above n, so that
/// freed allocations are reused by buffers of nearby sizes with bounded waste.
size_t round_allocation(size_t n) {
    const size_t kMin = 256;
    if (n <= kMin) return kMin;
    size_t p = kMin;
    while (p <= n / 2) p *= 2;
    size_t granule = p / 4 < kMin ? kMin : p / 4;
    return (n + granule - 1) / granule * granule;
}

/// The bytes buf's elements span (at least one element's, for a buffer without elements).
size_t span_bytes(const halide_buffer_t *buf) {
    for (int i = 0; i < buf->dimensions; i++) {
        if (buf->dim[i].extent <= 0) return buf->type.bytes();
    }
    return buf->size_in_bytes();
}

/// Frees the pooled allocations (within the context). Holds cuda_mutex.
void release_pool_locked() {
    for (int i = 0; i < cuda_state.pooled; i++) fn.cuMemFree(cuda_state.pool[i].ptr);
    cuda_state.pooled = 0;
}

int cuda_device_malloc(void *uc, halide_buffer_t *buf) {
    const int code = halide_error_code_device_malloc_failed;
    size_t bytes = round_allocation(span_bytes(buf));
    CUdeviceptr ptr = 0;
    if (halide_can_reuse_device_allocations(uc)) {
        CudaLock lock;
        for (int i = 0; i < cuda_state.pooled; i++) {
            if (cuda_state.pool[i].bytes == bytes) {
                ptr = cuda_state.pool[i].ptr;
                cuda_state.pool[i] = cuda_state.pool[--cuda_state.pooled];
                break;
            }
        }
    }
    if (!ptr) {
        CudaContext ctx(uc, code);
        if (ctx.error) return ctx.error;
        CUresult r = fn.cuMemAlloc(&ptr, bytes);
        if (r == CUDA_ERROR_OUT_OF_MEMORY) {
            // Memory kept for reuse may be what is missing.
            {
                CudaLock lock;
                release_pool_locked();
            }
            r = fn.cuMemAlloc(&ptr, bytes);
        }
        if (r != CUDA_SUCCESS) {
            Message m;
            m << "CUDA: cannot allocate " << (uint64_t)bytes << " bytes of device memory for a "
              << buf->type << " buffer: ";
            return report(uc, describe(m, r), code);
        }
    }
    // device addresses the element at the mins, as host does; with negative strides the
    // allocation starts below it.
    buf->device = ptr - buf->begin_offset() * buf->type.bytes();
    return 0;
}

int cuda_device_free(void *uc, halide_buffer_t *buf) {
    CUdeviceptr ptr = buf->device + buf->begin_offset() * buf->type.bytes();
    size_t bytes = round_allocation(span_bytes(buf));
    if (halide_can_reuse_device_allocations(uc)) {
        CudaLock lock;
        if (cuda_state.pooled < kCudaPoolSize) {
            cuda_state.pool[cuda_state.pooled++] = CudaPooled{ptr, bytes};
            return 0;
        }
    }
    CudaContext ctx(uc, halide_error_code_device_free_failed);
    if (ctx.error) return ctx.error;
    CUresult r = fn.cuMemFree(ptr);
    if (r != CUDA_SUCCESS) {
        return cuda_fail(uc, halide_error_code_device_free_failed, "cannot free device memory", r);
    }
    return 0;
}

int cuda_device_sync(void *uc, halide_buffer_t *) {
    CudaContext ctx(uc, halide_error_code_device_sync_failed);
    if (ctx.error) return ctx.error;
    CUresult r = fn.cuCtxSynchronize();
    if (r != CUDA_SUCCESS) {
        return cuda_fail(uc, halide_error_code_device_sync_failed,
                         "waiting for the device's work failed", r);
    }
    return 0;
}

void cuda_device_release(void *uc) {
    if (!__atomic_load_n(&cuda_state.ready, __ATOMIC_ACQUIRE)) return; // nothing held
    {
        CudaContext ctx(uc, halide_error_code_generic_error);
        if (ctx.error) return;
        fn.cuCtxSynchronize();
        CudaLock lock;
        for (CudaKernelState *k = cuda_state.kernels; k; k = k->next) {
            if (k->module) fn.cuModuleUnload(k->module);
            k->module = NULL;
            k->context = NULL;
        }
        release_pool_locked();
    }
    CudaLock lock;
    if (cuda_state.ready) {
        fn.cuDevicePrimaryCtxRelease(cuda_state.device);
        cuda_state.context = NULL;
        __atomic_store_n(&cuda_state.ready, false, __ATOMIC_RELEASE);
    }
}

// ---- Copies ----

/// A loop of a copy: `extent` dense runs, `*_stride` bytes apart in the source and destination.
struct CopyDim {
    int64_t extent, src_stride, dst_stride;
};

const int kMaxCopyDims = 16;

/// The copy of the elements of a region as dense runs of `run` bytes inside `dims` loops
/// (innermost first), starting `src_offset` and `dst_offset` bytes from the region's element at
/// its mins.
struct CopyPlan {
    int64_t src_offset, dst_offset, run;
    int dims;
    CopyDim dim[kMaxCopyDims];
};

/// Plans the copy of dst's region (extents from dst) between memory laid out with src's strides
/// and memory laid out with dst's. Returns -1 when the region has no elements, 0 when planned,
/// 1 when it has too many dimensions.
int plan_copy(const halide_buffer_t *src, const halide_buffer_t *dst, CopyPlan *p) {
    int64_t bytes = dst->type.bytes();
    p->src_offset = p->dst_offset = 0;
    p->run = bytes;
    p->dims = 0;
    for (int i = 0; i < dst->dimensions; i++) {
        int64_t e = dst->dim[i].extent;
        if (e <= 0) return -1;
        if (e == 1) continue;
        if (p->dims == kMaxCopyDims) return 1;
        CopyDim d = {e, src->dim[i].stride * bytes, dst->dim[i].stride * bytes};
        // A dimension the destination walks backwards is copied forwards from its last element.
        if (d.dst_stride < 0) {
            p->src_offset += (e - 1) * d.src_stride;
            p->dst_offset += (e - 1) * d.dst_stride;
            d.src_stride = -d.src_stride;
            d.dst_stride = -d.dst_stride;
        }
        // Innermost (smallest destination stride) first.
        int j = p->dims++;
        for (; j > 0 && p->dim[j - 1].dst_stride > d.dst_stride; j--) p->dim[j] = p->dim[j - 1];
        p->dim[j] = d;
    }
    // Dense innermost loops become longer runs; loops contiguous with the next outer one fuse.
    while (p->dims > 0 && p->dim[0].src_stride == p->run && p->dim[0].dst_stride == p->run) {
        p->run *= p->dim[0].extent;
        for (int j = 1; j < p->dims; j++) p->dim[j - 1] = p->dim[j];
        p->dims--;
    }
    for (int i = 0; i + 1 < p->dims;) {
        CopyDim &a = p->dim[i], &b = p->dim[i + 1];
        if (b.src_stride == a.src_stride * a.extent && b.dst_stride == a.dst_stride * a.extent) {
            a.extent *= b.extent;
            for (int j = i + 2; j < p->dims; j++) p->dim[j - 1] = p->dim[j];
            p->dims--;
        } else {
            i++;
        }
    }
    return 0;
}

/// One side of a copy: an address in device or host memory.
struct Endpoint {
    bool device;
    uint64_t address;
    Endpoint at(int64_t offset) const { return Endpoint{device, address + offset}; }
};

CUresult copy_run(Endpoint src, Endpoint dst, size_t bytes) {
    if (src.device && dst.device) return fn.cuMemcpyDtoD(dst.address, src.address, bytes);
    if (src.device) return fn.cuMemcpyDtoH((void *)(uintptr_t)dst.address, src.address, bytes);
    if (dst.device)
        return fn.cuMemcpyHtoD(dst.address, (const void *)(uintptr_t)src.address, bytes);
    memcpy((void *)(uintptr_t)dst.address, (const void *)(uintptr_t)src.address, bytes);
    return CUDA_SUCCESS;
}

/// Copies loops 0..d of the plan; the innermost loop is one 2-D copy where the driver takes it.
CUresult copy_loops(const CopyPlan &p, int d, Endpoint src, Endpoint dst) {
    if (d < 0) return copy_run(src, dst, p.run);
    const CopyDim &l = p.dim[d];
    int64_t max_pitch = cuda_state.max_pitch;
    if (d == 0 && l.src_stride >= p.run && l.dst_stride >= p.run && l.src_stride <= max_pitch &&
        l.dst_stride <= max_pitch) {
        CudaMemcpy2D c = {};
        c.src_memory_type = src.device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
        c.src_host = (const void *)(uintptr_t)src.address;
        c.src_device = src.address;
        c.src_pitch = l.src_stride;
        c.dst_memory_type = dst.device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
        c.dst_host = (void *)(uintptr_t)dst.address;
        c.dst_device = dst.address;
        c.dst_pitch = l.dst_stride;
        c.width_bytes = p.run;
        c.height = l.extent;
        // Within the device, cuMemcpy2D takes only pitches cuMemAllocPitch would choose.
        CUresult r = src.device && dst.device ? fn.cuMemcpy2DUnaligned(&c) : fn.cuMemcpy2D(&c);
        // Pitches the driver declines are copied row by row.
        if (r != CUDA_ERROR_INVALID_VALUE) return r;
    }
    for (int64_t k = 0; k < l.extent; k++) {
        CUresult r = copy_loops(p, d - 1, src.at(k * l.src_stride), dst.at(k * l.dst_stride));
        if (r != CUDA_SUCCESS) return r;
    }
    return CUDA_SUCCESS;
}

/// Copies the elements of dst's region from `from` (laid out with src's strides) to `to` (laid
/// out with dst's), each the address of the region's element at its mins.
int copy_region(void *uc, const halide_buffer_t *src, Endpoint from, const halide_buffer_t *dst,
                Endpoint to, int code, const char *what) {
    CopyPlan plan;
    int planned = plan_copy(src, dst, &plan);
    if (planned < 0) return 0;
    if (planned > 0) {
        Message m;
        m << "CUDA: " << what << ": the buffer has more than " << kMaxCopyDims
          << " dimensions of extent above 1";
        return report(uc, m, code);
    }
    CudaContext ctx(uc, code);
    if (ctx.error) return ctx.error;
    CUresult r = copy_loops(plan, plan.dims - 1, from.at(plan.src_offset), to.at(plan.dst_offset));
    if (r != CUDA_SUCCESS) return cuda_fail(uc, code, what, r);
    return 0;
}

int cuda_copy_to_host(void *uc, halide_buffer_t *buf) {
    return copy_region(
        uc, buf, Endpoint{true, buf->device}, buf, Endpoint{false, (uint64_t)(uintptr_t)buf->host},
        halide_error_code_copy_to_host_failed, "copying a buffer to the host failed");
}

int cuda_copy_to_device(void *uc, halide_buffer_t *buf) {
    return copy_region(uc, buf, Endpoint{false, (uint64_t)(uintptr_t)buf->host}, buf,
                       Endpoint{true, buf->device}, halide_error_code_copy_to_device_failed,
                       "copying a buffer to the device failed");
}

/// The byte offset in src's memory of dst's element at its mins; src_dim(i) is the dimension of
/// src that dst's dimension i is.
template <typename SrcDim>
int64_t region_offset(const halide_buffer_t *src, const halide_buffer_t *dst, SrcDim src_dim) {
    int64_t offset = 0;
    for (int i = 0; i < dst->dimensions; i++) {
        const halide_dimension_t &s = src->dim[src_dim(i)];
        offset += (int64_t)(dst->dim[i].min - s.min) * s.stride;
    }
    return offset * src->type.bytes();
}

int cuda_buffer_copy(void *uc, const halide_buffer_t *src, bool from_device, halide_buffer_t *dst,
                     bool to_device) {
    // Host to host is the runtime's, and another API's device memory is not ours to read.
    if ((!from_device && !to_device) ||
        (from_device && src->device_interface != &cuda_device_interface) ||
        (to_device && dst->device_interface != &cuda_device_interface)) {
        return halide_error_code_incompatible_device_interface;
    }
    Endpoint from =
        from_device ? Endpoint{true, src->device} : Endpoint{false, (uint64_t)(uintptr_t)src->host};
    from = from.at(region_offset(src, dst, [](int i) { return i; }));
    Endpoint to =
        to_device ? Endpoint{true, dst->device} : Endpoint{false, (uint64_t)(uintptr_t)dst->host};
    return copy_region(uc, src, from, dst, to, halide_error_code_device_buffer_copy_failed,
                       "copying between buffers failed");
}

// ---- Crops, slices and native handles: aliases into the parent's allocation ----

int cuda_device_crop(void *, const halide_buffer_t *src, halide_buffer_t *dst) {
    dst->device = src->device + region_offset(src, dst, [](int i) { return i; });
    return 0;
}

int cuda_device_slice(void *, const halide_buffer_t *src, int d, int pos, halide_buffer_t *dst) {
    int64_t offset = (int64_t)(pos - src->dim[d].min) * src->dim[d].stride * src->type.bytes();
    dst->device =
        src->device + offset + region_offset(src, dst, [d](int i) { return i < d ? i : i + 1; });
    return 0;
}

int cuda_device_release_crop(void *, halide_buffer_t *) { return 0; }

int cuda_wrap_native(void *, halide_buffer_t *buf, uint64_t handle) {
    buf->device = handle;
    return 0;
}

int cuda_detach_native(void *, halide_buffer_t *) { return 0; }

int cuda_compute_capability(void *uc, int *major, int *minor) {
    CudaContext ctx(uc, halide_error_code_gpu_device_error);
    if (ctx.error) return ctx.error;
    *major = cuda_state.cc_major;
    *minor = cuda_state.cc_minor;
    return 0;
}

// ---- Kernels ----

/// Reports a failed PTX load with the driver's JIT log (which may be long, so the message is
/// built on the heap).
int report_ptx_failure(void *uc, CUresult r, const char *log) {
    Message head;
    head << "CUDA: the driver could not load the pipeline's PTX on GPU " << cuda_state.ordinal
         << " (sm_" << cuda_state.cc_major << cuda_state.cc_minor << "): ";
    describe(head, r);
    if (r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION) {
        head << ". The PTX's ISA version is newer than this driver supports: update the NVIDIA "
                "driver";
    } else if (r == CUDA_ERROR_NO_BINARY_FOR_GPU) {
        head << ". The kernels were compiled for a newer GPU than this one: choose a lower "
                "cuda_capability feature in the target";
    }
    size_t n = strlen(head.str()) + strlen(log) + 16;
    char *text = (char *)malloc(n);
    if (!text) return report(uc, head, halide_error_code_gpu_device_error);
    char *p = halide_string_to_string(text, text + n, head.str());
    if (*log) {
        p = halide_string_to_string(p, text + n, "\n");
        halide_string_to_string(p, text + n, log);
    }
    halide_error(uc, text);
    free(text);
    return halide_error_code_gpu_device_error;
}

/// Reports a launch over a limit: "CUDA: cannot launch kernel K with <grid> blocks of <block>
/// threads: <why>".
int refuse_launch(void *uc, const char *kernel, const int *blocks, const int *threads,
                  Message &why) {
    Message m;
    m << "CUDA: cannot launch kernel " << kernel << " with " << blocks[0] << "x" << blocks[1] << "x"
      << blocks[2] << " blocks of " << threads[0] << "x" << threads[1] << "x" << threads[2]
      << " threads: " << why.str();
    return report(uc, m, halide_error_code_device_run_failed);
}

/// Checks a launch against the device's and the kernel's limits, and lets the kernel use more
/// than the default dynamic shared memory when it needs to.
int check_launch(void *uc, CUfunction f, const char *kernel, const int *blocks, const int *threads,
                 int shared) {
    const CudaState &s = cuda_state;
    static const char *const axis[] = {"x", "y", "z"};
    Message why;
    int64_t total = 1;
    for (int i = 0; i < 3; i++) {
        if (blocks[i] <= 0 || threads[i] <= 0 || shared < 0) {
            why << "launch sizes must be positive (and shared memory not negative)";
            return refuse_launch(uc, kernel, blocks, threads, why);
        }
        if (threads[i] > s.max_block[i]) {
            why << "a block may have at most " << s.max_block[i] << " threads in " << axis[i]
                << " on this GPU";
            return refuse_launch(uc, kernel, blocks, threads, why);
        }
        if (blocks[i] > s.max_grid[i]) {
            why << "a grid may have at most " << s.max_grid[i] << " blocks in " << axis[i]
                << " on this GPU";
            return refuse_launch(uc, kernel, blocks, threads, why);
        }
        total *= threads[i];
    }
    if (total > s.max_threads) {
        why << "that is " << total << " threads per block, and this GPU allows at most "
            << s.max_threads;
        return refuse_launch(uc, kernel, blocks, threads, why);
    }
    int kernel_max = 0, static_shared = 0;
    CUresult r = fn.cuFuncGetAttribute(&kernel_max, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f);
    if (r == CUDA_SUCCESS) {
        r = fn.cuFuncGetAttribute(&static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
    }
    if (r != CUDA_SUCCESS) {
        Message m;
        m << "CUDA: cannot read the attributes of kernel " << kernel << ": ";
        return report(uc, describe(m, r), halide_error_code_device_run_failed);
    }
    if (total > kernel_max) {
        why << "that is " << total << " threads per block, and the kernel's register use allows "
            << "at most " << kernel_max << " (use smaller GPU tiles)";
        return refuse_launch(uc, kernel, blocks, threads, why);
    }
    int64_t needed = (int64_t)static_shared + shared;
    if (needed > s.shared_optin) {
        why << "it needs " << needed << " bytes of shared memory per block (" << static_shared
            << " static, " << shared << " dynamic), and this GPU has at most " << s.shared_optin;
        return refuse_launch(uc, kernel, blocks, threads, why);
    }
    if (needed > s.shared_default) {
        r = fn.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared);
        if (r != CUDA_SUCCESS) {
            Message m;
            m << "CUDA: cannot give kernel " << kernel << " " << shared
              << " bytes of dynamic shared memory: ";
            return report(uc, describe(m, r), halide_error_code_device_run_failed);
        }
    }
    return 0;
}

} // namespace

namespace loom_runtime {

halide_device_allocation_pool cuda_allocation_pool = {halide_cuda_release_unused_device_allocations,
                                                      NULL};

const halide_device_interface_impl_t cuda_device_interface_impl = {cuda_device_malloc,
                                                                   cuda_device_free,
                                                                   cuda_device_sync,
                                                                   cuda_device_release,
                                                                   cuda_copy_to_host,
                                                                   cuda_copy_to_device,
                                                                   NULL,
                                                                   NULL,
                                                                   cuda_buffer_copy,
                                                                   cuda_device_crop,
                                                                   cuda_device_slice,
                                                                   cuda_device_release_crop,
                                                                   cuda_wrap_native,
                                                                   cuda_detach_native};

const halide_device_interface_t cuda_device_interface = {halide_device_malloc,
                                                         halide_device_free,
                                                         halide_device_sync,
                                                         halide_device_release,
                                                         halide_copy_to_host,
                                                         halide_copy_to_device,
                                                         halide_device_and_host_malloc,
                                                         halide_device_and_host_free,
                                                         halide_buffer_copy,
                                                         halide_device_crop,
                                                         halide_device_slice,
                                                         halide_device_release_crop,
                                                         halide_device_wrap_native,
                                                         halide_device_detach_native,
                                                         cuda_compute_capability,
                                                         &cuda_device_interface_impl};

} // namespace loom_runtime

extern "C" {

const halide_device_interface_t *halide_cuda_device_interface(void) {
    return &cuda_device_interface;
}

int halide_cuda_initialize_kernels(void *uc, void **state_ptr, const char *src, int size) {
    if (!state_ptr || !src || size <= 0) {
        Message m;
        m << "halide_cuda_initialize_kernels: no kernel state or no PTX was given";
        return report(uc, m, halide_error_code_internal_error);
    }
    CudaContext ctx(uc, halide_error_code_gpu_device_error);
    if (ctx.error) return ctx.error;
    char log[8192];
    log[0] = 0;
    CUresult r = CUDA_SUCCESS;
    bool no_memory = false;
    {
        // Held while loading, so two threads starting the same pipeline load it once.
        CudaLock lock;
        CudaKernelState *k = (CudaKernelState *)*state_ptr;
        if (!k) {
            k = (CudaKernelState *)malloc(sizeof(CudaKernelState));
            if (k) {
                k->module = NULL;
                k->context = NULL;
                k->next = cuda_state.kernels;
                cuda_state.kernels = k;
                *state_ptr = k;
            }
        }
        if (!k) {
            no_memory = true;
        } else if (!k->module || k->context != ctx.context) {
            int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
            void *values[] = {log, (void *)(uintptr_t)sizeof(log)};
            CUmodule module = NULL;
            r = fn.cuModuleLoadDataEx(&module, src, 2, options, values);
            if (r == CUDA_SUCCESS) {
                k->module = module;
                k->context = ctx.context;
            }
        }
    }
    if (no_memory) return halide_error_out_of_memory(uc);
    log[sizeof(log) - 1] = 0;
    if (r != CUDA_SUCCESS) return report_ptx_failure(uc, r, log);
    return 0;
}

int halide_cuda_run(void *uc, void *state_ptr, const char *entry_name, int blocksX, int blocksY,
                    int blocksZ, int threadsX, int threadsY, int threadsZ, int shared_mem_bytes,
                    size_t arg_sizes[], void *args[], int8_t arg_is_buffer[]) {
    const int code = halide_error_code_device_run_failed;
    if (!entry_name) entry_name = "<unnamed>";
    CudaContext ctx(uc, code);
    if (ctx.error) return ctx.error;
    CUmodule module = NULL;
    {
        CudaLock lock;
        CudaKernelState *k = (CudaKernelState *)state_ptr;
        if (k && k->context == ctx.context) module = k->module;
    }
    if (!module) {
        Message m;
        m << "CUDA: cannot launch kernel " << entry_name << ": its module is not loaded "
          << "(halide_cuda_initialize_kernels was not called or failed)";
        return report(uc, m, code);
    }
    CUfunction f;
    CUresult r = fn.cuModuleGetFunction(&f, module, entry_name);
    if (r != CUDA_SUCCESS) {
        Message m;
        m << "CUDA: the pipeline's PTX has no kernel " << entry_name << ": ";
        return report(uc, describe(m, r), code);
    }
    int blocks[] = {blocksX, blocksY, blocksZ};
    int threads[] = {threadsX, threadsY, threadsZ};
    int refused = check_launch(uc, f, entry_name, blocks, threads, shared_mem_bytes);
    if (refused) return refused;
    // The driver reads each argument through its pointer; a buffer's is the address of its
    // device field, which for CUDA is the CUdeviceptr itself.
    r = fn.cuLaunchKernel(f, blocksX, blocksY, blocksZ, threadsX, threadsY, threadsZ,
                          shared_mem_bytes, NULL, args, NULL);
    if (r != CUDA_SUCCESS) {
        Message m;
        m << "CUDA: launching kernel " << entry_name << " failed: ";
        return report(uc, describe(m, r), code);
    }
    if (cuda_state.sync_after_launch) {
        r = fn.cuCtxSynchronize();
        if (r != CUDA_SUCCESS) {
            Message m;
            m << "CUDA: kernel " << entry_name << " failed while running: ";
            return report(uc, describe(m, r), code);
        }
    }
    return 0;
}

void halide_cuda_finalize_kernels(void *uc, void *state_ptr) {}

int halide_cuda_wrap_device_ptr(void *uc, halide_buffer_t *buf, uint64_t device_ptr) {
    return halide_device_wrap_native(uc, buf, device_ptr, &cuda_device_interface);
}

int halide_cuda_detach_device_ptr(void *uc, halide_buffer_t *buf) {
    if (buf && buf->device_interface && buf->device_interface != &cuda_device_interface) {
        Message m;
        m << "halide_cuda_detach_device_ptr: the buffer's device allocation is not CUDA's";
        return report(uc, m, halide_error_code_incompatible_device_interface);
    }
    return halide_device_detach_native(uc, buf);
}

uintptr_t halide_cuda_get_device_ptr(void *uc, halide_buffer_t *buf) {
    if (!buf || !buf->device) return 0;
    if (buf->device_interface != &cuda_device_interface) {
        Message m;
        m << "halide_cuda_get_device_ptr: the buffer's device allocation is not CUDA's";
        report(uc, m, halide_error_code_incompatible_device_interface);
        return 0;
    }
    return (uintptr_t)buf->device;
}

int halide_cuda_release_unused_device_allocations(void *uc) {
    {
        CudaLock lock;
        if (cuda_state.pooled == 0) return 0;
    }
    CudaContext ctx(uc, halide_error_code_device_free_failed);
    if (ctx.error) return ctx.error;
    CudaLock lock;
    release_pool_locked();
    return 0;
}

} // extern "C"
