// Image file I/O (include/compat/halide_image_io.h): the shared photographs against sums taken
// with Halide 21's own loader, round trips through PNG, JPEG and PGM/PPM, sample conversion
// against closed forms, and the error messages for missing, unknown, truncated and garbage files.
//
// The file also builds against Halide 21 and its tools/halide_image_io.h, to check that Loom's
// header behaves like Halide's: there, failures abort the program, so the checks of error
// messages (and of the cases where Halide exits or succeeds on a damaged file) are skipped.
#include "Halide.h"
#include "halide_image_io.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include <ftw.h>
#include <unistd.h>

using namespace Halide;
using namespace Halide::Tools;

namespace {

#ifdef LOOM_COMPAT_HALIDE_IMAGE_IO_H
constexpr bool loom_header = true; // failures throw loom::RuntimeError with a message
#else
constexpr bool loom_header = false; // Halide's header: failures abort
#endif

/// Both headers' name for the non-throwing error policy.
constexpr Tools::Internal::CheckFunc check_return = Tools::Internal::CheckReturn;

template <typename T, typename ImageType>
auto convert_to(const ImageType &im) {
    return ImageTypeConversion::convert_image<T>(im);
}

/// convert_and_save_image on the Runtime::Buffer underneath: Halide 21's version does not
/// compile for a Halide::Buffer (it binds a temporary to a non-const reference).
template <typename T>
void convert_and_save(Buffer<T> im, const std::string &path) {
    convert_and_save_image(*im.get(), path);
}

std::string image_path(const std::string &name) {
    const char *dir = std::getenv("LOOM_SHARED_IMAGES");
    return std::string(dir ? dir : "../shared/images") + "/" + name;
}

/// A fresh directory for the files one test writes, removed afterwards.
class ImageIO : public ::testing::Test {
protected:
    void SetUp() override {
        const char *tmp = std::getenv("TMPDIR");
        std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/loom_image_io_XXXXXX";
        std::vector<char> buf(tmpl.begin(), tmpl.end());
        buf.push_back(0);
        ASSERT_NE(mkdtemp(buf.data()), nullptr);
        dir = buf.data();
    }
    void TearDown() override {
        nftw(
            dir.c_str(),
            [](const char *p, const struct stat *, int, struct FTW *) { return std::remove(p); }, 8,
            FTW_DEPTH | FTW_PHYS);
    }
    std::string file(const std::string &name) const { return dir + "/" + name; }
    std::string dir;
};

/// What Halide 21's load_image reports for each shared image: sample bits, width, height,
/// channels (0: a 2-D gray image), the sum of all samples, and the sum of each sample times
/// (x + 3y + 7c + 1), which catches transposed or shuffled samples.
struct Reference {
    const char *name;
    int bits, width, height, channels;
    unsigned long long sum, weighted_sum;
};
const Reference references[] = {
    {"bayer_small.png", 16, 256, 344, 0, 15934480ull, 9265851058ull},
    {"gray.png", 8, 1536, 2560, 0, 277474347ull, 1261496407316ull},
    {"gray_small.png", 8, 256, 426, 0, 7694891ull, 5816754325ull},
    {"rgb_small.png", 8, 192, 320, 3, 13278970ull, 7802125480ull},
    {"rgb_small16.png", 16, 192, 320, 3, 3412695290ull, 2005146248360ull},
    {"tutorial_gray.png", 8, 768, 1280, 0, 69289078ull, 157453808833ull},
    {"tutorial_rgb.png", 8, 768, 1280, 3, 212257480ull, 494301374142ull},
};

/// Every sample of a uint8 or uint16 image of 2 or 3 dimensions, in (c, y, x) order, read
/// through the raw buffer's strides (fast even in a debug build).
std::vector<int> samples(const Buffer<> &im) {
    const halide_buffer_t &b = *im.raw_buffer();
    int channels = b.dimensions > 2 ? b.dim[2].extent : 1;
    std::vector<int> out;
    out.reserve((size_t)b.dim[0].extent * b.dim[1].extent * channels);
    for (int c = 0; c < channels; c++) {
        for (int y = 0; y < b.dim[1].extent; y++) {
            for (int x = 0; x < b.dim[0].extent; x++) {
                ptrdiff_t off = (ptrdiff_t)x * b.dim[0].stride + (ptrdiff_t)y * b.dim[1].stride +
                                (b.dimensions > 2 ? (ptrdiff_t)c * b.dim[2].stride : 0);
                out.push_back(b.type.bits == 8 ? b.host[off] : ((const uint16_t *)b.host)[off]);
            }
        }
    }
    return out;
}

/// Calls f(x, y, c, value) for every sample, with coordinates relative to the image's mins.
void for_each_sample(const Buffer<> &im, const std::function<void(int, int, int, int)> &f) {
    std::vector<int> v = samples(im);
    int w = im.dim(0).extent(), h = im.dim(1).extent();
    for (size_t i = 0; i < v.size(); i++) {
        f((int)(i % w), (int)(i / w % h), (int)(i / ((size_t)w * h)), v[i]);
    }
}

void expect_same_image(const Buffer<> &a, const Buffer<> &b, const std::string &what) {
    ASSERT_EQ(a.type(), b.type()) << what;
    ASSERT_EQ(a.dimensions(), b.dimensions()) << what;
    for (int d = 0; d < a.dimensions(); d++) {
        ASSERT_EQ(a.dim(d).extent(), b.dim(d).extent()) << what;
    }
    ASSERT_TRUE(samples(a) == samples(b)) << what;
}

std::vector<char> read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

void write_file(const std::string &path, const char *data, size_t n) {
    std::ofstream out(path, std::ios::binary);
    out.write(data, (std::streamsize)n);
}

/// The message of the loom::RuntimeError that f throws ("" when it throws none).
std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const RuntimeError &e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_F(ImageIO, SharedImagesMatchHalidesLoader) {
    for (const Reference &r : references) {
        SCOPED_TRACE(r.name);
        Buffer<> im = load_image(image_path(r.name));
        ASSERT_EQ(im.type(), UInt(r.bits));
        ASSERT_EQ(im.dimensions(), r.channels ? 3 : 2);
        EXPECT_EQ(im.width(), r.width);
        EXPECT_EQ(im.height(), r.height);
        if (r.channels) {
            EXPECT_EQ(im.channels(), r.channels);
        }
        unsigned long long sum = 0, weighted = 0;
        std::vector<int> v = samples(im); // (c, y, x) order
        size_t w = r.width, plane = w * r.height;
        for (size_t i = 0; i < v.size(); i++) {
            sum += v[i];
            weighted +=
                (unsigned long long)v[i] * (i % w + 3 * (i / w % r.height) + 7 * (i / plane) + 1);
        }
        EXPECT_EQ(sum, r.sum);
        EXPECT_EQ(weighted, r.weighted_sum);
    }
}

TEST_F(ImageIO, LosslessRoundTripsAreExact) {
    for (const Reference &r : references) {
        SCOPED_TRACE(r.name);
        Buffer<> im = load_image(image_path(r.name));
        save_image(im, file("copy.png"));
        expect_same_image(im, load_image(file("copy.png")), "png");
        std::string pnm = file(r.channels ? "copy.ppm" : "copy.pgm");
        save_image(im, pnm);
        expect_same_image(im, load_image(pnm), "pgm/ppm");
    }
}

TEST_F(ImageIO, JpegRoundTripIsClose) {
    // Quality 99 (Halide's): mean absolute error under 3 levels and PSNR over 35 dB. 16-bit
    // images go through convert_and_save_image (JPEG holds 8 bits) and compare with their
    // uint8 conversion.
    for (const Reference &r : references) {
        SCOPED_TRACE(r.name);
        Buffer<> im = load_image(image_path(r.name));
        if (r.bits == 16) {
            if (loom_header) {
                EXPECT_NE(error_of([&] { save_image(im, file("x.jpg")); }), "");
            }
            EXPECT_FALSE((save<Buffer<>, check_return>(im, file("x.jpg"))));
            convert_and_save(im, file("x.jpg"));
            im = convert_to<uint8_t>(im);
        } else {
            save_image(im, file("x.jpg"));
        }
        Buffer<> back = load_image(file("x.jpg"));
        ASSERT_EQ(back.type(), UInt(8));
        ASSERT_EQ(back.dimensions(), im.dimensions());
        std::vector<int> a = samples(im), b = samples(back);
        ASSERT_EQ(a.size(), b.size());
        double abs_sum = 0, sq_sum = 0;
        for (size_t i = 0; i < a.size(); i++) {
            double d = a[i] - b[i];
            abs_sum += std::fabs(d);
            sq_sum += d * d;
        }
        double mae = abs_sum / a.size(), mse = sq_sum / a.size();
        double psnr = mse == 0 ? 99 : 10 * std::log10(255.0 * 255.0 / mse);
        EXPECT_LT(mae, 3.0);
        EXPECT_GT(psnr, 35.0);
    }
}

TEST_F(ImageIO, EveryPngChannelCountAndDepthRoundTrips) {
    // Gray, gray+alpha, RGB and RGBA at 8 and 16 bits, from a buffer with nonzero mins: the file
    // holds the buffer's box, and loads back at (0, 0, 0).
    for (int channels = 1; channels <= 4; channels++) {
        for (int bits : {8, 16}) {
            SCOPED_TRACE(std::to_string(channels) + " channels, " + std::to_string(bits) + " bit");
            Buffer<> im = channels == 1 ? Buffer<>(UInt(bits), {37, 23})
                                        : Buffer<>(UInt(bits), {37, 23, channels});
            int mask = bits == 8 ? 0xff : 0xffff;
            auto value = [&](int x, int y, int c) { return (x * 2311 + y * 977 + c * 131) & mask; };
            im.set_min(5, -3);
            if (bits == 8) {
                Buffer<uint8_t> t = im;
                t.for_each_element([&](const int *p) {
                    t(p) = (uint8_t)value(p[0] - 5, p[1] + 3, channels > 1 ? p[2] : 0);
                });
            } else {
                Buffer<uint16_t> t = im;
                t.for_each_element([&](const int *p) {
                    t(p) = (uint16_t)value(p[0] - 5, p[1] + 3, channels > 1 ? p[2] : 0);
                });
            }
            save_image(im, file("c.png"));
            Buffer<> back = load_image(file("c.png"));
            ASSERT_EQ(back.type(), UInt(bits));
            ASSERT_EQ(back.dimensions(), channels == 1 ? 2 : 3);
            EXPECT_EQ(back.dim(0).min(), 0);
            for_each_sample(back, [&](int x, int y, int c, int v) {
                ASSERT_EQ(v, value(x, y, c)) << x << "," << y << "," << c;
            });
        }
    }
}

TEST_F(ImageIO, InterleavedAndCroppedBuffersSaveTheirBox) {
    Buffer<uint8_t> inter = Buffer<uint8_t>::make_interleaved(16, 9, 3);
    inter.for_each_element([&](int x, int y, int c) { inter(x, y, c) = x * 7 + y * 3 + c * 60; });
    Buffer<uint8_t> crop = inter.cropped(0, 3, 8).cropped(1, 2, 5);
    save_image(crop, file("crop.ppm"));
    Buffer<uint8_t> back = load_image(file("crop.ppm"));
    ASSERT_EQ(back.width(), 8);
    ASSERT_EQ(back.height(), 5);
    back.for_each_element(
        [&](int x, int y, int c) { ASSERT_EQ(back(x, y, c), (x + 3) * 7 + (y + 2) * 3 + c * 60); });
}

TEST_F(ImageIO, SixteenBitPnmIsBigEndianAndExact) {
    Buffer<uint16_t> im(5, 4);
    im.for_each_element([&](int x, int y) { im(x, y) = (uint16_t)(x * 13000 + y * 257 + 1); });
    save_image(im, file("g16.pgm"));
    std::vector<char> bytes = read_file(file("g16.pgm"));
    std::string header = "P5\n5 4\n65535\n";
    ASSERT_EQ(bytes.size(), header.size() + 5 * 4 * 2);
    EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + header.size()), header);
    // (1, 0) = 13001 = 0x32C9, most significant byte first.
    EXPECT_EQ((uint8_t)bytes[header.size() + 2], 0x32);
    EXPECT_EQ((uint8_t)bytes[header.size() + 3], 0xC9);
    Buffer<uint16_t> back = load_image(file("g16.pgm"));
    back.for_each_element([&](int x, int y) { ASSERT_EQ(back(x, y), im(x, y)); });
}

