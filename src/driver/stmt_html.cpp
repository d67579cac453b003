#include "driver/stmt_html.h"

#include "ir/ir.h"
#include "ir/ir_printer.h"
#include "lower/loop_names.h"
#include "support/util.h"

#include <cctype>
#include <set>
#include <sstream>

namespace loom {
namespace internal {

namespace {

std::string escape(const std::string &s) {
    std::string r;
    for (char c : s) {
        switch (c) {
        case '<':
            r += "&lt;";
            break;
        case '>':
            r += "&gt;";
            break;
        case '&':
            r += "&amp;";
            break;
        case '"':
            r += "&quot;";
            break;
        default:
            r += c;
        }
    }
    return r;
}

bool is_keyword(const std::string &w) {
    static const std::set<std::string> k = {
        "for",     "parallel",  "vectorized", "unrolled", "serial",   "produce",
        "consume", "let",       "allocate",   "free",     "if",       "else",
        "realize", "assert",    "atomic",     "in",       "select",   "likely",
        "extern",  "gpu_block", "gpu_thread", "gpu_lane", "prefetch", "return_second"};
    return k.count(w) > 0;
}

bool is_type_name(const std::string &w) {
    for (const char *p : {"int", "uint", "float", "bfloat", "bool", "handle"}) {
        size_t n = std::string(p).size();
        if (w.compare(0, n, p) == 0 && (w.size() == n || std::isdigit((unsigned char)w[n]))) {
            return true;
        }
    }
    return false;
}

/// One line of statement text, escaped, with keywords, types, numbers and strings in spans.
std::string highlight(const std::string &text) {
    std::string out;
    size_t i = 0;
    while (i < text.size()) {
        char c = text[i];
        if (c == '"') {
            size_t j = i + 1;
            while (j < text.size() && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
            j = std::min(j + 1, text.size());
            out += "<span class=\"str\">" + escape(text.substr(i, j - i)) + "</span>";
            i = j;
        } else if (std::isdigit((unsigned char)c)) {
            size_t j = i;
            while (j < text.size() && (std::isalnum((unsigned char)text[j]) || text[j] == '.')) {
                j++;
            }
            out += "<span class=\"num\">" + escape(text.substr(i, j - i)) + "</span>";
            i = j;
        } else if (std::isalpha((unsigned char)c) || c == '_') {
            size_t j = i;
            while (j < text.size() && (std::isalnum((unsigned char)text[j]) || text[j] == '_' ||
                                       text[j] == '.' || text[j] == '$')) {
                j++;
            }
            std::string w = text.substr(i, j - i);
            if (is_keyword(w)) {
                out += "<span class=\"kw\">" + w + "</span>";
            } else if (is_type_name(w)) {
                out += "<span class=\"ty\">" + w + "</span>";
            } else {
                out += "<span class=\"id\">" + escape(w) + "</span>";
            }
            i = j;
        } else {
            out += escape(std::string(1, c));
            i++;
        }
    }
    return out;
}

/// The printed text of s, without the trailing newline.
std::string print_stmt(const Stmt &s) {
    std::ostringstream os;
    IRPrinter(os, 0).print(s);
    std::string t = os.str();
    while (!t.empty() && t.back() == '\n') t.pop_back();
    return t;
}

/// The first line of the printed s (its header, for a block statement), without " {".
std::string header_of(const Stmt &s) {
    std::string t = print_stmt(s);
    t = t.substr(0, t.find('\n'));
    if (t.size() >= 2 && t.compare(t.size() - 2, 2, " {") == 0) t.resize(t.size() - 2);
    return t;
}

std::string expr_text(const Expr &e) {
    std::ostringstream os;
    IRPrinter(os, 0).print(e);
    return os.str();
}

/// The loop kind shown in annotations: ir_printer's name, "serial" for a plain loop.
std::string for_kind_word(ForType t) { return t == ForType::Serial ? "serial" : for_type_name(t); }

/// The short (user) name of a loop variable "x.xi" -> "xi".
std::string short_name(const std::string &v) { return v.substr(v.rfind('.') + 1); }

class HtmlWriter {
public:
    HtmlWriter(const std::map<std::string, Function> &env, const LoweredFunc &f) : env(env) {
        for (const LoweredFunc &g : f.functions) tasks[g.name] = &g;
    }
    std::ostringstream out;

    void emit(const Stmt &s) {
        if (!s.defined()) return;
        if (const Block *b = s.as<Block>()) {
            emit(b->first);
            emit(b->rest);
        } else if (const For *op = s.as<For>()) {
            Stmt h = op->with_body(Evaluate::make(0));
            open_block("loop " + for_kind_word(op->for_type), header_of(h),
                       loop_annotation(op->name, op->for_type, env));
            emit(op->body);
            close_block();
        } else if (const ProducerConsumer *op = s.as<ProducerConsumer>()) {
            open_block(
                op->is_producer ? "produce" : "consume",
                header_of(ProducerConsumer::make(op->name, op->is_producer, Evaluate::make(0))),
                "");
            emit(op->body);
            close_block();
        } else if (const Realize *op = s.as<Realize>()) {
            open_block("realize",
                       header_of(Realize::make(op->name, op->types, op->memory_type, op->bounds,
                                               op->condition, Evaluate::make(0))),
                       "");
            emit(op->body);
            close_block();
        } else if (const Allocate *op = s.as<Allocate>()) {
            std::string h =
                header_of(Allocate::make(op->name, op->type, op->memory_type, op->extents,
                                         op->condition, Evaluate::make(0)));
            open_block("allocate", h, "");
            emit(op->body);
            close_block();
        } else if (const IfThenElse *op = s.as<IfThenElse>()) {
            open_block("if", "if (" + expr_text(op->condition) + ")", "");
            emit(op->then_case);
            close_block();
            if (op->else_case.defined()) {
                open_block("if", "else", "");
                emit(op->else_case);
                close_block();
            }
        } else if (const LetStmt *op = s.as<LetStmt>()) {
            if (emit_task_launch(op)) return;
            line("let " + op->name + " = " + expr_text(op->value));
            emit(op->body);
        } else if (const Atomic *op = s.as<Atomic>()) {
            open_block("atomic", "atomic", "");
            emit(op->body);
            close_block();
        } else {
            std::string t = print_stmt(s);
            size_t pos = 0;
            while (pos <= t.size()) {
                size_t nl = t.find('\n', pos);
                if (nl == std::string::npos) nl = t.size();
                line(t.substr(pos, nl - pos));
                pos = nl + 1;
            }
        }
    }

private:
    const std::map<std::string, Function> &env;
    std::map<std::string, const LoweredFunc *> tasks;

    /// A parallel loop's launch (lower_parallel_tasks) shows as the loop it was, with its task's
    /// body inside (without the closure's unpacking): the view reads as the schedule does.
    bool emit_task_launch(const LetStmt *op) {
        const Call *c = op->value.as<Call>();
        if (!c || c->name != "halide_do_par_for" || c->args.size() != 5) return false;
        const Variable *fn = c->args[1].as<Variable>();
        auto it = fn ? tasks.find(fn->name) : tasks.end();
        if (it == tasks.end()) return false;
        const LoweredFunc &task = *it->second;
        const std::string &loop = task.args[1].name;
        Stmt header = For::make(loop, c->args[2], c->args[3], ForType::Parallel, DeviceAPI::None,
                                Evaluate::make(0));
        open_block("loop parallel", header_of(header),
                   loop_annotation(loop, ForType::Parallel, env));
        Stmt body = task.body;
        while (const LetStmt *l = body.as<LetStmt>()) {
            const Call *m = l->value.as<Call>();
            if (!m || !m->is_intrinsic(Call::load_struct_member)) break;
            body = l->body;
        }
        emit(body);
        close_block();
        // What follows the launch is the check of its result.
        if (!op->body.as<AssertStmt>()) emit(op->body);
        return true;
    }

    void line(const std::string &text) {
        out << "<div class=\"line\">" << highlight(text) << "</div>\n";
    }
    void open_block(const std::string &cls, const std::string &header, const std::string &note) {
        out << "<details open class=\"" << cls << "\"><summary>" << highlight(header) << " {";
        if (!note.empty()) out << " <span class=\"ann\">// " << escape(note) << "</span>";
        out << "</summary>\n<div class=\"body\">\n";
    }
    void close_block() { out << "</div><div class=\"line\">}</div></details>\n"; }
};

const char *page_style = R"(body { background: #fdfdfd; color: #222; margin: 1em; }
.code { font-family: monospace; font-size: 13px; white-space: pre; }
details > summary { cursor: pointer; list-style: none; }
details > summary::-webkit-details-marker { display: none; }
details > summary::before { content: "\25BE  "; color: #888; }
details:not([open]) > summary::before { content: "\25B8  "; }
details:not([open]) > summary::after { content: " ... }"; color: #888; }
.body { margin-left: 2ch; border-left: 1px dotted #ccc; padding-left: 1ch; }
.kw { color: #7a1fa2; font-weight: bold; }
.ty { color: #0b6e4f; }
.num { color: #1c5fb8; }
.str { color: #a3501a; }
.ann { color: #888; font-style: italic; }
.loop.parallel > summary .kw:first-child { color: #c62828; }
.loop.vectorized > summary .kw:first-child { color: #2e7d32; }
.loop.unrolled > summary .kw:first-child { color: #ef6c00; }
.toolbar { margin-bottom: 1em; font-family: sans-serif; }
)";

const char *page_script = R"(function setAll(open) {
  document.querySelectorAll('details').forEach(function (d) { d.open = open; });
}
)";

} // namespace

std::string loop_annotation(const std::string &loop_name, ForType for_type,
                            const std::map<std::string, Function> &env) {
    std::string note = for_kind_word(for_type);
    LoopName l = parse_loop_name(loop_name);
    auto it = env.find(l.func);
    if (!l.valid() || it == env.end() || l.stage > (int)it->second.updates().size()) return note;
    const std::string &var = l.var;
    for (const Split &s : stage_definition(it->second, l.stage).schedule.splits) {
        std::ostringstream d;
        if (s.kind == Split::SplitVar && (s.outer == var || s.inner == var)) {
            d << var << " from split(" << s.old_var << ", " << short_name(s.outer) << ", "
              << short_name(s.inner) << ", " << expr_text(s.factor) << ")";
        } else if (s.kind == Split::FuseVars && s.old_var == var) {
            d << var << " from fuse(" << short_name(s.inner) << ", " << short_name(s.outer) << ", "
              << short_name(s.old_var) << ")";
        } else if (s.kind == Split::RenameVar && s.outer == var) {
            d << var << " from rename(" << s.old_var << ", " << short_name(s.outer) << ")";
        }
        if (!d.str().empty()) note += ", " + d.str();
    }
    return note;
}

std::string stmt_html(const LoweredFunc &f, const std::map<std::string, Function> &env) {
    HtmlWriter w(env, f);
    w.emit(f.body);
    std::ostringstream page;
    std::string args;
    for (size_t i = 0; i < f.args.size(); i++) args += (i ? ", " : "") + f.args[i].name;
    page << "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>" << escape(f.name)
         << "</title>\n<style>\n"
         << page_style << "</style>\n<script>\n"
         << page_script << "</script>\n</head>\n<body>\n"
         << "<div class=\"toolbar\"><button onclick=\"setAll(true)\">Unfold all</button> "
         << "<button onclick=\"setAll(false)\">Fold all</button></div>\n"
         << "<div class=\"code\">\n<div class=\"line\"><span class=\"ann\">// " << escape(f.name)
         << "(" << escape(args) << ")</span></div>\n"
         << w.out.str() << "</div>\n</body>\n</html>\n";
    return page.str();
}

} // namespace internal
} // namespace loom
