// The C-like text form of the IR (see ir_printer.h for the syntax).

#include "ir/ir_printer.h"

#include "ir/ir_utils.h"
#include "ir/scratchpads.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace loom {

std::ostream &operator<<(std::ostream &os, const Expr &e) {
    internal::IRPrinter p(os);
    p.print(e);
    return os;
}

namespace internal {

std::ostream &operator<<(std::ostream &os, const Stmt &s) {
    IRPrinter p(os);
    p.print(s);
    return os;
}

const char *for_type_name(ForType t) {
    switch (t) {
    case ForType::Serial:
        return "for";
    case ForType::Parallel:
        return "parallel";
    case ForType::Vectorized:
        return "vectorized";
    case ForType::Unrolled:
        return "unrolled";
    case ForType::Extern:
        return "extern";
    case ForType::GPUBlock:
        return "gpu_block";
    case ForType::GPUThread:
        return "gpu_thread";
    case ForType::GPULane:
        return "gpu_lane";
    }
    return "for?";
}

const char *device_api_name(DeviceAPI d) {
    switch (d) {
    case DeviceAPI::None:
        return "None";
    case DeviceAPI::Host:
        return "Host";
    case DeviceAPI::Default_GPU:
        return "Default_GPU";
    case DeviceAPI::CUDA:
        return "CUDA";
    case DeviceAPI::OpenCL:
        return "OpenCL";
    case DeviceAPI::Metal:
        return "Metal";
    case DeviceAPI::Hexagon:
        return "Hexagon";
    case DeviceAPI::HexagonDma:
        return "HexagonDma";
    case DeviceAPI::Vulkan:
        return "Vulkan";
    case DeviceAPI::WebGPU:
        return "WebGPU";
    case DeviceAPI::D3D12Compute:
        return "D3D12Compute";
    }
    return "?";
}

const char *memory_type_name(MemoryType m) {
    switch (m) {
    case MemoryType::Auto:
        return "Auto";
    case MemoryType::Heap:
        return "Heap";
    case MemoryType::Stack:
        return "Stack";
    case MemoryType::Register:
        return "Register";
    case MemoryType::GPUShared:
        return "GPUShared";
    case MemoryType::GPUTexture:
        return "GPUTexture";
    case MemoryType::LockedCache:
        return "LockedCache";
    case MemoryType::VTCM:
        return "VTCM";
    case MemoryType::AMXTile:
        return "AMXTile";
    }
    return "?";
}

std::ostream &operator<<(std::ostream &os, ForType t) { return os << for_type_name(t); }
std::ostream &operator<<(std::ostream &os, DeviceAPI d) { return os << device_api_name(d); }
std::ostream &operator<<(std::ostream &os, MemoryType m) {
    if (const ScratchpadMemory *s = find_scratchpad(m))
        return os << "Scratchpad(" << s->name << ")";
    return os << memory_type_name(m);
}

namespace {

/// The shortest decimal text that reads back as the same value of the given precision, always
/// with a decimal point or exponent so it cannot be mistaken for an integer.
std::string float_text(double v, bool single) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    for (int prec = 1; prec <= 17; prec++) {
        std::snprintf(buf, sizeof(buf), "%.*g", prec, v);
        double back = std::strtod(buf, nullptr);
        if (single ? (float)back == (float)v : back == v) break;
    }
    std::string s = buf;
    if (s.find_first_of(".eE") == std::string::npos) s += ".0";
    return s;
}

void print_escaped(std::ostream &os, const std::string &s) {
    os << '"';
    for (char c : s) {
        switch (c) {
        case '"':
            os << "\\\"";
            break;
        case '\\':
            os << "\\\\";
            break;
        case '\n':
            os << "\\n";
            break;
        case '\t':
            os << "\\t";
            break;
        default:
            os << c;
        }
    }
    os << '"';
}

const char *vector_reduce_name(VectorReduce::Operator op) {
    switch (op) {
    case VectorReduce::Add:
        return "add";
    case VectorReduce::Mul:
        return "mul";
    case VectorReduce::Min:
        return "min";
    case VectorReduce::Max:
        return "max";
    case VectorReduce::And:
        return "and";
    case VectorReduce::Or:
        return "or";
    }
    return "?";
}

} // namespace

