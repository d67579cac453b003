#include "lower/alias_bound_lets.h"

#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"

#include <map>
#include <string>
#include <vector>

namespace loom {
namespace internal {

namespace {

/// Expansions larger than this are not kept: a long chain of unions (a Func with many update
/// stages) would grow them without bound, and such lets are not block bounds anyway.
const int max_expansion_nodes = 400;
/// How many of the Func's latest lets in scope a let is compared with.
const int max_candidates = 24;

class AliasBoundLets : public IRMutator {
protected:
    using IRMutator::visit;

    struct Known {
        std::string name;
        Expr expansion; ///< the value with the group's lets in scope expanded, simplified
    };

    /// The group of a let: the Func its name starts with ("f" of "f.s1.x.min").
    static std::string group_of(const std::string &name) {
        size_t dot = name.find('.');
        return dot == std::string::npos ? std::string() : name.substr(0, dot);
    }

    Stmt visit(const LetStmt *op) override {
        const std::string group = group_of(op->name);
        if (group.empty() || !op->value.type().is_int() || op->value.type().is_vector()) {
            return IRMutator::visit(op);
        }
        std::vector<Known> &known = groups[group];
        std::map<std::string, Expr> expansions;
        for (const Known &k : known) expansions[k.name] = k.expansion;
        Expr full = simplify(substitute(expansions, op->value));
        Expr value = op->value;
        bool keep = !expr_larger_than(full, max_expansion_nodes);
        if (keep) {
            if (is_const(full)) {
                value = full;
            } else if (!full.as<Variable>()) {
                int tried = 0;
                for (auto k = known.rbegin(); k != known.rend() && tried < max_candidates;
                     ++k, ++tried) {
                    if (k->expansion.type() != full.type()) continue;
                    Expr d = simplify(Sub::make(full, k->expansion));
                    if (!is_const(d)) continue;
                    Expr v = Variable::make(full.type(), k->name);
                    value = is_const_zero(d) ? v : Add::make(v, d);
                    break;
                }
            }
            known.push_back({op->name, full});
        }
        Stmt body = mutate(op->body);
        if (keep) known.pop_back();
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return LetStmt::make(op->name, value, body);
    }

    /// The lets in scope of each Func, outermost first.
    std::map<std::string, std::vector<Known>> groups;
};

} // namespace

Stmt alias_bound_lets(const Stmt &s) { return AliasBoundLets().mutate(s); }

} // namespace internal
} // namespace loom
