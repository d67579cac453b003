#include "lower/offload_gpu_loops.h"

#include <loom/ir_operator.h>

#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_printer.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "lower/lower_utils.h"
#include "simplify/simplify.h"
#include "support/error.h"
#include "support/util.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace loom {
namespace internal {

namespace {

bool is_thread_loop(const For *op) {
    return op->for_type == ForType::GPUThread || op->for_type == ForType::GPULane;
}

bool is_gpu_loop(const For *op) { return op->for_type == ForType::GPUBlock || is_thread_loop(op); }

/// The Func a loop belongs to ("f" of "f.s0.x.bx").
std::string func_of(const std::string &loop) { return loop.substr(0, loop.find('.')); }

const char *const block_ids[3] = {"__block_id_x", "__block_id_y", "__block_id_z"};
const char *const thread_ids[3] = {"__thread_id_x", "__thread_id_y", "__thread_id_z"};

/// Whether s contains a GPU loop.
bool has_gpu_loop(const Stmt &s) {
    bool found = false;
    class Find : public IRVisitor {
    public:
        bool *found;
        explicit Find(bool *f) : found(f) {}

    protected:
        using IRVisitor::visit;
        void visit(const For *op) override {
            if (is_gpu_loop(op)) {
                *found = true;
                return;
            }
            IRVisitor::visit(op);
        }
    } find(&found);
    find.dispatch(s);
    return found;
}

/// The buffers (Load/Store names) read and written in s, in order of first use.
struct BufferUses {
    std::vector<std::string> read, written;
    std::map<std::string, Type> types; ///< element type of each, from its accesses

    bool reads(const std::string &n) const {
        return std::find(read.begin(), read.end(), n) != read.end();
    }
    bool writes(const std::string &n) const {
        return std::find(written.begin(), written.end(), n) != written.end();
    }
};

BufferUses buffer_uses(const Stmt &s) {
    class Find : public IRVisitor {
    public:
        BufferUses uses;

    protected:
        using IRVisitor::visit;
        static void add(std::vector<std::string> &v, const std::string &n) {
            if (std::find(v.begin(), v.end(), n) == v.end()) v.push_back(n);
        }
        void visit(const Load *op) override {
            add(uses.read, op->name);
            uses.types.emplace(op->name, op->type.element_of());
            IRVisitor::visit(op);
        }
        void visit(const Store *op) override {
            add(uses.written, op->name);
            uses.types.emplace(op->name, op->value.type().element_of());
            IRVisitor::visit(op);
        }
        void visit(const Call *op) override {
            // Reading a buffer's fields is not an access to its elements.
            if (starts_with(op->name, "_halide_buffer_")) {
                for (size_t i = 1; i < op->args.size(); i++) dispatch(op->args[i]);
                return;
            }
            IRVisitor::visit(op);
        }
        void visit(const Variable *op) override {
            // A buffer passed whole (to an extern stage: its host pointer, or an argument's
            // halide_buffer_t) may be read and written there.
            if (!op->type.is_handle()) return;
            std::string n = op->name;
            if (ends_with(n, ".buffer")) n = n.substr(0, n.size() - 7);
            add(uses.read, n);
            add(uses.written, n);
        }
    } find;
    find.dispatch(s);
    return find.uses;
}

/// The buffers some GPU loop nest of s reads or writes.
std::set<std::string> device_buffers(const Stmt &s) {
    class Find : public IRVisitor {
    public:
        std::set<std::string> names;

    protected:
        using IRVisitor::visit;
        void visit(const For *op) override {
            if (!is_gpu_loop(op)) return IRVisitor::visit(op);
            BufferUses u = buffer_uses(Stmt(op));
            names.insert(u.read.begin(), u.read.end());
            names.insert(u.written.begin(), u.written.end());
        }
    } find;
    find.dispatch(s);
    return find.names;
}

std::string extents_text(const Allocate *op) {
    std::ostringstream os;
    for (size_t i = 0; i < op->extents.size(); i++) os << (i ? " x " : "") << op->extents[i];
    return os.str();
}

Expr user_context() { return Variable::make(Handle(), "__user_context"); }

/// let <name> = call; assert(<name> == 0, <name>): the runtime reported the error already.
Stmt checked(const std::string &name, const Expr &call, const Stmt &rest = Stmt()) {
    Expr r = Variable::make(Int(32), name);
    Stmt check = LetStmt::make(name, call, AssertStmt::make(r == 0, r));
    return rest.defined() ? Block::make(check, rest) : check;
}

/// Sets buffer `handle`'s host_dirty or device_dirty flag.
Stmt set_dirty(const char *flag, const Expr &handle) {
    return Evaluate::make(Call::make(Int(32), flag, {handle, const_true()}, Call::Extern));
}

class OffloadGpuLoops {
public:
    OffloadGpuLoops(const std::string &fn, const std::vector<LoweredArgument> &args,
                    const Target &target)
        : fn(fn), target(target) {
        for (const LoweredArgument &a : args) {
            if (a.is_buffer()) argument_buffers.insert(a.name);
        }
    }

