// The OpenCL device API (include/loom/runtime/loom_runtime_opencl.h): its
// halide_device_interface_impl_t (device_interface.h), the kernel entry points generated code
// calls (halide_opencl_initialize_kernels / run), and Halide's public OpenCL functions.
//
// OpenCL is reached through the ICD loader, opened with dlopen at first use: nothing links
// against OpenCL and no OpenCL header is needed (the few types, constants and prototypes used
// are declared below, with the values of the OpenCL 1.2 specification). One context and one
// in-order command queue serve the whole process; they are created lazily under `mutex` and
// destroyed by halide_device_release, which must not run while other threads use OpenCL.
//
// Memory: buf->device is a cl_mem holding the bytes the buffer spans, from its lowest-addressed
// element. Crops and slices are sub-buffers of the root allocation. Copies move exactly the
// buffer's elements: one call when they are dense, else clEnqueue*BufferRect over the innermost
// one or two dimensions, looping over the others. Freed allocations are kept in a small pool
// (while halide_can_reuse_device_allocations) and reused for the same size.
//
// Kernels: a pipeline's program is built once per context and cached in its state (the `void *`
// generated code passes); its cl_kernel objects are created once per name and cached there too.
// Setting arguments and enqueueing hold `mutex`, since a cl_kernel's arguments are shared state.

#include "runtime/device_interface.h"

#include "runtime/message.h"
#include "runtime/runtime_libc.h"

#include <loom/runtime/loom_runtime_opencl.h>

#include <stdint.h>

extern "C" {
// POSIX dlopen (in glibc's libc since 2.34, and in musl); the flag values are those of both.
void *dlopen(const char *file, int mode);
void *dlsym(void *handle, const char *name);
char *dlerror(void);
int strcmp(const char *a, const char *b);
}

// External linkage, as in device_interface.cpp: when several AOT pipelines carry the runtime,
// they share one context, one pool and one interface (buffers pass between them).
namespace loom_runtime {
namespace opencl {

// ---- The part of the OpenCL API used here (OpenCL 1.2; CL/cl.h has the same values). ----
typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_ulong;
typedef cl_ulong cl_bitfield;
typedef cl_bitfield cl_device_type;
typedef intptr_t cl_context_properties;
typedef struct _cl_platform_id *cl_platform_id;
typedef struct _cl_device_id *cl_device_id;
typedef struct _cl_context *cl_context;
typedef struct _cl_command_queue *cl_command_queue;
typedef struct _cl_mem *cl_mem;
typedef struct _cl_program *cl_program;
typedef struct _cl_kernel *cl_kernel;
typedef struct _cl_event *cl_event;
struct cl_buffer_region {
    size_t origin, size;
};

const cl_int CL_SUCCESS = 0;
const cl_int CL_MEM_OBJECT_ALLOCATION_FAILURE = -4;
const cl_int CL_OUT_OF_RESOURCES = -5;
const cl_int CL_INVALID_MEM_OBJECT = -38;
const cl_int CL_PLATFORM_NOT_FOUND_KHR = -1001;
const cl_uint CL_TRUE = 1;
const cl_device_type CL_DEVICE_TYPE_CPU = 1 << 1;
const cl_device_type CL_DEVICE_TYPE_GPU = 1 << 2;
const cl_device_type CL_DEVICE_TYPE_ACCELERATOR = 1 << 3;
const cl_device_type CL_DEVICE_TYPE_ALL = 0xFFFFFFFF;
const cl_uint CL_PLATFORM_NAME = 0x0902;
const cl_uint CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS = 0x1003;
const cl_uint CL_DEVICE_MAX_WORK_GROUP_SIZE = 0x1004;
const cl_uint CL_DEVICE_MAX_WORK_ITEM_SIZES = 0x1005;
const cl_uint CL_DEVICE_MEM_BASE_ADDR_ALIGN = 0x1019;
const cl_uint CL_DEVICE_LOCAL_MEM_SIZE = 0x1023;
const cl_uint CL_DEVICE_NAME = 0x102B;
const cl_context_properties CL_CONTEXT_PLATFORM = 0x1084;
const cl_bitfield CL_MEM_READ_WRITE = 1 << 0;
const cl_uint CL_MEM_SIZE = 0x1102;
const cl_uint CL_MEM_CONTEXT = 0x1106;
const cl_uint CL_MEM_ASSOCIATED_MEMOBJECT = 0x1107;
const cl_uint CL_MEM_OFFSET = 0x1108;
const cl_uint CL_BUFFER_CREATE_TYPE_REGION = 0x1220;
const cl_uint CL_PROGRAM_BUILD_LOG = 0x1183;
const cl_uint CL_KERNEL_WORK_GROUP_SIZE = 0x11B0;

typedef void (*ContextNotify)(const char *, const void *, size_t, void *);
typedef void (*BuildNotify)(cl_program, void *);

// Every entry point used: return type, name, parameters.
#define LOOM_OPENCL_FUNCTIONS(X)                                                                   \
    X(cl_int, clGetPlatformIDs, (cl_uint, cl_platform_id *, cl_uint *))                            \
    X(cl_int, clGetPlatformInfo, (cl_platform_id, cl_uint, size_t, void *, size_t *))              \
    X(cl_int, clGetDeviceIDs,                                                                      \
      (cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *))                        \
    X(cl_int, clGetDeviceInfo, (cl_device_id, cl_uint, size_t, void *, size_t *))                  \
    X(cl_context, clCreateContext,                                                                 \
      (const cl_context_properties *, cl_uint, const cl_device_id *, ContextNotify, void *,        \
       cl_int *))                                                                                  \
    X(cl_int, clReleaseContext, (cl_context))                                                      \
    X(cl_command_queue, clCreateCommandQueue, (cl_context, cl_device_id, cl_bitfield, cl_int *))   \
    X(cl_int, clReleaseCommandQueue, (cl_command_queue))                                           \
    X(cl_int, clFinish, (cl_command_queue))                                                        \
    X(cl_mem, clCreateBuffer, (cl_context, cl_bitfield, size_t, void *, cl_int *))                 \
    X(cl_mem, clCreateSubBuffer, (cl_mem, cl_bitfield, cl_uint, const void *, cl_int *))           \
    X(cl_int, clReleaseMemObject, (cl_mem))                                                        \
    X(cl_int, clGetMemObjectInfo, (cl_mem, cl_uint, size_t, void *, size_t *))                     \
    X(cl_int, clEnqueueReadBuffer,                                                                 \
      (cl_command_queue, cl_mem, cl_uint, size_t, size_t, void *, cl_uint, const cl_event *,       \
       cl_event *))                                                                                \
    X(cl_int, clEnqueueWriteBuffer,                                                                \
      (cl_command_queue, cl_mem, cl_uint, size_t, size_t, const void *, cl_uint, const cl_event *, \
       cl_event *))                                                                                \
    X(cl_int, clEnqueueCopyBuffer,                                                                 \
      (cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint, const cl_event *,        \
       cl_event *))                                                                                \
    X(cl_int, clEnqueueReadBufferRect,                                                             \
      (cl_command_queue, cl_mem, cl_uint, const size_t *, const size_t *, const size_t *, size_t,  \
       size_t, size_t, size_t, void *, cl_uint, const cl_event *, cl_event *))                     \
    X(cl_int, clEnqueueWriteBufferRect,                                                            \
      (cl_command_queue, cl_mem, cl_uint, const size_t *, const size_t *, const size_t *, size_t,  \
       size_t, size_t, size_t, const void *, cl_uint, const cl_event *, cl_event *))               \
    X(cl_int, clEnqueueCopyBufferRect,                                                             \
      (cl_command_queue, cl_mem, cl_mem, const size_t *, const size_t *, const size_t *, size_t,   \
       size_t, size_t, size_t, cl_uint, const cl_event *, cl_event *))                             \
    X(cl_program, clCreateProgramWithSource,                                                       \
      (cl_context, cl_uint, const char **, const size_t *, cl_int *))                              \
    X(cl_int, clBuildProgram,                                                                      \
      (cl_program, cl_uint, const cl_device_id *, const char *, BuildNotify, void *))              \
    X(cl_int, clGetProgramBuildInfo,                                                               \
      (cl_program, cl_device_id, cl_uint, size_t, void *, size_t *))                               \
    X(cl_int, clReleaseProgram, (cl_program))                                                      \
    X(cl_kernel, clCreateKernel, (cl_program, const char *, cl_int *))                             \
    X(cl_int, clReleaseKernel, (cl_kernel))                                                        \
    X(cl_int, clSetKernelArg, (cl_kernel, cl_uint, size_t, const void *))                          \
    X(cl_int, clGetKernelWorkGroupInfo,                                                            \
      (cl_kernel, cl_device_id, cl_uint, size_t, void *, size_t *))                                \
    X(cl_int, clEnqueueNDRangeKernel,                                                              \
      (cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *, const size_t *,       \
       cl_uint, const cl_event *, cl_event *))

/// The entry points, looked up in the ICD loader.
struct Api {
#define LOOM_OPENCL_POINTER(R, NAME, PARAMS) R(*NAME) PARAMS;
    LOOM_OPENCL_FUNCTIONS(LOOM_OPENCL_POINTER)
#undef LOOM_OPENCL_POINTER
};

/// A kernel of a program, created at its first launch.
struct Kernel {
    Kernel *next;
    cl_kernel kernel;
    size_t max_group; ///< CL_KERNEL_WORK_GROUP_SIZE
    const char *name; ///< stored right after the struct
};

/// What a pipeline's `void *` state points at: its program in the current context.
struct Program {
    Program *next; ///< every state, for halide_device_release
    cl_program program;
    uint64_t generation; ///< of the context it was built in
    Kernel *kernels;
};

/// A freed allocation kept for reuse.
struct PooledMem {
    cl_mem mem;
    size_t size;
};
const int kPoolSize = 32;

/// Guards everything below, kernel arguments and launches.
SyncStorage mutex;
void *library = NULL;
Api cl;
/// The context exists (read without the lock on the fast path).
bool ready = false;
/// Counts contexts created, so a program built in an earlier one is rebuilt.
uint64_t generation = 0;
cl_platform_id platform;
cl_device_id device;
cl_context context;
cl_command_queue queue;
char device_name[128];
size_t base_align_bytes = 1;
size_t max_group_size;
size_t max_item_sizes[3];
cl_ulong local_mem_size;
Program *programs = NULL;
PooledMem pool[kPoolSize];
int pool_count = 0;
bool pool_registered = false;
/// Successful program builds, for the tests (loom_opencl_program_builds).
int program_builds = 0;

/// The settings of halide_opencl_set_*, copied (set: the setter was called with a string).
struct Setting {
    char value[256];
    bool set;
};
Setting platform_name_setting, device_type_setting, build_options_setting;

extern const halide_device_interface_impl_t device_impl;
extern const halide_device_interface_t device_interface;
extern halide_device_allocation_pool allocation_pool;

} // namespace opencl
} // namespace loom_runtime

