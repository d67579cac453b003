// ScheduleGenerator and run_case (included by schedule_fuzzer.h).
#ifndef LOOM_TESTS_FUZZ_SCHEDULE_FUZZER_IMPL_H
#define LOOM_TESTS_FUZZ_SCHEDULE_FUZZER_IMPL_H

namespace loom_fuzz {

inline TailStrategy ScheduleGenerator::pick_tail(int fi, int s, const LoopInfo &l, int factor,
                                                 bool vector, bool allow_blend) {
    std::vector<TailStrategy> c{TailStrategy::GuardWithIf};
    if (l.rvar) {
        c.push_back(TailStrategy::Auto); // GuardWithIf for RVars
        return c[rand_int(0, (int)c.size() - 1)];
    }
    bool out = p.funcs[fi].is_output;
    // A loop stemming from a split's inner loop must not be rounded up on an update (it would
    // overlap the next outer iteration), nor split PredicateLoads (Halide's rules).
    bool round_up = feat.round_up && !out && !(s > 0 && l.from_inner);
    // Outputs cannot grow: RoundUp would write past them, ShiftInwards needs extent >= factor.
    bool fits = !out || l.extent >= factor;
    if (s == 0) {
        if (feat.shift_inwards && fits) {
            c.push_back(TailStrategy::ShiftInwards);
            c.push_back(TailStrategy::Auto);
        }
        if (round_up) c.push_back(TailStrategy::RoundUp);
        if (feat.predicate_tails && vector) {
            c.push_back(TailStrategy::Predicate);
            c.push_back(TailStrategy::PredicateStores);
            if (!out && !l.from_inner) c.push_back(TailStrategy::PredicateLoads);
        }
    } else {
        if (round_up) c.push_back(TailStrategy::RoundUp);
        // Auto: RoundUp, or GuardWithIf on a loop stemming from an inner one.
        if (round_up || l.from_inner) c.push_back(TailStrategy::Auto);
        if (feat.blend_tails && allow_blend) {
            if (!out) c.push_back(TailStrategy::RoundUpAndBlend);
            if (fits) c.push_back(TailStrategy::ShiftInwardsAndBlend);
        }
        if (feat.predicate_tails && vector) {
            c.push_back(TailStrategy::Predicate);
            c.push_back(TailStrategy::PredicateStores);
        }
    }
    return c[rand_int(0, (int)c.size() - 1)];
}

inline std::vector<std::tuple<int, int, int>> ScheduleGenerator::enclosing(int g, int s) {
    std::vector<std::tuple<int, int, int>> r;
    const Placement &pl = place[g];
    if (pl.kind == Placement::At) {
        r = enclosing(pl.func, pl.stage);
        // Keep the loops down to (and including) the one it is computed at.
        const std::vector<LoopInfo> &L = loops[pl.func][pl.stage];
        size_t keep = r.size() - L.size();
        for (int i = (int)L.size() - 1; i >= 0; i--) {
            keep++;
            if (L[i].name == pl.var && L[i].named) break;
        }
        r.resize(keep);
    }
    const std::vector<LoopInfo> &L = loops[g][s];
    for (int i = (int)L.size() - 1; i >= 0; i--) r.emplace_back(g, s, i);
    return r;
}

inline std::vector<Use> ScheduleGenerator::effective_uses(int fi) {
    std::vector<Use> r;
    for (const Use &u : p.funcs[fi].uses) {
        if (!reachable[u.func]) continue;
        if (place[u.func].kind == Placement::Inline) {
            for (const Use &v : effective_uses(u.func)) r.push_back(v);
        } else {
            r.push_back(u);
        }
    }
    return r;
}

inline void ScheduleGenerator::choose_placement(int fi) {
    FuncInfo &info = p.funcs[fi];
    std::vector<Use> uses = effective_uses(fi);
    // The loops enclosing every use: the common prefix of the uses' loop nests, up to the
    // first vectorized loop (nothing may be computed inside a vector loop).
    std::vector<std::tuple<int, int, int>> common;
    for (size_t k = 0; k < uses.size(); k++) {
        auto e = enclosing(uses[k].func, uses[k].stage);
        if (k == 0) {
            common = e;
        } else {
            size_t n = 0;
            while (n < common.size() && n < e.size() && common[n] == e[n]) n++;
            common.resize(n);
        }
    }
    std::vector<std::tuple<int, int, int>> cands;
    for (auto &t : common) {
        const LoopInfo &l = loops[std::get<0>(t)][std::get<1>(t)][std::get<2>(t)];
        if (l.vectorized) break;
        if (l.named) cands.push_back(t);
    }
    int k = rand_int(0, 9);
    Placement pl;
    if (k < 3 && feat.inline_funcs && info.num_updates() == 0) {
        pl.kind = Placement::Inline;
        if (next_directive()) info.f.compute_inline();
        out << info.name << ".compute_inline();\n";
    } else if (k < 6 && feat.compute_at && !cands.empty()) {
        auto t = cands[rand_int(0, (int)cands.size() - 1)];
        pl.kind = Placement::At;
        pl.func = std::get<0>(t);
        pl.stage = std::get<1>(t);
        const LoopInfo &l = loops[pl.func][pl.stage][std::get<2>(t)];
        pl.var = l.name;
        const FuncInfo &g = p.funcs[pl.func];
        // The last stage as -1 (the default): Halide 21 rejects an explicit index equal to it.
        if (next_directive())
            info.f.compute_at(LoopLevel(g.f, vr(l), pl.stage == g.num_updates() ? -1 : pl.stage));
        if (pl.stage == g.num_updates()) {
            out << info.name << ".compute_at(" << g.name << ", " << vr_text(l) << ");\n";
        } else {
            out << info.name << ".compute_at(LoopLevel(" << g.name << ", " << vr_text(l) << ", "
                << pl.stage << "));\n";
        }
    } else if (feat.compute_root || info.num_updates() > 0 || !feat.inline_funcs) {
        pl.kind = Placement::Root;
        if (next_directive()) info.f.compute_root();
        out << info.name << ".compute_root();\n";
    } else {
        pl.kind = Placement::Inline;
    }
    // Computed in a task of its own, concurrently with its consumers.
    if (pl.kind != Placement::Inline && feat.async && coin(0.15)) {
        if (next_directive()) info.f.async();
        out << info.name << ".async();\n";
    }
    place[fi] = pl;
}

inline void ScheduleGenerator::schedule_stage(int fi, int s) {
    FuncInfo &info = p.funcs[fi];
    std::vector<LoopInfo> &L = loops[fi][s];
    Stage st = s == 0 ? Stage(info.f) : info.f.update(s - 1);
    std::string sn = info.name + (s ? ".update(" + std::to_string(s - 1) + ")" : "");
    auto fresh = [&](const LoopInfo &l, const char *tag) {
        return base_name(l.name) + tag + std::to_string(++counter);
    };
    blend_families.clear();
    auto note_blend = [&](TailStrategy t, const LoopInfo &l) {
        if (t == TailStrategy::RoundUpAndBlend || t == TailStrategy::ShiftInwardsAndBlend) {
            blend_families.insert(l.family.begin(), l.family.end());
        }
    };
    auto pure_loops = [&]() {
        std::vector<int> r;
        for (int i = 0; i < (int)L.size(); i++) {
            if (!L[i].rvar && L[i].named && !L[i].vectorized && !L[i].parallel) r.push_back(i);
        }
        return r;
    };
    int nops = rand_int(0, 3);
    for (int op = 0; op < nops; op++) {
        int kind = rand_int(0, 4);
        if (kind == 0 && feat.split) {
            int i = rand_int(0, (int)L.size() - 1);
            LoopInfo l = L[i];
            int factor = rand_int(2, 8);
            TailStrategy tail = pick_tail(fi, s, l, factor, false);
            note_blend(tail, l);
            LoopInfo inner = l, outer = l;
            inner.name = fresh(l, "i");
            outer.name = fresh(l, "o");
            inner.from_inner = true;
            inner.extent = inner.const_extent = factor;
            outer.const_extent = -1;
            inner.original_rvar = outer.original_rvar = false;
            outer.extent = l.extent < 0 ? -1 : (l.extent + factor - 1) / factor;
            if (next_directive()) st.split(vr(l), vr(outer), vr(inner), factor, tail);
            out << sn << ".split(" << vr_text(l) << ", " << vr_text(outer) << ", " << vr_text(inner)
                << ", " << factor << ", TailStrategy::" << tail_name(tail) << ");\n";
            L[i] = inner;
            L.insert(L.begin() + i + 1, outer);
        } else if (kind == 1 && feat.tile) {
            std::vector<int> pl = pure_loops();
            if (pl.size() < 2) continue;
            int a = rand_int(0, (int)pl.size() - 2);
            int b = rand_int(a + 1, (int)pl.size() - 1);
            int ia = pl[a], ib = pl[b];
            LoopInfo x = L[ia], y = L[ib];
            int fx = rand_int(2, 8), fy = rand_int(2, 8);
            // One tail for both splits: a loop stemming from an inner one on either side
            // rules out RoundUp on an update (seed 2570 of the long run tiled such a y).
            LoopInfo both = x;
            both.from_inner = x.from_inner || y.from_inner;
            TailStrategy tail = pick_tail(fi, s, both, fx, false);
            bool shifts = tail == TailStrategy::ShiftInwards || tail == TailStrategy::Auto ||
                          tail == TailStrategy::ShiftInwardsAndBlend;
            if (shifts && p.funcs[fi].is_output && y.extent < fy) tail = TailStrategy::GuardWithIf;
            // On an output's update, Auto rounds up a loop that does not stem from an inner
            // one, past the output (long-run seed 3917, on a no_asserts target): it is safe
            // only when both loops do (Auto is GuardWithIf there).
            if (s > 0 && tail == TailStrategy::Auto && p.funcs[fi].is_output &&
                !(x.from_inner && y.from_inner))
                tail = TailStrategy::GuardWithIf;
            note_blend(tail, x);
            note_blend(tail, y);
            LoopInfo xi = x, xo = x, yi = y, yo = y;
            xi.name = fresh(x, "i"), xo.name = fresh(x, "o");
            yi.name = fresh(y, "i"), yo.name = fresh(y, "o");
            xi.extent = xi.const_extent = fx, yi.extent = yi.const_extent = fy;
            xi.from_inner = yi.from_inner = true;
            xo.const_extent = yo.const_extent = -1;
            xi.original_rvar = xo.original_rvar = yi.original_rvar = yo.original_rvar = false;
            xo.extent = x.extent < 0 ? -1 : (x.extent + fx - 1) / fx;
            yo.extent = y.extent < 0 ? -1 : (y.extent + fy - 1) / fy;
            if (next_directive())
                st.tile(vr(x), vr(y), vr(xo), vr(yo), vr(xi), vr(yi), fx, fy, tail);
            out << sn << ".tile(" << vr_text(x) << ", " << vr_text(y) << ", " << vr_text(xo) << ", "
                << vr_text(yo) << ", " << vr_text(xi) << ", " << vr_text(yi) << ", " << fx << ", "
                << fy << ", TailStrategy::" << tail_name(tail) << ");\n";
            // Splits in place, then xi, yi, xo, yo fill the four slots innermost first.
            L[ib] = yi;
            L.insert(L.begin() + ib + 1, yo);
            L[ia] = xi;
            L.insert(L.begin() + ia + 1, xo);
            int slots[4] = {ia, ia + 1, ib + 1, ib + 2};
            LoopInfo order[4] = {xi, yi, xo, yo};
            for (int k = 0; k < 4; k++) L[slots[k]] = order[k];
        } else if (kind == 2 && feat.reorder) {
            std::vector<int> idx;
            for (int i = 0; i < (int)L.size(); i++) {
                if (L[i].named && !L[i].vectorized && !L[i].parallel) idx.push_back(i);
            }
            if (idx.size() < 2) continue;
            std::shuffle(idx.begin(), idx.end(), rng);
            idx.resize(rand_int(2, (int)idx.size()));
            std::vector<int> slots = idx;
            std::sort(slots.begin(), slots.end());
            std::vector<int> order = idx;
            // RVars keep their relative order (reordering them could change an update's
            // meaning); pure Vars may go anywhere.
            std::vector<int> rv;
            for (int i : slots) {
                if (L[i].rvar) rv.push_back(i);
            }
            size_t next = 0;
            for (int &i : order) {
                if (L[i].rvar) i = rv[next++];
            }
            // The RVars must also keep their order relative to those left out of the reorder
            // (reordering two of them around a third would change the update's meaning).
            std::vector<LoopInfo> after = L;
            for (size_t k = 0; k < slots.size(); k++) after[slots[k]] = L[order[k]];
            std::vector<std::string> rvars_before, rvars_after;
            for (size_t k = 0; k < L.size(); k++) {
                if (L[k].rvar) rvars_before.push_back(L[k].name);
                if (after[k].rvar) rvars_after.push_back(after[k].name);
            }
            if (rvars_before != rvars_after) continue;
            std::vector<VarOrRVar> args;
            bool on = next_directive();
            out << sn << ".reorder(";
            for (size_t k = 0; k < order.size(); k++) {
                args.push_back(vr(L[order[k]]));
                out << (k ? ", " : "") << vr_text(L[order[k]]);
            }
            out << ");\n";
            if (on) st.reorder(args);
            L = after;
        } else if (kind == 3 && feat.fuse) {
            // Two pure loops, usually adjacent; otherwise any pair in either order (Halide moves
            // the outer one directly outside the inner one, and the fused loop stands where the
            // inner one was).
            std::vector<int> cands;
            for (int i = 0; i < (int)L.size(); i++) {
                if (!L[i].rvar && L[i].named) cands.push_back(i);
            }
            if (cands.size() < 2) continue;
            int i = -1, o = -1;
            if (coin(0.7)) {
                std::vector<int> adjacent;
                for (int c : cands) {
                    if (c + 1 < (int)L.size() && !L[c + 1].rvar && L[c + 1].named) {
                        adjacent.push_back(c);
                    }
                }
                if (adjacent.empty()) continue;
                i = adjacent[rand_int(0, (int)adjacent.size() - 1)];
                o = i + 1;
            } else {
                i = cands[rand_int(0, (int)cands.size() - 1)];
                do {
                    o = cands[rand_int(0, (int)cands.size() - 1)];
                } while (o == i);
            }
            LoopInfo f = L[i];
            f.name = fresh(L[i], "f");
            f.family.insert(L[o].family.begin(), L[o].family.end());
            f.from_inner = L[i].from_inner || L[o].from_inner;
            f.extent = L[i].extent < 0 || L[o].extent < 0 ? -1 : L[i].extent * L[o].extent;
            f.const_extent = L[i].const_extent < 0 || L[o].const_extent < 0
                                 ? -1
                                 : L[i].const_extent * L[o].const_extent;
            if (next_directive()) st.fuse(vr(L[i]), vr(L[o]), vr(f));
            out << sn << ".fuse(" << vr_text(L[i]) << ", " << vr_text(L[o]) << ", " << vr_text(f)
                << ");\n";
            L[i] = f;
            L.erase(L.begin() + o);
        } else if (kind == 4 && feat.rename) {
            std::vector<int> pl = pure_loops();
            if (pl.empty()) continue;
            int i = pl[rand_int(0, (int)pl.size() - 1)];
            LoopInfo n = L[i];
            n.name = fresh(L[i], "r");
            n.original_rvar = false;
            if (next_directive()) st.rename(vr(L[i]), vr(n));
            out << sn << ".rename(" << vr_text(L[i]) << ", " << vr_text(n) << ");\n";
            L[i] = n;
        }
    }
    // Code size (and the JIT's time) grows with lanes x unrolled copies x Tuple elements: a
    // Tuple's vectors are at most 8 wide, and lanes times the unroll factor stay <= 32.
    const int max_lanes = info.types.size() > 1 ? 8 : 16;
    int lanes = 1;
    if (feat.vectorize && coin(0.4) && !L[0].rvar && L[0].named) {
        LoopInfo l = L[0];
        if (l.const_extent >= 2 && l.const_extent <= max_lanes && coin()) {
            if (next_directive()) st.vectorize(vr(l));
            out << sn << ".vectorize(" << vr_text(l) << ");\n";
            L[0].vectorized = true;
            lanes = (int)l.const_extent;
        } else {
            int w = 1 << rand_int(1, max_lanes == 8 ? 3 : 4);
            lanes = w;
            TailStrategy tail = pick_tail(fi, s, l, w, true);
            note_blend(tail, l);
            if (next_directive()) st.vectorize(vr(l), w, tail);
            out << sn << ".vectorize(" << vr_text(l) << ", " << w
                << ", TailStrategy::" << tail_name(tail) << ");\n";
            LoopInfo inner = l;
            inner.named = false;
            inner.vectorized = true;
            inner.extent = w;
            L[0].extent = l.extent < 0 ? -1 : (l.extent + w - 1) / w;
            L.insert(L.begin(), inner);
        }
    }
    // Parallel loops nested in a consumer's parallel loop are tested, but seldom: tasks of a
    // few points each, spawned per point of the consumer, make slow cases.
    bool nested = false;
    std::vector<std::tuple<int, int, int>> outside = enclosing(fi, s);
    outside.resize(outside.size() - L.size()); // the consumers' loops around this stage
    for (const auto &t : outside) {
        nested |= loops[std::get<0>(t)][std::get<1>(t)][std::get<2>(t)].parallel;
    }
    int parallels = 0;
    while (feat.parallel && parallels < 2 && coin(nested ? 0.08 : 0.35)) {
        std::vector<int> pl;
        for (int i : pure_loops()) {
            bool blended = false;
            for (const std::string &f : L[i].family) blended |= blend_families.count(f) > 0;
            if (!blended) pl.push_back(i);
        }
        if (pl.empty()) break;
        int i = pl[rand_int(0, (int)pl.size() - 1)];
        LoopInfo l = L[i];
        parallels++;
        if (coin(0.7)) {
            if (next_directive()) st.parallel(vr(l));
            out << sn << ".parallel(" << vr_text(l) << ");\n";
            L[i].parallel = true;
        } else {
            int ts = rand_int(2, 8);
            TailStrategy tail = pick_tail(fi, s, l, ts, false, false);
            if (next_directive()) st.parallel(vr(l), ts, tail);
            out << sn << ".parallel(" << vr_text(l) << ", " << ts
                << ", TailStrategy::" << tail_name(tail) << ");\n";
            LoopInfo inner = l;
            inner.named = false;
            inner.extent = ts;
            L[i].parallel = true;
            L[i].extent = l.extent < 0 ? -1 : (l.extent + ts - 1) / ts;
            L.insert(L.begin() + i, inner);
        }
    }
    if (feat.unroll && coin(0.15)) {
        // Only loops inside every parallel loop (unrolling a loop with tasks inside is legal
        // but not what this fuzzer is after) and outside the vector loop.
        std::vector<int> cands;
        for (int i = 0; i < (int)L.size(); i++) {
            if (L[i].parallel) break;
            if (L[i].named && !L[i].vectorized) cands.push_back(i);
        }
        if (!cands.empty()) {
            int i = cands[rand_int(0, (int)cands.size() - 1)];
            LoopInfo l = L[i];
            if (l.const_extent >= 2 && l.const_extent <= 8 && l.const_extent * lanes <= 32 &&
                coin()) {
                if (next_directive()) st.unroll(vr(l));
                out << sn << ".unroll(" << vr_text(l) << ");\n";
                L[i].unrolled = true;
            } else {
                int f = std::max(2, std::min(rand_int(2, 4), 32 / lanes));
                TailStrategy tail = pick_tail(fi, s, l, f, false, false);
                if (next_directive()) st.unroll(vr(l), f, tail);
                out << sn << ".unroll(" << vr_text(l) << ", " << f
                    << ", TailStrategy::" << tail_name(tail) << ");\n";
                LoopInfo inner = l;
                inner.named = false;
                inner.unrolled = true;
                inner.extent = f;
                L[i].extent = l.extent < 0 ? -1 : (l.extent + f - 1) / f;
                L.insert(L.begin() + i, inner);
            }
        }
    }
    if (feat.serial && coin(0.1)) {
        for (LoopInfo &l : L) {
            if (l.parallel && l.named) {
                if (next_directive()) st.serial(vr(l));
                out << sn << ".serial(" << vr_text(l) << ");\n";
                l.parallel = false;
                break;
            }
        }
    }
}

inline std::string ScheduleGenerator::apply() {
    int n = (int)p.funcs.size();
    place.assign(n, Placement());
    reachable.assign(n, false);
    loops.assign(n, {});
    for (int fi = n - 1; fi >= 0; fi--) {
        FuncInfo &info = p.funcs[fi];
        bool r = info.is_output;
        for (const Use &u : info.uses) r = r || reachable[u.func];
        reachable[fi] = r;
        const char *names[] = {"x", "y", "c"};
        std::vector<LoopInfo> pure;
        for (int d = 0; d < info.dims; d++) {
            LoopInfo l;
            l.name = info.dims == 1 ? "i" : names[d];
            if (info.is_output) l.extent = p.sizes[d];
            if (fi == 0) l.name = info.f.args()[d].name(); // the boundary condition's own Vars
            l.family = {l.name};
            pure.push_back(l);
        }
        loops[fi].push_back(pure);
        for (int u = 0; u < info.num_updates(); u++) {
            std::vector<LoopInfo> L;
            for (const RVar &rv : info.rvars[u]) {
                LoopInfo l;
                l.name = rv.name();
                l.rvar = true;
                l.original_rvar = true;
                l.rvar_obj = rv;
                l.family = {l.name};
                L.push_back(l);
            }
            for (int d : info.update_pure[u]) L.push_back(pure[d]);
            loops[fi].push_back(L);
        }
    }
    for (int fi = n - 1; fi >= 0; fi--) {
        if (!reachable[fi]) continue;
        if (!p.funcs[fi].is_output) choose_placement(fi);
        if (place[fi].kind == Placement::Inline) continue;
        for (int s = 0; s < (int)loops[fi].size(); s++) {
            if (s > 0 && !feat.update_schedules) break;
            schedule_stage(fi, s);
        }
    }
    return out.str();
}

/// Prints element `i` of a buffer of type t.
inline std::string value_text(const Type &t, const void *data, size_t i) {
    std::ostringstream s;
    if (t.is_float())
        s << std::setprecision(9) << ((const float *)data)[i];
    else if (t.is_uint())
        s << (int)((const uint8_t *)data)[i];
    else if (t.bits() == 16)
        s << ((const int16_t *)data)[i];
    else
        s << ((const int32_t *)data)[i];
    return s.str();
}

/// The target of an algorithm's cases, with StrictFloat: by default the compiler may
/// reassociate and contract float arithmetic (Halide's semantics), and a schedule then changes
/// which sums it regroups, so float outputs of two schedules may differ in their last bits
/// (long-run seed 6490: a few ulps where CSE shared a subexpression in one of them). Only
/// strict float makes "a schedule never changes the result" exact for floats.
inline Target target_of(uint32_t alg) {
    Target host = get_host_target();
    Target t = host;
    if (host.arch == Target::X86 && alg % 3 == 1 && host.has_feature(Target::AVX2) &&
        host.has_feature(Target::FMA) && host.has_feature(Target::F16C)) {
        t = Target(host.os, host.arch, host.bits,
                   {Target::SSE41, Target::AVX, Target::AVX2, Target::FMA, Target::F16C});
    } else if (host.arch == Target::X86 && alg % 3 == 2 && host.has_feature(Target::SSE41)) {
        t = Target(host.os, host.arch, host.bits, {Target::SSE41, Target::NoAsserts});
    }
    return t.with_feature(Target::StrictFloat);
}

inline CaseResult run_case(uint32_t seed, const AlgorithmFeatures &af, const ScheduleFeatures &sf) {
    CaseResult res;
    const uint32_t alg = algorithm_of(seed);
    const Target target = target_of(alg);
    FuzzPipeline ref = PipelineGenerator(alg, af, "ref_").generate();
    FuzzPipeline sched = PipelineGenerator(alg, af, "").generate();
    // The reference of the last algorithm, reused by the next seed when it is the same (the
    // same text: the input's values follow from the algorithm's seed too).
    static std::string cached_text;
    static std::vector<Buffer<void>> cached_expected;
    std::string schedule_text;
    std::string stage = "scheduling";
    // Realizes the outputs of the given pipelines as one Pipeline.
    auto realize = [&](std::vector<FuzzPipeline *> fps) {
        std::vector<Func> outs;
        std::vector<Buffer<void>> bufs;
        for (FuzzPipeline *fp : fps) {
            for (int o : fp->outputs) {
                outs.push_back(fp->funcs[o].f);
                bufs.emplace_back(fp->funcs[o].types[0], fp->sizes);
                bufs.back().set_min(fp->mins);
            }
        }
#ifdef LOOM_FUZZ_AGAINST_HALIDE
        // The same generator built against Halide 21 (namespace loom = Halide) to check that
        // a failing case's schedule is legal there and what Halide computes.
        Realization r(bufs);
        Pipeline(outs).realize(r);
#else
        Pipeline(outs).realize(bufs, target);
#endif
        return bufs;
    };
    ScheduleGenerator gen(seed, sf, sched);
    try {
        // A directive that throws leaves the schedule so far in the report.
        schedule_text = gen.apply();
        // A crash cannot report: LOOM_FUZZ_VERBOSE prints each case before running it.
        if (getenv("LOOM_FUZZ_VERBOSE")) {
            printf("schedule fuzzer seed %u (algorithm %u, target %s)\n%s// the schedule\n%s", seed,
                   alg, target.to_string().c_str(), sched.text.c_str(), schedule_text.c_str());
            fflush(stdout);
        }
        std::vector<Buffer<void>> expected, got;
        if (!getenv("LOOM_FUZZ_COMBINED")) {
            stage = "realizing the unscheduled pipeline";
            if (ref.text == cached_text) {
                expected = cached_expected;
            } else {
                cached_text.clear();
                expected = realize({&ref});
                cached_text = ref.text;
                cached_expected = expected;
            }
            stage = "realizing the scheduled pipeline";
            got = realize({&sched});
        } else {
            // LOOM_FUZZ_COMBINED: both in one Pipeline (independent Funcs), one compilation per
            // case (measured: no faster; the time is in lowering and code size, not per-call
            // overhead).
            stage = "realizing the unscheduled and scheduled pipelines together";
            got = realize({&ref, &sched});
            expected.assign(got.begin(), got.begin() + ref.outputs.size());
            got.erase(got.begin(), got.begin() + ref.outputs.size());
        }
        for (size_t k = 0; k < expected.size() && res.ok; k++) {
            const Buffer<void> &e = expected[k], &g = got[k];
            size_t bytes = e.type().bytes();
            const uint8_t *ep = (const uint8_t *)e.raw_buffer()->host;
            const uint8_t *gp = (const uint8_t *)g.raw_buffer()->host;
            for (size_t i = 0; i < e.number_of_elements(); i++) {
                if (std::memcmp(ep + i * bytes, gp + i * bytes, bytes) == 0) continue;
                res.ok = false;
                std::ostringstream msg;
                msg << "first difference in output " << sched.funcs[sched.outputs[k]].name
                    << " at (";
                size_t rest = i;
                for (int d = 0; d < e.dimensions(); d++) {
                    msg << (d ? ", " : "") << (int)(rest % sched.sizes[d]) + sched.mins[d];
                    rest /= sched.sizes[d];
                }
                msg << "): unscheduled " << value_text(e.type(), ep, i) << ", scheduled "
                    << value_text(e.type(), gp, i);
                res.report = msg.str();
                break;
            }
        }
    } catch (const std::exception &ex) {
        if (schedule_text.empty()) schedule_text = gen.text();
        res.ok = false;
        res.report = std::string("exception while ") + stage + ": " + ex.what();
    }
    if (!res.ok) {
        res.report = "schedule fuzzer seed " + std::to_string(seed) + " (algorithm " +
                     std::to_string(alg) + ", target " + target.to_string() +
                     ")\n// the pipeline\n" + sched.text + "// the schedule\n" + schedule_text +
                     res.report + "\n";
    }
    return res;
}

} // namespace loom_fuzz

#endif
