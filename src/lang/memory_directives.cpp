// The memory directives of the scheduling language on Func: the order in which a Func's
// dimensions are laid out in memory (reorder_storage) and the kind of memory its storage lives
// in (store_in). They only record decisions in the FuncSchedule: storage_flattening computes the
// strides from FuncSchedule::storage_dims, and bound_small_allocations / code generation honour
// the memory type (src/lower/bound_small_allocations.h); lower/allocate_scratchpads places the
// buffers stored in user-declared scratchpads (loom/scratchpad.h).
#include <loom/func.h>

#include "ir/ir_printer.h"
#include "ir/scratchpads.h"
#include "lang/function.h"
#include "support/error.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace loom {

using namespace internal;

namespace {

/// f's storage dimensions, created in argument order (innermost first) on first use: the same
/// initialization as the storage directives (bound_storage, fold_storage, ...), so either may
/// run first.
std::vector<StorageDim> &storage_dims_of(Function &f) {
    std::vector<StorageDim> &dims = f.schedule().storage_dims;
    if (dims.empty()) {
        for (const std::string &a : f.args()) {
            StorageDim d;
            d.var = a;
            dims.push_back(d);
        }
    }
    return dims;
}

std::string pure_var_list(const Function &f) {
    std::string list;
    for (const std::string &a : f.args()) list += (list.empty() ? "" : ", ") + a;
    return list;
}

} // namespace

Func &Func::reorder_storage(const std::vector<Var> &vars) {
    Function f = function();
    user_assert(f.has_pure_definition())
        << "Can't reorder the storage of Func " << name()
        << " before it has a pure definition (its dimensions are not known yet).\n";
    user_assert(vars.size() >= 2)
        << "In schedule for " << name()
        << ", reorder_storage must have at least two dimensions in reorder list.\n";
    std::set<std::string> seen;
    for (const Var &v : vars) {
        const std::vector<std::string> &args = f.args();
        user_assert(std::find(args.begin(), args.end(), v.name()) != args.end())
            << "In schedule for " << name() << ", call to reorder_storage references " << v.name()
            << ", which is not a pure variable of " << name()
            << " (its pure variables are: " << pure_var_list(f) << ").\n";
        user_assert(seen.insert(v.name()).second)
            << "In schedule for " << name() << ", call to reorder_storage references " << v.name()
            << " twice.\n";
    }
    // The listed dimensions take the places they occupy now, in the order given (innermost
    // first); the others stay where they are (Halide's semantics: like reorder on loops).
    std::vector<StorageDim> &dims = storage_dims_of(f);
    std::vector<size_t> slots;
    std::vector<StorageDim> listed;
    for (const Var &v : vars) {
        for (size_t i = 0; i < dims.size(); i++) {
            if (dims[i].var == v.name()) {
                slots.push_back(i);
                listed.push_back(dims[i]);
            }
        }
    }
    internal_assert(slots.size() == vars.size());
    std::sort(slots.begin(), slots.end());
    for (size_t k = 0; k < slots.size(); k++) dims[slots[k]] = listed[k];
    f.touch();
    return *this;
}

Func &Func::reorder_storage(const Var &x, const Var &y) {
    return reorder_storage(std::vector<Var>{x, y});
}

Func &Func::store_in(MemoryType memory_type) {
    // The GPU and DSP memories mean nothing to code running on the host: as in Halide, a Func
    // stored there by a schedule compiled for a CPU target lives in ordinary memory.
    user_assert(memory_type != MemoryType::AMXTile)
        << "Func " << name() << " can't be stored in MemoryType::AMXTile: Loom does not "
        << "generate AMX code. Use Auto, Heap, Stack or Register.\n";
    // Values past the named ones stand for user-declared scratchpads (loom/scratchpad.h).
    user_assert(memory_type <= MemoryType::AMXTile || find_scratchpad(memory_type))
        << "Func " << name() << " is stored in memory type " << (int)memory_type
        << ", which is neither a MemoryType nor a declared Scratchpad.\n";
    Function f = function();
    f.schedule().memory_type = memory_type;
    f.touch();
    return *this;
}

Func Func::copy_to_device(DeviceAPI d) {
    Function f = function();
    const Definition &def = f.definition();
    const Call *call = def.values.size() == 1 ? def.values[0].as<Call>() : nullptr;
    bool plain_copy = call && (call->call_type == Call::Halide || call->call_type == Call::Image) &&
                      call->args.size() == f.args().size();
    for (size_t i = 0; plain_copy && i < call->args.size(); i++) {
        const Variable *v = call->args[i].as<Variable>();
        plain_copy = v && v->name == f.args()[i];
    }
    std::ostringstream value;
    if (def.values.size() == 1) {
        value << def.values[0];
    } else {
        value << "a Tuple";
    }
    user_assert(f.has_pure_definition() && f.updates().empty() && plain_copy)
        << "Func " << name()
        << " is scheduled as copy_to_host/device, but has value: " << value.str() << "\n"
        << "Expected a single call to another Func with matching dimensionality and argument "
           "order.\n";
    f.schedule().device_copy = d;
    f.touch();
    return *this;
}

Func Func::copy_to_host() { return copy_to_device(DeviceAPI::Host); }

} // namespace loom
