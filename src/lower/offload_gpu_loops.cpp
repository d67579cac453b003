#include "lower/offload_gpu_loops.h"

#include <loom/ir_operator.h>

#include "ir/ir_mutator.h"
#include "ir/ir_printer.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "lower/lower_utils.h"
#include "support/error.h"
#include "support/util.h"

#include <algorithm>
#include <map>
#include <set>

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

    /// The GPU loops of one kernel (outermost first) and what the kernel body may not do.
    struct KernelShape {
        std::vector<const For *> blocks, threads;
    };

    KernelShape kernel_shape(const For *root) {
        class Shape : public IRVisitor {
        public:
            KernelShape shape;
            /// Enclosing block / thread loops, and names defined inside the kernel.
            int block_depth = 0, thread_depth = 0;
            std::set<std::string> defined;
            std::string kernel_func;

        protected:
            using IRVisitor::visit;
            void check_host_evaluable(const For *op, const char *kind) {
                user_assert(!expr_uses_vars(op->extent, defined))
                    << "The extent of the GPU " << kind << " loop " << op->name << " of Func "
                    << func_of(op->name)
                    << " depends on an enclosing loop of the same kernel, but the launch size "
                       "must be known before the kernel runs. Split the loop by a constant "
                       "factor (gpu_tile(x, bx, tx, 16), whose default tail strategy "
                       "keeps the extent constant).\n";
            }
            void visit(const For *op) override {
                if (op->for_type == ForType::GPUBlock) {
                    user_assert(thread_depth == 0)
                        << "Func " << func_of(op->name) << " has the GPU block loop " << op->name
                        << " inside a GPU thread loop. Block loops must enclose thread loops.\n";
                    user_assert(block_depth == (int)shape.blocks.size() && shape.threads.empty())
                        << "Func " << func_of(op->name) << ": the GPU block loops of one kernel "
                        << "must be nested in each other (" << op->name << " is beside "
                        << shape.blocks.back()->name << ").\n";
                    user_assert(shape.blocks.size() < 3)
                        << "Func " << func_of(op->name) << " has more than three nested GPU "
                        << "block loops (" << op->name << " is the fourth); fuse some of them.\n";
                    check_host_evaluable(op, "block");
                    shape.blocks.push_back(op);
                } else if (is_thread_loop(op)) {
                    user_assert(thread_depth == (int)shape.threads.size())
                        << "Func " << func_of(op->name) << ": the GPU thread loop " << op->name
                        << " is beside " << shape.threads.back()->name
                        << " in the same kernel. Loom runs one nest of thread loops per "
                           "kernel: compute the stages with thread loops of their own at root "
                           "(a kernel each) or inside the innermost thread loop.\n";
                    user_assert(shape.threads.size() < 3)
                        << "Func " << func_of(op->name) << " has more than three nested GPU "
                        << "thread loops (" << op->name << " is the fourth); fuse some of them.\n";
                    check_host_evaluable(op, "thread");
                    shape.threads.push_back(op);
                } else {
                    dispatch(op->min);
                    dispatch(op->extent);
                }
                int &depth = op->for_type == ForType::GPUBlock ? block_depth
                             : is_thread_loop(op)              ? thread_depth
                                                               : serial_depth;
                depth++;
                defined.insert(op->name);
                dispatch(op->body);
                depth--;
            }
            void visit(const LetStmt *op) override {
                dispatch(op->value);
                defined.insert(op->name);
                dispatch(op->body);
            }
            void visit(const Let *op) override {
                dispatch(op->value);
                defined.insert(op->name);
                dispatch(op->body);
            }
            void visit(const Allocate *op) override {
                user_assert(constant_allocation_elements(op) >= 0)
                    << "Func " << op->name << " is computed inside a GPU kernel with a size that "
                    << "is not a constant. Give it a constant size (bound() or bound_extent() "
                       "on its dimensions, or compute it inside the innermost thread loop of a "
                       "constant-size tile).\n";
                defined.insert(op->name);
                IRVisitor::visit(op);
            }
            void visit(const Store *op) override { IRVisitor::visit(op); }
            void visit(const AssertStmt *op) override {
                internal_error << "GPU offload: an assertion inside a GPU kernel: " << Stmt(op)
                               << "\n";
            }

        private:
            int serial_depth = 0;
        } shape;
        shape.dispatch(Stmt(root));
        KernelShape result = shape.shape;
        check_block_level_work(root, result);
        return result;
    }

    /// With thread loops, every store and allocation must be inside the innermost one: work at
    /// the block level would run once per thread and needs shared memory and barriers.
    void check_block_level_work(const For *root, const KernelShape &shape) {
        if (shape.threads.empty()) return;
        const For *innermost = shape.threads.back();
        class Find : public IRVisitor {
        public:
            const For *innermost;
            std::string offender;

        protected:
            using IRVisitor::visit;
            void visit(const For *op) override {
                if (op != innermost) IRVisitor::visit(op);
            }
            void visit(const Store *op) override {
                if (offender.empty()) offender = op->name;
            }
            void visit(const Allocate *op) override {
                if (offender.empty()) offender = op->name;
                IRVisitor::visit(op);
            }
        } find;
        find.innermost = innermost;
        find.dispatch(Stmt(root));
        user_assert(find.offender.empty())
            << "Func " << find.offender << " is computed at the block level of the GPU kernel of "
            << func_of(root->name) << " (inside its block loops but outside its thread loop "
            << innermost->name
            << "). Loom does not support block-level stages (shared memory) yet: compute "
            << find.offender << " at root with a GPU schedule of its own, or inside the thread "
            << "loops (compute_at(" << func_of(root->name) << ", <thread var>)).\n";
    }

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

        // Innermost block (thread) loop is the x dimension, as in Halide.
        std::map<const For *, std::string> ids;
        for (size_t i = 0; i < shape.blocks.size(); i++) {
            ids[shape.blocks[shape.blocks.size() - 1 - i]] = block_ids[i];
        }
        for (size_t i = 0; i < shape.threads.size(); i++) {
            ids[shape.threads[shape.threads.size() - 1 - i]] = thread_ids[i];
        }
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
        } to_ids;
        to_ids.ids = &ids;
        Stmt body = to_ids.mutate(Stmt(root));

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
        for (int i = 0; i < 3; i++) {
            int n = (int)shape.threads.size();
            launch_args.push_back(i < n ? shape.threads[n - 1 - i]->extent : Expr(1));
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
