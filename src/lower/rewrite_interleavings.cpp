#include "lower/rewrite_interleavings.h"

#include "arith/modulus_remainder.h"
#include "ir/ir_equality.h"
#include "ir/ir_mutator.h"
#include "ir/ir_utils.h"
#include "ir/ir_visitor.h"
#include "ir/substitute.h"
#include "simplify/simplify.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace loom {
namespace internal {

namespace {

const int max_store_stride = 8;
const int max_load_stride = 4;

/// A store that may take part in an interleaving: unpredicated, of a vector, at a ramp with a
/// constant stride in 2..max_store_stride and a scalar base. Sets the stride.
bool strided_store(const Stmt &s, const Store **store, int64_t *stride) {
    const Store *st = s.as<Store>();
    if (!st || st->value.type().is_scalar() || !is_const_one(st->predicate)) return false;
    const Ramp *r = st->index.as<Ramp>();
    if (!r || !r->base.type().is_scalar()) return false;
    const int64_t *k = as_const_int(r->stride);
    if (!k || *k < 2 || *k > max_store_stride) return false;
    *store = st;
    *stride = *k;
    return true;
}

/// Whether e loads from buffer `name`.
bool loads_from(const Expr &e, const std::string &name) {
    bool found = false;
    visit_exprs(e, [&](const Expr &x) {
        if (const Load *l = x.as<Load>()) found = found || l->name == name;
        return !found;
    });
    return found;
}

/// A load that may take part in a deinterleaving: unpredicated, of a vector, at a ramp (its
/// index, or `index` when given: the index seen through the enclosing lets) with a constant
/// stride in 2..max_load_stride and a scalar base.
const Ramp *strided_load(const Load *l, const Expr &index = Expr()) {
    if (!is_const_one(l->predicate)) return nullptr;
    const Ramp *r = (index.defined() ? index : l->index).as<Ramp>();
    if (!r || !r->base.type().is_scalar()) return nullptr;
    const int64_t *k = as_const_int(r->stride);
    return k && *k >= 2 && *k <= max_load_stride ? r : nullptr;
}

/// The strided loads of an expression, each with its index seen through the Lets of the
/// expression that enclose it (their values substituted in): a boundary condition's
/// coordinates are such lets (let y' = clamp(y) in input[... y' ...]), a different one around
/// each tap, and the taps' bases are a constant apart only once they are substituted. Sets
/// `conditional` when a load may not run whenever the others do (under an if_then_else or a
/// require).
class CollectStridedLoads : public IRVisitor {
public:
    struct Found {
        const Load *load;
        Expr index;
    };
    std::vector<Found> found;
    bool conditional = false;
    /// The names the expression's Lets bind.
    std::set<std::string> let_names;

private:
    using IRVisitor::visit;
    std::map<std::string, Expr> lets_;

    void visit(const Let *op) override {
        let_names.insert(op->name);
        dispatch(op->value);
        Expr value = lets_.empty() ? op->value : substitute(lets_, op->value);
        auto old = lets_.find(op->name);
        Expr shadowed = old == lets_.end() ? Expr() : old->second;
        lets_[op->name] = value;
        dispatch(op->body);
        if (shadowed.defined()) {
            lets_[op->name] = shadowed;
        } else {
            lets_.erase(op->name);
        }
    }

    void visit(const Load *op) override {
        IRVisitor::visit(op);
        // Only a strided ramp, or a variable a let binds, can be a strided ramp once the lets
        // are substituted: the others are not worth the substitution.
        const Variable *var = op->index.as<Variable>();
        if (!strided_load(op) && !(var && lets_.count(var->name))) return;
        Expr index = lets_.empty() ? op->index : substitute(lets_, op->index);
        if (strided_load(op, index)) found.push_back({op, index});
    }

