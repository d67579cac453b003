// Randomized check of the simplifier: random expressions of every type (8-64 bit ints and
// uints, float32/64, bool, vectors of 2 and 4 lanes) with variables, edge-value constants, all
// arithmetic, comparison and logical operators, selects, casts, lets (some shadowing), vector
// nodes and bit intrinsics. simplify(e) must evaluate to the same value as e on random inputs,
// bit for bit, under the reference evaluator (tests/common/expr_eval.h).
//
// Int(32) overflow is assumed impossible (DESIGN.md §4): an input on which e overflows Int(32)
// is skipped. Rules may reassociate Int(32) arithmetic, so simplify(e) can overflow on an input
// where e did not (only on extreme inputs); such samples are counted and must stay rare, but
// are not compared. Inputs where e has undefined behaviour (float->int out of range, shifts
// by the width) are skipped too. (The evaluator evaluates both arms of a select, like the
// generated code; an arm simplified under the select's condition may then compute an undefined
// value on an input where it is not selected, which is harmless.)

#include "common/expr_eval.h"

#include "ir/ir_printer.h"
#include "ir/ir_visitor.h"
#include "simplify/simplify.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace loom;
using namespace loom::internal;
using loom::test::ExprEval;
using loom::test::Lane;
using loom::test::Value;

namespace {

const std::vector<Type> &scalar_types() {
    static const std::vector<Type> ts = {Int(8),    Int(16),   Int(32),  Int(64),
                                         UInt(8),   UInt(16),  UInt(32), UInt(64),
                                         Float(32), Float(64), Bool()};
    return ts;
}

std::string var_name(Type t, int i) {
    std::ostringstream os;
    os << type_to_string(t) << "_" << i;
    return os.str();
}

class Generator {
public:
    explicit Generator(uint32_t seed) : rng(seed) {}

    int rand_int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
    bool coin(int percent) { return rand_int(0, 99) < percent; }

    /// A constant of scalar type t, often an edge value.
    Expr constant(Type t) {
        Type s = t.element_of();
        Expr c;
        if (s.is_bool()) {
            c = make_bool(coin(50));
        } else if (s.is_float()) {
            static const double specials[] = {0.0,   -0.0, 1.0,   -1.0, 0.5,      2.0,       3.0,
                                              -7.25, 1e10, -1e-3, 1e30, INFINITY, -INFINITY, NAN};
            int k = rand_int(0, 99);
            double v;
            if (k < 60)
                v = rand_int(-16, 16);
            else if (k < 95)
                v = specials[rand_int(0, 10)];
            else
                v = specials[rand_int(11, 13)];
            c = make_const(s, v);
        } else {
            int k = rand_int(0, 99);
            if (k < 70) {
                c = make_const(s, (int64_t)rand_int(s.is_int() ? -10 : 0, 16));
            } else if (k < 80) {
                static const int64_t small[] = {2, 4, 8, 16, 3, 5, 7, 256};
                c = make_const(s, small[rand_int(0, 7)] * (s.is_int() && coin(30) ? -1 : 1));
            } else {
                // Edge values: min, max and their neighbours.
                Expr lo = s.min(), hi = s.max();
                int e = rand_int(0, 3);
                c = e == 0   ? lo
                    : e == 1 ? hi
                    : e == 2 ? simplify(Add::make(lo, make_one(s)))
                             : simplify(Sub::make(hi, make_one(s)));
            }
        }
        return t.is_vector() ? Broadcast::make(c, t.lanes()) : c;
    }

    Expr variable(Type t) {
        // Let-bound variables in scope of this type are preferred sometimes.
        std::vector<std::string> candidates;
        for (const auto &b : lets) {
            if (b.second == t) candidates.push_back(b.first);
        }
        if (!candidates.empty() && coin(50)) {
            return Variable::make(t, candidates[rand_int(0, (int)candidates.size() - 1)]);
        }
        return Variable::make(t, var_name(t, rand_int(0, 1)));
    }

    Type other_numeric(int lanes) {
        Type s;
        do {
            s = scalar_types()[rand_int(0, (int)scalar_types().size() - 1)];
        } while (s.is_bool());
        return s.with_lanes(lanes);
    }