using namespace loom_runtime::opencl;

namespace {

class ScopedLock {
public:
    explicit ScopedLock(loom_runtime::SyncStorage &m) : m_(m) { pthread_mutex_lock(&m_); }
    ~ScopedLock() { pthread_mutex_unlock(&m_); }

private:
    loom_runtime::SyncStorage &m_;
};

struct ErrorName {
    cl_int code;
    const char *name;
};
// The error codes of the specification (CL/cl.h), and the ICD loader's "no platform".
const ErrorName error_names[] = {
    {0, "CL_SUCCESS"},
    {-1, "CL_DEVICE_NOT_FOUND"},
    {-2, "CL_DEVICE_NOT_AVAILABLE"},
    {-3, "CL_COMPILER_NOT_AVAILABLE"},
    {-4, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
    {-5, "CL_OUT_OF_RESOURCES"},
    {-6, "CL_OUT_OF_HOST_MEMORY"},
    {-7, "CL_PROFILING_INFO_NOT_AVAILABLE"},
    {-8, "CL_MEM_COPY_OVERLAP"},
    {-9, "CL_IMAGE_FORMAT_MISMATCH"},
    {-10, "CL_IMAGE_FORMAT_NOT_SUPPORTED"},
    {-11, "CL_BUILD_PROGRAM_FAILURE"},
    {-12, "CL_MAP_FAILURE"},
    {-13, "CL_MISALIGNED_SUB_BUFFER_OFFSET"},
    {-14, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"},
    {-15, "CL_COMPILE_PROGRAM_FAILURE"},
    {-16, "CL_LINKER_NOT_AVAILABLE"},
    {-17, "CL_LINK_PROGRAM_FAILURE"},
    {-18, "CL_DEVICE_PARTITION_FAILED"},
    {-19, "CL_KERNEL_ARG_INFO_NOT_AVAILABLE"},
    {-30, "CL_INVALID_VALUE"},
    {-31, "CL_INVALID_DEVICE_TYPE"},
    {-32, "CL_INVALID_PLATFORM"},
    {-33, "CL_INVALID_DEVICE"},
    {-34, "CL_INVALID_CONTEXT"},
    {-35, "CL_INVALID_QUEUE_PROPERTIES"},
    {-36, "CL_INVALID_COMMAND_QUEUE"},
    {-37, "CL_INVALID_HOST_PTR"},
    {-38, "CL_INVALID_MEM_OBJECT"},
    {-39, "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR"},
    {-40, "CL_INVALID_IMAGE_SIZE"},
    {-41, "CL_INVALID_SAMPLER"},
    {-42, "CL_INVALID_BINARY"},
    {-43, "CL_INVALID_BUILD_OPTIONS"},
    {-44, "CL_INVALID_PROGRAM"},
    {-45, "CL_INVALID_PROGRAM_EXECUTABLE"},
    {-46, "CL_INVALID_KERNEL_NAME"},
    {-47, "CL_INVALID_KERNEL_DEFINITION"},
    {-48, "CL_INVALID_KERNEL"},
    {-49, "CL_INVALID_ARG_INDEX"},
    {-50, "CL_INVALID_ARG_VALUE"},
    {-51, "CL_INVALID_ARG_SIZE"},
    {-52, "CL_INVALID_KERNEL_ARGS"},
    {-53, "CL_INVALID_WORK_DIMENSION"},
    {-54, "CL_INVALID_WORK_GROUP_SIZE"},
    {-55, "CL_INVALID_WORK_ITEM_SIZE"},
    {-56, "CL_INVALID_GLOBAL_OFFSET"},
    {-57, "CL_INVALID_EVENT_WAIT_LIST"},
    {-58, "CL_INVALID_EVENT"},
    {-59, "CL_INVALID_OPERATION"},
    {-60, "CL_INVALID_GL_OBJECT"},
    {-61, "CL_INVALID_BUFFER_SIZE"},
    {-62, "CL_INVALID_MIP_LEVEL"},
    {-63, "CL_INVALID_GLOBAL_WORK_SIZE"},
    {-64, "CL_INVALID_PROPERTY"},
    {-65, "CL_INVALID_IMAGE_DESCRIPTOR"},
    {-66, "CL_INVALID_COMPILER_OPTIONS"},
    {-67, "CL_INVALID_LINKER_OPTIONS"},
    {-68, "CL_INVALID_DEVICE_PARTITION_COUNT"},
    {-69, "CL_INVALID_PIPE_SIZE"},
    {-70, "CL_INVALID_DEVICE_QUEUE"},
    {-71, "CL_INVALID_SPEC_ID"},
    {-72, "CL_MAX_SIZE_RESTRICTION_EXCEEDED"},
    {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
};

const char *error_name(cl_int e) {
    for (const ErrorName &n : error_names) {
        if (n.code == e) return n.name;
    }
    return "an unknown OpenCL error";
}

/// Reports "OpenCL: <what> failed: <error name> (<code>)" and returns `code`.
int fail_call(void *uc, int code, const char *what, cl_int err) {
    Message m;
    m << "OpenCL: " << what << " failed: " << error_name(err) << " (" << (int)err << ")";
    return report(uc, m, code);
}

bool contains(const char *s, const char *part) {
    size_t n = strlen(part);
    for (; *s; s++) {
        size_t i = 0;
        while (i < n && s[i] == part[i]) i++;
        if (i == n) return true;
    }
    return n == 0;
}

/// Whether the n characters at s hold `line` as a line of its own.
bool has_line(const char *s, size_t n, const char *line) {
    size_t len = strlen(line);
    for (size_t i = 0; i + len <= n; i++) {
        if (i > 0 && s[i - 1] != '\n') continue;
        size_t j = 0;
        while (j < len && s[i + j] == line[j]) j++;
        if (j == len && (i + len == n || s[i + len] == '\n' || s[i + len] == '\r')) return true;
    }
    return false;
}

void copy_string(char *dst, size_t n, const char *src) {
    halide_string_to_string(dst, dst + n, src);
}

void set_setting(Setting &s, const char *value) {
    s.set = value != NULL;
    copy_string(s.value, sizeof(s.value), value ? value : "");
}

const char *get_setting(const Setting &s, const char *env) {
    if (s.set) return s.value;
    return getenv(env);
}

// ---- The loader and the context. ----

/// Whether the ICD loader is open (then `cl` is filled in).
bool loaded() { return __atomic_load_n(&library, __ATOMIC_ACQUIRE) != NULL; }

/// Opens the ICD loader and looks up every entry point. Called with the lock held.
int load_library(void *uc) {
    if (library) return 0;
    const char *name = "libOpenCL.so.1";
    void *h = dlopen(name, 1 /* RTLD_LAZY */);
    char first_error[256];
    const char *e = dlerror();
    copy_string(first_error, sizeof(first_error), e ? e : "not found");
    if (!h) h = dlopen("libOpenCL.so", 1);
    if (!h) {
        Message m;
        m << "OpenCL: cannot load " << name << ": " << first_error
          << "; install an OpenCL driver such as pocl-opencl-icd (scripts/setup.sh does)";
        return report(uc, m, halide_error_code_gpu_device_error);
    }
    Api api;
#define LOOM_OPENCL_LOOKUP(R, NAME, PARAMS)                                                        \
    api.NAME = (R(*) PARAMS)dlsym(h, #NAME);                                                       \
    if (!api.NAME) {                                                                               \
        Message m;                                                                                 \
        m << "OpenCL: the ICD loader " << name << " has no " << #NAME                              \
          << " (OpenCL 1.2 is needed)";                                                            \
        return report(uc, m, halide_error_code_gpu_device_error);                                  \
    }
    LOOM_OPENCL_FUNCTIONS(LOOM_OPENCL_LOOKUP)
#undef LOOM_OPENCL_LOOKUP
    cl = api;
    // Published after the table: loaded() readers see it complete.
    __atomic_store_n(&library, h, __ATOMIC_RELEASE);
    return 0;
}

void platform_name(cl_platform_id p, char *dst, size_t n) {
    dst[0] = 0;
    if (cl.clGetPlatformInfo(p, CL_PLATFORM_NAME, n, dst, NULL) != CL_SUCCESS) {
        copy_string(dst, n, "<unnamed>");
    }
    dst[n - 1] = 0;
}

/// The device type asked for (0: none), or -1 when the setting is not one OpenCL knows.
int64_t requested_type(const char *t) {
    if (!t || !*t) return 0;
    cl_device_type type = 0;
    if (contains(t, "cpu")) type |= CL_DEVICE_TYPE_CPU;
    if (contains(t, "gpu")) type |= CL_DEVICE_TYPE_GPU;
    if (contains(t, "acc")) type |= CL_DEVICE_TYPE_ACCELERATOR;
    return type ? (int64_t)type : -1;
}

/// Chooses `platform` and `device` (see the header). Called with the lock held.
int select_device(void *uc) {
    const int kMax = 16;
    cl_platform_id platforms[kMax];
    cl_uint count = 0;
    cl_int err = cl.clGetPlatformIDs(kMax, platforms, &count);
    if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && count == 0)) {
        Message m;
        m << "OpenCL: no device found: the ICD loader lists no OpenCL platform; install an OpenCL "
             "driver such as pocl-opencl-icd (scripts/setup.sh does)";
        return report(uc, m, halide_error_code_gpu_device_error);
    }
    if (err != CL_SUCCESS) {
        return fail_call(uc, halide_error_code_gpu_device_error, "clGetPlatformIDs", err);
    }
    if (count > (cl_uint)kMax) count = kMax;

    const char *want_name = halide_opencl_get_platform_name(uc);
    if (want_name && !*want_name) want_name = NULL;
    const char *want_type = halide_opencl_get_device_type(uc);
    int64_t type = requested_type(want_type);
    if (type < 0) {
        Message m;
        m << "OpenCL: the device type asked for (HL_OCL_DEVICE_TYPE or "
             "halide_opencl_set_device_type) is '"
          << want_type << "'; it must be cpu, gpu or acc";
        return report(uc, m, halide_error_code_gpu_device_error);
    }
    // Without a type asked for: a GPU on any platform first, else any device.
    cl_device_type passes[2] = {(cl_device_type)type, 0};
    int num_passes = 1;
    if (type == 0) {
        passes[0] = CL_DEVICE_TYPE_GPU;
        passes[1] = CL_DEVICE_TYPE_ALL;
        num_passes = 2;
    }
    char name[256];
    for (int pass = 0; pass < num_passes; pass++) {
        for (cl_uint i = 0; i < count; i++) {
            platform_name(platforms[i], name, sizeof(name));
            if (want_name && !contains(name, want_name)) continue;
            cl_device_id devices[kMax];
            cl_uint n = 0;
            err = cl.clGetDeviceIDs(platforms[i], passes[pass], kMax, devices, &n);
            if (err != CL_SUCCESS || n == 0) continue;
            if (n > (cl_uint)kMax) n = kMax;
            int index = halide_get_gpu_device(uc);
            if (index < 0) index = 0;
            if (index >= (int)n) {
                Message m;
                m << "OpenCL: device " << index
                  << " was asked for (HL_GPU_DEVICE or halide_set_gpu_device), but platform '"
                  << name << "' has only " << (int)n << " device(s) of the type asked for";
                return report(uc, m, halide_error_code_gpu_device_error);
            }
            platform = platforms[i];
            device = devices[index];
            return 0;
        }
    }
    Message m;
    m << "OpenCL: no device found";
    if (type) m << " of type '" << want_type << "'";
    if (want_name) m << " on a platform whose name contains '" << want_name << "'";
    m << " (platforms:";
    for (cl_uint i = 0; i < count; i++) {
        platform_name(platforms[i], name, sizeof(name));
        m << (i ? ", '" : " '") << name << "'";
    }
    m << "); install an OpenCL driver such as pocl-opencl-icd (scripts/setup.sh does), or change "
         "HL_OCL_PLATFORM_NAME / HL_OCL_DEVICE_TYPE";
    return report(uc, m, halide_error_code_gpu_device_error);
}

/// Reads the device's limits that launches and crops are checked against.
void query_limits() {
    cl_uint align_bits = 8;
    cl.clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(align_bits), &align_bits,
                       NULL);
    base_align_bytes = align_bits >= 8 ? align_bits / 8 : 1;
    max_group_size = 1;
    cl.clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(max_group_size),
                       &max_group_size, NULL);
    cl_uint dims = 0;
    cl.clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof(dims), &dims, NULL);
    size_t sizes[16] = {1, 1, 1};
    if (dims > 16) dims = 16;
    cl.clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof(size_t), sizes, NULL);
    for (int i = 0; i < 3; i++) max_item_sizes[i] = i < (int)dims ? sizes[i] : 1;
    local_mem_size = 0;
    cl.clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(local_mem_size), &local_mem_size,
                       NULL);
    char name[512];
    if (cl.clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(name), name, NULL) != CL_SUCCESS) {
        name[0] = 0;
    }
    name[sizeof(name) - 1] = 0;
    copy_string(device_name, sizeof(device_name), name);
}