    GpuOffload run(const Stmt &s) {
        GpuOffload result;
        if (!has_gpu_loop(s)) {
            result.body = s;
            return result;
        }
        // What kernels use, and every buffer argument: one may arrive with newer data on the
        // device from an earlier pipeline.
        tracked = device_buffers(s);
        tracked.insert(argument_buffers.begin(), argument_buffers.end());
        Stmt body = sync_host(s);
        body = extract(body);
        body = wrap_allocations(body);
        result.body = body;
        result.kernels = kernels;
        return result;
    }

private:
    const std::string fn;
    const Target target;
    std::set<std::string> argument_buffers;
    /// The buffers kernels use, whose host and device copies the runtime keeps coherent.
    std::set<std::string> tracked;
    std::vector<LoweredKernel> kernels;

    /// The halide_buffer_t* of tracked buffer `name` on the host.
    Expr handle(const std::string &name) const {
        return argument_buffers.count(name) ? buffer_handle(name)
                                            : Variable::make(Handle(), name + ".device_buffer");
    }

    // ---- Host code around host accesses ----

    /// s with every part that touches tracked buffers on the host (outside GPU loops) between a
    /// copy to the host of those buffers and the marking of those it writes as host-dirty.
    Stmt sync_host(const Stmt &s) {
        if (!s.defined()) return s;
        if (!has_gpu_loop(s)) return wrap_host_access(s);
        if (const Block *b = s.as<Block>()) {
            return Block::make(sync_host(b->first), sync_host(b->rest));
        }
        if (const For *op = s.as<For>()) {
            if (is_gpu_loop(op)) return s;
            return op->with_body(sync_host(op->body));
        }
        if (const LetStmt *op = s.as<LetStmt>()) {
            return LetStmt::make(op->name, op->value, sync_host(op->body));
        }
        if (const IfThenElse *op = s.as<IfThenElse>()) {
            return IfThenElse::make(op->condition, sync_host(op->then_case),
                                    sync_host(op->else_case));
        }
        if (const Allocate *op = s.as<Allocate>()) {
            return Allocate::make(op->name, op->type, op->memory_type, op->extents, op->condition,
                                  sync_host(op->body));
        }
        if (const ProducerConsumer *op = s.as<ProducerConsumer>()) {
            return ProducerConsumer::make(op->name, op->is_producer, sync_host(op->body));
        }
        internal_error << "GPU offload: a GPU loop inside a " << node_type_name(s.node_type())
                       << " node is not supported:\n"
                       << s << "\n";
        return s;
    }