    void visit(const Call *op) override {
        conditional =
            conditional || op->is_intrinsic(Call::if_then_else) || op->is_intrinsic(Call::require);
        IRVisitor::visit(op);
    }
};

/// Replaces, in one expression, each complete group of strided loads (offsets 0..s-1 from one
/// base) by slices of the group's dense load.
class DeinterleaveLoads : public IRMutator {
    using IRMutator::visit;

    /// The loads in the expression that may be grouped, in visiting order, and their indices
    /// seen through the expression's lets (strided ramps).
    std::vector<const Load *> candidates_;
    std::vector<Expr> indices_;
    /// For each load in a complete group: the dense load and its lane offset.
    std::map<const Load *, std::pair<Expr, int>> replacement_;

    const Ramp *ramp_of(size_t i) const { return indices_[i].as<Ramp>(); }

    Expr visit(const Load *op) override {
        auto it = replacement_.find(op);
        if (it == replacement_.end()) return IRMutator::visit(op);
        // The dense load covers stride * lanes elements (the load's own index may be a variable
        // bound to its ramp).
        int stride = it->second.first.type().lanes() / op->type.lanes();
        return Shuffle::make_slice(it->second.first, it->second.second, stride, op->type.lanes());
    }

    /// A strided load left out of the complete groups reads lanes * stride - stride + 1
    /// elements; the dense load of lanes * stride elements from its base reads stride - 1 more
    /// at the end, and the one ending at its last element reads stride - 1 more at the start.
    /// Either is safe when another load of the expression (which runs whenever this one does)
    /// of the same buffer reads at least that far (a stencil's taps: max(f(x - 2), f(x),
    /// f(x + 2)) of a stride-2 input). The dense load then replaces a strided one that would
    /// read an odd number of elements: Halide's staging of strided loads.
    void cover_with_neighbours(std::vector<bool> &used) {
        for (size_t i = 0; i < candidates_.size(); i++) {
            if (used[i]) continue;
            const Load *l0 = candidates_[i];
            const Ramp *r0 = ramp_of(i);
            const int64_t stride = *as_const_int(r0->stride);
            const int64_t lanes = l0->type.lanes();
            // The furthest another load reads past l0's last element, and before its first
            // (in elements), among loads a constant offset within lanes * stride away.
            int64_t after = 0, before = 0;
            for (size_t j = 0; j < candidates_.size(); j++) {
                const Load *l = candidates_[j];
                const Ramp *r = ramp_of(j);
                if (j == i || l->name != l0->name ||
                    l->type.element_of() != l0->type.element_of()) {
                    continue;
                }
                const int64_t s = *as_const_int(r->stride);
                Expr d = simplify(Sub::make(r->base, r0->base));
                const int64_t *off = as_const_int(d);
                if (!off || *off <= -lanes * stride || *off >= lanes * stride) continue;
                const int64_t first = *off, last = *off + (l->type.lanes() - 1) * s;
                after = std::max(after, last - (lanes - 1) * stride);
                before = std::max(before, -first);
            }
            int64_t start;
            if (after >= stride - 1) {
                start = 0;
            } else if (before >= stride - 1) {
                start = 1 - stride;
            } else {
                continue;
            }
            Expr base = simplify(Add::make(r0->base, make_const(r0->base.type(), start)));
            const int dense_lanes = (int)(lanes * stride);
            Expr dense = Load::make(l0->type.with_lanes(dense_lanes), l0->name,
                                    Ramp::make(base, make_one(base.type()), dense_lanes),
                                    const_true(dense_lanes), l0->param);
            replacement_[l0] = {dense, (int)-start};
            used[i] = true;
        }
    }

public:
    Expr run(const Expr &e) {
        // A load under a lazily evaluated condition may not run; a dense load in its partner's
        // place would read its elements anyway. Such expressions are left alone.
        CollectStridedLoads collect;
        collect.dispatch(e);
        if (collect.conditional) return e;
        // A dense load stands where each load of its group stood, under that load's lets: its
        // index must not use a name any Let of the expression binds (a Let that rebinds a
        // variable of the index, let b = b + 7 in in[ramp(b + 1, 2, n)], would change it
        // there). A load node met twice (a shared subexpression) under lets that give its
        // index two meanings cannot be replaced by one dense load either: both are left out.
        std::map<const Load *, Expr> seen;
        std::set<const Load *> ambiguous;
        for (const auto &f : collect.found) {
            auto it = seen.emplace(f.load, f.index).first;
            if (!equal(it->second, f.index) || expr_uses_vars(f.index, collect.let_names)) {
                ambiguous.insert(f.load);
            }
        }
        std::set<const Load *> added;
        for (const auto &f : collect.found) {
            if (ambiguous.count(f.load) || !added.insert(f.load).second) continue;
            candidates_.push_back(f.load);
            indices_.push_back(f.index);
        }
        if (candidates_.size() < 2) return e;
        std::vector<bool> used(candidates_.size(), false);
        for (size_t i = 0; i < candidates_.size(); i++) {
            if (used[i]) continue;
            const Load *l0 = candidates_[i];
            const Ramp *r0 = ramp_of(i);
            int stride = (int)*as_const_int(r0->stride);
            // The members of l0's group: same buffer, type and stride, bases a constant apart.
            std::vector<std::pair<int64_t, size_t>> members;
            for (size_t j = i; j < candidates_.size(); j++) {
                const Load *l = candidates_[j];
                const Ramp *r = ramp_of(j);
                if (used[j] || l->name != l0->name || l->type != l0->type ||
                    !is_const(r->stride, stride)) {
                    continue;
                }
                Expr d = simplify(Sub::make(r->base, r0->base));
                const int64_t *off = as_const_int(d);
                if (off && *off > -stride && *off < stride) members.emplace_back(*off, j);
            }
            // A complete group: offsets m..m+stride-1 (duplicates are the same load).
            for (int64_t m = 1 - stride; m <= 0; m++) {
                std::vector<bool> have(stride, false);
                for (const auto &mem : members) {
                    if (mem.first >= m && mem.first < m + stride) have[mem.first - m] = true;
                }
                if (std::find(have.begin(), have.end(), false) != have.end()) continue;
                Expr base = simplify(Add::make(r0->base, make_const(Int(32), m)));
                int lanes = stride * l0->type.lanes();
                Expr dense = Load::make(l0->type.with_lanes(lanes), l0->name,
                                        Ramp::make(base, make_one(base.type()), lanes),
                                        const_true(lanes), l0->param);
                for (const auto &mem : members) {
                    if (mem.first >= m && mem.first < m + stride) {
                        replacement_[candidates_[mem.second]] = {dense, (int)(mem.first - m)};
                        used[mem.second] = true;
                    }
                }
                break;
            }
        }
        cover_with_neighbours(used);
        return replacement_.empty() ? e : mutate(e);
    }
};

Expr deinterleave_loads(const Expr &e) { return DeinterleaveLoads().run(e); }

/// The lanes start, start + stride, ... (`out` of them) of a vector expression, pushed down to
/// its leaves: ramps and broadcasts narrow, loads load only those lanes, elementwise operations
/// apply to the narrowed operands; anything else (a vector defined outside the expression, a
/// shuffle's operands, a reduction) is sliced.
class ExtractLanes : public IRMutator {
    using IRMutator::visit;

