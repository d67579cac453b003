#include "codegen/device_code.h"

#include "codegen/llvm/codegen_ptx.h"
#include "codegen/opencl/codegen_opencl.h"
#include "ir/ir_printer.h"
#include "support/error.h"
#include "support/util.h"

#include <fstream>

namespace loom {
namespace internal {

std::string compile_device_kernels(DeviceAPI api, const std::vector<LoweredKernel> &kernels,
                                   const Target &target) {
    std::string code, extension;
    switch (api) {
    case DeviceAPI::CUDA:
        code = codegen_ptx(kernels, target);
        extension = ".ptx";
        break;
    case DeviceAPI::OpenCL:
        code = codegen_opencl_source(kernels, target);
        extension = ".cl";
        break;
    default:
        internal_error << "No device back end for " << api << "\n";
    }
    // For inspection and for the ptxas check (tests/gpu/check_ptx.sh): each device module
    // written out, named after its first kernel.
    const std::string dir = get_env("LOOM_DEVICE_CODE_DIR");
    if (!dir.empty() && !kernels.empty()) {
        std::ofstream(dir + "/" + kernels[0].name + extension) << code;
    }
    return code;
}

} // namespace internal
} // namespace loom