    Stmt wrap_host_access(const Stmt &s) {
        BufferUses u = buffer_uses(s);
        std::vector<Stmt> before, after;
        std::set<std::string> done;
        for (const std::vector<std::string> *list : {&u.read, &u.written}) {
            for (const std::string &n : *list) {
                if (!tracked.count(n) || !done.insert(n).second) continue;
                before.push_back(checked(n + ".copy_to_host",
                                         Call::make(Int(32), "halide_copy_to_host",
                                                    {user_context(), handle(n)}, Call::Extern)));
            }
        }
        for (const std::string &n : u.written) {
            if (tracked.count(n)) {
                after.push_back(set_dirty("_halide_buffer_set_host_dirty", handle(n)));
            }
        }
        if (before.empty()) return s;
        std::vector<Stmt> all = before;
        all.push_back(s);
        all.insert(all.end(), after.begin(), after.end());
        return Block::make(all);
    }

    // ---- Kernels ----

    Stmt extract(const Stmt &s) {
        class Extract : public IRMutator {
        public:
            OffloadGpuLoops *self;
            explicit Extract(OffloadGpuLoops *self) : self(self) {}

        protected:
            using IRMutator::visit;
            Stmt visit(const For *op) override {
                if (op->for_type == ForType::GPUBlock) return self->make_kernel(op);
                user_assert(!is_thread_loop(op))
                    << "Func " << func_of(op->name) << " has the GPU thread loop " << op->name
                    << " outside any GPU block loop. Give the stage block loops too "
                       "(gpu_blocks, or gpu_tile for both), or use gpu_single_thread().\n";
                return IRMutator::visit(op);
            }
        } mutator(this);
        return mutator.mutate(s);
    }

    /// One nest of thread loops, outermost first, with each loop's extent as the host can
    /// evaluate it (the launch size).
    struct ThreadNest {
        std::vector<const For *> loops;
        std::vector<Expr> launch_extents;
    };
    /// The GPU loops of one kernel: its block loops (outermost first) and its thread nests in
    /// order; a stage computed at the block level makes more than one nest.
    struct KernelShape {
        std::vector<const For *> blocks;
        std::vector<ThreadNest> nests;
        /// Thread extent per dimension (x first): the largest over the nests.
        std::vector<Expr> threads;
    };