/// Creates the context and queue unless they exist. Called with the lock held.
int init_locked(void *uc) {
    if (ready) return 0;
    int r = load_library(uc);
    if (r == 0) r = select_device(uc);
    if (r != 0) return r;
    cl_context_properties props[3] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_int err = CL_SUCCESS;
    context = cl.clCreateContext(props, 1, &device, NULL, NULL, &err);
    if (!context || err != CL_SUCCESS) {
        return fail_call(uc, halide_error_code_gpu_device_error, "clCreateContext", err);
    }
    // In order: copies and launches see the effects of everything enqueued before them.
    queue = cl.clCreateCommandQueue(context, device, 0, &err);
    if (!queue || err != CL_SUCCESS) {
        cl.clReleaseContext(context);
        context = NULL;
        return fail_call(uc, halide_error_code_gpu_device_error, "clCreateCommandQueue", err);
    }
    query_limits();
    generation++;
    __atomic_store_n(&ready, true, __ATOMIC_RELEASE);
    return 0;
}

/// Makes sure the context exists; 0 or an error (reported).
int acquire(void *uc) {
    if (__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) return 0;
    ScopedLock lock(mutex);
    return init_locked(uc);
}

// ---- Memory. ----

cl_mem mem_of(const halide_buffer_t *buf) { return (cl_mem)(uintptr_t)buf->device; }

