// compile_to_testbench (include/loom/testbench.h): a C99 program with a pipeline's inputs and
// the JIT's outputs as data, calling the ahead-of-time pipeline and comparing.
#include <loom/testbench.h>

#include <loom/buffer.h>
#include <loom/module.h>
#include <loom/realization.h>

#include "codegen/c/c_ops.h"
#include "driver/aot_c.h"
#include "driver/module_contents.h"
#include "support/error.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace loom {

using namespace internal;

namespace {

/// Fills b with values from a fixed generator: every bit pattern for integers, values in
/// [-1, 1] for floats (so float pipelines see ordinary numbers), 0 and 1 for bools.
void fill_deterministic(const Buffer<void> &b, uint64_t seed) {
    const halide_buffer_t *raw = b.raw_buffer();
    Type t = b.type();
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    size_t count = raw->number_of_elements();
    uint8_t *p = raw->host;
    int bytes = t.bytes();
    for (size_t i = 0; i < count; i++, p += bytes) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t bits = s >> 11;
        if (t.is_float() && t.bits() == 32) {
            float v = (float)((double)(bits % 2000001) / 1000000.0 - 1.0);
            std::memcpy(p, &v, 4);
        } else if (t.is_float() && t.bits() == 64) {
            double v = (double)(bits % 2000001) / 1000000.0 - 1.0;
            std::memcpy(p, &v, 8);
        } else if (t.is_bool()) {
            *p = (uint8_t)(bits & 1);
        } else {
            std::memcpy(p, &bits, bytes);
        }
    }
}

class TestbenchWriter {
public:
    explicit TestbenchWriter(std::ostringstream &data) : data_(data) {}

    /// Static storage for buffer b's bytes (dense) and its dimensions, and a halide_buffer_t
    /// initializer list for it. `with_data` false: zeroed storage of the same size (an output).
    std::string buffer(const std::string &name, const Buffer<void> &b, bool with_data) {
        const halide_buffer_t *raw = b.raw_buffer();
        data_ << c_byte_storage(name + "_data", with_data ? raw->host : nullptr,
                                raw->size_in_bytes(), false)
              << c_dimension_array(name + "_dims", raw);
        std::ostringstream init;
        init << "{0, NULL, " << name << "_data.b, 0, {" << (int)raw->type.code << ", "
             << (int)raw->type.bits << ", " << raw->type.lanes << "}, " << raw->dimensions << ", "
             << name << "_dims, NULL}";
        return init.str();
    }

    /// Static constant bytes of b (the expected values).
    void expected(const std::string &name, const Buffer<void> &b) {
        const halide_buffer_t *raw = b.raw_buffer();
        data_ << c_byte_storage(name, raw->host, raw->size_in_bytes(), true);
    }

private:
    std::ostringstream &data_;
};

/// The C literal of a scalar Param's current value.
std::string scalar_literal(const Parameter &param, const std::string &name) {
    Expr v = param.scalar_expr();
    Type t = param.type();
    user_assert(!t.is_handle()) << "compile_to_testbench: the Handle argument " << name
                                << " has no value a testbench could pass.\n";
    CDefinitions unused;
    COps ops(unused);
    if (const IntImm *i = v.as<IntImm>()) return ops.int_literal(t, i->value);
    if (const UIntImm *u = v.as<UIntImm>()) return ops.uint_literal(t, u->value);
    if (const FloatImm *f = v.as<FloatImm>()) return ops.float_literal(t, f->value);
    user_error << "compile_to_testbench: the Param " << name
               << " has no constant value; set() it first.\n";
    return "";
}

const char *const compare_function = R"(
/* Compares `count` elements of type t: integers exactly, floats within the tolerance relative to
 * max(1, |expected|) (NaN matches NaN). Prints the first mismatches; returns how many. */