IRPrinter::IRPrinter(std::ostream &os, int indent) : stream(os), indent(indent) {}

void IRPrinter::print(const Expr &e) {
    if (e.defined()) {
        dispatch(e);
    } else {
        stream << "(undefined)";
    }
}

void IRPrinter::print(const Stmt &s) {
    if (s.defined()) {
        dispatch(s);
    } else {
        do_indent();
        stream << "(undefined)\n";
    }
}

void IRPrinter::do_indent() {
    for (int i = 0; i < indent; i++) stream << ' ';
}

void IRPrinter::print_list(const std::vector<Expr> &es) {
    for (size_t i = 0; i < es.size(); i++) {
        if (i > 0) stream << ", ";
        print(es[i]);
    }
}

void IRPrinter::print_body(const Stmt &s) {
    indent += indent_step;
    print(s);
    indent -= indent_step;
}

void IRPrinter::visit(const IntImm *op) {
    if (op->type == Int(32)) {
        stream << op->value;
    } else {
        stream << "(" << op->type << ")" << op->value;
    }
}

void IRPrinter::visit(const UIntImm *op) {
    if (op->type.is_bool()) {
        stream << (op->value ? "true" : "false");
    } else {
        stream << "(" << op->type << ")" << op->value;
    }
}

void IRPrinter::visit(const FloatImm *op) {
    bool single = op->type.bits() == 32 && !op->type.is_bfloat();
    std::string text = float_text(op->value, single);
    if (single && std::isfinite(op->value)) {
        // Halide's spelling of float32 literals: a C float suffix.
        stream << text << "f";
    } else {
        stream << "(" << op->type << ")" << text;
    }
}

void IRPrinter::visit(const StringImm *op) { print_escaped(stream, op->value); }

void IRPrinter::visit(const Cast *op) {
    stream << op->type << "(";
    print(op->value);
    stream << ")";
}

void IRPrinter::visit(const Reinterpret *op) {
    stream << "reinterpret<" << op->type << ">(";
    print(op->value);
    stream << ")";
}

void IRPrinter::visit(const Variable *op) { stream << op->name; }

#define LOOM_PRINT_INFIX(N, sym)                                                                   \
    void IRPrinter::visit(const N *op) {                                                           \
        stream << "(";                                                                             \
        print(op->a);                                                                              \
        stream << " " sym " ";                                                                     \
        print(op->b);                                                                              \
        stream << ")";                                                                             \
    }
LOOM_PRINT_INFIX(Add, "+")
LOOM_PRINT_INFIX(Sub, "-")
LOOM_PRINT_INFIX(Mul, "*")
LOOM_PRINT_INFIX(Div, "/")
LOOM_PRINT_INFIX(Mod, "%")
LOOM_PRINT_INFIX(EQ, "==")
LOOM_PRINT_INFIX(NE, "!=")
LOOM_PRINT_INFIX(LT, "<")
LOOM_PRINT_INFIX(LE, "<=")
LOOM_PRINT_INFIX(GT, ">")
LOOM_PRINT_INFIX(GE, ">=")
LOOM_PRINT_INFIX(And, "&&")
LOOM_PRINT_INFIX(Or, "||")
#undef LOOM_PRINT_INFIX

void IRPrinter::visit(const Min *op) {
    stream << "min(";
    print(op->a);
    stream << ", ";
    print(op->b);
    stream << ")";
}

void IRPrinter::visit(const Max *op) {
    stream << "max(";
    print(op->a);
    stream << ", ";
    print(op->b);
    stream << ")";
}

void IRPrinter::visit(const Not *op) {
    stream << "!";
    print(op->a);
}

void IRPrinter::visit(const Select *op) {
    stream << "select(";
    print(op->condition);
    stream << ", ";
    print(op->true_value);
    stream << ", ";
    print(op->false_value);
    stream << ")";
}

