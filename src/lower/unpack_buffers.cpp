#include "lower/unpack_buffers.h"

#include "lower/lower_utils.h"

#include "ir/ir_utils.h"

#include <set>
#include <utility>

namespace loom {
namespace internal {

Stmt unpack_buffers(const Stmt &s, const std::vector<LoweredArgument> &args) {
    const std::set<std::string> used = names_referenced(s);

    std::vector<std::pair<std::string, Expr>> lets;
    for (const LoweredArgument &a : args) {
        if (!a.is_buffer()) continue;
        Expr buf = buffer_handle(a.name);
        if (used.count(a.name)) {
            lets.emplace_back(
                a.name, Call::make(Handle(), Call::buffer_get_host, {buf}, Call::PureIntrinsic));
        }
        for (int d = 0; d < a.dimensions; d++) {
            std::string ds = std::to_string(d);
            const std::pair<const char *, const char *> fields[] = {
                {"min", Call::buffer_get_min},
                {"extent", Call::buffer_get_extent},
                {"stride", Call::buffer_get_stride}};
            for (const auto &field : fields) {
                std::string n = a.name + "." + field.first + "." + ds;
                if (used.count(n)) {
                    lets.emplace_back(
                        n, Call::make(Int(32), field.second, {buf, Expr(d)}, Call::PureIntrinsic));
                }
            }
        }
    }
    std::set<std::string> let_names;
    for (const auto &l : lets) let_names.insert(l.first);

    // Keep leading assertions on the raw handles before the lets.
    std::vector<Stmt> stmts = flatten_blocks(s);
    size_t first_rest = 0;
    while (first_rest < stmts.size()) {
        const AssertStmt *a = stmts[first_rest].as<AssertStmt>();
        if (!a || expr_uses_vars(a->condition, let_names) ||
            expr_uses_vars(a->message, let_names)) {
            break;
        }
        first_rest++;
    }
    std::vector<Stmt> front(stmts.begin(), stmts.begin() + first_rest);
    Stmt rest = Block::make(std::vector<Stmt>(stmts.begin() + first_rest, stmts.end()));
    if (!rest.defined()) rest = Evaluate::make(0);
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
        rest = LetStmt::make(it->first, it->second, rest);
    }
    front.push_back(rest);
    return Block::make(front);
}

} // namespace internal
} // namespace loom