    KernelShape kernel_shape(const For *root) {
        class Shape : public IRVisitor {
        public:
            KernelShape shape;

        protected:
            using IRVisitor::visit;
            int block_depth = 0, thread_depth = 0;
            /// Names defined inside the kernel, and its lets (undefined: a loop variable) in
            /// scope, innermost last.
            std::set<std::string> defined;
            std::vector<std::pair<std::string, Expr>> lets;

            /// extent as the host can compute it: itself, or with the kernel's lets it uses
            /// substituted and simplified (a stage computed per block has a region whose
            /// extent cancels to a constant under ShiftInwards tails).
            Expr launch_extent(const For *op, const char *kind) {
                Expr e = op->extent;
                for (auto it = lets.rbegin(); it != lets.rend() && expr_uses_vars(e, defined);
                     ++it) {
                    if (it->second.defined() && expr_uses_var(e, it->first)) {
                        e = substitute(it->first, it->second, e);
                    }
                }
                e = simplify(e);
                user_assert(!expr_uses_vars(e, defined))
                    << "The extent of the GPU " << kind << " loop " << op->name << " of Func "
                    << func_of(op->name)
                    << " depends on an enclosing loop of the same kernel, but the launch size "
                       "must be known before the kernel runs. Split the loop by a constant "
                       "factor (gpu_tile(x, bx, tx, 16)) with a tail strategy that keeps tiles "
                       "whole (ShiftInwards, the default for pure definitions, or RoundUp), "
                       "also for the consumers of stages computed per block.\n";
                return e;
            }
            void scoped(const std::string &name, const Expr &value, const Stmt &body) {
                defined.insert(name);
                lets.emplace_back(name, value);
                dispatch(body);
                lets.pop_back();
            }
            void visit(const For *op) override {
                const std::string f = func_of(op->name);
                if (op->for_type == ForType::GPUBlock) {
                    user_assert(thread_depth == 0)
                        << "Func " << f << " has the GPU block loop " << op->name
                        << " inside a GPU thread loop. Block loops must enclose thread loops.\n";
                    user_assert(block_depth == (int)shape.blocks.size() && shape.nests.empty())
                        << "Func " << f << ": the GPU block loops of one kernel must be nested "
                        << "in each other (" << op->name << " is beside "
                        << shape.blocks.back()->name << ").\n";
                    user_assert(shape.blocks.size() < 3)
                        << "Func " << f << " has more than three nested GPU block loops ("
                        << op->name << " is the fourth); fuse some of them.\n";
                    launch_extent(op, "block");
                    shape.blocks.push_back(op);
                    block_depth++;
                    scoped(op->name, Expr(), op->body);
                    block_depth--;
                    return;
                }
                if (is_thread_loop(op)) {
                    if (thread_depth == 0) shape.nests.emplace_back();
                    ThreadNest &nest = shape.nests.back();
                    user_assert(thread_depth == (int)nest.loops.size())
                        << "Func " << f << ": the GPU thread loop " << op->name << " is beside "
                        << nest.loops.back()->name
                        << " inside the same thread loops. Nest the thread loops of a stage in "
                           "each other.\n";
                    user_assert(nest.loops.size() < 3)
                        << "Func " << f << " has more than three nested GPU thread loops ("
                        << op->name << " is the fourth); fuse some of them.\n";
                    nest.launch_extents.push_back(launch_extent(op, "thread"));
                    nest.loops.push_back(op);
                    thread_depth++;
                    scoped(op->name, Expr(), op->body);
                    thread_depth--;
                    return;
                }
                dispatch(op->min);
                dispatch(op->extent);
                scoped(op->name, Expr(), op->body);
            }
            void visit(const LetStmt *op) override {
                dispatch(op->value);
                scoped(op->name, op->value, op->body);
            }
            void visit(const Allocate *op) override {
                user_assert(constant_allocation_elements(op) >= 0)
                    << "Func " << op->name << " is computed inside a GPU kernel, so its buffer "
                    << "needs a constant size, but its extents are " << extents_text(op)
                    << ". Give it a constant size (bound() on its dimensions, or compute it in a "
                       "constant-size tile).\n";
                IRVisitor::visit(op);
            }
            void visit(const AssertStmt *op) override {
                internal_error << "GPU offload: an assertion inside a GPU kernel: " << Stmt(op)
                               << "\n";
            }
        } shape;
        shape.dispatch(Stmt(root));
        KernelShape result = shape.shape;
        // The launch's thread extent per dimension covers every nest; nests with less are
        // guarded.
        for (const ThreadNest &n : result.nests) {
            for (size_t d = 0; d < n.loops.size(); d++) {
                const Expr &e = n.launch_extents[n.loops.size() - 1 - d];
                if (result.threads.size() <= d) {
                    result.threads.push_back(e);
                } else if (!equal(result.threads[d], e)) {
                    result.threads[d] = simplify(max(result.threads[d], e));
                }
            }
        }
        return result;
    }

    /// The kernel body: GPU loops become lets of the block and thread indices. With thread
    /// loops, the kernel runs every thread through the block-level code: each thread nest is
    /// guarded to its own extent and followed by a barrier when other nests or shared buffers
    /// may see its writes; block-level stores (outside every nest) run on thread 0 only; and
    /// block-level buffers are in shared memory.
    class KernelBody {
    public:
        KernelBody(const KernelShape &shape) : shape(shape) {
            for (size_t i = 0; i < shape.blocks.size(); i++) {
                ids[shape.blocks[shape.blocks.size() - 1 - i]] = block_ids[i];
            }
            for (const ThreadNest &n : shape.nests) {
                for (size_t i = 0; i < n.loops.size(); i++) {
                    ids[n.loops[n.loops.size() - 1 - i]] = thread_ids[i];
                }
            }
        }