static size_t loom_tb_compare(const char *name, struct halide_type_t t, const uint8_t *got,
                              const uint8_t *want, size_t count, double tolerance) {
    size_t i, bad = 0;
    int bytes = (t.bits + 7) / 8;
    for (i = 0; i < count; i++) {
        int same;
        double a = 0, b = 0;
        if (t.code == halide_type_float) {
            if (t.bits == 32) {
                float x, y;
                memcpy(&x, got + i * 4, 4);
                memcpy(&y, want + i * 4, 4);
                a = x;
                b = y;
            } else {
                memcpy(&a, got + i * 8, 8);
                memcpy(&b, want + i * 8, 8);
            }
            same = (a != a && b != b) || a == b ||
                   fabs(a - b) <= tolerance * (fabs(b) > 1 ? fabs(b) : 1);
        } else {
            same = memcmp(got + i * bytes, want + i * bytes, (size_t)bytes) == 0;
        }
        if (!same && bad++ < 5) {
            if (t.code == halide_type_float) {
                printf("  %s[%lu]: %.9g, expected %.9g\n", name, (unsigned long)i, a, b);
            } else {
                printf("  %s[%lu]: bytes differ\n", name, (unsigned long)i);
            }
        }
    }
    return bad;
}
)";

} // namespace

void compile_to_testbench(Pipeline p, const std::string &filename,
                          const std::vector<Argument> &args, const std::string &fn_name,
                          const std::vector<int> &output_sizes, const Target &target,
                          double float_tolerance, const std::string &header) {
    // Inputs first: what is not bound is bound to deterministic data of the needed region.
    Module m = p.compile_to_module(args, fn_name, target);
    const ModuleContents &mc = *static_cast<const ModuleContents *>(m.get_contents().get());
    // The public arguments carry what the user listed; their parameters are the lowered ones.
    auto param_of = [&](const AotArgument &a) {
        return a.lowered_index >= 0 ? mc.lowered.args[a.lowered_index].param : a.arg.param;
    };
    // Every input is bound, for this, to a buffer of just the region the outputs need (a bounds
    // query, as infer_input_bounds does), so the program carries no more data than that: a
    // bound input's values are copied over, an unbound one gets deterministic values.
    struct Restore { // the user's own buffers again, however this ends
        std::vector<std::pair<Parameter, Buffer<void>>> bound;
        ~Restore() {
            for (auto &[param, original] : bound) param.set_buffer(original);
        }
    } restore;
    std::vector<std::pair<Parameter, Buffer<void>>> &bound = restore.bound;
    std::vector<Parameter> unbound;
    for (const AotArgument &a : mc.public_args) {
        Parameter param = param_of(a);
        if (a.arg.kind != LoweredArgument::InputBuffer || !param.defined()) continue;
        if (param.buffer().defined()) {
            bound.push_back({param, param.buffer()});
            param.set_buffer(Buffer<void>());
        } else {
            unbound.push_back(param);
        }
    }
    if (!bound.empty() || !unbound.empty()) p.infer_input_bounds(output_sizes);
    for (size_t i = 0; i < unbound.size(); i++) fill_deterministic(unbound[i].buffer(), i + 1);
    for (auto &[param, original] : bound) {
        Buffer<void> region = param.buffer();
        const halide_buffer_t *r = region.raw_buffer(), *o = original.raw_buffer();
        for (int d = 0; d < r->dimensions; d++) {
            user_assert(o->dim[d].min <= r->dim[d].min &&
                        r->dim[d].min + r->dim[d].extent <= o->dim[d].min + o->dim[d].extent)
                << "compile_to_testbench: the buffer bound to " << param.name()
                << " does not cover the region the outputs need in dimension " << d << " ("
                << r->dim[d].min << " to " << r->dim[d].min + r->dim[d].extent - 1 << ").\n";
        }
        region.copy_from(original);
    }
    // Into buffers of exactly these sizes, as the program will call the pipeline (realize(sizes)
    // would widen them to what a schedule's tiles need, where the AOT function reports an error).
    std::vector<Buffer<void>> output_buffers;
    for (const AotArgument &a : mc.public_args) {
        if (a.arg.kind == LoweredArgument::OutputBuffer) {
            output_buffers.emplace_back(a.arg.type, output_sizes);
        }
    }
    Realization outputs(output_buffers);
    p.realize(outputs);

    struct Check {
        std::string var, expected, name;
        size_t count;
    };
    std::vector<Check> checks;
    std::ostringstream data, body;
    TestbenchWriter writer(data);
    bool uc = target.has_feature(Target::UserContext);
    std::vector<std::string> call;
    if (uc) call.push_back("NULL");
    int buffer_index = 0;
    size_t output_index = 0;
    for (const AotArgument &a : mc.public_args) {
        const LoweredArgument &arg = a.arg;
        Parameter param = param_of(a);
        if (arg.kind == LoweredArgument::Scalar) {
            user_assert(param.defined())
                << "compile_to_testbench: no value for the argument " << arg.name << ".\n";
            call.push_back(scalar_literal(param, arg.name));
            continue;
        }
        std::string var = "loom_tb_buffer" + std::to_string(buffer_index++);
        if (arg.kind == LoweredArgument::InputBuffer) {
            user_assert(param.defined() && param.buffer().defined())
                << "compile_to_testbench: the input " << arg.name
                << " has no buffer (an argument the pipeline does not use gets none).\n";
            // Dense, with the innermost dimension first (a copy keeps a view's storage order).
            Buffer<void> src = param.buffer();
            std::vector<int> extents, mins;
            for (int d = 0; d < src.dimensions(); d++) {
                extents.push_back(src.raw_buffer()->dim[d].extent);
                mins.push_back(src.raw_buffer()->dim[d].min);
            }
            Buffer<void> dense(src.type(), extents);
            dense.set_min(mins);
            dense.copy_from(src);
            body << "    halide_buffer_t " << var << " = " << writer.buffer(var, dense, true)
                 << ";\n";
        } else {
            internal_assert(output_index < outputs.size())
                << "compile_to_testbench: more output arguments than outputs\n";
            Buffer<void> out = outputs[output_index++];
            std::string expected = var + "_expected";
            writer.expected(expected, out);
            body << "    halide_buffer_t " << var << " = " << writer.buffer(var, out, false)
                 << ";\n";
            checks.push_back({var, expected, arg.name, out.raw_buffer()->number_of_elements()});
        }
        call.push_back("&" + var);
    }

    std::ostringstream os;
    os << "/* Generated by Loom: a testbench for the pipeline " << fn_name
       << ", with its inputs and the outputs the JIT computed for them.\n"
       << " * Build: cc -std=c99 <this file> <the pipeline's .c, .o or .a> -lm -lpthread */\n"
       << "#include \"" << (header.empty() ? fn_name + ".h" : header) << "\"\n\n"
       << "#include <math.h>\n#include <stdio.h>\n#include <string.h>\n\n"
       << data.str() << compare_function << "\nint main(void) {\n"
       << body.str() << "    size_t bad = 0;\n    int result = " << fn_name << "(";
    for (size_t i = 0; i < call.size(); i++) os << (i ? ", " : "") << call[i];
    os << ");\n    if (result != 0) {\n        printf(\"testbench " << fn_name
       << ": the pipeline returned %d\\n\", result);\n        return 1;\n    }\n";
    size_t total = 0;
    for (const Check &c : checks) {
        os << "    bad += loom_tb_compare(" << c_string_literal(c.name) << ", " << c.var
           << ".type, " << c.var << ".host, " << c.expected << ".b, " << c.count << ", "
           << float_tolerance << ");\n";
        total += c.count;
    }
    os << "    if (bad) {\n        printf(\"testbench " << fn_name << ": %lu of " << total
       << " values differ\\n\", (unsigned long)bad);\n"
       << "        return 1;\n    }\n"
       << "    printf(\"testbench " << fn_name << ": " << total << " values match\\n\");\n"
       << "    return 0;\n}\n";
    std::ofstream f(filename);
    user_assert(f.good()) << "Can't open " << filename << " for writing.\n";
    f << os.str();
    user_assert(f.good()) << "Can't write " << filename << ".\n";
}

} // namespace loom