    int start_, stride_, out_;
    /// The vector Lets of the expression: their narrowed value when it is substituted, else
    /// undefined (the Let is kept, narrowed and renamed).
    std::map<std::string, Expr> narrowed_;

    Expr slice(const Expr &e) const { return Shuffle::make_slice(e, start_, stride_, out_); }
    /// A kept Let's name in this phase (each phase's copy is distinct).
    std::string renamed(const std::string &name) const {
        return name + ".lanes" + std::to_string(start_);
    }

    Expr visit(const Variable *op) override {
        auto it = narrowed_.find(op->name);
        if (it == narrowed_.end()) return slice(op);
        return it->second.defined() ? it->second
                                    : Variable::make(op->type.with_lanes(out_), renamed(op->name));
    }
    Expr visit(const Ramp *op) override {
        Expr base =
            Add::make(op->base, Mul::make(op->stride, make_const(op->stride.type(), start_)));
        Expr stride = Mul::make(op->stride, make_const(op->stride.type(), stride_));
        return Ramp::make(base, stride, out_);
    }
    Expr visit(const Broadcast *op) override { return Broadcast::make(op->value, out_); }
    Expr visit(const Cast *op) override {
        return Cast::make(op->type.with_lanes(out_), mutate(op->value));
    }
    Expr visit(const Reinterpret *op) override {
        if (op->value.type().lanes() != op->type.lanes()) return slice(op);
        return Reinterpret::make(op->type.with_lanes(out_), mutate(op->value));
    }
    Expr visit(const Load *op) override {
        return Load::make(op->type.with_lanes(out_), op->name, mutate(op->index),
                          mutate(op->predicate), op->param);
    }
    Expr visit(const Let *op) override {
        if (op->value.type().is_scalar()) return IRMutator::visit(op);
        // A narrowed ramp or broadcast (an inlined Func's x / 2, widened by vectorization) is
        // substituted, so the loads it indexes are seen as dense; anything else stays a Let.
        Expr value = simplify(mutate(op->value));
        bool substitute = value.as<Ramp>() || value.as<Broadcast>();
        auto old = narrowed_.find(op->name);
        bool had = old != narrowed_.end();
        Expr saved = had ? old->second : Expr();
        narrowed_[op->name] = substitute ? value : Expr();
        Expr body = mutate(op->body);
        if (had) {
            narrowed_[op->name] = saved;
        } else {
            narrowed_.erase(op->name);
        }
        return substitute ? body : Let::make(renamed(op->name), value, body);
    }
    Expr visit(const Call *op) override {
        // Elementwise calls narrow their vector arguments; an if_then_else is lazy, so it is
        // sliced whole rather than evaluated in parts.
        static const char *const elementwise[] = {Call::bitwise_and,
                                                  Call::bitwise_or,
                                                  Call::bitwise_xor,
                                                  Call::bitwise_not,
                                                  Call::shift_left,
                                                  Call::shift_right,
                                                  Call::abs,
                                                  Call::absd,
                                                  Call::count_leading_zeros,
                                                  Call::count_trailing_zeros,
                                                  Call::popcount,
                                                  Call::lerp,
                                                  Call::likely,
                                                  Call::likely_if_innermost,
                                                  Call::promise_clamped,
                                                  Call::unsafe_promise_clamped,
                                                  Call::strict_float,
                                                  Call::div_round_to_zero,
                                                  Call::mod_round_to_zero,
                                                  Call::mul_shift_right,
                                                  Call::saturating_add,
                                                  Call::saturating_sub,
                                                  Call::saturating_cast,
                                                  Call::widening_add,
                                                  Call::widening_mul,
                                                  Call::rounding_halving_add,
                                                  Call::halving_add,
                                                  "rounding_mul_shift_right"};
        bool ok = op->call_type == Call::PureExtern;
        if (op->call_type == Call::PureIntrinsic) {
            for (const char *name : elementwise) ok = ok || op->name == name;
        }
        for (const Expr &a : op->args) {
            ok = ok && (a.type().is_scalar() || a.type().lanes() == op->type.lanes());
        }
        if (!ok) return slice(op);
        std::vector<Expr> args;
        for (const Expr &a : op->args) args.push_back(mutate(a));
        return Call::make(op->type.with_lanes(out_), op->name, args, op->call_type, op->func,
                          op->value_index, op->param);
    }
    Expr visit(const Shuffle *op) override {
        std::vector<int> idx;
        for (int i = 0; i < out_; i++) idx.push_back(op->indices[start_ + i * stride_]);
        return Shuffle::make(op->vectors, idx);
    }
    Expr visit(const VectorReduce *op) override { return slice(op); }

public:
    ExtractLanes(int start, int stride, int out) : start_(start), stride_(stride), out_(out) {}