        Stmt make(const For *root) {
            has_shared = false;
            Stmt body = block_level(Stmt(root));
            return body;
        }

    private:
        const KernelShape &shape;
        std::map<const For *, std::string> ids;
        bool has_shared = false;

        bool has_threads() const { return !shape.nests.empty(); }
        bool needs_barriers() const { return shape.nests.size() > 1 || has_shared; }

        static Stmt barrier() {
            return Evaluate::make(
                Call::make(Int(32), Call::gpu_thread_barrier, {}, Call::Intrinsic));
        }
        static Expr id(const char *name) { return Variable::make(Int(32), name); }

        static bool contains_thread_loop(const Stmt &s) {
            class Find : public IRVisitor {
            public:
                bool found = false;

            protected:
                using IRVisitor::visit;
                void visit(const For *op) override {
                    found = found || is_thread_loop(op);
                    if (!found) IRVisitor::visit(op);
                }
            } find;
            find.dispatch(s);
            return find.found;
        }
        static bool contains_store(const Stmt &s) { return !buffer_uses(s).written.empty(); }

        Stmt block_level(const Stmt &s) {
            if (!s.defined()) return s;
            if (!has_threads()) return to_ids(s);
            if (!contains_thread_loop(s)) {
                if (!contains_store(s)) return s;
                // Once per block, then every thread may read what it wrote.
                Expr first = id(thread_ids[0]) == 0;
                for (size_t d = 1; d < shape.threads.size(); d++) {
                    first = first && id(thread_ids[d]) == 0;
                }
                return Block::make(IfThenElse::make(first, s), barrier());
            }
            if (const Block *b = s.as<Block>()) {
                return Block::make(block_level(b->first), block_level(b->rest));
            }
            if (const For *op = s.as<For>()) {
                if (op->for_type == ForType::GPUBlock) {
                    return LetStmt::make(op->name, op->min + id(ids.at(op).c_str()),
                                         block_level(op->body));
                }
                if (is_thread_loop(op)) {
                    Stmt nest = thread_nest(op);
                    return needs_barriers() ? Block::make(nest, barrier()) : nest;
                }
                return op->with_body(block_level(op->body));
            }
            if (const LetStmt *op = s.as<LetStmt>()) {
                return LetStmt::make(op->name, op->value, block_level(op->body));
            }
            if (const IfThenElse *op = s.as<IfThenElse>()) {
                return IfThenElse::make(op->condition, block_level(op->then_case),
                                        block_level(op->else_case));
            }
            if (const ProducerConsumer *op = s.as<ProducerConsumer>()) {
                return ProducerConsumer::make(op->name, op->is_producer, block_level(op->body));
            }
            if (const Allocate *op = s.as<Allocate>()) {
                // Written and read by the threads of a block: shared memory.
                has_shared = true;
                return Allocate::make(op->name, op->type, MemoryType::GPUShared, op->extents,
                                      op->condition, block_level(op->body));
            }
            internal_error << "GPU offload: thread loops inside a " << node_type_name(s.node_type())
                           << " node:\n"
                           << s << "\n";
            return s;
        }

        /// A nest of thread loops: its variables from the thread indices, guarded where the
        /// launch has more threads than the nest's loops.
        Stmt thread_nest(const For *root) {
            const ThreadNest *nest = nullptr;
            for (const ThreadNest &n : shape.nests) {
                if (n.loops[0] == root) nest = &n;
            }
            internal_assert(nest) << "GPU offload: unknown thread nest " << root->name << "\n";
            Expr guard;
            for (size_t i = 0; i < nest->loops.size(); i++) {
                size_t d = nest->loops.size() - 1 - i;
                if (equal(nest->launch_extents[i], shape.threads[d])) continue;
                Expr c = id(thread_ids[d]) < nest->loops[i]->extent;
                guard = guard.defined() ? (guard && c) : c;
            }
            for (size_t d = nest->loops.size(); d < shape.threads.size(); d++) {
                Expr c = id(thread_ids[d]) == 0;
                guard = guard.defined() ? (guard && c) : c;
            }
            Stmt body = to_ids(Stmt(root));
            return guard.defined() ? IfThenElse::make(guard, body) : body;
        }