/// The bytes a device allocation for buf needs: its span (at least one element, so that an
/// empty buffer still gets a handle).
size_t span_bytes(const halide_buffer_t *buf) {
    if (buf->number_of_elements() == 0) return buf->type.bytes();
    return buf->size_in_bytes();
}

/// Releases every pooled allocation. Called with the lock held.
void release_pool_locked() {
    for (int i = 0; i < pool_count; i++) cl.clReleaseMemObject(pool[i].mem);
    pool_count = 0;
}

int release_unused(void *uc) {
    ScopedLock lock(mutex);
    release_pool_locked();
    return 0;
}

int opencl_device_malloc(void *uc, halide_buffer_t *buf) {
    int r = acquire(uc);
    if (r != 0) return r;
    size_t bytes = span_bytes(buf);
    cl_mem mem = NULL;
    {
        ScopedLock lock(mutex);
        // The most recently freed first.
        for (int i = pool_count - 1; i >= 0; i--) {
            if (pool[i].size == bytes) {
                mem = pool[i].mem;
                pool[i] = pool[--pool_count];
                break;
            }
        }
    }
    if (!mem) {
        cl_int err = CL_SUCCESS;
        mem = cl.clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
        if (!mem && (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES)) {
            // The pooled allocations may be what fills the device: drop them and try again.
            release_unused(uc);
            mem = cl.clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
        }
        if (!mem || err != CL_SUCCESS) {
            Message m;
            m << "OpenCL: clCreateBuffer of " << (uint64_t)bytes
              << " bytes failed: " << error_name(err) << " (" << (int)err << ")";
            return report(uc, m, halide_error_code_device_malloc_failed);
        }
    }
    buf->device = (uint64_t)(uintptr_t)mem;
    return 0;
}

/// Reports a handle of this interface met before OpenCL was loaded (not one the module made).
int not_loaded(void *uc, int code) {
    return report(uc,
                  Message() << "OpenCL: the buffer's device handle was not made by the OpenCL "
                               "runtime (OpenCL is not loaded)",
                  code);
}

/// Whether mem may go to the pool: a root allocation (not a sub-buffer freed this way) of the
/// current context (not one freed after halide_device_release). Sets its size.
bool poolable(cl_mem mem, size_t *size) {
    cl_mem parent = NULL;
    cl_context owner = NULL;
    return cl.clGetMemObjectInfo(mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(parent), &parent, NULL) ==
               CL_SUCCESS &&
           !parent &&
           cl.clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof(owner), &owner, NULL) == CL_SUCCESS &&
           cl.clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof(*size), size, NULL) == CL_SUCCESS &&
           owner == __atomic_load_n(&context, __ATOMIC_ACQUIRE);
}

int opencl_device_free(void *uc, halide_buffer_t *buf) {
    if (!loaded()) return not_loaded(uc, halide_error_code_device_free_failed);
    cl_mem mem = mem_of(buf);
    size_t size = 0;
    bool reuse = halide_can_reuse_device_allocations(uc);
    // Registered before the pool first holds something, and outside `mutex`: the runtime calls
    // release_unused with its pool list locked, so taking that lock under `mutex` could deadlock.
    if (reuse && !__atomic_exchange_n(&pool_registered, true, __ATOMIC_ACQ_REL)) {
        halide_register_device_allocation_pool(&allocation_pool);
    }
    if (reuse && poolable(mem, &size)) {
        ScopedLock lock(mutex);
        if (ready && pool_count < kPoolSize) {
            pool[pool_count].mem = mem;
            pool[pool_count].size = size;
            pool_count++;
            return 0;
        }
    }
    cl_int err = cl.clReleaseMemObject(mem);
    if (err != CL_SUCCESS) {
        return fail_call(uc, halide_error_code_device_free_failed, "clReleaseMemObject", err);
    }
    return 0;
}

int opencl_device_sync(void *uc, halide_buffer_t *buf) {
    int r = acquire(uc);
    if (r != 0) return r;
    cl_int err = cl.clFinish(queue);
    if (err != CL_SUCCESS) {
        return fail_call(uc, halide_error_code_device_sync_failed, "clFinish", err);
    }
    return 0;
}

