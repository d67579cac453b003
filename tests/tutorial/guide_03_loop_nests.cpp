// User guide, tutorial 3 (docs/tutorial/03-inspecting.md): seeing what the compiler makes of a
// pipeline: the loop nest, the lowered statement (text and HTML) and the inferred arguments.
// Prints what the page shows.
#include <loom/loom.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

using namespace loom;

int main() {
    // Unbuffered, so what the program prints and what Loom prints (loop nests go to stderr,
    // print() and traces to stdout) stay in order.
    setvbuf(stdout, nullptr, _IONBF, 0);
    ImageParam input(Float(32), 2, "input");
    Param<float> gain("gain");
    Func scaled("scaled"), smoothed("smoothed");
    Var x("x"), y("y");
    scaled(x, y) = input(x, y) * gain;
    smoothed(x, y) = (scaled(x - 1, y) + scaled(x, y) + scaled(x + 1, y)) / 3;

    // The default schedule: scaled is inlined into smoothed, which runs serially over y then x.
    printf("Default schedule:\n");
    smoothed.print_loop_nest();

    scaled.compute_root();
    smoothed.vectorize(x, 8).parallel(y);
    printf("\nscaled.compute_root(); smoothed.vectorize(x, 8).parallel(y):\n");
    smoothed.print_loop_nest();

    // The arguments the compiled function will take, in Halide's order.
    printf("\nArguments:");
    for (const Argument &a : smoothed.infer_arguments()) printf(" %s", a.name.c_str());
    printf("\n");

    // The whole lowered statement, as text and as an HTML page to browse.
    Target t("x86-64-linux-avx2");
    smoothed.compile_to_lowered_stmt("smoothed.stmt", {input, gain}, Text, t);
    smoothed.compile_to_lowered_stmt("smoothed.html", {input, gain}, HTML, t);
    std::ifstream text("smoothed.stmt");
    std::stringstream contents;
    contents << text.rdbuf();
    std::string s = contents.str();
    bool ok = s.find("produce scaled") != std::string::npos &&
              s.find("halide_do_par_for") != std::string::npos &&
              std::ifstream("smoothed.html").good();
    printf("\nsmoothed.stmt: %s, %s; smoothed.html %s\n",
           s.find("produce scaled") != std::string::npos ? "produces scaled" : "no producer",
           s.find("halide_do_par_for") != std::string::npos ? "runs rows through halide_do_par_for"
                                                            : "no parallel loop",
           std::ifstream("smoothed.html").good() ? "written" : "missing");
    printf(ok ? "Success!\n" : "FAILED\n");
    return ok ? 0 : 1;
}