        Stmt to_ids(const Stmt &s) {
            class ToIds : public IRMutator {
            public:
                const std::map<const For *, std::string> *ids;

            protected:
                using IRMutator::visit;
                Stmt visit(const For *op) override {
                    auto it = ids->find(op);
                    if (it == ids->end()) return IRMutator::visit(op);
                    return LetStmt::make(op->name, op->min + Variable::make(Int(32), it->second),
                                         mutate(op->body));
                }
            } mutator;
            mutator.ids = &ids;
            return mutator.mutate(s);
        }
    };

    Stmt make_kernel(const For *root) {
        KernelShape shape = kernel_shape(root);
        DeviceAPI api = root->device_api;
        if (api == DeviceAPI::None || api == DeviceAPI::Default_GPU) {
            api = get_default_device_api_for_target(target);
        }
        user_assert(api == DeviceAPI::CUDA || api == DeviceAPI::OpenCL)
            << "Func " << func_of(root->name) << " is scheduled on the GPU, but target "
            << target.to_string()
            << " enables no GPU API Loom generates code for. Add the cuda or opencl feature.\n";
        Stmt body = KernelBody(shape).make(root);
        check_shared_memory(root, body);

        LoweredKernel k;
        k.name = kernel_name(root);
        k.api = api;
        k.body = body;
        std::set<std::string> ignore(std::begin(block_ids), std::end(block_ids));
        ignore.insert(std::begin(thread_ids), std::end(thread_ids));
        BufferUses uses = buffer_uses(body);
        for (const auto &[name, type] : free_symbols(body, ignore)) {
            LoweredKernel::Arg a;
            a.name = name;
            if (uses.types.count(name)) {
                a.type = uses.types.at(name);
                a.is_buffer = true;
                a.read = uses.reads(name);
                a.written = uses.writes(name);
            } else {
                internal_assert(!type.is_handle())
                    << "GPU offload: kernel " << k.name << " uses the handle " << name << "\n";
                a.type = type;
            }
            k.args.push_back(a);
        }
        kernels.push_back(k);
        return launch(k, shape);
    }

    /// CUDA guarantees 48 KB of shared memory per block (OpenCL at least 32 KB; the runtimes
    /// check the device's own limit before launching): more is refused here, naming the
    /// buffers; and a thread's private buffers must be small.
    void check_shared_memory(const For *root, const Stmt &body) {
        class Shared : public IRVisitor {
        public:
            int64_t bytes = 0;
            std::string names;
            std::string func;

        protected:
            using IRVisitor::visit;
            void visit(const Allocate *a) override {
                if (a->memory_type == MemoryType::GPUShared) {
                    bytes += constant_allocation_elements(a) * a->type.bytes();
                    names += (names.empty() ? "" : ", ") + a->name;
                } else {
                    user_assert(!allocated_on_heap(a))
                        << "Func " << a->name << " is computed by each thread of the GPU kernel "
                        << "of Func " << func << " in a buffer of " << extents_text(a)
                        << " elements, more than the " << kMaxAutoStackBytes
                        << " bytes a thread's private memory holds here. Compute it in smaller "
                           "tiles.\n";
                }
                IRVisitor::visit(a);
            }
        } shared;
        shared.func = func_of(root->name);
        shared.dispatch(body);
        const int64_t bytes = shared.bytes;
        const std::string &names = shared.names;
        const int64_t limit = 48 * 1024;
        user_assert(bytes <= limit)
            << "The GPU kernel of Func " << func_of(root->name) << " needs " << bytes
            << " bytes of shared memory per block for " << names << ", more than the " << limit
            << " bytes every CUDA GPU has. Use smaller tiles.\n";
    }

