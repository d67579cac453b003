#include "analysis/interval.h"

#include "ir/ir.h"
#include "ir/ir_equality.h"
#include "simplify/simplify.h"

#include <ostream>

namespace loom {
namespace internal {

namespace {

const Expr &pos_inf_marker() {
    static const Expr e = Variable::make(Int(32), "pos_inf");
    return e;
}
const Expr &neg_inf_marker() {
    static const Expr e = Variable::make(Int(32), "neg_inf");
    return e;
}

bool is_marker(const Expr &e, const Expr &marker, const char *name) {
    if (e.same_as(marker)) return true;
    // A mutator may have rebuilt the marker; its name still identifies it.
    const Variable *v = e.as<Variable>();
    return v && v->name == name;
}

/// Brings two interval ends to one type so they can be compared. Ends of one interval always
/// share a type; this only matters when a caller mixes intervals of different types (e.g. an
/// Int(64) index with Int(32) loop bounds), where the wider type holds both.
void match_end_types(Expr &a, Expr &b) {
    Type ta = a.type(), tb = b.type();
    if (ta == tb) return;
    if (ta.bits() >= tb.bits() && (ta.is_float() || !tb.is_float())) {
        b = Cast::make(ta, b);
    } else {
        a = Cast::make(tb, a);
    }
}

} // namespace

Interval::Interval() : min(pos_inf_marker()), max(neg_inf_marker()) {}
Interval::Interval(const Expr &mn, const Expr &mx) : min(mn), max(mx) {}

Interval Interval::everything() { return Interval(neg_inf_marker(), pos_inf_marker()); }
Interval Interval::nothing() { return Interval(pos_inf_marker(), neg_inf_marker()); }
Interval Interval::single_point(const Expr &e) { return Interval(e, e); }

Expr Interval::pos_inf() { return pos_inf_marker(); }
Expr Interval::neg_inf() { return neg_inf_marker(); }
bool Interval::is_pos_inf(const Expr &e) { return is_marker(e, pos_inf_marker(), "pos_inf"); }
bool Interval::is_neg_inf(const Expr &e) { return is_marker(e, neg_inf_marker(), "neg_inf"); }

bool Interval::is_everything() const { return is_neg_inf(min) && is_pos_inf(max); }
bool Interval::is_empty() const { return is_pos_inf(min) || is_neg_inf(max); }
bool Interval::has_lower_bound() const { return !is_neg_inf(min) && !is_pos_inf(min); }
bool Interval::has_upper_bound() const { return !is_pos_inf(max) && !is_neg_inf(max); }
bool Interval::is_bounded() const { return has_lower_bound() && has_upper_bound(); }

bool Interval::is_single_point() const {
    if (!is_bounded()) return false;
    return min.same_as(max) || equal(min, max);
}

bool Interval::is_single_point(const Expr &e) const {
    return is_single_point() && (min.same_as(e) || equal(min, e));
}

Expr Interval::make_min(const Expr &a, const Expr &b) {
    if (is_neg_inf(a) || is_neg_inf(b)) return neg_inf_marker();
    if (is_pos_inf(a)) return b;
    if (is_pos_inf(b)) return a;
    if (a.same_as(b) || equal(a, b)) return a;
    Expr x = a, y = b;
    match_end_types(x, y);
    return simplify(Min::make(x, y));
}

Expr Interval::make_max(const Expr &a, const Expr &b) {
    if (is_pos_inf(a) || is_pos_inf(b)) return pos_inf_marker();
    if (is_neg_inf(a)) return b;
    if (is_neg_inf(b)) return a;
    if (a.same_as(b) || equal(a, b)) return a;
    Expr x = a, y = b;
    match_end_types(x, y);
    return simplify(Max::make(x, y));
}

void Interval::include(const Interval &o) {
    if (o.is_empty()) return;
    if (is_empty()) {
        *this = o;
        return;
    }
    min = make_min(min, o.min);
    max = make_max(max, o.max);
}

void Interval::include(const Expr &e) { include(single_point(e)); }

void Interval::intersect(const Interval &o) {
    if (is_empty()) return;
    if (o.is_empty()) {
        *this = o;
        return;
    }
    min = make_max(min, o.min);
    max = make_min(max, o.max);
}

Interval Interval::make_union(const Interval &a, const Interval &b) {
    Interval r = a;
    r.include(b);
    return r;
}

Interval Interval::make_intersection(const Interval &a, const Interval &b) {
    Interval r = a;
    r.intersect(b);
    return r;
}

std::ostream &operator<<(std::ostream &os, const Interval &i) {
    os << "[";
    if (Interval::is_neg_inf(i.min))
        os << "-inf";
    else if (Interval::is_pos_inf(i.min))
        os << "+inf";
    else
        os << i.min;
    os << ", ";
    if (Interval::is_pos_inf(i.max))
        os << "+inf";
    else if (Interval::is_neg_inf(i.max))
        os << "-inf";
    else
        os << i.max;
    return os << "]";
}

} // namespace internal
} // namespace loom
