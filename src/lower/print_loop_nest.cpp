#include "lower/print_loop_nest.h"

#include "ir/ir_printer.h"
#include "ir/ir_visitor.h"
#include "lower/lower.h"

#include <sstream>

namespace loom {
namespace internal {

namespace {

class LoopNestPrinter : public IRVisitor {
public:
    std::ostringstream out;

protected:
    using IRVisitor::visit;
    int indent = 0;

    void line(const std::string &s) { out << std::string(indent * 2, ' ') << s << "\n"; }

    /// "f.s0.x" -> "x"; "f.s1.r.x" -> "r.x".
    static std::string loop_var(const std::string &name) {
        // The stage prefix is "<func>.s<k>."; func names may contain dots, so search for the
        // last ".s<digits>." component.
        size_t pos = std::string::npos;
        for (size_t i = 0; i + 2 < name.size(); i++) {
            if (name[i] == '.' && name[i + 1] == 's' && isdigit((unsigned char)name[i + 2])) {
                size_t j = i + 2;
                while (j < name.size() && isdigit((unsigned char)name[j])) j++;
                if (j < name.size() && name[j] == '.') {
                    pos = j + 1;
                    break;
                }
            }
        }
        return pos == std::string::npos ? name : name.substr(pos);
    }

    void visit(const For *op) override {
        std::string v = loop_var(op->name);
        if (v == "__outermost") {
            dispatch(op->body);
            return;
        }
        std::string kind = op->for_type == ForType::Serial ? "for" : for_type_name(op->for_type);
        line(kind + " " + v + ":");
        indent++;
        dispatch(op->body);
        indent--;
    }
    void visit(const ProducerConsumer *op) override {
        // An output's consume block holds nothing: Halide does not show it.
        if (!op->is_producer && op->body.as<Evaluate>()) return;
        line(std::string(op->is_producer ? "produce " : "consume ") + op->name + ":");
        indent++;
        dispatch(op->body);
        indent--;
    }
    void visit(const Provide *op) override { line(op->name + "(...) = ..."); }
    void visit(const Evaluate *) override {}
};

} // namespace

std::string loop_nest_summary(const Stmt &s) {
    LoopNestPrinter p;
    p.dispatch(s);
    return p.out.str();
}

std::string print_loop_nest(const std::vector<Function> &outputs) {
    return loop_nest_summary(lower_to_loop_nest(outputs));
}

} // namespace internal
} // namespace loom