/// Releases a program's kernels and the program. Called with the lock held.
void release_program_locked(Program *p) {
    for (Kernel *k = p->kernels; k;) {
        Kernel *next = k->next;
        cl.clReleaseKernel(k->kernel);
        free(k);
        k = next;
    }
    p->kernels = NULL;
    if (p->program) cl.clReleaseProgram(p->program);
    p->program = NULL;
}

void opencl_device_release(void *uc) {
    ScopedLock lock(mutex);
    if (!ready) return;
    cl.clFinish(queue);
    release_pool_locked();
    // The states stay (generated code keeps pointers to them); their programs go.
    for (Program *p = programs; p; p = p->next) release_program_locked(p);
    cl.clReleaseCommandQueue(queue);
    cl.clReleaseContext(context);
    queue = NULL;
    context = NULL;
    __atomic_store_n(&ready, false, __ATOMIC_RELEASE);
}

// ---- Copies. ----

const int kMaxCopyDims = 16;

enum CopyKind { kDeviceToHost, kHostToDevice, kDeviceToDevice };

/// A copy of a box of elements: `chunk` contiguous bytes on both sides, repeated over `dims`
/// dimensions (innermost first, source strides positive and increasing). Offsets and strides
/// are in bytes: from the first byte of a device side's cl_mem, or from a host side's pointer.
struct CopyPlan {
    CopyKind kind;
    cl_mem src_mem, dst_mem;
    const uint8_t *src_host;
    uint8_t *dst_host;
    int64_t src_off, dst_off;
    uint64_t chunk;
    int dims;
    bool empty; ///< some extent is zero: nothing to copy
    uint64_t extent[kMaxCopyDims];
    int64_t src_stride[kMaxCopyDims], dst_stride[kMaxCopyDims];
};

/// Plans copying the elements of dst's region (inside src's, same dimensions) from src to dst;
/// a side is its device allocation when *_device, else its host memory. False when there are
/// too many dimensions.
bool make_plan(CopyPlan *p, const halide_buffer_t *src, bool src_device, const halide_buffer_t *dst,
               bool dst_device) {
    if (dst->dimensions > kMaxCopyDims) return false;
    int64_t eb = dst->type.bytes();
    p->kind = src_device ? (dst_device ? kDeviceToDevice : kDeviceToHost) : kHostToDevice;
    p->src_mem = src_device ? mem_of(src) : NULL;
    p->dst_mem = dst_device ? mem_of(dst) : NULL;
    p->src_host = src_device ? NULL : src->host;
    p->dst_host = dst_device ? NULL : dst->host;
    // A device allocation starts at the buffer's lowest-addressed element.
    p->src_off = src_device ? -(int64_t)src->begin_offset() * eb : 0;
    p->dst_off = dst_device ? -(int64_t)dst->begin_offset() * eb : 0;
    p->chunk = eb;
    p->dims = 0;
    p->empty = false;
    for (int i = 0; i < dst->dimensions; i++) {
        const halide_dimension_t &s = src->dim[i], &d = dst->dim[i];
        p->src_off += (int64_t)(d.min - s.min) * s.stride * eb;
        if (d.extent <= 0) p->empty = true;
        if (d.extent <= 1) continue;
        int64_t ss = (int64_t)s.stride * eb, ds = (int64_t)d.stride * eb;
        if (ss < 0) {
            // Walk the dimension from its other end, so the source's strides are positive.
            p->src_off += (int64_t)(d.extent - 1) * ss;
            p->dst_off += (int64_t)(d.extent - 1) * ds;
            ss = -ss;
            ds = -ds;
        }
        int j = p->dims++;
        for (; j > 0 && (p->src_stride[j - 1] > ss ||
                         (p->src_stride[j - 1] == ss && p->dst_stride[j - 1] > ds));
             j--) {
            p->extent[j] = p->extent[j - 1];
            p->src_stride[j] = p->src_stride[j - 1];
            p->dst_stride[j] = p->dst_stride[j - 1];
        }
        p->extent[j] = d.extent;
        p->src_stride[j] = ss;
        p->dst_stride[j] = ds;
    }
    // Dense innermost dimensions join the chunk; dimensions continuing the previous one on both
    // sides merge with it.
    int n = 0;
    for (int i = 0; i < p->dims; i++) {
        if (n == 0 && p->src_stride[i] == (int64_t)p->chunk &&
            p->dst_stride[i] == (int64_t)p->chunk) {
            p->chunk *= p->extent[i];
        } else if (n > 0 && p->src_stride[i] == p->src_stride[n - 1] * (int64_t)p->extent[n - 1] &&
                   p->dst_stride[i] == p->dst_stride[n - 1] * (int64_t)p->extent[n - 1]) {
            p->extent[n - 1] *= p->extent[i];
        } else {
            p->extent[n] = p->extent[i];
            p->src_stride[n] = p->src_stride[i];
            p->dst_stride[n] = p->dst_stride[i];
            n++;
        }
    }
    p->dims = n;
    return true;
}

/// How many innermost dimensions one clEnqueue*BufferRect can cover (0: plain copies): rows may
/// not overlap, and a slice pitch must be a multiple of the row pitch.
int rect_dims(const CopyPlan &p) {
    int64_t chunk = (int64_t)p.chunk;
    if (p.dims < 1 || p.src_stride[0] < chunk || p.dst_stride[0] < chunk) return 0;
    if (p.dims < 2) return 1;
    int64_t ss = p.src_stride[0], ds = p.dst_stride[0];
    bool two = p.src_stride[1] >= ss * (int64_t)p.extent[0] && p.src_stride[1] % ss == 0 &&
               p.dst_stride[1] >= ds * (int64_t)p.extent[0] && p.dst_stride[1] % ds == 0;
    return two ? 2 : 1;
}

/// One enqueued copy of dimensions [0, rect) from the given offsets.
cl_int enqueue_copy(const CopyPlan &p, int rect, int64_t so, int64_t dof) {
    if (rect == 0) {
        switch (p.kind) {
        case kDeviceToHost:
            return cl.clEnqueueReadBuffer(queue, p.src_mem, CL_TRUE, (size_t)so, p.chunk,
                                          p.dst_host + dof, 0, NULL, NULL);
        case kHostToDevice:
            return cl.clEnqueueWriteBuffer(queue, p.dst_mem, CL_TRUE, (size_t)dof, p.chunk,
                                           p.src_host + so, 0, NULL, NULL);
        case kDeviceToDevice:
            return cl.clEnqueueCopyBuffer(queue, p.src_mem, p.dst_mem, (size_t)so, (size_t)dof,
                                          p.chunk, 0, NULL, NULL);
        }
    }
    size_t region[3] = {p.chunk, p.extent[0], rect == 2 ? p.extent[1] : 1};
    size_t src_row = p.src_stride[0], dst_row = p.dst_stride[0];
    size_t src_slice = rect == 2 ? p.src_stride[1] : src_row * region[1];
    size_t dst_slice = rect == 2 ? p.dst_stride[1] : dst_row * region[1];
    size_t zero[3] = {0, 0, 0};
    size_t src_origin[3] = {(size_t)so, 0, 0}, dst_origin[3] = {(size_t)dof, 0, 0};
    switch (p.kind) {
    case kDeviceToHost:
        return cl.clEnqueueReadBufferRect(queue, p.src_mem, CL_TRUE, src_origin, zero, region,
                                          src_row, src_slice, dst_row, dst_slice, p.dst_host + dof,
                                          0, NULL, NULL);
    case kHostToDevice:
        return cl.clEnqueueWriteBufferRect(queue, p.dst_mem, CL_TRUE, dst_origin, zero, region,
                                           dst_row, dst_slice, src_row, src_slice, p.src_host + so,
                                           0, NULL, NULL);
    case kDeviceToDevice:
        return cl.clEnqueueCopyBufferRect(queue, p.src_mem, p.dst_mem, src_origin, dst_origin,
                                          region, src_row, src_slice, dst_row, dst_slice, 0, NULL,
                                          NULL);
    }
    return CL_SUCCESS;
}