TEST_F(ImageIO, PnmHeaderCommentsAreSkipped) {
    const char data[] = "P6\n# made by hand\n2 1 # width height\n255\n\x01\x02\x03\x04\x05\x06";
    write_file(file("hand.ppm"), data, sizeof(data) - 1);
    Buffer<uint8_t> im = load_image(file("hand.ppm"));
    ASSERT_EQ(im.dimensions(), 3);
    EXPECT_EQ(im(0, 0, 0), 1);
    EXPECT_EQ(im(0, 0, 2), 3);
    EXPECT_EQ(im(1, 0, 1), 5);
}

TEST_F(ImageIO, ConvertImageFollowsHalidesScaling) {
    Buffer<uint8_t> all8(256);
    all8.for_each_element([&](int x) { all8(x) = (uint8_t)x; });
    Buffer<float> f = convert_to<float>(all8);
    Buffer<uint16_t> w = convert_to<uint16_t>(all8);
    Buffer<uint8_t> back = convert_to<uint8_t>(f);
    for (int x = 0; x < 256; x++) {
        ASSERT_FLOAT_EQ(f(x), x / 255.0f);
        ASSERT_EQ(w(x), x * 257); // bit replication: 0xAB -> 0xABAB
        ASSERT_EQ(back(x), x);    // uint8 -> float -> uint8 is exact
    }
    Buffer<uint16_t> all16(65536);
    all16.for_each_element([&](int x) { all16(x) = (uint16_t)x; });
    Buffer<uint8_t> n = convert_to<uint8_t>(all16);
    Buffer<float> f16 = convert_to<float>(all16);
    Buffer<uint16_t> back16 = convert_to<uint16_t>(f16);
    for (int x = 0; x < 65536; x++) {
        ASSERT_EQ(n(x), (x + 128) / 257); // rounded division by 257
        ASSERT_EQ(back16(x), x);
    }
    // Floats round to nearest; bool is 0 or 1; signed samples read as unsigned of their width.
    Buffer<float> some(4);
    some(0) = 0.5f / 255;
    some(1) = 0.49f / 255;
    some(2) = 1.0f;
    some(3) = 0.0f;
    Buffer<uint8_t> r = convert_to<uint8_t>(some);
    EXPECT_EQ(r(0), 1);
    EXPECT_EQ(r(1), 0);
    EXPECT_EQ(r(2), 255);
    EXPECT_EQ(r(3), 0);
    Buffer<bool> flags = convert_to<bool>(some);
    EXPECT_TRUE(flags(0) && flags(2) && !flags(3));
    Buffer<int8_t> s(1);
    s(0) = -1;
    EXPECT_EQ(convert_to<uint16_t>(s)(0), 0xffff);
    // The run-time-typed form, and a shape with nonzero mins is kept.
    Buffer<uint8_t> shifted(3, 2);
    shifted.fill(255);
    shifted.set_min(4, 7);
    Buffer<> d = ImageTypeConversion::convert_image(shifted, Float(64));
    ASSERT_EQ(d.type(), Float(64));
    EXPECT_EQ(d.dim(0).min(), 4);
    EXPECT_DOUBLE_EQ(Buffer<double>(d)(5, 8), 1.0);
}

