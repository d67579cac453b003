#ifndef LOOM_COMPAT_HALIDE_IMAGE_IO_H
#define LOOM_COMPAT_HALIDE_IMAGE_IO_H

/// \file Image file I/O for Loom and Halide programs (Halide's halide_image_io.h names):
/// `Tools::load_image` and `Tools::save_image` (JPEG and the converting variants come with the
/// image-I/O work of the next milestone). PNG (8 and 16 bit, gray/gray+alpha/RGB/RGBA) through
/// libpng and binary PGM/PPM (8 and 16 bit). Images are planar Buffers: (x, y) for one channel, (x,
/// y, c) otherwise. Failures throw loom::Error naming the file and the reason. Link with libpng
/// (CMake: PNG::PNG).

#include <loom/buffer.h>
#include <loom/error.h>

#include <png.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace loom {
namespace Tools {

namespace image_io_detail {

inline std::string lower_extension(const std::string &filename) {
    size_t dot = filename.rfind('.');
    std::string ext = dot == std::string::npos ? "" : filename.substr(dot + 1);
    for (char &c : ext) c = (char)std::tolower((unsigned char)c);
    return ext;
}

[[noreturn]] inline void fail(const std::string &filename, const std::string &why) {
    throw loom::Error("Image I/O error for \"" + filename + "\": " + why);
}

struct FileCloser {
    void operator()(FILE *f) const {
        if (f) fclose(f);
    }
};
using File = std::unique_ptr<FILE, FileCloser>;

inline File open_file(const std::string &filename, const char *mode) {
    File f(fopen(filename.c_str(), mode));
    if (!f) fail(filename, std::string("cannot open file (") + std::strerror(errno) + ")");
    return f;
}

// Buffer of the given bit depth and channel count, planar, 2-D when there is one channel.
inline Buffer<> make_image(int bits, int width, int height, int channels) {
    Type t = bits == 16 ? UInt(16) : UInt(8);
    if (channels == 1) return Buffer<>(t, {width, height});
    return Buffer<>(t, {width, height, channels});
}

// Copy interleaved samples (row-major, channel fastest) into a planar image.
template <typename T>
void deinterleave(const std::vector<const uint8_t *> &rows, Buffer<> &img, int channels) {
    Buffer<T> typed = img;
    for (int y = 0; y < typed.height(); y++) {
        const T *row = (const T *)rows[y];
        for (int x = 0; x < typed.width(); x++) {
            for (int c = 0; c < channels; c++) {
                T v = row[x * channels + c];
                if (channels == 1)
                    typed(x, y) = v;
                else
                    typed(x, y, c) = v;
            }
        }
    }
}

inline void png_error_to_exception(png_structp png, png_const_charp msg) {
    throw loom::Error(std::string("libpng: ") + msg);
}

inline Buffer<> load_png(const std::string &filename) {
    File f = open_file(filename, "rb");
    uint8_t header[8];
    if (fread(header, 1, 8, f.get()) != 8 || png_sig_cmp(header, 0, 8)) {
        fail(filename, "not a PNG file");
    }
    png_structp png =
        png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, png_error_to_exception, nullptr);
    png_infop info = png_create_info_struct(png);
    Buffer<> img;
    try {
        png_init_io(png, f.get());
        png_set_sig_bytes(png, 8);
        // Expand palettes and low bit depths to 8 bits; 16-bit samples to host byte order.
        png_read_png(png, info,
                     PNG_TRANSFORM_EXPAND | PNG_TRANSFORM_SWAP_ENDIAN | PNG_TRANSFORM_PACKING,
                     nullptr);
        int width = (int)png_get_image_width(png, info);
        int height = (int)png_get_image_height(png, info);
        int channels = png_get_channels(png, info);
        int bits = png_get_bit_depth(png, info);
        png_bytepp row_ptrs = png_get_rows(png, info);
        std::vector<const uint8_t *> rows(row_ptrs, row_ptrs + height);
        img = make_image(bits, width, height, channels);
        if (bits == 16)
            deinterleave<uint16_t>(rows, img, channels);
        else
            deinterleave<uint8_t>(rows, img, channels);
    } catch (const loom::Error &e) {
        png_destroy_read_struct(&png, &info, nullptr);
        fail(filename, std::string("malformed PNG (") + e.what() + ")");
    }
    png_destroy_read_struct(&png, &info, nullptr);
    return img;
}

template <typename T>
void interleave_row(const Buffer<> &img, int y, int channels, std::vector<uint8_t> &row) {
    Buffer<T> typed = img;
    T *out = (T *)row.data();
    for (int x = 0; x < typed.width(); x++) {
        for (int c = 0; c < channels; c++) {
            int xx = x + typed.dim(0).min();
            out[x * channels + c] =
                typed.dimensions() == 2 ? typed(xx, y) : typed(xx, y, c + typed.dim(2).min());
        }
    }
}

inline void check_saveable(const Buffer<> &img, const std::string &filename, int &channels,
                           int &bits) {
    if (!img.defined()) fail(filename, "the buffer is undefined");
    if (img.type() != UInt(8) && img.type() != UInt(16)) {
        fail(filename, "only uint8 and uint16 buffers can be saved ");
    }
    if (img.dimensions() != 2 && img.dimensions() != 3) {
        fail(filename, "only 2-D (gray) and 3-D (x, y, channel) buffers can be saved");
    }
    channels = img.dimensions() == 2 ? 1 : img.dim(2).extent();
    if (channels < 1 || channels > 4) fail(filename, "1 to 4 channels can be saved");
    bits = img.type().bits();
}

inline void save_png(const Buffer<> &img, const std::string &filename) {
    int channels, bits;
    check_saveable(img, filename, channels, bits);
    File f = open_file(filename, "wb");
    png_structp png =
        png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, png_error_to_exception, nullptr);
    png_infop info = png_create_info_struct(png);
    try {
        png_init_io(png, f.get());
        static const int color_types[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                          PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
        png_set_IHDR(png, info, img.dim(0).extent(), img.dim(1).extent(), bits,
                     color_types[channels - 1], PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                     PNG_FILTER_TYPE_DEFAULT);
        png_write_info(png, info);
        if (bits == 16) png_set_swap(png);
        std::vector<uint8_t> row((size_t)img.dim(0).extent() * channels * (bits / 8));
        for (int y = img.dim(1).min(); y <= img.dim(1).max(); y++) {
            if (bits == 16)
                interleave_row<uint16_t>(img, y, channels, row);
            else
                interleave_row<uint8_t>(img, y, channels, row);
            png_write_row(png, row.data());
        }
        png_write_end(png, nullptr);
    } catch (const loom::Error &e) {
        png_destroy_write_struct(&png, &info);
        fail(filename, std::string("cannot write PNG (") + e.what() + ")");
    }
    png_destroy_write_struct(&png, &info);
}

// Binary PGM (P5) / PPM (P6), 8 or 16 bit (big-endian samples, as the format requires).
inline Buffer<> load_pnm(const std::string &filename) {
    File f = open_file(filename, "rb");
    char magic[3] = {0};
    int width = 0, height = 0, maxval = 0;
    if (fscanf(f.get(), "%2s %d %d %d", magic, &width, &height, &maxval) != 4 ||
        (std::strcmp(magic, "P5") && std::strcmp(magic, "P6")) || width <= 0 || height <= 0 ||
        maxval <= 0 || maxval > 65535) {
        fail(filename, "malformed PGM/PPM header");
    }
    fgetc(f.get());
    int channels = magic[1] == '5' ? 1 : 3;
    int bits = maxval > 255 ? 16 : 8;
    size_t row_bytes = (size_t)width * channels * (bits / 8);
    std::vector<uint8_t> data(row_bytes * height);
    if (fread(data.data(), 1, data.size(), f.get()) != data.size()) {
        fail(filename, "truncated PGM/PPM data");
    }
    if (bits == 16) {
        for (size_t i = 0; i + 1 < data.size(); i += 2) std::swap(data[i], data[i + 1]);
    }
    std::vector<const uint8_t *> rows;
    for (int y = 0; y < height; y++) rows.push_back(data.data() + y * row_bytes);
    Buffer<> img = make_image(bits, width, height, channels);
    if (bits == 16)
        deinterleave<uint16_t>(rows, img, channels);
    else
        deinterleave<uint8_t>(rows, img, channels);
    return img;
}

inline void save_pnm(const Buffer<> &img, const std::string &filename) {
    int channels, bits;
    check_saveable(img, filename, channels, bits);
    if (channels != 1 && channels != 3) fail(filename, "PGM/PPM holds 1 or 3 channels");
    File f = open_file(filename, "wb");
    fprintf(f.get(), "P%d\n%d %d\n%d\n", channels == 1 ? 5 : 6, img.dim(0).extent(),
            img.dim(1).extent(), bits == 16 ? 65535 : 255);
    std::vector<uint8_t> row((size_t)img.dim(0).extent() * channels * (bits / 8));
    for (int y = img.dim(1).min(); y <= img.dim(1).max(); y++) {
        if (bits == 16) {
            interleave_row<uint16_t>(img, y, channels, row);
            for (size_t i = 0; i + 1 < row.size(); i += 2) std::swap(row[i], row[i + 1]);
        } else {
            interleave_row<uint8_t>(img, y, channels, row);
        }
        if (fwrite(row.data(), 1, row.size(), f.get()) != row.size())
            fail(filename, "write failed");
    }
}

} // namespace image_io_detail