/// Loops over dimensions d down to rect, then enqueues.
cl_int copy_from(const CopyPlan &p, int d, int rect, int64_t so, int64_t dof) {
    if (d < rect) return enqueue_copy(p, rect, so, dof);
    for (uint64_t k = 0; k < p.extent[d]; k++) {
        cl_int err = copy_from(p, d - 1, rect, so + (int64_t)k * p.src_stride[d],
                               dof + (int64_t)k * p.dst_stride[d]);
        if (err != CL_SUCCESS) return err;
    }
    return CL_SUCCESS;
}

/// Copies dst's region from src (see make_plan); `code` is returned on failure.
int copy_region(void *uc, const halide_buffer_t *src, bool src_device, const halide_buffer_t *dst,
                bool dst_device, int code) {
    int r = acquire(uc);
    if (r != 0) return r;
    CopyPlan p;
    if (!make_plan(&p, src, src_device, dst, dst_device)) {
        Message m;
        m << "OpenCL: cannot copy a buffer of " << dst->dimensions << " dimensions (at most "
          << kMaxCopyDims << ")";
        return report(uc, m, code);
    }
    if (p.empty) return 0;
    const char *what = p.kind == kDeviceToHost   ? "reading device memory to the host"
                       : p.kind == kHostToDevice ? "writing host memory to the device"
                                                 : "copying between device buffers";
    cl_int err = copy_from(p, p.dims - 1, rect_dims(p), p.src_off, p.dst_off);
    if (err != CL_SUCCESS) return fail_call(uc, code, what, err);
    return 0;
}

int opencl_copy_to_host(void *uc, halide_buffer_t *buf) {
    return copy_region(uc, buf, true, buf, false, halide_error_code_copy_to_host_failed);
}

int opencl_copy_to_device(void *uc, halide_buffer_t *buf) {
    return copy_region(uc, buf, false, buf, true, halide_error_code_copy_to_device_failed);
}

int opencl_buffer_copy(void *uc, const halide_buffer_t *src, bool from_device, halide_buffer_t *dst,
                       bool to_device) {
    // Host to host, and anything on another API, goes through the runtime's own path.
    if (!from_device && !to_device) return halide_error_code_incompatible_device_interface;
    if ((from_device && src->device_interface != &device_interface) ||
        (to_device && dst->device_interface != &device_interface)) {
        return halide_error_code_incompatible_device_interface;
    }
    return copy_region(uc, src, from_device, dst, to_device,
                       halide_error_code_device_buffer_copy_failed);
}

// ---- Crops, slices and native handles. ----

/// Makes dst->device a sub-buffer of `bytes` bytes at `offset` bytes into src's allocation.
int make_sub_buffer(void *uc, cl_mem src, int64_t offset, size_t bytes, halide_buffer_t *dst) {
    int r = acquire(uc);
    if (r != 0) return r;
    // A sub-buffer of a sub-buffer is not allowed: alias the root allocation.
    cl_mem root = src, parent = NULL;
    size_t parent_offset = 0;
    cl_int err =
        cl.clGetMemObjectInfo(src, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(parent), &parent, NULL);
    if (err == CL_SUCCESS && parent) {
        err =
            cl.clGetMemObjectInfo(src, CL_MEM_OFFSET, sizeof(parent_offset), &parent_offset, NULL);
        root = parent;
        offset += (int64_t)parent_offset;
    }
    if (err != CL_SUCCESS) {
        return fail_call(uc, halide_error_code_device_crop_failed, "clGetMemObjectInfo", err);
    }
    if (offset % (int64_t)base_align_bytes != 0) {
        Message m;
        m << "OpenCL: cannot crop or slice the device buffer: the region starts " << offset
          << " bytes into its allocation, and OpenCL sub-buffers must start at a multiple of "
             "the device's CL_DEVICE_MEM_BASE_ADDR_ALIGN ("
          << (uint64_t)base_align_bytes << " bytes)";
        return report(uc, m, halide_error_code_device_crop_failed);
    }
    cl_buffer_region region = {(size_t)offset, bytes};
    // Flags 0: the sub-buffer has the root's access flags.
    cl_mem sub = cl.clCreateSubBuffer(root, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    if (!sub || err != CL_SUCCESS) {
        return fail_call(uc, halide_error_code_device_crop_failed, "clCreateSubBuffer", err);
    }
    dst->device = (uint64_t)(uintptr_t)sub;
    return 0;
}

/// The byte offset from the start of src's allocation to that of an alias whose element at its
/// mins is `element_offset` elements from src's element at its mins.
int64_t alias_offset(const halide_buffer_t *src, const halide_buffer_t *dst,
                     int64_t element_offset) {
    int64_t elements = -(int64_t)src->begin_offset() + element_offset + dst->begin_offset();
    return elements * dst->type.bytes();
}

int opencl_device_crop(void *uc, const halide_buffer_t *src, halide_buffer_t *dst) {
    int64_t e = 0;
    for (int i = 0; i < dst->dimensions; i++) {
        e += (int64_t)(dst->dim[i].min - src->dim[i].min) * src->dim[i].stride;
    }
    return make_sub_buffer(uc, mem_of(src), alias_offset(src, dst, e), span_bytes(dst), dst);
}

int opencl_device_slice(void *uc, const halide_buffer_t *src, int slice_dim, int slice_pos,
                        halide_buffer_t *dst) {
    int64_t e = (int64_t)(slice_pos - src->dim[slice_dim].min) * src->dim[slice_dim].stride;
    for (int i = 0; i < dst->dimensions; i++) {
        int s = i < slice_dim ? i : i + 1;
        e += (int64_t)(dst->dim[i].min - src->dim[s].min) * src->dim[s].stride;
    }
    return make_sub_buffer(uc, mem_of(src), alias_offset(src, dst, e), span_bytes(dst), dst);
}

int opencl_device_release_crop(void *uc, halide_buffer_t *buf) {
    if (!loaded()) return not_loaded(uc, halide_error_code_device_free_failed);
    cl_int err = cl.clReleaseMemObject(mem_of(buf));
    if (err != CL_SUCCESS) {
        return fail_call(uc, halide_error_code_device_free_failed, "clReleaseMemObject", err);
    }
    return 0;
}

int opencl_wrap_native(void *uc, halide_buffer_t *buf, uint64_t handle) {
    int r = acquire(uc);
    if (r != 0) return r;
    cl_mem mem = (cl_mem)(uintptr_t)handle;
    size_t size = 0;
    cl_context owner = NULL;
    cl_int err = mem ? cl.clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof(size), &size, NULL)
                     : CL_INVALID_MEM_OBJECT;
    if (err == CL_SUCCESS) {
        err = cl.clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof(owner), &owner, NULL);
    }
    if (err != CL_SUCCESS) {
        return fail_call(uc, halide_error_code_device_wrap_native_failed,
                         "reading the cl_mem to wrap (is it a cl_mem?)", err);
    }
    if (owner != context) {
        return report(uc,
                      Message() << "OpenCL: the cl_mem to wrap belongs to another context than "
                                   "the runtime's",
                      halide_error_code_device_wrap_native_failed);
    }
    if (size < span_bytes(buf)) {
        Message m;
        m << "OpenCL: the cl_mem to wrap holds " << (uint64_t)size
          << " bytes, but the buffer spans " << (uint64_t)span_bytes(buf);
        return report(uc, m, halide_error_code_device_wrap_native_failed);
    }
    buf->device = handle;
    return 0;
}