    Expr mutate(const Expr &e) override { return e.type().is_scalar() ? e : IRMutator::mutate(e); }
    using IRMutator::mutate;
};

/// The divisors k in 2..4 of the vector divisions and remainders ramp(b, s, n) / k and
/// ramp(b, s, n) % k in e with s not a multiple of k: those lanes follow a pattern of period k
/// (x / 2 and x % 2 of a vectorized x).
std::set<int> lane_periods(const Expr &e) {
    std::set<int> periods;
    auto check = [&](const Expr &a, const Expr &b) {
        const Ramp *r = a.as<Ramp>();
        const Broadcast *bk = b.as<Broadcast>();
        if (!r || !bk || !r->base.type().is_int()) return;
        const int64_t *k = as_const_int(bk->value);
        const int64_t *s = as_const_int(r->stride);
        if (k && s && *k >= 2 && *k <= 4 && *s % *k != 0) periods.insert((int)*k);
    };
    visit_exprs(e, [&](const Expr &x) {
        if (const Div *d = x.as<Div>()) check(d->a, d->b);
        if (const Mod *m = x.as<Mod>()) check(m->a, m->b);
        return true;
    });
    return periods;
}

/// Halide's deinterleaving of a vector whose lanes depend on x / k or x % k (a Bayer mosaic
/// put back together, select(x % 2 == 0, a(x / 2), b(x / 2))): as lanes, value is a gather and
/// a per-lane select; split into its k phases (lanes i, i + k, ...), each phase's x / k is a
/// dense ramp and its x % k one value, which the simplifier folds (using the alignment of the
/// enclosing lets), and the result is the interleave of the phases. Kept only when no phase is
/// left with such a division.
Expr deinterleave_phases(const Expr &value, const std::map<std::string, ModulusRemainder> &align) {
    int lanes = value.type().lanes();
    if (lanes < 4) return value;
    std::set<int> periods = lane_periods(value);
    if (periods.empty()) return value;
    // One period for all: 4 covers 2 and 4; a 3 with a 2 or 4 is left alone.
    int k = *periods.rbegin();
    for (int p : periods) {
        if (k % p != 0) return value;
    }
    if (lanes % k != 0 || lanes / k < 2) return value;
    std::vector<Expr> phases;
    for (int i = 0; i < k; i++) {
        Expr p = simplify(ExtractLanes(i, k, lanes / k).mutate(value), {}, align);
        if (!lane_periods(p).empty()) return value;
        phases.push_back(p);
    }
    return Shuffle::make_interleave(phases);
}

/// With `phases`, only deinterleave_phases (before loop partitioning: the phases' clamps are
/// clamps of dense ramps, which mark_clamped_ramps tags); otherwise only the load and store
/// grouping (after it: the steady state's strided loads have no clamps left).
class RewriteInterleavings : public IRMutator {
public:
    explicit RewriteInterleavings(bool phases) : phases_(phases) {}

private:
    using IRMutator::visit;
    const bool phases_;