TEST_F(ImageIO, LoadAndConvertAndConvertAndSave) {
    Buffer<uint8_t> u8 = load_image(image_path("rgb_small.png"));
    Buffer<float> f = load_and_convert_image(image_path("rgb_small.png"));
    Buffer<uint16_t> u16 = load_and_convert_image(image_path("rgb_small.png"));
    ASSERT_EQ(f.dimensions(), 3);
    f.for_each_element([&](int x, int y, int c) {
        ASSERT_FLOAT_EQ(f(x, y, c), u8(x, y, c) / 255.0f);
        ASSERT_EQ(u16(x, y, c), u8(x, y, c) * 257);
    });
    // A float image is not saved as is. convert_and_save_image picks the closest type PNG
    // holds, by Halide's score (fewest bits lost): uint16, scaled by 65535.
    Buffer<float> wrong;
    EXPECT_FALSE((load<Buffer<float>, check_return>(image_path("rgb_small.png"), &wrong)));
    EXPECT_FALSE((save<Buffer<float>, check_return>(f, file("f.png"))));
    convert_and_save(f, file("f.png"));
    expect_same_image(load_image(file("f.png")), u16, "float -> png");
    if (!loom_header) return;

    // Loading into another element type without converting is an error that says what to do.
    std::string msg = error_of([&] { Buffer<float> g = load_image(image_path("rgb_small.png")); });
    EXPECT_NE(msg.find("rgb_small.png"), std::string::npos) << msg;
    EXPECT_NE(msg.find("load_and_convert_image"), std::string::npos) << msg;
    msg = error_of([&] { Buffer<uint8_t, 2> g = load_image(image_path("rgb_small.png")); });
    EXPECT_NE(msg.find("dimensions"), std::string::npos) << msg;
    msg = error_of([&] { save_image(f, file("f.png")); });
    EXPECT_NE(msg.find("convert_and_save_image"), std::string::npos) << msg;
    // A 2-D gray image converts for PPM by gaining a channel dimension... which PPM cannot hold
    // with one channel (Halide's behaviour: an error, not a silent gray-to-RGB).
    Buffer<uint8_t> gray = load_image(image_path("gray_small.png"));
    EXPECT_NE(error_of([&] { convert_and_save(gray, file("g.ppm")); }), "");
}