int opencl_detach_native(void *uc, halide_buffer_t *buf) {
    // The caller owns the cl_mem: nothing to release.
    return 0;
}

// ---- Programs and kernels. ----

/// Reports a failed build with the compiler's log and the first lines of the source.
int report_build_failure(void *uc, cl_program program, cl_int err, const char *options,
                         const char *src, size_t len) {
    size_t log_size = 0;
    cl.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size);
    const size_t kSourceBytes = 2048;
    size_t cap = log_size + kSourceBytes + 1024;
    char *msg = (char *)malloc(cap);
    char *log = (char *)malloc(log_size + 1);
    if (!msg || !log) {
        free(msg);
        free(log);
        return fail_call(uc, halide_error_code_generic_error, "building the OpenCL program", err);
    }
    log[0] = 0;
    if (log_size > 0) {
        cl.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, log_size, log, NULL);
    }
    log[log_size] = 0;
    char *p = msg, *end = msg + cap;
    p = halide_string_to_string(p, end, "OpenCL: building the program failed: ");
    p = halide_string_to_string(p, end, error_name(err));
    p = halide_string_to_string(p, end, " (device '");
    p = halide_string_to_string(p, end, device_name);
    p = halide_string_to_string(p, end, "', options '");
    p = halide_string_to_string(p, end, options);
    p = halide_string_to_string(p, end, "'). Build log:\n");
    p = halide_string_to_string(p, end, log);
    p = halide_string_to_string(p, end, "\nThe source begins:\n");
    // Its first 20 lines, within kSourceBytes.
    int lines = 0;
    size_t i = 0;
    while (i < len && i < kSourceBytes && lines < 20 && p + 1 < end) {
        if (src[i] == '\n') lines++;
        *p++ = src[i++];
    }
    *p = 0;
    halide_error(uc, msg);
    free(msg);
    free(log);
    return halide_error_code_generic_error;
}

/// Builds p's program from the source. Called with the lock held.
int build_locked(void *uc, Program *p, const char *src, size_t len) {
    cl_int err = CL_SUCCESS;
    const char *sources[1] = {src};
    cl_program program = cl.clCreateProgramWithSource(context, 1, sources, &len, &err);
    if (!program || err != CL_SUCCESS) {
        return fail_call(uc, halide_error_code_generic_error, "clCreateProgramWithSource", err);
    }
    char options[1024];
    char *o = options, *end = options + sizeof(options);
    o = halide_string_to_string(o, end, "-cl-std=CL1.2");
    // Kernels whose float results must match the CPU's bit for bit opt out of relaxed math.
    if (!has_line(src, len, "#define LOOM_STRICT_FLOAT 1")) {
        o = halide_string_to_string(o, end, " -cl-fast-relaxed-math");
    }
    const char *extra = halide_opencl_get_build_options(uc);
    if (extra && *extra) {
        o = halide_string_to_string(o, end, " ");
        o = halide_string_to_string(o, end, extra);
    }
    err = cl.clBuildProgram(program, 1, &device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        int r = report_build_failure(uc, program, err, options, src, len);
        cl.clReleaseProgram(program);
        return r;
    }
    p->program = program;
    p->generation = generation;
    program_builds++;
    return 0;
}

/// The kernel `name` of p, created at its first use. Called with the lock held.
int find_kernel_locked(void *uc, Program *p, const char *name, Kernel **out) {
    for (Kernel *k = p->kernels; k; k = k->next) {
        if (!strcmp(k->name, name)) {
            *out = k;
            return 0;
        }
    }
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = cl.clCreateKernel(p->program, name, &err);
    if (!kernel || err != CL_SUCCESS) {
        Message m;
        m << "OpenCL: cannot create kernel '" << name << "': " << error_name(err) << " ("
          << (int)err << ")";
        return report(uc, m, halide_error_code_device_run_failed);
    }
    size_t group = 0;
    err = cl.clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(group),
                                      &group, NULL);
    if (err != CL_SUCCESS) group = max_group_size;
    size_t n = strlen(name);
    Kernel *k = (Kernel *)malloc(sizeof(Kernel) + n + 1);
    if (!k) {
        cl.clReleaseKernel(kernel);
        return halide_error_out_of_memory(uc);
    }
    char *copy = (char *)(k + 1);
    memcpy(copy, name, n + 1);
    k->name = copy;
    k->kernel = kernel;
    k->max_group = group;
    k->next = p->kernels;
    p->kernels = k;
    *out = k;
    return 0;
}

/// Checks a launch's work-group against the device's and the kernel's limits.
int check_launch(void *uc, const Kernel *k, const int threads[3], int shared_mem_bytes) {
    const char *const dims[3] = {"x", "y", "z"};
    uint64_t group = 1;
    for (int i = 0; i < 3; i++) {
        if (threads[i] < 1) {
            Message m;
            m << "OpenCL: kernel '" << k->name << "' launched with " << threads[i]
              << " threads in dimension " << dims[i] << " of its work-group";
            return report(uc, m, halide_error_code_device_run_failed);
        }
        group *= (uint64_t)threads[i];
    }
    Message shape;
    shape << threads[0] << "x" << threads[1] << "x" << threads[2] << " (" << group
          << " work-items)";
    for (int i = 0; i < 3; i++) {
        if ((uint64_t)threads[i] > max_item_sizes[i]) {
            Message m;
            m << "OpenCL: kernel '" << k->name << "' launched with a work-group of " << shape.str()
              << ", but the device '" << device_name << "' allows at most "
              << (uint64_t)max_item_sizes[i] << " work-items in dimension " << dims[i]
              << " (CL_DEVICE_MAX_WORK_ITEM_SIZES)";
            return report(uc, m, halide_error_code_device_run_failed);
        }
    }
    if (group > max_group_size || group > k->max_group) {
        bool device_limit = group > max_group_size;
        Message m;
        m << "OpenCL: kernel '" << k->name << "' launched with a work-group of " << shape.str()
          << ", but " << (device_limit ? "the device allows" : "the kernel allows") << " at most "
          << (uint64_t)(device_limit ? max_group_size : k->max_group) << " work-items per group ("
          << (device_limit ? "CL_DEVICE_MAX_WORK_GROUP_SIZE" : "CL_KERNEL_WORK_GROUP_SIZE") << ")";
        return report(uc, m, halide_error_code_device_run_failed);
    }
    if (shared_mem_bytes > 0 && (cl_ulong)shared_mem_bytes > local_mem_size) {
        Message m;
        m << "OpenCL: kernel '" << k->name << "' needs " << shared_mem_bytes
          << " bytes of shared (__local) memory, but the device has " << (uint64_t)local_mem_size
          << " (CL_DEVICE_LOCAL_MEM_SIZE)";
        return report(uc, m, halide_error_code_device_run_failed);
    }
    return 0;
}

