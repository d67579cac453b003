// Simplification of Call and Load: intrinsics with constant arguments are folded; bit
// operations with constants become arithmetic where that is exact (x & 7 -> x % 8,
// x >> 2 -> x / 4), which the other families understand; abs of a non-negative value is a
// cast. Facts about intrinsic results (abs >= 0, x & 7 in [0, 7]) feed the callers.

#include "simplify/const_fold.h"
#include "simplify/simplifier.h"

#include "ir/ir_utils.h"

namespace loom {
namespace internal {

namespace {

bool is_call(const Call *op, const char *name) { return op->is_intrinsic(name); }

} // namespace

Expr Simplify::visit(const Call *op, ExprInfo *info) {
    Type t = op->type;
    std::vector<Expr> args(op->args.size());
    std::vector<ExprInfo> infos(op->args.size());
    bool changed = false;

    if (is_call(op, Call::if_then_else) && !op->args.empty()) {
        // Lazily evaluated: only the selected branch runs, so each branch may assume the
        // condition's value.
        Expr c = mutate(op->args[0], &infos[0]);
        ConstVal cv;
        if (as_const_val(c, &cv) && (cv.u || op->args.size() > 2)) {
            return mutate(cv.u ? op->args[1] : op->args[2], info);
        }
        args[0] = c;
        for (size_t i = 1; i < op->args.size(); i++) {
            FactScope facts(this);
            if (i == 1)
                facts.learn_true(c);
            else
                facts.learn_false(c);
            args[i] = mutate(op->args[i], &infos[i]);
        }
    } else {
        for (size_t i = 0; i < op->args.size(); i++) args[i] = mutate(op->args[i], &infos[i]);
    }
    for (size_t i = 0; i < args.size(); i++) changed = changed || !args[i].same_as(op->args[i]);
    auto rebuild = [&]() -> Expr {
        if (!changed) return op;
        return Call::make(t, op->name, args, op->call_type, op->func, op->value_index, op->param);
    };
    if (op->call_type != Call::Intrinsic && op->call_type != Call::PureIntrinsic) {
        return rebuild();
    }

    if (Expr f = fold_intrinsic(op, args); f.defined()) {
        *info = const_info(f);
        return f;
    }

    bool ints = t.is_int_or_uint() && !t.is_bool();
    int64_t c;
    if (is_call(op, Call::likely) || is_call(op, Call::likely_if_innermost) ||
        is_call(op, Call::strict_float)) {
        if (!args.empty()) *info = infos[0];
        // likely(constant) carries no information.
        if (args.size() == 1 && is_numeric_const(args[0])) return args[0];
        return rebuild();
    }
    if ((is_call(op, Call::promise_clamped) || is_call(op, Call::unsafe_promise_clamped)) &&
        args.size() == 3) {
        ConstantInterval range = ConstantInterval::make_union(infos[1].bounds, infos[2].bounds);
        ConstantInterval r = ConstantInterval::make_intersection(infos[0].bounds, range);
        info->bounds = r.is_empty() ? infos[0].bounds : r;
        info->alignment = infos[0].alignment;
        return rebuild();
    }
    if (ints &&
        (is_call(op, Call::bitwise_and) || is_call(op, Call::bitwise_or) ||
         is_call(op, Call::bitwise_xor)) &&
        args.size() == 2 && args[0].type() == t && args[1].type() == t) {
        // Constants on the right.
        if (is_numeric_const(args[0]) && !is_numeric_const(args[1])) {
            std::swap(args[0], args[1]);
            std::swap(infos[0], infos[1]);
            changed = true;
        }
        ConstVal cv;
        if (as_const_val(args[1], &cv)) {
            uint64_t bits = t.is_int() ? (uint64_t)cv.i : cv.u;
            uint64_t all = t.bits() >= 64 ? ~uint64_t(0) : ((uint64_t(1) << t.bits()) - 1);
            bits &= all;
            if (bits == 0) {
                if (is_call(op, Call::bitwise_and)) return make_zero(t);
                return args[0];
            }
            if (bits == all) {
                if (is_call(op, Call::bitwise_and)) return args[0];
                if (is_call(op, Call::bitwise_or)) return args[1];
            }
            // x & (2^k - 1) == x % 2^k (Euclidean, so also for negative x).
            int max_k = t.is_int() ? t.bits() - 1 : t.bits();
            if (is_call(op, Call::bitwise_and) && ((bits + 1) & bits) == 0) {
                int k = 0;
                while (k < 64 && (bits >> k)) k++;
                if (k < max_k) {
                    return mutate(Mod::make(args[0], make_const(t, uint64_t(1) << k)), info);
                }
            }
        }
        if (is_call(op, Call::bitwise_and)) {
            const ConstantInterval &a = infos[0].bounds, &b = infos[1].bounds;
            bool a_pos = a.min_defined && a.min >= 0, b_pos = b.min_defined && b.min >= 0;
            if (a_pos && b_pos && a.max_defined && b.max_defined) {
                info->bounds = ConstantInterval::bounded(0, std::min(a.max, b.max));
            } else if (a_pos && a.max_defined) {
                info->bounds = ConstantInterval::bounded(0, a.max);
            } else if (b_pos && b.max_defined) {
                info->bounds = ConstantInterval::bounded(0, b.max);
            }
        }
        return rebuild();
    }
    if (ints && (is_call(op, Call::shift_left) || is_call(op, Call::shift_right)) &&
        args.size() == 2 && args[0].type() == t && const_int_value(args[1], &c)) {
        bool left = is_call(op, Call::shift_left);
        if (c == 0) {
            *info = infos[0];
            return args[0];
        }
        if (c > 0) {
            // x >> k == x / 2^k (floor division, as the shift is arithmetic for signed x).
            int max_k = t.is_int() ? t.bits() - 1 : t.bits();
            if (!left && c < max_k) {
                return mutate(Div::make(args[0], make_const(t, uint64_t(1) << c)), info);
            }
            // x << k == x * 2^k modulo 2^bits; not for Int(32), whose multiplication the
            // simplifier assumes never overflows while the shift may.
            if (left && c < t.bits() && !no_overflow(t.element_of())) {
                return mutate(Mul::make(args[0], make_const(t, uint64_t(1) << c)), info);
            }
        }
        return rebuild();
    }
    if (is_call(op, Call::abs) && args.size() == 1) {
        Type at = args[0].type();
        if (at.is_int_or_uint() && !at.is_bool()) {
            const ConstantInterval &a = infos[0].bounds;
            if (at.is_uint() || (a.min_defined && a.min >= 0)) {
                return mutate(Cast::make(t, args[0]), info);
            }
            info->bounds = abs(a).cast_to(t);
        }
        return rebuild();
    }
    if (is_call(op, Call::absd) && args.size() == 2 && args[0].type().is_int_or_uint()) {
        info->bounds = abs(infos[0].bounds - infos[1].bounds).cast_to(t);
        return rebuild();
    }
    if ((is_call(op, Call::count_leading_zeros) || is_call(op, Call::count_trailing_zeros) ||
         is_call(op, Call::popcount)) &&
        ints && args.size() == 1) {
        info->bounds = ConstantInterval::bounded(0, args[0].type().bits());
        return rebuild();
    }
    return rebuild();
}

Expr Simplify::visit(const Load *op, ExprInfo *info) {
    ExprInfo ii;
    Expr index = mutate(op->index, &ii);
    Expr pred = mutate(op->predicate);
    *info = type_info(op->type);
    // Record what is known of the (first lane's) index alignment for the code generator.
    ModulusRemainder align = op->alignment;
    const Ramp *r = index.as<Ramp>();
    ModulusRemainder known = r ? alignment_of(r->base) : ii.alignment;
    // (Only a real modulus: a constant index's exact fact, modulus 0, is not recorded.)
    if (known.modulus > align.modulus) align = known;
    if (index.same_as(op->index) && pred.same_as(op->predicate) &&
        align.modulus == op->alignment.modulus && align.remainder == op->alignment.remainder) {
        return op;
    }
    return Load::make(op->type, op->name, index, pred, op->param, align);
}

} // namespace internal
} // namespace loom