    Expr rewrite_value(const Expr &e) {
        return phases_ ? deinterleave_phases(e, align_) : deinterleave_loads(e);
    }

    /// The statements of a tree of Blocks, in order.
    static void flatten(const Stmt &s, std::vector<Stmt> *out) {
        if (const Block *b = s.as<Block>()) {
            flatten(b->first, out);
            flatten(b->rest, out);
        } else {
            out->push_back(s);
        }
    }

    /// If stmts[i..i+s) are the s strided stores of one dense range, the merged store.
    Stmt merge_group(const std::vector<Stmt> &stmts, size_t i) {
        const Store *first;
        int64_t stride;
        if (!strided_store(stmts[i], &first, &stride) || i + stride > stmts.size()) return Stmt();
        int lanes = first->value.type().lanes();
        Expr base0 = first->index.as<Ramp>()->base;
        std::vector<int64_t> offsets;
        std::vector<const Store *> group;
        for (int64_t k = 0; k < stride; k++) {
            const Store *st;
            int64_t s;
            if (!strided_store(stmts[i + k], &st, &s) || s != stride || st->name != first->name ||
                st->value.type() != first->value.type() || !st->param.same_as(first->param)) {
                return Stmt();
            }
            Expr d = simplify(Sub::make(st->index.as<Ramp>()->base, base0));
            const int64_t *off = as_const_int(d);
            if (!off) return Stmt();
            offsets.push_back(*off);
            group.push_back(st);
        }
        // The offsets must be m, m+1, ..., m+stride-1 in some order: together the lanes cover
        // [base0 + m, base0 + m + stride * lanes) exactly once.
        int64_t m = *std::min_element(offsets.begin(), offsets.end());
        std::vector<const Store *> by_offset(stride, nullptr);
        for (int64_t k = 0; k < stride; k++) {
            int64_t j = offsets[k] - m;
            if (j >= stride || by_offset[j]) return Stmt();
            by_offset[j] = group[k];
        }
        // Writing all lanes at the end must not change what any of the stores reads.
        for (const Store *st : group) {
            if (loads_from(st->value, st->name) || loads_from(st->index, st->name)) return Stmt();
        }
        std::vector<Expr> values;
        for (const Store *st : by_offset) values.push_back(st->value);
        Expr base = by_offset[0]->index.as<Ramp>()->base;
        int total = (int)stride * lanes;
        return Store::make(first->name, Shuffle::make_interleave(values),
                           Ramp::make(base, make_one(base.type()), total), first->param,
                           const_true(total));
    }

