#include <loom/var.h>

#include "ir/ir.h"
#include "support/util.h"

#include <cctype>

namespace loom {

Var::Var() : e(internal::Variable::make(Int(32), internal::unique_name('v'))) {}

Var::Var(const std::string &name) : e(internal::Variable::make(Int(32), name)) {}

const std::string &Var::name() const { return e.as<internal::Variable>()->name; }

Var Var::implicit(int n) { return Var("_" + std::to_string(n)); }

int Var::implicit_index(const std::string &name) {
    if (name.size() < 2 || name[0] != '_') return -1;
    int n = 0;
    for (size_t i = 1; i < name.size(); i++) {
        if (!std::isdigit((unsigned char)name[i])) return -1;
        n = n * 10 + (name[i] - '0');
    }
    return n;
}

bool Var::is_implicit(const std::string &name) { return implicit_index(name) >= 0; }

Var Var::outermost() { return Var("__outermost"); }

const Var _("_");
const Var _0("_0"), _1("_1"), _2("_2"), _3("_3"), _4("_4"), _5("_5"), _6("_6"), _7("_7"), _8("_8"),
    _9("_9");

} // namespace loom