/// Reports a failed call about kernel `name`.
int fail_kernel(void *uc, const char *name, const char *what, cl_int err) {
    Message m;
    m << "OpenCL: " << what << " of kernel '" << name << "' failed: " << error_name(err) << " ("
      << (int)err << ")";
    return report(uc, m, halide_error_code_device_run_failed);
}

} // namespace

namespace loom_runtime {
namespace opencl {

halide_device_allocation_pool allocation_pool = {release_unused, NULL};

const halide_device_interface_impl_t device_impl = {
    opencl_device_malloc,
    opencl_device_free,
    opencl_device_sync,
    opencl_device_release,
    opencl_copy_to_host,
    opencl_copy_to_device,
    NULL, // device_and_host_malloc: host memory from halide_malloc
    NULL,
    opencl_buffer_copy,
    opencl_device_crop,
    opencl_device_slice,
    opencl_device_release_crop,
    opencl_wrap_native,
    opencl_detach_native};

const halide_device_interface_t device_interface = {halide_device_malloc,
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
                                                    NULL,
                                                    &device_impl};

} // namespace opencl
} // namespace loom_runtime

extern "C" {

const halide_device_interface_t *halide_opencl_device_interface(void) { return &device_interface; }

int halide_opencl_initialize_kernels(void *uc, void **state_ptr, const char *src, int size) {
    if (!state_ptr || !src) {
        return report(uc,
                      Message() << "OpenCL: halide_opencl_initialize_kernels needs a state "
                                   "pointer and a source",
                      halide_error_code_generic_error);
    }
    ScopedLock lock(mutex);
    int r = init_locked(uc);
    if (r != 0) return r;
    Program *p = (Program *)*state_ptr;
    if (!p) {
        p = (Program *)malloc(sizeof(Program));
        if (!p) return halide_error_out_of_memory(uc);
        p->program = NULL;
        p->generation = 0;
        p->kernels = NULL;
        p->next = programs;
        programs = p;
        *state_ptr = p;
    }
    if (p->program && p->generation == generation) return 0;
    release_program_locked(p);
    // size counts the terminating NUL.
    size_t len = size > 0 ? (size_t)size : strlen(src) + 1;
    if (len > 0 && src[len - 1] == 0) len--;
    return build_locked(uc, p, src, len);
}

int halide_opencl_run(void *uc, void *state_ptr, const char *entry_name, int blocksX, int blocksY,
                      int blocksZ, int threadsX, int threadsY, int threadsZ, int shared_mem_bytes,
                      size_t arg_sizes[], void *args[], int8_t arg_is_buffer[]) {
    if (!entry_name) entry_name = "<null>";
    ScopedLock lock(mutex);
    // Without a context, report why there is none.
    int r = init_locked(uc);
    if (r != 0) return r;
    Program *p = (Program *)state_ptr;
    if (!p || !p->program || p->generation != generation) {
        Message m;
        m << "OpenCL: kernel '" << entry_name
          << "' launched before its program was built in the current context "
             "(halide_opencl_initialize_kernels must come first)";
        return report(uc, m, halide_error_code_device_run_failed);
    }
    // An empty grid (an empty output region) launches nothing.
    if (blocksX <= 0 || blocksY <= 0 || blocksZ <= 0) return 0;
    Kernel *k = NULL;
    r = find_kernel_locked(uc, p, entry_name, &k);
    if (r != 0) return r;
    int threads[3] = {threadsX, threadsY, threadsZ};
    r = check_launch(uc, k, threads, shared_mem_bytes);
    if (r != 0) return r;
    cl_uint i = 0;
    for (; args && args[i]; i++) {
        cl_int err;
        if (arg_is_buffer[i]) {
            // args[i] points at the buffer's device field: its cl_mem.
            uint64_t handle = *(const uint64_t *)args[i];
            cl_mem mem = (cl_mem)(uintptr_t)handle;
            err = cl.clSetKernelArg(k->kernel, i, sizeof(mem), &mem);
        } else {
            err = cl.clSetKernelArg(k->kernel, i, arg_sizes[i], args[i]);
        }
        if (err != CL_SUCCESS) {
            Message what;
            what << "setting argument " << (int)i;
            return fail_kernel(uc, entry_name, what.str(), err);
        }
    }
    if (shared_mem_bytes > 0) {
        cl_int err = cl.clSetKernelArg(k->kernel, i, (size_t)shared_mem_bytes, NULL);
        if (err != CL_SUCCESS) {
            return fail_kernel(uc, entry_name, "setting the shared-memory argument", err);
        }
    }
    size_t global[3] = {(size_t)blocksX * threadsX, (size_t)blocksY * threadsY,
                        (size_t)blocksZ * threadsZ};
    size_t local[3] = {(size_t)threadsX, (size_t)threadsY, (size_t)threadsZ};
    cl_int err = cl.clEnqueueNDRangeKernel(queue, k->kernel, 3, NULL, global, local, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        Message what;
        what << "the launch of blocks " << blocksX << "x" << blocksY << "x" << blocksZ
             << " of threads " << threadsX << "x" << threadsY << "x" << threadsZ;
        return fail_kernel(uc, entry_name, what.str(), err);
    }
    return 0;
}

void halide_opencl_finalize_kernels(void *uc, void *state_ptr) {
    // Programs and kernels stay cached for the next run (released by halide_device_release).
}

void halide_opencl_set_platform_name(const char *n) { set_setting(platform_name_setting, n); }

const char *halide_opencl_get_platform_name(void *uc) {
    return get_setting(platform_name_setting, "HL_OCL_PLATFORM_NAME");
}

void halide_opencl_set_device_type(const char *n) { set_setting(device_type_setting, n); }

const char *halide_opencl_get_device_type(void *uc) {
    return get_setting(device_type_setting, "HL_OCL_DEVICE_TYPE");
}

void halide_opencl_set_build_options(const char *n) { set_setting(build_options_setting, n); }

const char *halide_opencl_get_build_options(void *uc) {
    return get_setting(build_options_setting, "HL_OCL_BUILD_OPTIONS");
}

int halide_opencl_wrap_cl_mem(void *uc, halide_buffer_t *buf, uint64_t mem) {
    return halide_device_wrap_native(uc, buf, mem, &device_interface);
}

int halide_opencl_detach_cl_mem(void *uc, halide_buffer_t *buf) {
    return halide_device_detach_native(uc, buf);
}

uintptr_t halide_opencl_get_cl_mem(void *uc, halide_buffer_t *buf) {
    if (!buf || buf->device_interface != &device_interface) return 0;
    return (uintptr_t)buf->device;
}

uint64_t halide_opencl_get_crop_offset(void *uc, halide_buffer_t *buf) {
    if (!buf || !buf->device || buf->device_interface != &device_interface || !loaded()) {
        return 0;
    }
    size_t offset = 0;
    cl_mem parent = NULL;
    if (cl.clGetMemObjectInfo(mem_of(buf), CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(parent), &parent,
                              NULL) != CL_SUCCESS ||
        !parent ||
        cl.clGetMemObjectInfo(mem_of(buf), CL_MEM_OFFSET, sizeof(offset), &offset, NULL) !=
            CL_SUCCESS) {
        return 0;
    }
    return offset;
}

/// Test hook (tests/unit/runtime/opencl_runtime_test.cpp): the number of programs built so far.
int loom_opencl_program_builds(void) {
    ScopedLock lock(mutex);
    return program_builds;
}

} // extern "C"