void IRPrinter::visit(const Load *op) {
    bool predicated = !is_const_true(op->predicate);
    if (predicated) stream << "(";
    // The element type is shown unless the enclosing allocation already says it.
    auto it = known_types.find(op->name);
    bool obvious = it != known_types.end() ? it->second == op->type.element_of()
                                           : op->type.element_of() == Int(32);
    if (!obvious || op->type.is_vector()) stream << "(" << op->type << ")";
    stream << op->name << "[";
    print(op->index);
    stream << "]";
    if (predicated) {
        stream << " if ";
        print(op->predicate);
        stream << ")";
    }
}

void IRPrinter::visit(const Ramp *op) {
    stream << "ramp(";
    print(op->base);
    stream << ", ";
    print(op->stride);
    stream << ", " << op->lanes << ")";
}

void IRPrinter::visit(const Broadcast *op) {
    stream << "x" << op->lanes << "(";
    print(op->value);
    stream << ")";
}

void IRPrinter::visit(const Let *op) {
    stream << "(let " << op->name << " = ";
    print(op->value);
    stream << " in ";
    print(op->body);
    stream << ")";
}

void IRPrinter::visit(const Call *op) {
    stream << op->name << "(";
    print_list(op->args);
    stream << ")";
    // Which element of a Tuple-valued Func is read.
    if (op->value_index != 0) stream << "[" << op->value_index << "]";
}

void IRPrinter::visit(const Shuffle *op) {
    const std::vector<int> &idx = op->indices;
    int total = 0;
    for (const Expr &v : op->vectors) total += v.type().lanes();
    // Recognise the common shapes so the text says what the shuffle does.
    bool is_concat = op->vectors.size() > 1 && (int)idx.size() == total;
    for (size_t i = 0; is_concat && i < idx.size(); i++) is_concat = idx[i] == (int)i;
    if (is_concat) {
        stream << "concat_vectors(";
        print_list(op->vectors);
        stream << ")";
        return;
    }
    int lanes0 = op->vectors[0].type().lanes();
    bool same_lanes = true;
    for (const Expr &v : op->vectors) same_lanes = same_lanes && v.type().lanes() == lanes0;
    size_t n = op->vectors.size();
    bool is_interleave = n > 1 && same_lanes && (int)idx.size() == total;
    for (size_t i = 0; is_interleave && i < idx.size(); i++) {
        is_interleave = idx[i] == (int)((i % n) * lanes0 + i / n);
    }
    if (is_interleave) {
        stream << "interleave_vectors(";
        print_list(op->vectors);
        stream << ")";
        return;
    }
    if (n == 1 && idx.size() == 1) {
        stream << "extract_element(";
        print(op->vectors[0]);
        stream << ", " << idx[0] << ")";
        return;
    }
    if (n == 1 && idx.size() > 1) {
        int stride = idx[1] - idx[0];
        bool is_slice = stride > 0;
        for (size_t i = 0; is_slice && i < idx.size(); i++) {
            is_slice = idx[i] == idx[0] + (int)i * stride;
        }
        if (is_slice) {
            stream << "slice_vectors(";
            print(op->vectors[0]);
            stream << ", " << idx[0] << ", " << stride << ", " << idx.size() << ")";
            return;
        }
    }
    stream << "shuffle(";
    print_list(op->vectors);
    for (int i : idx) stream << ", " << i;
    stream << ")";
}

void IRPrinter::visit(const VectorReduce *op) {
    stream << "(" << op->type << ")vector_reduce_" << vector_reduce_name(op->op) << "(";
    print(op->value);
    stream << ")";
}

void IRPrinter::visit(const LetStmt *op) {
    do_indent();
    stream << "let " << op->name << " = ";
    print(op->value);
    stream << "\n";
    print(op->body);
}

void IRPrinter::visit(const AssertStmt *op) {
    do_indent();
    stream << "assert(";
    print(op->condition);
    stream << ", ";
    print(op->message);
    stream << ")\n";
}

void IRPrinter::visit(const ProducerConsumer *op) {
    do_indent();
    stream << (op->is_producer ? "produce " : "consume ") << op->name << " {\n";
    print_body(op->body);
    do_indent();
    stream << "}\n";
}

