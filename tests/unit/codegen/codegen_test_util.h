// Helpers for the code generation tests: hand-built LoweredFuncs following the conventions of
// src/lower/lowered_func.h, raw halide_buffer_t buffers, and running the JIT-compiled code.
#ifndef LOOM_TESTS_UNIT_CODEGEN_CODEGEN_TEST_UTIL_H
#define LOOM_TESTS_UNIT_CODEGEN_CODEGEN_TEST_UTIL_H

#include "driver/jit.h"
#include "ir/ir.h"
#include "lower/lowered_func.h"

#include <loom/ir_operator.h>
#include <loom/runtime/loom_runtime.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace loom {
namespace internal {
namespace test {

/// A dense buffer owning its storage, with optional per-dimension mins.
struct TestBuffer {
    std::vector<uint8_t> storage;
    std::vector<halide_dimension_t> dims;
    halide_buffer_t buf{};

    TestBuffer(Type t, std::vector<int> extents, std::vector<int> mins = {}) {
        int64_t count = 1;
        for (size_t i = 0; i < extents.size(); i++) {
            int mn = i < mins.size() ? mins[i] : 0;
            dims.emplace_back(mn, extents[i], (int32_t)count);
            count *= extents[i];
        }
        storage.assign((size_t)count * t.bytes() + 64, 0);
        buf.host = storage.data();
        buf.type = t;
        buf.dimensions = (int)dims.size();
        buf.dim = dims.data();
    }
    TestBuffer(const TestBuffer &) = delete;
    TestBuffer &operator=(const TestBuffer &) = delete;

    template <typename T>
    T *data() {
        return (T *)buf.host;
    }
    halide_buffer_t *raw() { return &buf; }
};

inline Expr var(const std::string &name, Type t = Int(32)) { return Variable::make(t, name); }

inline Expr load(Type t, const std::string &name, const Expr &index) {
    return Load::make(t, name, index, const_true(t.lanes()));
}

inline Stmt store(const std::string &name, const Expr &value, const Expr &index) {
    return Store::make(name, value, index, Parameter(), const_true(value.type().lanes()));
}

inline Stmt loop(const std::string &name, const Expr &min, const Expr &extent, const Stmt &body) {
    return For::make(name, min, extent, ForType::Serial, DeviceAPI::None, body);
}

inline Expr intrin(Type t, const char *name, const std::vector<Expr> &args) {
    return Call::make(t, name, args, Call::PureIntrinsic);
}

inline Expr extern_call(Type t, const std::string &name, const std::vector<Expr> &args) {
    return Call::make(t, name, args, Call::Extern);
}

/// Builds a LoweredFunc: arguments in order after __user_context, and for each buffer `b` the
/// conventional LetStmts binding "b", "b.min.<d>", "b.extent.<d>", "b.stride.<d>".
class FuncBuilder {
public:
    explicit FuncBuilder(const std::string &name) {
        f_.name = name;
        LoweredArgument uc;
        uc.name = "__user_context";
        uc.type = Handle();
        f_.args.push_back(uc);
    }

    void buffer(const std::string &name, Type t, int dims, bool output = false) {
        LoweredArgument a;
        a.name = name;
        a.kind = output ? LoweredArgument::OutputBuffer : LoweredArgument::InputBuffer;
        a.type = t;
        a.dimensions = dims;
        f_.args.push_back(a);
    }

    Expr scalar(const std::string &name, Type t) {
        LoweredArgument a;
        a.name = name;
        a.type = t;
        f_.args.push_back(a);
        return var(name, t);
    }

    LoweredFunc finish(Stmt body) {
        for (auto it = f_.args.rbegin(); it != f_.args.rend(); ++it) {
            if (!it->is_buffer()) continue;
            Expr b = var(it->name + ".buffer", Handle());
            for (int d = it->dimensions - 1; d >= 0; d--) {
                std::string s = std::to_string(d);
                body = LetStmt::make(it->name + ".stride." + s,
                                     intrin(Int(32), Call::buffer_get_stride, {b, d}), body);
                body = LetStmt::make(it->name + ".extent." + s,
                                     intrin(Int(32), Call::buffer_get_extent, {b, d}), body);
                body = LetStmt::make(it->name + ".min." + s,
                                     intrin(Int(32), Call::buffer_get_min, {b, d}), body);
            }
            body = LetStmt::make(it->name, intrin(Handle(), Call::buffer_get_host, {b}), body);
        }
        f_.body = body;
        return f_;
    }

private:
    LoweredFunc f_;
};

/// Compiles f and calls its argv entry point with `args` (args[0], pointing at a null user
/// context, is prepended).
inline int run(const LoweredFunc &f, std::vector<void *> args) {
    static void *null_user_context = nullptr;
    args.insert(args.begin(), &null_user_context);
    return JITModule::compile(f)->argv_function()(args.data());
}

/// A simple 1-D function: for x in [0, n): out[x] = value(x) where `x` is the Variable "x" and
/// the buffers named are 1-D with min 0 and stride 1.
inline Stmt for_each_x(const std::string &extent_of, const Stmt &body) {
    return loop("x", 0, var(extent_of + ".extent.0"), body);
}

} // namespace test
} // namespace internal
} // namespace loom

#endif