    /// The alignment of the enclosing scalar lets (loop bases), for deinterleave_phases.
    std::map<std::string, ModulusRemainder> align_;

    // Loads are grouped within the expressions of one statement (the value and index of a
    // store, a let's value), which is where a stencil's taps meet.
    Stmt visit(const Store *op) override {
        Expr value = rewrite_value(mutate(op->value));
        Expr index = phases_ ? mutate(op->index) : deinterleave_loads(mutate(op->index));
        if (value.same_as(op->value) && index.same_as(op->index)) return op;
        return Store::make(op->name, value, index, op->param, op->predicate, op->alignment);
    }

    Stmt visit(const LetStmt *op) override {
        Expr value = rewrite_value(mutate(op->value));
        bool known = op->value.type() == Int(32);
        auto old = align_.find(op->name);
        bool had = old != align_.end();
        ModulusRemainder saved = had ? old->second : ModulusRemainder();
        if (known) align_[op->name] = modulus_remainder(op->value, align_);
        Stmt body = mutate(op->body);
        if (had) {
            align_[op->name] = saved;
        } else {
            align_.erase(op->name);
        }
        if (value.same_as(op->value) && body.same_as(op->body)) return op;
        return LetStmt::make(op->name, value, body);
    }

    Stmt visit(const Block *op) override {
        std::vector<Stmt> stmts;
        flatten(op, &stmts);
        bool changed = false;
        for (Stmt &st : stmts) {
            Stmt m = mutate(st);
            changed = changed || !m.same_as(st);
            st = m;
        }
        std::vector<Stmt> out;
        for (size_t i = 0; i < stmts.size();) {
            Stmt merged = phases_ ? Stmt() : merge_group(stmts, i);
            if (merged.defined()) {
                changed = true;
                out.push_back(merged);
                i += merged.as<Store>()->value.type().lanes() /
                     stmts[i].as<Store>()->value.type().lanes();
            } else {
                out.push_back(stmts[i]);
                i++;
            }
        }
        return changed ? Block::make(out) : Stmt(op);
    }
};

} // namespace

Stmt deinterleave_vector_phases(const Stmt &s) { return RewriteInterleavings(true).mutate(s); }

Stmt rewrite_interleavings(const Stmt &s) { return RewriteInterleavings(false).mutate(s); }

} // namespace internal
} // namespace loom