void IRPrinter::visit(const For *op) {
    do_indent();
    stream << op->for_type;
    if (op->device_api != DeviceAPI::None) stream << "<" << op->device_api << ">";
    stream << " (" << op->name << ", ";
    print(op->min);
    stream << ", ";
    print(op->extent);
    stream << ") {\n";
    print_body(op->body);
    do_indent();
    stream << "}\n";
}

void IRPrinter::visit(const Store *op) {
    do_indent();
    stream << op->name << "[";
    print(op->index);
    stream << "] = ";
    print(op->value);
    if (!is_const_true(op->predicate)) {
        stream << " if ";
        print(op->predicate);
    }
    stream << "\n";
}

void IRPrinter::visit(const Provide *op) {
    do_indent();
    stream << op->name << "(";
    print_list(op->args);
    stream << ") = ";
    if (op->values.size() == 1) {
        print(op->values[0]);
    } else {
        stream << "{";
        print_list(op->values);
        stream << "}";
    }
    if (!is_const_true(op->predicate)) {
        stream << " if ";
        print(op->predicate);
    }
    stream << "\n";
}

void IRPrinter::visit(const Allocate *op) {
    do_indent();
    stream << "allocate " << op->name << "[" << op->type;
    for (const Expr &e : op->extents) {
        stream << " * ";
        print(e);
    }
    stream << "]";
    if (op->memory_type != MemoryType::Auto) stream << " in " << op->memory_type;
    if (!is_const_true(op->condition)) {
        stream << " if ";
        print(op->condition);
    }
    stream << "\n";
    // Loads from this allocation need no type prefix inside its body (Halide does the same).
    auto old = known_types.find(op->name);
    bool had = old != known_types.end();
    Type old_type = had ? old->second : Type();
    known_types[op->name] = op->type.element_of();
    print(op->body);
    if (had) {
        known_types[op->name] = old_type;
    } else {
        known_types.erase(op->name);
    }
}

void IRPrinter::visit(const Free *op) {
    do_indent();
    stream << "free " << op->name << "\n";
}

void IRPrinter::visit(const Realize *op) {
    do_indent();
    stream << "realize " << op->name << "(";
    for (size_t i = 0; i < op->bounds.size(); i++) {
        if (i > 0) stream << ", ";
        stream << "[";
        print(op->bounds[i].min);
        stream << ", ";
        print(op->bounds[i].extent);
        stream << "]";
    }
    stream << ")";
    if (op->memory_type != MemoryType::Auto) stream << " in " << op->memory_type;
    if (!is_const_true(op->condition)) {
        stream << " if ";
        print(op->condition);
    }
    stream << " {\n";
    print_body(op->body);
    do_indent();
    stream << "}\n";
}

void IRPrinter::visit(const Block *op) {
    print(op->first);
    print(op->rest);
}

void IRPrinter::visit(const IfThenElse *op) {
    do_indent();
    const IfThenElse *branch = op;
    // An else case that is itself an if prints as "else if", so chains stay flat.
    while (true) {
        stream << "if (";
        print(branch->condition);
        stream << ") {\n";
        print_body(branch->then_case);
        do_indent();
        stream << "}";
        if (!branch->else_case.defined()) break;
        if (const IfThenElse *nested = branch->else_case.as<IfThenElse>()) {
            stream << " else ";
            branch = nested;
            continue;
        }
        stream << " else {\n";
        print_body(branch->else_case);
        do_indent();
        stream << "}";
        break;
    }
    stream << "\n";
}

void IRPrinter::visit(const Evaluate *op) {
    do_indent();
    print(op->value);
    stream << "\n";
}

void IRPrinter::visit(const Atomic *op) {
    do_indent();
    stream << "atomic";
    if (!op->mutex_name.empty()) stream << " (" << op->mutex_name << ")";
    stream << " {\n";
    print_body(op->body);
    do_indent();
    stream << "}\n";
}

void IRPrinter::visit(const Fork *op) {
    // The two sides print as parallel branches, as Halide prints them.
    do_indent();
    stream << "fork {\n";
    print_body(op->first);
    do_indent();
    stream << "} {\n";
    print_body(op->rest);
    do_indent();
    stream << "}\n";
}

} // namespace internal
} // namespace loom