TEST_F(ImageIO, RuntimeBuffersWorkToo) {
    Runtime::Buffer<uint16_t> im = load_image(image_path("rgb_small16.png"));
    ASSERT_EQ(im.dimensions(), 3);
    save_image(im, file("r.png"));
    Runtime::Buffer<uint16_t> back = load_image(file("r.png"));
    Runtime::Buffer<float> f = load_and_convert_image(file("r.png"));
    im.for_each_element([&](int x, int y, int c) {
        ASSERT_EQ(back(x, y, c), im(x, y, c));
        ASSERT_FLOAT_EQ(f(x, y, c), im(x, y, c) / 65535.0f);
    });
}

TEST_F(ImageIO, MissingFileAndUnknownExtension) {
    Buffer<> any;
    Buffer<uint8_t> im(4, 4);
    std::string missing = file("no_such_image.png");
    EXPECT_FALSE((load<Buffer<>, check_return>(missing, &any)));
    EXPECT_FALSE((load<Buffer<>, check_return>(file("picture.bmp"), &any)));
    EXPECT_FALSE((save<Buffer<uint8_t>, check_return>(im, file("picture.bmp"))));
    EXPECT_FALSE((save<Buffer<uint8_t>, check_return>(im, dir + "/no_such_dir/x.png")));
    if (!loom_header) return;

    std::string msg = error_of([&] { Buffer<uint8_t> b = load_image(missing); });
    EXPECT_NE(msg.find(missing), std::string::npos) << msg;
    EXPECT_NE(msg.find("does not exist"), std::string::npos) << msg;
    msg = error_of([&] { Buffer<uint8_t> b = load_image(file("no_such_image.jpg")); });
    EXPECT_NE(msg.find("does not exist"), std::string::npos) << msg;
    for (const char *name : {"picture.bmp", "noextension"}) {
        msg = error_of([&] { save_image(im, file(name)); });
        EXPECT_NE(msg.find(name), std::string::npos) << msg;
        EXPECT_NE(msg.find("unsupported file extension"), std::string::npos) << msg;
        msg = error_of([&] { Buffer<uint8_t> b = load_image(file(name)); });
        EXPECT_NE(msg.find("unsupported file extension"), std::string::npos) << msg;
    }
    msg = error_of([&] { save_image(im, dir + "/no_such_dir/x.png"); });
    EXPECT_NE(msg.find("cannot be opened for writing"), std::string::npos) << msg;
}

