// PipelineGenerator's stage builders (included by fuzz_pipeline.h).
#ifndef LOOM_TESTS_FUZZ_FUZZ_PIPELINE_IMPL_H
#define LOOM_TESTS_FUZZ_FUZZ_PIPELINE_IMPL_H

namespace loom_fuzz {

inline GE PipelineGenerator::binop(const GE &a, const GE &b) {
    Type t = a.e.type();
    bool is_i32 = t == Int(32), is_f = t.is_float();
    GE g;
    int64_t mx = std::max(a.mag, b.mag);
    for (;;) {
        int op = rand_int(0, 12);
        if (op == 0) {
            g.e = a.e + b.e, g.s = "(" + a.s + " + " + b.s + ")", g.mag = a.mag + b.mag;
        } else if (op == 1) {
            g.e = a.e - b.e, g.s = "(" + a.s + " - " + b.s + ")", g.mag = a.mag + b.mag;
        } else if (op == 2) {
            // int32 and float products must stay far from overflow / inexactness.
            if ((is_i32 || is_f) && a.mag * b.mag > (int64_t(1) << 26)) continue;
            g.e = a.e * b.e, g.s = "(" + a.s + " * " + b.s + ")", g.mag = a.mag * b.mag;
        } else if (op == 3) {
            g.e = min(a.e, b.e), g.s = "min(" + a.s + ", " + b.s + ")", g.mag = mx;
        } else if (op == 4) {
            g.e = max(a.e, b.e), g.s = "max(" + a.s + ", " + b.s + ")", g.mag = mx;
        } else if (op == 5) {
            g.e = select(a.e < b.e, b.e - a.e, a.e);
            g.s = "select(" + a.s + " < " + b.s + ", " + b.s + " - " + a.s + ", " + a.s + ")";
            g.mag = a.mag + b.mag;
        } else if (op == 6) {
            int c = rand_int(2, 9);
            if (is_f) c = 1 << rand_int(1, 3); // exact in binary floating point
            g.e = a.e / cast(t, c);
            g.s = "(" + a.s + " / " + std::to_string(c) + (is_f ? ".f" : "") + ")";
            g.mag = a.mag;
        } else if (op == 7) {
            if (is_f) continue;
            int c = rand_int(2, 17);
            g.e = a.e % cast(t, c);
            g.s = "(" + a.s + " % " + std::to_string(c) + ")";
            g.mag = c;
        } else if (op == 8 || op == 9) {
            if (is_f) continue;
            const char *name = op == 8 ? " ^ " : " & ";
            g.e = op == 8 ? (a.e ^ b.e) : (a.e & b.e);
            g.s = "(" + a.s + name + b.s + ")";
            int64_t p2 = 1;
            while (p2 <= mx) p2 <<= 1;
            g.mag = p2 * 2;
        } else if (op == 10) {
            if (is_f) continue;
            int c = rand_int(1, 3);
            g.e = a.e >> cast(t, c);
            g.s = "(" + a.s + " >> " + std::to_string(c) + ")";
            g.mag = a.mag;
        } else if (op == 11) {
            if (is_f) continue;
            // Division by a data value: x / 0 is 0 in Loom, but keep the divisor odd anyway so
            // vector and scalar code paths both see ordinary divisions.
            g.e = a.e / (b.e | cast(t, 1));
            g.s = "(" + a.s + " / (" + b.s + " | 1))";
            g.mag = a.mag;
        } else {
            g.e = clamp(a.e, cast(t, -7), cast(t, 100));
            if (t.is_uint()) g.e = clamp(a.e, cast(t, 3), cast(t, 200));
            g.s = t.is_uint() ? "clamp(" + a.s + ", 3, 200)" : "clamp(" + a.s + ", -7, 100)";
            g.mag = std::max<int64_t>(200, 0);
        }
        break;
    }
    if (!is_i32 && !is_f) g.mag = type_mag(t);
    if (g.mag > (int64_t(1) << 24)) g = bound(g);
    return g;
}

inline GE PipelineGenerator::expr_tree(const std::vector<GE> &leaves, const Type &t, int depth) {
    if (depth == 0 || coin(0.3)) {
        if (coin(0.15)) return constant(t, rand_int(t.is_uint() ? 0 : -9, 40));
        return convert(pick(leaves), t);
    }
    return binop(expr_tree(leaves, t, depth - 1), expr_tree(leaves, t, depth - 1));
}

inline int PipelineGenerator::pick_producer() {
    std::vector<int> cands;
    for (int i = 0; i < (int)p.funcs.size(); i++) {
        if (p.funcs[i].dims == dims && i != forbid) cands.push_back(i);
    }
    if (coin(0.5)) return cands.back();
    return pick(cands);
}

inline GE PipelineGenerator::leaf_call(int fi, const std::vector<int> &offsets, int stage) {
    std::vector<Expr> args;
    std::vector<std::string> text;
    for (int d = 0; d < dims; d++) {
        int o = d < (int)offsets.size() ? offsets[d] : 0;
        args.push_back(vars[d] + o);
        text.push_back(vars[d].name() + (o > 0   ? " + " + std::to_string(o)
                                         : o < 0 ? " - " + std::to_string(-o)
                                                 : ""));
        if (o == 0) args.back() = vars[d];
    }
    return call(fi, args, text, stage);
}

inline void PipelineGenerator::define_input() {
    Type t = random_type();
    std::vector<int> sizes, mins;
    for (int d = 0; d < dims; d++) {
        sizes.push_back(d < 2 ? rand_int(5, 60) : rand_int(1, 4));
        mins.push_back(rand_int(-10, 10));
    }
    p.input = Buffer<void>(t, sizes, prefix + "input");
    p.input.set_min(mins);
    // Values small enough that int32 stages start far from overflow; floats are multiples of
    // 1/8 so sums stay exact.
    size_t n = p.input.number_of_elements();
    for (size_t i = 0; i < n; i++) {
        int v = rand_int(-1000, 1000);
        void *data = p.input.raw_buffer()->host;
        if (t.is_uint())
            ((uint8_t *)data)[i] = (uint8_t)v;
        else if (t.bits() == 16)
            ((int16_t *)data)[i] = (int16_t)v;
        else if (t.is_float())
            ((float *)data)[i] = v / 8.0f;
        else
            ((int32_t *)data)[i] = v;
    }
    const char *bcs[] = {"repeat_edge", "constant_exterior", "mirror_image", "mirror_interior",
                         "repeat_image"};
    int k = rand_int(0, 4);
    Func in;
    if (k == 0)
        in = BoundaryConditions::repeat_edge(p.input);
    else if (k == 1)
        in = BoundaryConditions::constant_exterior(p.input, cast(t, 7));
    else if (k == 2)
        in = BoundaryConditions::mirror_image(p.input);
    else if (k == 3)
        in = BoundaryConditions::mirror_interior(p.input);
    else
        in = BoundaryConditions::repeat_image(p.input);
    std::string name = in.name();
    out << "Buffer<" << type_name(t) << "> input(";
    for (int d = 0; d < dims; d++) out << (d ? ", " : "") << sizes[d];
    out << "); // random values in [-1000, 1000]" << (t.is_float() ? " / 8" : "") << ", min (";
    for (int d = 0; d < dims; d++) out << (d ? ", " : "") << mins[d];
    out << ")\nFunc " << name << " = BoundaryConditions::" << bcs[k] << "(input"
        << (k == 1 ? ", 7" : "") << ");\n";
    add_func(name, in, dims, {t}, t.is_uint() ? 255 : 1000);
}

inline void PipelineGenerator::stage_pointwise() {
    std::string name = new_name();
    Func f(name);
    Type t = random_type();
    std::vector<GE> leaves;
    int n = rand_int(1, 3);
    for (int i = 0; i < n; i++) {
        std::vector<int> off;
        for (int d = 0; d < dims; d++) off.push_back(coin(0.7) ? 0 : rand_int(-1, 1));
        leaves.push_back(leaf_call(pick_producer(), off, 0));
    }
    if (coin(0.3)) leaves.push_back({vars[0], vars[0].name(), 1000});
    GE v = bound(expr_tree(leaves, t, rand_int(1, 2)));
    f(vars) = v.e;
    out << "Func " << name << "(\"" << name << "\");\n"
        << name << "(" << var_list(var_names()) << ") = " << v.s << ";\n";
    add_func(name, f, dims, {t}, v.mag);
}

inline void PipelineGenerator::stage_stencil() {
    std::string name = new_name();
    Func f(name);
    Type t = random_type();
    int q = pick_producer();
    int taps = rand_int(2, 4);
    GE acc;
    for (int i = 0; i < taps; i++) {
        std::vector<int> off{rand_int(-2, 2), rand_int(-2, 2)};
        GE tap = convert(leaf_call(q, off, 0), t);
        int w = rand_int(1, 3);
        if (w > 1) {
            tap.e = tap.e * cast(t, w);
            tap.s = tap.s + " * " + std::to_string(w);
            tap.mag *= w;
        }
        if (i == 0) {
            acc = tap;
        } else {
            acc.e = acc.e + tap.e;
            acc.s = acc.s + " + " + tap.s;
            acc.mag += tap.mag;
        }
    }
    if (!(t == Int(32) || t.is_float())) acc.mag = type_mag(t);
    acc.s = "(" + acc.s + ")";
    GE v = bound(acc);
    f(vars) = v.e;
    out << "Func " << name << "(\"" << name << "\");\n"
        << name << "(" << var_list(var_names()) << ") = " << v.s << ";\n";
    add_func(name, f, dims, {t}, v.mag);
}

inline void PipelineGenerator::stage_resample() {
    std::string name = new_name();
    Func f(name);
    int q = pick_producer();
    // Both samples read the same element of a Tuple, so the sum keeps that element's type.
    int elem = p.funcs[q].types.size() > 1 ? rand_int(0, (int)p.funcs[q].types.size() - 1) : -1;
    Type t = p.funcs[q].types[std::max(elem, 0)];
    int d = rand_int(0, 1);
    std::vector<Expr> a = {vars.begin(), vars.end()}, b = a;
    std::vector<std::string> as = var_names(), bs = as;
    GE v;
    if (coin()) {
        // Downsample by 2 along d: the average of two neighbours.
        a[d] = vars[d] * 2;
        b[d] = vars[d] * 2 + 1;
        as[d] = vars[d].name() + " * 2";
        bs[d] = vars[d].name() + " * 2 + 1";
        GE x0 = call(q, a, as, 0, elem), x1 = call(q, b, bs, 0, elem);
        if (t.is_float()) {
            v.e = (x0.e + x1.e) * 0.5f;
            v.s = "(" + x0.s + " + " + x1.s + ") * 0.5f";
        } else {
            v.e = (x0.e + x1.e) / cast(t, 2);
            v.s = "(" + x0.s + " + " + x1.s + ") / 2";
        }
        v.mag = t.is_float() || t == Int(32) ? x0.mag : type_mag(t);
    } else {
        // Upsample by 2 along d: nearest and linear-ish mixes of x / 2 and (x + 1) / 2.
        a[d] = vars[d] / 2;
        b[d] = (vars[d] + 1) / 2;
        as[d] = vars[d].name() + " / 2";
        bs[d] = "(" + vars[d].name() + " + 1) / 2";
        GE x0 = call(q, a, as, 0, elem), x1 = call(q, b, bs, 0, elem);
        v.e = x0.e + x1.e;
        v.s = "(" + x0.s + " + " + x1.s + ")";
        v.mag = t.is_float() || t == Int(32) ? x0.mag * 2 : type_mag(t);
    }
    v = bound(v);
    f(vars) = v.e;
    out << "Func " << name << "(\"" << name << "\");\n"
        << name << "(" << var_list(var_names()) << ") = " << v.s << ";\n";
    add_func(name, f, dims, {t}, v.mag);
}

/// Index expression into a table of n entries from a data value (clamped, so any value works).
inline GE lookup_index(const GE &v, int n) {
    GE g;
    if (v.e.type().is_float()) {
        g.e = cast(Int(32), clamp(v.e, 0.f, (float)(n - 1)));
        g.s = "cast<int>(clamp(" + v.s + ", 0.f, " + std::to_string(n - 1) + ".f))";
    } else {
        g.e = clamp(cast(Int(32), v.e), 0, n - 1);
        g.s = "clamp(cast<int>(" + v.s + "), 0, " + std::to_string(n - 1) + ")";
    }
    g.mag = n;
    return g;
}

inline void PipelineGenerator::stage_lookup() {
    // The table: a 1-D Func of i.
    std::string lname = new_name();
    Func lut(lname);
    Var i("i");
    int n = rand_int(8, 256);
    Type lt = random_type();
    std::vector<GE> leaves{{i, "i", 256}, {i * i, "i * i", 65536}};
    GE lv = bound(expr_tree(leaves, lt, 2));
    lut(i) = lv.e;
    out << "Func " << lname << "(\"" << lname << "\");\n"
        << lname << "(i) = " << lv.s << "; // read at [0, " << n - 1 << "]\n";
    add_func(lname, lut, 1, {lt}, lv.mag);
    int li = (int)p.funcs.size() - 1;

    std::string name = new_name();
    Func f(name);
    int q = pick_producer();
    GE data = leaf_call(q, {}, 0);
    GE idx = lookup_index(data, n);
    GE looked = call(li, {idx.e}, {idx.s}, 0);
    Type t = random_type();
    GE v = bound(binop(convert(looked, t), convert(leaf_call(pick_producer(), {}, 0), t)));
    f(vars) = v.e;
    out << "Func " << name << "(\"" << name << "\");\n"
        << name << "(" << var_list(var_names()) << ") = " << v.s << ";\n";
    add_func(name, f, dims, {t}, v.mag);
}

inline void PipelineGenerator::stage_histogram() {
    std::string hname = new_name();
    Func h(hname);
    Var i("i");
    int n = 1 << rand_int(2, 5);
    int q = pick_producer();
    int x0 = rand_int(-5, 5), w = rand_int(2, 24), y0 = rand_int(-5, 5), hh = rand_int(2, 20);
    std::string rname = prefix + "r" + std::to_string(p.funcs.size());
    RDom r(x0, w, y0, hh, rname);
    h(i) = 0;
    std::vector<Expr> args{r.x, r.y};
    std::vector<std::string> text{rname + ".x", rname + ".y"};
    for (int d = 2; d < dims; d++) {
        args.push_back(0);
        text.push_back("0");
    }
    GE data = call(q, args, text, 1);
    GE idx = lookup_index(data, n);
    h(idx.e) += 1;
    out << "Func " << hname << "(\"" << hname << "\");\n"
        << hname << "(i) = 0;\nRDom " << rname << "(" << x0 << ", " << w << ", " << y0 << ", " << hh
        << ", \"" << rname << "\");\n"
        << hname << "(" << idx.s << ") += 1;\n";
    add_func(hname, h, 1, {Int(32)}, w * hh);
    p.funcs.back().rvars.push_back({r.x, r.y});
    p.funcs.back().update_pure.push_back({});
    int hi = (int)p.funcs.size() - 1;

    std::string name = new_name();
    Func f(name);
    GE d2 = leaf_call(pick_producer(), {}, 0);
    GE looked = call(hi, {lookup_index(d2, n).e}, {lookup_index(d2, n).s}, 0);
    Type t = random_type();
    GE v = bound(binop(convert(looked, t), convert(d2, t)));
    f(vars) = v.e;
    out << "Func " << name << "(\"" << name << "\");\n"
        << name << "(" << var_list(var_names()) << ") = " << v.s << ";\n";
    add_func(name, f, dims, {t}, v.mag);
}

inline void PipelineGenerator::stage_scan() {
    std::string name = new_name();
    Func f(name);
    Type t = random_type();
    int q = pick_producer();
    int d = rand_int(0, 1);
    int r0 = rand_int(-5, 5), k = rand_int(2, 40);
    std::string rname = prefix + "r" + std::to_string(p.funcs.size());
    RDom r(r0, k, rname);
    GE init = bound(convert(leaf_call(q, {}, 0), t));
    f(vars) = init.e;
    std::vector<Expr> at{vars.begin(), vars.end()}, prev = at;
    std::vector<std::string> at_s = var_names(), prev_s = at_s;
    at[d] = r.x;
    prev[d] = r.x - 1;
    at_s[d] = rname;
    prev_s[d] = rname + " - 1";
    // The running value: int32 wraps into 15 bits each step, floats decay, narrow types wrap.
    std::vector<Expr> qargs = at;
    GE term = convert(call(q, qargs, at_s, 1), t);
    Expr pv = f(prev);
    std::string pvs = name + "(" + var_list(prev_s) + ")";
    GE v;
    if (t.is_float()) {
        v.e = pv * 0.5f + term.e;
        v.s = pvs + " * 0.5f + " + term.s;
        v.mag = std::max<int64_t>(init.mag, term.mag * 2);
    } else if (t == Int(32)) {
        v.e = (pv + term.e) & 0x7fff;
        v.s = "(" + pvs + " + " + term.s + ") & 0x7fff";
        v.mag = std::max<int64_t>(init.mag, 0x7fff);
    } else {
        v.e = pv + term.e;
        v.s = pvs + " + " + term.s;
        v.mag = type_mag(t);
    }
    f(at) = v.e;
    out << "Func " << name << "(\"" << name << "\");\n"
        << name << "(" << var_list(var_names()) << ") = " << init.s << ";\nRDom " << rname << "("
        << r0 << ", " << k << ", \"" << rname << "\");\n"
        << name << "(" << var_list(at_s) << ") = " << v.s << ";\n";
    add_func(name, f, dims, {t}, v.mag);
    std::vector<int> pure;
    for (int i = 0; i < dims; i++) {
        if (i != d) pure.push_back(i);
    }
    p.funcs.back().rvars.push_back({r.x});
    p.funcs.back().update_pure.push_back(pure);
    p.funcs.back().writes_fixed_region = true;
}

inline void PipelineGenerator::stage_tuple() {
    std::string name = new_name();
    Func f(name);
    Type t0 = random_type(), t1 = coin() ? Int(32) : random_type();
    int q = pick_producer();
    std::vector<GE> leaves{leaf_call(q, {}, 0), leaf_call(pick_producer(), {1, 0}, 0)};
    GE a = bound(expr_tree(leaves, t0, 1)), b = bound(expr_tree(leaves, t1, 1));
    const std::string vs = var_list(var_names()), cs = name + "(" + vs + ")";
    const std::string x0 = vars[0].name();
    out << "Func " << name << "(\"" << name << "\");\n";
    int64_t mag = std::max(a.mag, b.mag);
    if (coin(0.3)) {
        // A Tuple-valued select: the elements swapped (and converted) on every third column.
        GE b0 = bound(convert(b, t0)), a1 = bound(convert(a, t1));
        f(vars) = select(vars[0] % 3 == 1, Tuple(a.e, b.e), Tuple(b0.e, a1.e));
        out << cs << " = select(" << x0 << " % 3 == 1, Tuple(" << a.s << ", " << b.s << "), Tuple("
            << b0.s << ", " << a1.s << "));\n";
        mag = std::max({mag, b0.mag, a1.mag});
    } else {
        f(vars) = Tuple(a.e, b.e);
        out << cs << " = Tuple(" << a.s << ", " << b.s << ");\n";
    }
    add_func(name, f, dims, {t0, t1}, mag);
    const int fi = (int)p.funcs.size() - 1;
    const int kind = rand_int(0, 4); // 0-1: argmax update, 2-3: partial update, 4: none
    if (kind == 4) return;
    std::vector<int> pure;
    for (int i = 0; i < dims; i++) pure.push_back(i);
    Expr cur0 = f(vars)[0], cur1 = f(vars)[1];
    if (kind >= 2) {
        // An update that leaves part of the Func as it was: one element undef, or every
        // element undef where a condition on x fails (one condition for all, as Halide needs).
        p.funcs.pop_back(); // so the call below records the use as stage 1 of this Func
        GE term = convert(leaf_call(pick_producer(), {}, 1), Int(32));
        GE c0{cur0, cs + "[0]", mag}, c1{cur1, cs + "[1]", mag};
        GE v0 = bound(convert(bound(binop(convert(c0, Int(32)), term)), t0));
        GE v1 = bound(convert(bound(binop(convert(c1, Int(32)), term)), t1));
        std::string u0 = "undef<" + type_name(t0) + ">()", u1 = "undef<" + type_name(t1) + ">()";
        if (kind == 2) {
            bool first = coin();
            f(vars) = first ? Tuple(v0.e, undef(t1)) : Tuple(undef(t0), v1.e);
            out << cs << " = Tuple(" << (first ? v0.s : u0) << ", " << (first ? u1 : v1.s)
                << ");\n";
        } else {
            Expr c = vars[0] % 2 == 0;
            std::string c_s = x0 + " % 2 == 0";
            f(vars) = Tuple(select(c, undef(t0), v0.e), select(c, undef(t1), v1.e));
            out << cs << " = Tuple(select(" << c_s << ", " << u0 << ", " << v0.s << "), select("
                << c_s << ", " << u1 << ", " << v1.s << "));\n";
        }
        add_func(name, f, dims, {t0, t1}, std::max({mag, v0.mag, v1.mag}));
        p.funcs.back().rvars.push_back({});
        p.funcs.back().update_pure.push_back(pure);
        return;
    }
    // An argmax-style update over a small window along x: the max of a and where it was.
    std::string rname = prefix + "r" + std::to_string(fi);
    int r0 = rand_int(-2, 0), k = rand_int(2, 4);
    RDom r(r0, k, rname);
    std::vector<Expr> args{vars.begin(), vars.end()};
    std::vector<std::string> args_s = var_names();
    args[0] = vars[0] + r.x;
    args_s[0] = x0 + " + " + rname;
    p.funcs.pop_back(); // so the call below records the use as stage 1 of this Func
    GE cand = convert(call(q, args, args_s, 1), t0);
    f(vars) = Tuple(max(cur0, cand.e), select(cand.e > cur0, cast(t1, r.x), cur1));
    out << "RDom " << rname << "(" << r0 << ", " << k << ", \"" << rname << "\");\n"
        << cs << " = Tuple(max(" << cs << "[0], " << cand.s << "), select(" << cand.s << " > " << cs
        << "[0], cast<" << type_name(t1) << ">(" << rname << "), " << cs << "[1]));\n";
    add_func(name, f, dims, {t0, t1}, std::max<int64_t>({mag, cand.mag, 8}));
    p.funcs.back().rvars.push_back({r.x});
    p.funcs.back().update_pure.push_back(pure);
}

inline void PipelineGenerator::stage_conv_update() {
    std::string name = new_name();
    Func f(name);
    Type t = random_type();
    int q = pick_producer();
    GE init = coin() ? constant(t, 0) : bound(convert(leaf_call(q, {}, 0), t));
    f(vars) = init.e;
    std::string rname = prefix + "r" + std::to_string(p.funcs.size());
    bool two = coin();
    int e0 = rand_int(2, 3), e1 = rand_int(2, 3);
    RDom r = two ? RDom(-1, e0, -1, e1, rname) : RDom(-1, e0, rname);
    std::vector<Expr> args{vars.begin(), vars.end()};
    std::vector<std::string> args_s = var_names();
    args[0] = vars[0] + r.x;
    args_s[0] = vars[0].name() + " + " + rname + ".x";
    if (two) {
        args[1] = vars[1] + r.y;
        args_s[1] = vars[1].name() + " + " + rname + ".y";
    }
    GE term = convert(call(q, args, args_s, 1), t);
    f(vars) += term.e;
    out << "Func " << name << "(\"" << name << "\");\n"
        << name << "(" << var_list(var_names()) << ") = " << init.s << ";\nRDom " << rname
        << (two ? "(-1, " + std::to_string(e0) + ", -1, " + std::to_string(e1)
                : "(-1, " + std::to_string(e0))
        << ", \"" << rname << "\");\n"
        << name << "(" << var_list(var_names()) << ") += " << term.s << ";\n";
    int64_t mag = init.mag + term.mag * e0 * (two ? e1 : 1);
    if (!(t == Int(32) || t.is_float())) mag = type_mag(t);
    add_func(name, f, dims, {t}, mag);
    p.funcs.back().rvars.push_back(two ? std::vector<RVar>{r.x, r.y} : std::vector<RVar>{r.x});
    std::vector<int> pure;
    for (int i = 0; i < dims; i++) pure.push_back(i);
    p.funcs.back().update_pure.push_back(pure);
}

inline FuzzPipeline PipelineGenerator::generate() {
    // The JIT's time (LLVM's, mostly) grows with the code: the shapes are kept small on
    // average (mostly 1-3 stages, at most two reductions, few 3-D pipelines and second
    // outputs), with the bigger ones still drawn now and then.
    dims = feat.three_dims && coin(0.12) ? 3 : 2;
    const char *names[] = {"x", "y", "c"};
    for (int d = 0; d < dims; d++) vars.push_back(Var(names[d]));
    out << "Var x(\"x\"), y(\"y\"), c(\"c\"), i(\"i\");\n";
    define_input();
    int stages = coin(0.7) ? rand_int(1, 3) : rand_int(1, 5);
    int reductions = 0; // unscheduled, each is computed again in every loop that calls it
    for (int s = 0; s < stages; s++) {
        for (;;) {
            int k = rand_int(0, 8);
            if (k == 1 && !feat.stencils) continue;
            if (k == 2 && !feat.resampling) continue;
            if (k == 3 && !feat.lookups) continue;
            if (k == 4 && !feat.histograms) continue;
            if (k == 5 && !feat.scans) continue;
            if (k == 6 && !feat.tuples) continue;
            if (k == 7 && !feat.conv_updates) continue;
            if (k == 8 && !feat.stencils) continue;
            bool reduction = k >= 4 && k <= 7; // histograms, scans, tuples (mostly), convs
            if (reduction && reductions >= 2) continue;
            reductions += reduction;
            if (k == 0)
                stage_pointwise();
            else if (k == 1 || k == 8)
                stage_stencil();
            else if (k == 2)
                stage_resample();
            else if (k == 3)
                stage_lookup();
            else if (k == 4)
                stage_histogram();
            else if (k == 5)
                stage_scan();
            else if (k == 6)
                stage_tuple();
            else
                stage_conv_update();
            break;
        }
    }
    // Outputs are single-valued Funcs over all dims: finish with a pointwise stage if needed.
    // (A scan's update writes the RDom's region, which an output's buffer need not contain.)
    if (p.funcs.back().types.size() > 1 || p.funcs.back().dims != dims || p.funcs.size() == 1 ||
        p.funcs.back().writes_fixed_region) {
        stage_pointwise();
    }
    p.outputs.push_back((int)p.funcs.size() - 1);
    if (feat.two_outputs && coin(0.15)) {
        // A second output computed from anything but the first (an output read at other
        // coordinates would need a region larger than its buffer).
        forbid = p.outputs[0];
        stage_pointwise();
        p.outputs.push_back((int)p.funcs.size() - 1);
    }
    for (int o : p.outputs) p.funcs[o].is_output = true;
    for (int d = 0; d < dims; d++) {
        p.sizes.push_back(d >= 2 ? rand_int(1, 4) : coin(0.1) ? rand_int(1, 8) : rand_int(16, 70));
        p.mins.push_back(coin(0.3) ? 0 : rand_int(-20, 20));
    }
    out << "// outputs:";
    for (int o : p.outputs) out << " " << p.funcs[o].name;
    out << ", realized over sizes (";
    for (int d = 0; d < dims; d++) out << (d ? ", " : "") << p.sizes[d];
    out << ") at min (";
    for (int d = 0; d < dims; d++) out << (d ? ", " : "") << p.mins[d];
    out << ")\n";
    p.text = out.str();
    return p;
}

} // namespace loom_fuzz

#endif
