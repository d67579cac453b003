#include "lower/allocate_scratchpads.h"

#include <loom/ir_operator.h>

#include "ir/ir_printer.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/scratchpads.h"
#include "lower/lower_utils.h"
#include "lower/output_buffers.h"
#include "simplify/simplify.h"
#include "support/error.h"

#include <algorithm>
#include <climits>
#include <map>
#include <set>
#include <sstream>

namespace loom {
namespace internal {

namespace {

bool is_device_loop(const For *op) {
    return op->for_type == ForType::GPUBlock || op->for_type == ForType::GPUThread ||
           op->for_type == ForType::GPULane;
}

/// "f" for the buffer of f, and for element i of a Tuple-valued f ("f.1").
std::string func_of(const std::string &buffer) {
    size_t dot = buffer.rfind('.');
    if (dot == std::string::npos || dot + 1 == buffer.size()) return buffer;
    for (size_t i = dot + 1; i < buffer.size(); i++) {
        if (!isdigit((unsigned char)buffer[i])) return buffer;
    }
    return buffer.substr(0, dot);
}

int64_t align_up(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

/// A buffer placed in a memory.
struct Placed {
    std::string buffer;
    int64_t offset = 0, bytes = 0;
};

/// What one memory holds as the traversal goes: the buffers live here, the first free byte,
/// the most ever used and what was live then.
struct MemoryState {
    const ScratchpadMemory *memory = nullptr;
    std::vector<Placed> live;
    int64_t top = 0, peak = 0;
    std::vector<Placed> at_peak;
};

class AllocateScratchpads : public AllocationBoundsMutator {
public:
    AllocateScratchpads(const std::string &fn_name, const ConstantScope &assumed)
        : AllocationBoundsMutator(assumed), fn_name(fn_name) {}

    std::map<MemoryType, MemoryState> memories;
    /// The buffers placed, for the checks of GPU code.
    std::set<std::string> placed;

    std::string symbol(const ScratchpadMemory &m) const {
        std::string fn;
        for (char c : fn_name) fn += isalnum((unsigned char)c) ? c : '_';
        return "loom_scratchpad_" + fn + "_" + m.name;
    }

protected:
    using AllocationBoundsMutator::visit;

    Stmt visit(const For *op) override {
        std::string saved = concurrent_loop;
        if (op->for_type == ForType::Parallel || is_device_loop(op)) concurrent_loop = op->name;
        Stmt s = AllocationBoundsMutator::visit(op);
        concurrent_loop = saved;
        return s;
    }

    Stmt visit(const Fork *op) override {
        // Both sides run at once: the second starts above everything the first used.
        const std::map<MemoryType, MemoryState> outer = memories;
        for (auto &m : memories) m.second.peak = m.second.top;
        Stmt first = mutate(op->first);
        for (auto &m : memories) m.second.top = m.second.peak;
        Stmt rest = mutate(op->rest);
        for (auto &m : memories) {
            auto it = outer.find(m.first);
            m.second.top = it == outer.end() ? 0 : it->second.top;
            if (it != outer.end() && it->second.peak >= m.second.peak) {
                m.second.peak = it->second.peak;
                m.second.at_peak = it->second.at_peak;
            }
        }
        if (first.same_as(op->first) && rest.same_as(op->rest)) return op;
        return Fork::make(first, rest);
    }

    Stmt visit(const Free *op) override {
        // A scratchpad buffer is never freed: its bytes are reused by offset.
        if (placed.count(op->name)) return Evaluate::make(0);
        return op;
    }

    Stmt visit(const Allocate *op) override {
        const ScratchpadMemory *memory = find_scratchpad(op->memory_type);
        if (!memory) return AllocationBoundsMutator::visit(op);
        const std::string func = func_of(op->name);
        user_assert(concurrent_loop.empty())
            << "Func " << func << " is stored in scratchpad " << memory->name << " inside the loop "
            << concurrent_loop
            << ", whose iterations run at once (parallel or GPU). A scratchpad buffer is "
            << "allocated statically, once per pipeline, so they would share it: compute " << func
            << " outside that loop, make the loop serial, or store " << func
            << " in another memory.\n";

        // The most bytes it can need.
        int64_t elements = 1;
        for (size_t d = 0; d < op->extents.size(); d++) {
            int64_t hi;
            // The range of the extent's type is no bound.
            bool bounded = extent_upper_bound(op->extents[d], &hi) && hi < INT32_MAX;
            user_assert(bounded)
                << "Func " << func << " is stored in scratchpad " << memory->name
                << ", which is allocated statically, but the extent of dimension " << d
                << " of its buffer, " << simplify(op->extents[d])
                << ", has no upper bound Loom can find. Bound it: give the pipeline's outputs "
                << "estimates (Func::set_estimate / set_estimates) or constraints "
                << "(output_buffer().dim(d).set_extent), bound " << func
                << " (Func::bound), or compute it at a loop of constant extent (a tile).\n";
            hi = std::max<int64_t>(hi, 0);
            user_assert(hi == 0 || elements <= memory->size / hi)
                << "Func " << func << " needs more than the " << memory->size
                << " bytes of scratchpad " << memory->name << " (its extents up to dimension " << d
                << " allow more elements than that: dimension " << d << " has up to " << hi
                << "). Compute it at an inner loop (a smaller tile) or declare a larger "
                << "memory.\n";
            elements *= hi;
        }
        const int64_t bytes = elements * op->type.bytes();

        MemoryState &state = memories[op->memory_type];
        state.memory = memory;
        Placed p;
        p.buffer = op->name;
        p.offset = align_up(state.top, memory->alignment);
        p.bytes = bytes;
        const int64_t saved_top = state.top;
        state.top = p.offset + bytes;
        state.live.push_back(p);
        if (state.top > state.peak) {
            state.peak = state.top;
            state.at_peak = state.live;
        }
        placed.insert(op->name);
        Stmt body = mutate(op->body);
        state.live.pop_back();
        state.top = saved_top;

        // The real size, checked when it is not a constant.
        Expr count = make_const(Int(64), 1);
        for (const Expr &e : op->extents) count = count * Cast::make(Int(64), e);
        Expr real = simplify(Max::make(count, make_zero(Int(64))) * op->type.bytes());
        if (!is_const(real)) {
            Expr fits = real <= make_const(Int(64), bytes);
            if (!is_const_one(op->condition)) fits = !op->condition || fits;
            body = Block::make(
                AssertStmt::make(
                    fits, runtime_error_call("halide_error_buffer_allocation_too_large",
                                             {StringImm::make(func), Cast::make(UInt(64), real),
                                              make_const(UInt(64), bytes)})),
                body);
        }
        // The size argument is the memory's peak, known once everything is placed.
        Expr address = Call::make(Handle(), scratchpad_address_intrinsic,
                                  {StringImm::make(symbol(*memory)), StringImm::make(memory->name),
                                   make_const(Int(64), -1), make_const(Int(32), memory->alignment),
                                   make_const(Int(64), p.offset)},
                                  Call::PureIntrinsic);
        return LetStmt::make(op->name, address, body);
    }

private:
    std::string fn_name;
    /// The innermost parallel or GPU loop around the current statement ("" when none).
    std::string concurrent_loop;
};

/// Fills in the size of each memory's block in the scratchpad_address calls.
class SetBlockSizes : public IRMutator {
public:
    explicit SetBlockSizes(const std::map<std::string, int64_t> &sizes) : sizes(sizes) {}

protected:
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        if (op->name != scratchpad_address_intrinsic) return IRMutator::visit(op);
        const StringImm *symbol = op->args[0].as<StringImm>();
        internal_assert(symbol && sizes.count(symbol->value));
        std::vector<Expr> args = op->args;
        args[2] = make_const(Int(64), std::max<int64_t>(sizes.at(symbol->value), 1));
        return Call::make(op->type, op->name, args, op->call_type);
    }

private:
    const std::map<std::string, int64_t> &sizes;
};

/// CompileError when GPU code reads or writes a scratchpad buffer.
void check_no_device_access(const Stmt &s, const std::set<std::string> &placed) {
    class Check : public IRVisitor {
    public:
        explicit Check(const std::set<std::string> &placed) : placed(placed) {}

    protected:
        using IRVisitor::visit;
        void visit(const For *op) override {
            std::string saved = device_loop;
            if (is_device_loop(op) && device_loop.empty()) device_loop = op->name;
            IRVisitor::visit(op);
            device_loop = saved;
        }
        void visit(const Load *op) override {
            check(op->name);
            IRVisitor::visit(op);
        }
        void visit(const Store *op) override {
            check(op->name);
            IRVisitor::visit(op);
        }

    private:
        void check(const std::string &buffer) {
            user_assert(device_loop.empty() || !placed.count(buffer))
                << "Func " << func_of(buffer) << " is stored in a scratchpad, but the GPU loop "
                << device_loop << " uses it. Scratchpads are host memories: store "
                << func_of(buffer) << " in another memory, or compute its users on the host.\n";
        }
        const std::set<std::string> &placed;
        std::string device_loop;
    } check(placed);
    check.dispatch(s);
}

/// A constant value of an integer Expr, if it is one.
bool constant_of(const Expr &e, int64_t *v) {
    if (!e.defined()) return false;
    Expr s = simplify(e.type().is_int() || e.type().is_uint() ? Cast::make(Int(64), e) : e);
    const int64_t *c = as_const_int(s);
    if (!c) return false;
    *v = *c;
    return true;
}

} // namespace

ConstantScope size_assumptions(const std::vector<LoweredArgument> &args,
                               const std::vector<Function> &outputs) {
    ConstantScope scope;
    auto extent_at_most = [&](const std::string &b, int d, const Expr &estimate) {
        int64_t v;
        if (!constant_of(estimate, &v)) return;
        scope[b + ".extent." + std::to_string(d)] = ConstantInterval::bounded(0, v);
    };
    for (const LoweredArgument &a : args) {
        if (a.kind == LoweredArgument::InputBuffer && a.param.defined()) {
            for (int d = 0; d < a.dimensions; d++) {
                extent_at_most(a.name, d, a.param.extent_constraint_estimate(d));
            }
        } else if (a.kind == LoweredArgument::Scalar && a.param.defined() &&
                   (a.type.is_int() || a.type.is_uint())) {
            int64_t lo, hi, est;
            bool has_lo = constant_of(a.param.min_value(), &lo);
            bool has_hi = constant_of(a.param.max_value(), &hi);
            ConstantInterval r = ConstantInterval::everything();
            if (has_lo || has_hi) {
                r.min_defined = has_lo;
                r.min = has_lo ? lo : 0;
                r.max_defined = has_hi;
                r.max = has_hi ? hi : 0;
            } else if (constant_of(a.param.estimate(), &est)) {
                r = ConstantInterval::single_point(est);
            } else {
                continue;
            }
            scope[a.name] = r;
        }
    }
    for (const Function &o : outputs) {
        for (int i = 0; i < o.outputs(); i++) {
            const std::string b = output_buffer_name(o, i);
            Parameter p = find_output_buffer_parameter(o, i);
            for (size_t d = 0; d < o.args().size(); d++) {
                if (p.defined()) extent_at_most(b, (int)d, p.extent_constraint_estimate((int)d));
                for (const Bound &e : o.schedule().estimates) {
                    if (e.var == o.args()[d]) extent_at_most(b, (int)d, e.extent);
                }
            }
        }
    }
    return scope;
}

Stmt allocate_scratchpads(const Stmt &s, const std::string &fn_name, const ConstantScope &assumed) {
    AllocateScratchpads pass(fn_name, assumed);
    Stmt result = pass.mutate(s);
    if (pass.placed.empty()) return s;

    std::map<std::string, int64_t> sizes;
    for (const auto &m : pass.memories) {
        const MemoryState &state = m.second;
        if (state.peak > state.memory->size) {
            std::ostringstream live;
            for (const Placed &p : state.at_peak) {
                live << "\n  " << func_of(p.buffer) << ": " << p.bytes << " bytes at offset "
                     << p.offset;
            }
            user_error << "Scratchpad " << state.memory->name << " has " << state.memory->size
                       << " bytes, but the buffers stored in it that are live at once need "
                       << state.peak << " (with alignment " << state.memory->alignment
                       << "):" << live.str()
                       << "\nCompute them at inner loops (smaller tiles), store some in another "
                       << "memory, or declare a larger memory.\n";
        }
        sizes[pass.symbol(*state.memory)] = state.peak;
    }
    check_no_device_access(result, pass.placed);
    return SetBlockSizes(sizes).mutate(result);
}

} // namespace internal
} // namespace loom
