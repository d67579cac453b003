// OpenCV's equivalents of the applications, for the OpenCV column of bench/apps.sh: the same
// operation on an input of the app's size and type, median of the timed runs after a warm-up.
// Built only when OpenCV is installed (Debian's libopencv-dev); never part of CI.
//
//     opencv_bench <app> [--small] [--runs N]
//
// Prints "op <what OpenCV ran>" and "run_ms <median>", or "run_ms n/a" for an app without an
// OpenCV equivalent. The operations are OpenCV's own algorithms for the same task, so their
// outputs are not compared with the apps' (e.g. cv::blur rounds its box mean, the app's blur
// truncates; dilate is the max filter exactly). Inputs are interleaved (OpenCV's layout) and
// random; the timed region includes every step of the equivalent (e.g. the luma conversion).
// Threads: cv::setNumThreads(HL_NUM_THREADS or LOOM_NUM_THREADS) when set, else OpenCV's default.
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/photo.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

double median_ms(const std::function<void()> &f, int runs) {
    f();
    std::vector<double> t;
    for (int i = 0; i < runs; i++) {
        auto t0 = std::chrono::steady_clock::now();
        f();
        t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                        .count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

cv::Mat random_mat(int rows, int cols, int type, double lo, double hi) {
    cv::Mat m(rows, cols, type);
    cv::RNG rng(2024);
    rng.fill(m, cv::RNG::UNIFORM, lo, hi);
    return m;
}

/// A Laplacian-pyramid blend of two images under a mask: each image's Laplacian pyramid
/// (pyrDown, pyrUp and subtract), the mask's Gaussian pyramid, the blended levels, and the
/// collapse (pyrUp and add).
void pyramid_blend(const cv::Mat &a, const cv::Mat &b, const cv::Mat &mask, cv::Mat &out,
                   int levels) {
    std::vector<cv::Mat> ga{a}, gb{b}, gm{mask};
    for (int l = 1; l < levels; l++) {
        cv::Mat da, db, dm;
        cv::pyrDown(ga.back(), da);
        cv::pyrDown(gb.back(), db);
        cv::pyrDown(gm.back(), dm);
        ga.push_back(da), gb.push_back(db), gm.push_back(dm);
    }
    std::vector<cv::Mat> blended(levels);
    for (int l = 0; l < levels; l++) {
        cv::Mat la = ga[l], lb = gb[l];
        if (l + 1 < levels) {
            cv::Mat ua, ub;
            cv::pyrUp(ga[l + 1], ua, ga[l].size());
            cv::pyrUp(gb[l + 1], ub, gb[l].size());
            la = ga[l] - ua;
            lb = gb[l] - ub;
        }
        cv::Mat m3;
        cv::merge(std::vector<cv::Mat>{gm[l], gm[l], gm[l]}, m3);
        blended[l] = la.mul(m3) + lb.mul(cv::Scalar::all(1.0) - m3);
    }
    out = blended[levels - 1];
    for (int l = levels - 2; l >= 0; l--) {
        cv::Mat up;
        cv::pyrUp(out, up, blended[l].size());
        out = up + blended[l];
    }
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: opencv_bench <app> [--small] [--runs N]\n");
        return 2;
    }
    std::string app = argv[1];
    bool paper = true;
    int runs = 5;
    for (int i = 2; i < argc; i++) {
        if (!std::strcmp(argv[i], "--small"))
            paper = false;
        else if (!std::strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
    }
    for (const char *name : {"HL_NUM_THREADS", "LOOM_NUM_THREADS"}) {
        const char *v = std::getenv(name);
        if (v && std::atoi(v) > 0) {
            cv::setNumThreads(std::atoi(v));
            break;
        }
    }
    // The apps' photograph size (width x height) and its small mode.
    const int W = paper ? 1536 : 192, H = paper ? 2560 : 320;
    std::string op;
    double ms = -1;
    if (app == "blur") {
        int w = paper ? 6400 : 640, h = paper ? 4800 : 480;
        cv::Mat in = random_mat(h, w, CV_16UC1, 0, 16384), out;
        op = "cv::blur 3x3 (box mean), uint16, replicated border";
        ms = median_ms(
            [&] { cv::blur(in, out, cv::Size(3, 3), cv::Point(-1, -1), cv::BORDER_REPLICATE); },
            runs);
    } else if (app == "hist_eq") {
        cv::Mat in = random_mat(H, W, CV_8UC3, 0, 200);
        std::vector<cv::Mat> planes(3);
        cv::Mat out;
        op = "cv::equalizeHist per channel (split, 3 x equalizeHist, merge), uint8";
        ms = median_ms(
            [&] {
                cv::split(in, planes);
                for (cv::Mat &p : planes) cv::equalizeHist(p, p);
                cv::merge(planes, out);
            },
            runs);
    } else if (app == "unsharp") {
        cv::Mat in = random_mat(H, W, CV_32FC3, 0, 1), gray, blurred, sharp, ratio, ratio3, out;
        op = "cvtColor to luma, GaussianBlur 7x7 sigma 1.5, sharpen, ratio, multiply; float";
        ms = median_ms(
            [&] {
                cv::cvtColor(in, gray, cv::COLOR_RGB2GRAY);
                cv::GaussianBlur(gray, blurred, cv::Size(7, 7), 1.5, 1.5, cv::BORDER_REPLICATE);
                cv::addWeighted(gray, 2.0, blurred, -1.0, 0.0, sharp);
                cv::divide(sharp, cv::max(gray, 1e-4), ratio);
                cv::merge(std::vector<cv::Mat>{ratio, ratio, ratio}, ratio3);
                out = in.mul(ratio3);
            },
            runs);
    } else if (app == "harris") {
        cv::Mat in = random_mat(H, W, CV_32FC3, 0, 1), gray, out;
        op = "cvtColor to luma, cornerHarris (block 3, Sobel 3, k 0.04); float";
        ms = median_ms(
            [&] {
                cv::cvtColor(in, gray, cv::COLOR_RGB2GRAY);
                cv::cornerHarris(gray, out, 3, 3, 0.04, cv::BORDER_REPLICATE);
            },
            runs);
    } else if (app == "max_filter") {
        cv::Mat in = random_mat(H, W, CV_32FC3, 0, 1), out;
        cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(53, 53));
        op = "cv::dilate 53x53 rectangle (radius 26), float, 3 channels";
        ms = median_ms([&] { cv::dilate(in, out, kernel); }, runs);
    } else if (app == "matmul") {
        int n = paper ? 2048 : 256;
        cv::Mat a = random_mat(n, n, CV_32FC1, -1, 1), b = random_mat(n, n, CV_32FC1, -1, 1), c;
        op = "cv::gemm, float";
        ms = median_ms([&] { cv::gemm(a, b, 1.0, cv::noArray(), 0.0, c); }, runs);
    } else if (app == "pyramid_blend") {
        int n = paper ? 2048 : 256;
        cv::Mat a = random_mat(n, n, CV_32FC3, 0, 1), b = random_mat(n, n, CV_32FC3, 0, 1);
        cv::Mat mask = random_mat(n, n, CV_32FC1, 0, 1), out;
        op = "Laplacian pyramid blend with pyrDown/pyrUp, 4 levels, float";
        ms = median_ms([&] { pyramid_blend(a, b, mask, out, 4); }, runs);
    } else if (app == "nl_means" || app == "nl_means_small") {
        int w = (app == "nl_means" && paper) ? W : 192, h = (app == "nl_means" && paper) ? H : 320;
        cv::Mat in = random_mat(h, w, CV_8UC3, 0, 256), out;
        op = "cv::fastNlMeansDenoising, 7x7 patches, 7x7 search, uint8, 3 channels";
        ms = median_ms([&] { cv::fastNlMeansDenoising(in, out, 10.0f, 7, 7); }, runs);
    }
    if (ms < 0) {
        std::printf("op none\nrun_ms n/a\n");
    } else {
        std::printf("op %s\nthreads %d\nrun_ms %.3f\n", op.c_str(), cv::getNumThreads(), ms);
    }
    return 0;
}