    std::string kernel_name(const For *root) const {
        std::string base = "kernel_" + fn + "_" + root->name;
        for (char &c : base) {
            if (!std::isalnum((unsigned char)c)) c = '_';
        }
        std::string name = base;
        for (int i = 1; std::any_of(kernels.begin(), kernels.end(),
                                    [&](const LoweredKernel &k) { return k.name == name; });
             i++) {
            name = base + "_" + std::to_string(i);
        }
        return name;
    }

    Stmt launch(const LoweredKernel &k, const KernelShape &shape) {
        Expr iface = Call::make(Handle(),
                                k.api == DeviceAPI::CUDA ? "halide_cuda_device_interface"
                                                         : "halide_opencl_device_interface",
                                {}, Call::Extern);
        std::vector<Stmt> stmts;
        std::vector<Expr> launch_args = {StringImm::make(k.name)};
        for (int i = 0; i < 3; i++) {
            int n = (int)shape.blocks.size();
            launch_args.push_back(i < n ? shape.blocks[n - 1 - i]->extent : Expr(1));
        }
        for (size_t i = 0; i < 3; i++) {
            launch_args.push_back(i < shape.threads.size() ? shape.threads[i] : Expr(1));
        }
        launch_args.push_back(0); // shared memory bytes
        for (const LoweredKernel::Arg &a : k.args) {
            if (!a.is_buffer) {
                launch_args.push_back(Variable::make(a.type, a.name));
                continue;
            }
            launch_args.push_back(handle(a.name));
            // A buffer the kernel reads must hold current data on the device; one it only
            // writes needs only an allocation there.
            stmts.push_back(
                checked(a.name + ".prepare_device",
                        Call::make(Int(32), "loom_prepare_device_buffer",
                                   {user_context(), handle(a.name), iface, Expr(a.read ? 1 : 0)},
                                   Call::Extern)));
        }
        stmts.push_back(checked(k.name + ".launch", Call::make(Int(32), Call::gpu_launch,
                                                               launch_args, Call::Intrinsic)));
        for (const LoweredKernel::Arg &a : k.args) {
            if (a.is_buffer && a.written) {
                stmts.push_back(set_dirty("_halide_buffer_set_device_dirty", handle(a.name)));
            }
        }
        return Block::make(stmts);
    }

    // ---- Device buffers of intermediates ----

    /// Gives every tracked allocation a halide_buffer_t ("<name>.device_buffer": one dimension
    /// over its elements, its host memory the allocation's) whose device memory is freed when
    /// the allocation's scope ends, normally or by an error.
    Stmt wrap_allocations(const Stmt &s) {
        class Wrap : public IRMutator {
        public:
            const OffloadGpuLoops *self;

        protected:
            using IRMutator::visit;
            Stmt visit(const Allocate *op) override {
                Stmt body = mutate(op->body);
                if (self->tracked.count(op->name) && !self->argument_buffers.count(op->name)) {
                    Expr elements = 1;
                    for (const Expr &e : op->extents) elements = elements * e;
                    Expr buf = make_buffer(Variable::make(Handle(), op->name), op->type, {Expr(0)},
                                           {elements}, {Expr(1)});
                    body = LetStmt::make(
                        op->name + ".device_buffer",
                        Call::make(Handle(), Call::register_destructor,
                                   {StringImm::make("halide_device_free_as_destructor"), buf},
                                   Call::Intrinsic),
                        body);
                }
                return Allocate::make(op->name, op->type, op->memory_type, op->extents,
                                      op->condition, body);
            }
        } wrap;
        wrap.self = this;
        return wrap.mutate(s);
    }
};

} // namespace

GpuOffload offload_gpu_loops(const Stmt &s, const std::string &fn_name,
                             const std::vector<LoweredArgument> &args, const Target &target) {
    return OffloadGpuLoops(fn_name, args, target).run(s);
}

} // namespace internal
} // namespace loom