    Expr gen(Type t, int depth) {
        if (depth <= 0 || coin(15)) return coin(55) ? variable(t) : constant(t);
        Type s = t.element_of();
        int lanes = t.lanes();
        int d = depth - 1;
        if (s.is_bool()) {
            switch (rand_int(0, 11)) {
            case 0:
            case 1:
            case 2: {
                Type o = other_numeric(lanes);
                Expr a = gen(o, d), b = gen(o, d);
                switch (rand_int(0, 5)) {
                case 0:
                    return LT::make(a, b);
                case 1:
                    return LE::make(a, b);
                case 2:
                    return GT::make(a, b);
                case 3:
                    return GE::make(a, b);
                case 4:
                    return EQ::make(a, b);
                default:
                    return NE::make(a, b);
                }
            }
            case 3:
            case 4:
                return And::make(gen(t, d), gen(t, d));
            case 5:
            case 6:
                return Or::make(gen(t, d), gen(t, d));
            case 7:
                return Not::make(gen(t, d));
            case 8:
                return select(t, d);
            case 9:
                return let(t, d);
            case 10:
                return Cast::make(t, gen(other_numeric(lanes), d));
            default:
                return vector_node(t, d);
            }
        }
        int k = rand_int(0, 21);
        if (s.is_float() && k >= 14 && k <= 17) k = rand_int(0, 6);
        switch (k) {
        case 0:
        case 1:
            return Add::make(gen(t, d), gen(t, d));
        case 2:
        case 3:
            return Sub::make(gen(t, d), gen(t, d));
        case 4:
            return Mul::make(gen(t, d), coin(60) ? constant(t) : gen(t, d));
        case 5:
            return Div::make(gen(t, d), coin(70) ? constant(t) : gen(t, d));
        case 6:
            return Mod::make(gen(t, d), coin(70) ? constant(t) : gen(t, d));
        case 7:
            return Min::make(gen(t, d), gen(t, d));
        case 8:
            return Max::make(gen(t, d), gen(t, d));
        case 9:
        case 10:
            return select(t, d);
        case 11:
            return let(t, d);
        case 12:
            return Cast::make(t, gen(other_numeric(lanes), d));
        case 13:
            return vector_node(t, d);
        case 14: {
            const char *ops[] = {Call::bitwise_and, Call::bitwise_or, Call::bitwise_xor};
            Expr b = coin(60) ? constant(t) : gen(t, d);
            return Call::make(t, ops[rand_int(0, 2)], {gen(t, d), b}, Call::PureIntrinsic);
        }
        case 15: {
            // Shift amounts within the width (others are undefined behaviour).
            const char *op = coin(50) ? Call::shift_left : Call::shift_right;
            Expr amount = make_const(t, (int64_t)rand_int(0, s.bits() - 1));
            return Call::make(t, op, {gen(t, d), amount}, Call::PureIntrinsic);
        }
        case 16: {
            if (s.is_uint()) {
                Type it = Int(s.bits(), lanes);
                if (coin(50)) return Call::make(t, Call::abs, {gen(it, d)}, Call::PureIntrinsic);
                return Call::make(t, Call::absd, {gen(it, d), gen(it, d)}, Call::PureIntrinsic);
            }
            return Call::make(t, Call::bitwise_not, {gen(t, d)}, Call::PureIntrinsic);
        }
        case 17: {
            // Index-like expressions: x * c + c, / c, % c.
            Expr e = Add::make(Mul::make(gen(t, d), constant(t)), constant(t));
            if (coin(50))
                e = Div::make(e, constant(t));
            else if (coin(50))
                e = Mod::make(e, constant(t));
            return e;
        }
        default:
            return coin(50) ? Add::make(gen(t, d), constant(t)) : Sub::make(gen(t, d), constant(t));
        }
    }

    Expr select(Type t, int d) {
        Type ct = (t.is_vector() && coin(50)) ? Bool(t.lanes()) : Bool();
        return Select::make(gen(ct, d), gen(t, d), gen(t, d));
    }

    Expr let(Type t, int d) {
        Type vt = coin(60) ? t : other_numeric(t.lanes());
        Expr value = gen(vt, d);
        std::string name;
        // Sometimes shadow an outer variable of the same type.
        if (coin(20))
            name = var_name(vt, rand_int(0, 1));
        else
            name = "t" + std::to_string(let_counter++);
        lets.push_back({name, vt});
        Expr body = gen(t, d);
        lets.pop_back();
        return Let::make(name, value, body);
    }