/// The result of load_image: converts to a Buffer of the file's element type (a Buffer of
/// another type is an error).
class ImageLoadResult {
public:
    explicit ImageLoadResult(Buffer<> b, std::string filename)
        : buf(std::move(b)), filename(std::move(filename)) {}
    template <typename T, int Dims>
    operator Buffer<T, Dims>() const {
        check_type(static_cast<T *>(nullptr));
        return Buffer<T, Dims>(buf);
    }

private:
    void check_type(void *) const {}
    template <typename T>
    void check_type(T *) const {
        if (buf.type() != type_of<T>()) {
            image_io_detail::fail(filename, "the file holds " + type_to_string(buf.type()) +
                                                " samples; load it into a Buffer of that type");
        }
    }
    Buffer<> buf;
    std::string filename;
};

/// Loads a PNG, PGM or PPM file into a planar Buffer of its own sample type.
inline ImageLoadResult load_image(const std::string &filename) {
    std::string ext = image_io_detail::lower_extension(filename);
    if (ext == "png") return ImageLoadResult(image_io_detail::load_png(filename), filename);
    if (ext == "pgm" || ext == "ppm") {
        return ImageLoadResult(image_io_detail::load_pnm(filename), filename);
    }
    image_io_detail::fail(filename, "unsupported file type \"" + ext + "\" (png, pgm, ppm)");
}

/// Saves a uint8 or uint16 Buffer (x, y) or (x, y, c) as PNG, PGM or PPM by extension.
template <typename T, int Dims>
void save_image(const Buffer<T, Dims> &im, const std::string &filename) {
    Buffer<> b = im;
    std::string ext = image_io_detail::lower_extension(filename);
    if (ext == "png") return image_io_detail::save_png(b, filename);
    if (ext == "pgm" || ext == "ppm") return image_io_detail::save_pnm(b, filename);
    image_io_detail::fail(filename, "unsupported file type \"" + ext + "\" (png, pgm, ppm)");
}

} // namespace Tools
} // namespace loom

#endif