TEST_F(ImageIO, TruncatedAndGarbageFilesAreClearErrors) {
    Buffer<uint8_t> rgb = load_image(image_path("rgb_small.png"));
    save_image(rgb, file("whole.jpg"));
    save_image(rgb, file("whole.ppm"));
    struct Case {
        std::string source, name, expect;
        bool halide_fails; // Halide pads a truncated JPEG with gray and reports success
    } cases[] = {
        {image_path("rgb_small.png"), "half.png", "truncated or corrupt", true},
        {file("whole.jpg"), "half.jpg", "truncated or corrupt", false},
        {file("whole.ppm"), "half.ppm", "truncated", true},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.name);
        std::vector<char> bytes = read_file(c.source);
        ASSERT_GT(bytes.size(), 100u);
        write_file(file(c.name), bytes.data(), bytes.size() / 2);
        Buffer<> im;
        if (loom_header || c.halide_fails) {
            EXPECT_FALSE((load<Buffer<>, check_return>(file(c.name), &im)));
        }
        if (!loom_header) continue;
        std::string msg = error_of([&] { Buffer<uint8_t> b = load_image(file(c.name)); });
        EXPECT_NE(msg.find(file(c.name)), std::string::npos) << msg;
        EXPECT_NE(msg.find(c.expect), std::string::npos) << msg;
    }
    // Garbage and empty files (Halide's libjpeg error handler would exit() on garbage.jpg).
    std::string garbage(5000, '\0');
    for (size_t i = 0; i < garbage.size(); i++) garbage[i] = (char)(i * 7919 % 251);
    for (const char *name : {"garbage.png", "garbage.jpg", "garbage.pgm", "empty.png"}) {
        SCOPED_TRACE(name);
        write_file(file(name), garbage.data(), name[0] == 'e' ? 0 : garbage.size());
        Buffer<> im;
        if (loom_header || std::string(name) != "garbage.jpg") {
            EXPECT_FALSE((load<Buffer<>, check_return>(file(name), &im)));
        }
        if (!loom_header) continue;
        std::string msg = error_of([&] { Buffer<uint8_t> b = load_image(file(name)); });
        EXPECT_NE(msg.find(file(name)), std::string::npos) << msg;
    }
    // A PNG whose image data is damaged in the middle is caught as well.
    std::vector<char> bytes = read_file(image_path("rgb_small.png"));
    bytes[bytes.size() / 2] ^= 0x55;
    write_file(file("damaged.png"), bytes.data(), bytes.size());
    Buffer<> im;
    EXPECT_FALSE((load<Buffer<>, check_return>(file("damaged.png"), &im)));
    if (!loom_header) return;
    std::string msg = error_of([&] { Buffer<uint8_t> b = load_image(file("damaged.png")); });
    EXPECT_NE(msg.find("corrupt"), std::string::npos) << msg;
}

TEST_F(ImageIO, SaveQueryListsWhatEachFormatHolds) {
    std::set<FormatInfo> info;
    ASSERT_TRUE(save_query<Buffer<>>(file("a.jpg"), &info));
    EXPECT_EQ(info.size(), 2u);
    EXPECT_TRUE(info.count({halide_type_t(halide_type_uint, 8), 3}));
    ASSERT_TRUE(save_query<Buffer<>>(file("a.png"), &info));
    EXPECT_TRUE(info.count({halide_type_t(halide_type_uint, 16), 2}));
    EXPECT_FALSE((save_query<Buffer<>, check_return>(file("a.gif"), &info)));
}