    Expr vector_node(Type t, int d) {
        Type s = t.element_of();
        int lanes = t.lanes();
        if (lanes == 1) {
            // Reduce or extract from a vector.
            if (!s.is_bool() && !s.is_float() && coin(50)) {
                VectorReduce::Operator ops[] = {VectorReduce::Add, VectorReduce::Min,
                                                VectorReduce::Max};
                return VectorReduce::make(ops[rand_int(0, 2)], gen(t.with_lanes(4), d), 1);
            }
            return Shuffle::make_extract_element(gen(t.with_lanes(4), d), rand_int(0, 3));
        }
        switch (rand_int(0, 3)) {
        case 0:
            if (!s.is_bool()) return Ramp::make(gen(s, d), gen(s, d), lanes);
            return Broadcast::make(gen(s, d), lanes);
        case 1:
            return Broadcast::make(gen(s, d), lanes);
        case 2: {
            // A slice of a wider vector.
            Expr wide = gen(t.with_lanes(lanes * 2), d);
            int start = rand_int(0, 1), stride = start == 0 && coin(50) ? 2 : 1;
            if (stride == 2) return Shuffle::make_slice(wide, 0, 2, lanes);
            return Shuffle::make_slice(wide, start, 1, lanes);
        }
        default:
            return gen(t, d);
        }
    }

    Value random_value(Type t) {
        Value v{t, {}};
        Type s = t.element_of();
        for (int i = 0; i < t.lanes(); i++) {
            Lane l;
            int k = rand_int(0, 99);
            if (s.is_float()) {
                if (k < 60)
                    l.f = rand_int(-20, 20);
                else if (k < 80)
                    l.f = rand_int(-2000, 2000) / 8.0;
                else if (k < 95)
                    l.f = std::ldexp((double)rand_int(1, 1000), rand_int(-30, 30));
                else {
                    static const double sp[] = {0.0, -0.0, INFINITY, -INFINITY, NAN};
                    l.f = sp[rand_int(0, 4)];
                }
                if (s.bits() == 32) l.f = (double)(float)l.f;
            } else {
                int64_t x;
                if (s.is_bool()) {
                    x = rand_int(0, 1);
                } else if (k < 60) {
                    x = rand_int(-20, 20);
                } else if (k < 85) {
                    x = std::uniform_int_distribution<int64_t>(-100000, 100000)(rng);
                } else {
                    // Any bit pattern, including the extremes.
                    x = (int64_t)std::uniform_int_distribution<uint64_t>()(rng);
                    if (coin(30))
                        x = coin(50) ? std::numeric_limits<int64_t>::max()
                                     : std::numeric_limits<int64_t>::min();
                }
                Value one =
                    s.is_int() ? ExprEval::scalar_int(s, x) : ExprEval::scalar_uint(s, (uint64_t)x);
                l = one.lanes[0];
            }
            v.lanes.push_back(l);
        }
        return v;
    }

