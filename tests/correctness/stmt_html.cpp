// compile_to_lowered_stmt(..., StmtOutputFormat::HTML): a well-formed, self-contained page
// holding every loop of the lowered statement with the directive that made it.
#include <loom/loom.h>

#include "driver/stmt_html.h"
#include "ir/ir_visitor.h"
#include "lower/lower.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace loom;
using namespace loom::internal;

namespace {

std::string read_file(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// Checks that every element is closed in order (void elements excepted, the contents of
/// <style> and <script> taken as text). Returns "" or what is wrong.
std::string check_balanced(const std::string &html) {
    std::vector<std::string> stack;
    size_t i = 0;
    while ((i = html.find('<', i)) != std::string::npos) {
        size_t j = html.find('>', i);
        if (j == std::string::npos) return "unterminated tag at " + std::to_string(i);
        std::string tag = html.substr(i + 1, j - i - 1);
        i = j + 1;
        if (tag.empty()) return "empty tag";
        if (tag[0] == '!') continue; // <!DOCTYPE html>
        bool closing = tag[0] == '/';
        std::string name = tag.substr(closing ? 1 : 0);
        name = name.substr(0, name.find_first_of(" \t\n/"));
        for (char &c : name) c = (char)tolower(c);
        if (name == "meta" || name == "br" || name == "link" || name == "img" || name == "input") {
            continue;
        }
        if (closing) {
            if (stack.empty() || stack.back() != name) {
                return "</" + name + "> closes " + (stack.empty() ? "nothing" : stack.back());
            }
            stack.pop_back();
        } else {
            stack.push_back(name);
            if (name == "style" || name == "script") {
                // Raw text up to the end tag.
                size_t end = html.find("</" + name + ">", i);
                if (end == std::string::npos) return "unclosed <" + name + ">";
                i = end;
            }
        }
    }
    if (!stack.empty()) return "unclosed <" + stack.back() + ">";
    return "";
}

std::vector<const For *> loops_of(const Stmt &s) {
    class Collect : public IRVisitor {
    public:
        std::vector<const For *> loops;

    protected:
        using IRVisitor::visit;
        void visit(const For *op) override {
            loops.push_back(op);
            IRVisitor::visit(op);
        }
    } c;
    c.dispatch(s);
    return c.loops;
}

std::string escape(const std::string &s) {
    std::string r;
    for (char c : s)
        r += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
    return r;
}

TEST(StmtHtml, WellFormedWithEveryLoopAndItsDirective) {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func g("g"), f("f");
    g(x, y) = x * 2 + y;
    f(x, y) = g(x, y) + g(x + 1, y) * 3 - select(x < y, 1, 0);
    f.tile(x, y, xo, yo, xi, yi, 4, 4).parallel(yo);
    g.compute_at(f, xo);

    std::string path = ::testing::TempDir() + "loom_stmt_html_test.html";
    f.compile_to_lowered_stmt(path, {}, StmtOutputFormat::HTML);
    std::string html = read_file(path);
    std::remove(path.c_str());
    ASSERT_FALSE(html.empty());

    EXPECT_EQ(check_balanced(html), "");
    EXPECT_EQ(html.compare(0, 15, "<!DOCTYPE html>"), 0);
    // Self-contained: nothing fetched from elsewhere.
    for (const char *bad : {"http:", "https:", "src=", "href=", "url(", "<link", "@import"}) {
        EXPECT_EQ(html.find(bad), std::string::npos) << bad;
    }
    // Foldable blocks and highlighting.
    EXPECT_NE(html.find("<details open class=\"loop parallel\">"), std::string::npos);
    EXPECT_NE(html.find("<span class=\"kw\">produce</span>"), std::string::npos);
    EXPECT_NE(html.find("<span class=\"num\">"), std::string::npos);

    // Every loop of the lowered statement, with its annotation.
    std::map<std::string, Function> env = find_transitive_calls({f.function()});
    LoweredFunc lf = lower({f.function()}, "loom_f", get_host_target());
    // (The parallel loop's body is its task's: lower_parallel_tasks.)
    std::vector<const For *> loops = loops_of(lf.body);
    for (const LoweredFunc &task : lf.functions) {
        for (const For *l : loops_of(task.body)) loops.push_back(l);
    }
    ASSERT_GE(loops.size(), 3u);
    for (const For *l : loops) {
        EXPECT_NE(html.find(escape(l->name)), std::string::npos) << l->name;
        std::string note = loop_annotation(l->name, l->for_type, env);
        EXPECT_NE(html.find("// " + escape(note)), std::string::npos) << note;
    }
    EXPECT_NE(html.find("// parallel, y.yo from split(y, yo, yi, 4)"), std::string::npos);
    EXPECT_NE(html.find("// serial, x.xi from split(x, xo, xi, 4)"), std::string::npos);
    EXPECT_NE(html.find("// serial, x.xo from split(x, xo, xi, 4)"), std::string::npos);
}

TEST(StmtHtml, AnnotationsOfFuseAndRename) {
    Var x("x"), y("y"), xy("xy"), z("z");
    Func f("f");
    f(x, y) = x + y;
    f.fuse(x, y, xy);
    std::map<std::string, Function> env = find_transitive_calls({f.function()});
    // Loop names start with the Func's own name ("f$1" where an earlier test made an f).
    EXPECT_EQ(loop_annotation(f.name() + ".s0.x.xy", ForType::Serial, env),
              "serial, x.xy from fuse(x, y, xy)");
    Func g("g");
    g(x) = x;
    g.rename(x, z).parallel(z);
    env = find_transitive_calls({g.function()});
    EXPECT_EQ(loop_annotation(g.name() + ".s0.z", ForType::Parallel, env),
              "parallel, z from rename(x, z)");
    // A loop no directive made: its kind only.
    EXPECT_EQ(loop_annotation(g.name() + ".s0.__outermost", ForType::Serial, env), "serial");
}

TEST(StmtHtml, TextFormatUnchanged) {
    Var x("x");
    Func f("f");
    f(x) = x * 2;
    std::string path = ::testing::TempDir() + "loom_stmt_text_test.stmt";
    f.compile_to_lowered_stmt(path, {}, StmtOutputFormat::Text);
    std::string text = read_file(path);
    std::remove(path.c_str());
    EXPECT_EQ(text.find("<html"), std::string::npos);
    EXPECT_NE(text.find("produce f"), std::string::npos);
}

} // namespace