    std::mt19937 rng;
    std::vector<std::pair<std::string, Type>> lets;
    int let_counter = 0;
};

struct Stats {
    int exprs = 0, samples = 0, compared = 0, skipped_overflow = 0, introduced_overflow = 0,
        skipped_undefined = 0, failures = 0;
};

/// Simplify e and compare against it on `samples` random assignments of every variable.
void check(Generator &g, const Expr &e, int samples, Stats &st) {
    Expr s;
    try {
        s = simplify(e);
    } catch (const std::exception &ex) {
        st.failures++;
        ADD_FAILURE() << "simplify threw on " << e << ":\n" << ex.what();
        return;
    }
    st.exprs++;
    // The inputs: every variable named <type>_<k> (let-bound names have no underscore).
    std::map<std::string, Type> free;
    visit_exprs(e, [&](const Expr &x) {
        if (const Variable *v = x.as<Variable>()) {
            if (v->name.find('_') != std::string::npos) free.emplace(v->name, v->type);
        }
        return true;
    });
    for (int i = 0; i < samples && st.failures < 10; i++) {
        ExprEval ev;
        std::vector<std::pair<std::string, Value>> bound;
        for (const auto &v : free) {
            bound.emplace_back(v.first, g.random_value(v.second));
            ev.bind(v.first, bound.back().second);
        }
        st.samples++;
        Value a = ev.eval(e);
        if (ev.int32_overflow) {
            st.skipped_overflow++;
            continue;
        }
        if (ev.undefined) {
            st.skipped_undefined++;
            continue;
        }
        ev.clear_flags();
        Value b = ev.eval(s);
        if (ev.int32_overflow) {
            st.introduced_overflow++;
            // LOOM_SHOW_OVERFLOW=1 lists the samples whose value the overflow changed.
            if (getenv("LOOM_SHOW_OVERFLOW") && !a.identical(b)) {
                std::cout << "overflow after simplification: " << e << "\n  -> " << s << "\n";
            }
            continue;
        }
        st.compared++;
        // Undefined behaviour may appear in a select arm that is not taken (a branch simplified
        // under its condition); only a changed value is a failure.
        if (!a.identical(b)) {
            st.failures++;
            // Print only the variables that occur, to keep the message readable.
            std::ostringstream inputs;
            std::string text = (std::ostringstream() << e).str();
            for (const auto &b : bound) {
                if (text.find(b.first) != std::string::npos) {
                    inputs << "    " << b.first << " = " << b.second.to_string() << "\n";
                }
            }
            ADD_FAILURE() << "simplify changed the value\n  expr:       " << e
                          << "\n  simplified: " << s << "\n  expr value:       " << a.to_string()
                          << "\n  simplified value: " << b.to_string()
                          << (ev.undefined ? " (undefined behaviour)" : "") << "\n  inputs:\n"
                          << inputs.str();
            return;
        }
    }
}

void run(uint32_t seed, int count, int depth, bool vectors) {
    Generator g(seed);
    Stats st;
    for (int i = 0; i < count && st.failures < 10; i++) {
        Type s = scalar_types()[g.rand_int(0, (int)scalar_types().size() - 1)];
        int lanes = vectors ? (g.coin(50) ? 4 : 2) : 1;
        g.let_counter = 0;
        Expr e = g.gen(s.with_lanes(lanes), g.rand_int(1, depth));
        check(g, e, 12, st);
    }
    // Guard against a check that silently compares nothing.
    EXPECT_GT(st.compared, count * 4);
    EXPECT_LT(st.introduced_overflow, st.compared / 100 + 5)
        << "simplification introduces Int(32) overflow too often";
    std::cout << "seed " << seed << ": " << st.exprs << " exprs, " << st.compared
              << " compared samples, " << st.skipped_overflow << " skipped (int32 overflow), "
              << st.skipped_undefined << " skipped (undefined), " << st.introduced_overflow
              << " with overflow only after simplification\n";
}

TEST(SimplifyRandom, Scalars) {
    for (uint32_t seed : {1u, 2u, 3u}) run(seed, 3000, 5, false);
}

TEST(SimplifyRandom, Vectors) {
    for (uint32_t seed : {11u, 12u}) run(seed, 2000, 4, true);
}

void run_deep_int32(uint32_t seed, int count) {
    // Deeper integer index-like expressions exercise the INT32 rules.
    Generator g(seed);
    Stats st;
    for (int i = 0; i < count && st.failures < 10; i++) {
        g.let_counter = 0;
        Expr e = g.gen(Int(32), g.rand_int(3, 6));
        check(g, e, 12, st);
    }
    EXPECT_GT(st.compared, count * 4);
    EXPECT_LT(st.introduced_overflow, st.compared / 100 + 5);
    std::cout << "int32 seed " << seed << ": " << st.compared << " compared samples, "
              << st.skipped_overflow << " skipped (int32 overflow), " << st.introduced_overflow
              << " with overflow only after simplification\n";
}

TEST(SimplifyRandom, DeepInt32) {
    for (uint32_t seed : {77u, 78u}) run_deep_int32(seed, 2000);
}

} // namespace

namespace {
// Extra seeds for local soak runs: LOOM_SIMPLIFY_SOAK=<n> runs n more seeds of each kind, from
// seed LOOM_SIMPLIFY_SOAK_FROM (default 1000; a failure names its seed, and the deep Int(32)
// run of soak seed s is seed s + 90000).
TEST(SimplifyRandom, Soak) {
    const char *n = getenv("LOOM_SIMPLIFY_SOAK");
    if (!n) GTEST_SKIP() << "set LOOM_SIMPLIFY_SOAK=<seeds> to run";
    const char *from_env = getenv("LOOM_SIMPLIFY_SOAK_FROM");
    const uint32_t from = from_env ? (uint32_t)atoi(from_env) : 1000;
    for (uint32_t seed = from; seed < from + (uint32_t)atoi(n); seed++) {
        run(seed, 3000, 5, false);
        run(seed + 50000, 2000, 4, true);
        run_deep_int32(seed + 90000, 2000);
        if (::testing::Test::HasFailure()) break;
    }
}
} // namespace
