#ifndef LOOM_COMPAT_IMAGE_IO_CODECS_H
#define LOOM_COMPAT_IMAGE_IO_CODECS_H

/// \file The file formats behind halide_image_io.h (include that instead): the error policy,
/// PNG (libpng), JPEG (libjpeg), binary PGM/PPM, and the choice of a format by file extension.
/// Every codec reads into, or writes from, a Runtime::Buffer<void> of uint8 or uint16 samples,
/// planar: (x, y) for one channel, (x, y, c) otherwise.

#include "halide_namespace.h"

#include <loom/error.h>
#include <loom/runtime/loom_buffer.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#ifndef HALIDE_NO_PNG
#include <png.h>
#endif
#ifndef HALIDE_NO_JPEG
#include <jpeglib.h>
// jerror.h after jpeglib.h: the message codes (JWRN_*) of the warnings treated as errors.
#include <jerror.h>
#endif

namespace Halide {
namespace Tools {

/// An element type and dimension count a file format can store (Halide's FormatInfo).
struct FormatInfo {
    halide_type_t type;
    int dimensions;

    bool operator<(const FormatInfo &o) const {
        if (type.code != o.type.code) return type.code < o.type.code;
        if (type.bits != o.type.bits) return type.bits < o.type.bits;
        if (type.lanes != o.type.lanes) return type.lanes < o.type.lanes;
        return dimensions < o.dimensions;
    }
};

namespace Internal {

/// The error policy: called with a condition and the message to report when it is false;
/// returns the condition.
typedef bool (*CheckFunc)(bool condition, const char *msg);

/// Prints the message to stderr and throws loom::RuntimeError when the condition is false.
inline bool CheckFail(bool condition, const char *msg) {
    if (!condition) {
        std::fprintf(stderr, "%s\n", msg);
        throw loom::RuntimeError(msg);
    }
    return condition;
}

/// Reports nothing: the caller sees `false`.
inline bool CheckReturn(bool condition, const char *) { return condition; }

constexpr int AnyDims = loom::AnyDims;

/// "uint8", "float32", "bool", ...
inline std::string type_name(halide_type_t t) {
    if (t.code == halide_type_uint && t.bits == 1) return "bool";
    static const char *names[] = {"int", "uint", "float", "handle", "bfloat"};
    std::string s = t.code < 5 ? names[t.code] : "type" + std::to_string(t.code);
    s += std::to_string(t.bits);
    if (t.lanes != 1) s += "x" + std::to_string(t.lanes);
    return s;
}

// ---- Files ----

inline std::string lowercase_extension(const std::string &filename) {
    size_t dot = filename.rfind('.');
    size_t slash = filename.find_last_of("/\\");
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string ext = filename.substr(dot + 1);
    for (char &c : ext) c = (char)std::tolower((unsigned char)c);
    return ext;
}

/// Reports a failure through the policy: `<verb> "<file>": <why>`.
template <CheckFunc check>
bool fail(const char *verb, const std::string &filename, const std::string &why) {
    std::string msg = std::string(verb) + " \"" + filename + "\": " + why;
    return check(false, msg.c_str());
}

/// Closes the FILE on every path out.
struct FileOpener {
    FileOpener(const std::string &filename, const char *mode) : f(fopen(filename.c_str(), mode)) {
        if (!f) error = errno;
    }
    ~FileOpener() {
        if (f) fclose(f);
    }
    FileOpener(const FileOpener &) = delete;
    FileOpener &operator=(const FileOpener &) = delete;
    std::string why_not_open(bool reading) const {
        std::string what = reading ? (error == ENOENT ? "the file does not exist"
                                                      : "the file cannot be opened for reading")
                                   : "the file cannot be opened for writing";
        return what + " (" + std::strerror(error) + ")";
    }
    FILE *f;
    int error = 0;
};

/// A dense planar image of the given sample bits (8 or 16), 2-D when there is one channel.
inline Runtime::Buffer<void> make_image(int bits, int width, int height, int channels) {
    halide_type_t t(halide_type_uint, (uint8_t)bits);
    if (channels == 1) return Runtime::Buffer<void>(t, std::vector<int>{width, height});
    return Runtime::Buffer<void>(t, std::vector<int>{width, height, channels});
}

/// Copies interleaved samples (row after row, channel fastest; 16-bit ones big-endian) into a
/// planar image made by make_image.
inline void deinterleave(const uint8_t *src, size_t row_bytes, Runtime::Buffer<void> &img) {
    const halide_buffer_t &b = *img.raw_buffer();
    int w = b.dim[0].extent, h = b.dim[1].extent, nc = b.dimensions > 2 ? b.dim[2].extent : 1;
    size_t plane = (size_t)w * h;
    if (b.type.bits == 16) {
        uint16_t *dst = (uint16_t *)b.host;
        for (int y = 0; y < h; y++, src += row_bytes) {
            for (int x = 0, i = 0; x < w; x++) {
                for (int c = 0; c < nc; c++, i += 2) {
                    dst[x + (size_t)y * w + c * plane] = (uint16_t)((src[i] << 8) | src[i + 1]);
                }
            }
        }
    } else {
        uint8_t *dst = b.host;
        for (int y = 0; y < h; y++, src += row_bytes) {
            for (int x = 0, i = 0; x < w; x++) {
                for (int c = 0; c < nc; c++, i++) dst[x + (size_t)y * w + c * plane] = src[i];
            }
        }
    }
}

/// The image's samples interleaved row by row (16-bit ones big-endian), whatever its mins and
/// strides. `channels` is 1 for a 2-D image.
inline std::vector<uint8_t> interleave(const Runtime::Buffer<const void> &img, int channels) {
    const halide_buffer_t &b = *img.raw_buffer();
    int w = b.dim[0].extent, h = b.dim[1].extent, bytes = b.type.bytes();
    ptrdiff_t s0 = b.dim[0].stride, s1 = b.dim[1].stride;
    ptrdiff_t s2 = b.dimensions > 2 ? b.dim[2].stride : 0;
    std::vector<uint8_t> out((size_t)w * h * channels * bytes);
    size_t i = 0;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            for (int c = 0; c < channels; c++) {
                const uint8_t *p = b.host + (x * s0 + y * s1 + c * s2) * bytes;
                if (bytes == 2) {
                    uint16_t v;
                    std::memcpy(&v, p, 2);
                    out[i++] = (uint8_t)(v >> 8);
                    out[i++] = (uint8_t)(v & 0xff);
                } else {
                    out[i++] = *p;
                }
            }
        }
    }
    return out;
}

/// The channel count of an (x, y) or (x, y, c) image.
inline int channels_of(const Runtime::Buffer<const void> &img) {
    return img.dimensions() > 2 ? img.raw_buffer()->dim[2].extent : 1;
}

// ---- PNG ----

#ifndef HALIDE_NO_PNG

/// Where libpng's error callback leaves its message before jumping back.
struct PngError {
    char message[200] = "unknown error";
};

inline void png_on_error(png_structp png, png_const_charp msg) {
    PngError *e = (PngError *)png_get_error_ptr(png);
    std::snprintf(e->message, sizeof(e->message), "%s", msg);
    png_longjmp(png, 1);
}
inline void png_on_warning(png_structp, png_const_charp) {}

// The functions that call into libpng hold only trivially destructible locals: a longjmp out of
// them skips no destructor.
inline bool png_read_header_guarded(png_structp png, png_infop info, FILE *f) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_init_io(png, f);
    png_set_sig_bytes(png, 8);
    png_read_info(png, info);
    int color = png_get_color_type(png, info);
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(png, info) < 8) {
        png_set_expand_gray_1_2_4_to_8(png);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    return true;
}
inline bool png_read_rows_guarded(png_structp png, png_bytepp rows) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_read_image(png, rows);
    png_read_end(png, nullptr);
    return true;
}
inline bool png_write_guarded(png_structp png, png_infop info, FILE *f, int width, int height,
                              int bits, int color, png_bytepp rows) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_init_io(png, f);
    png_set_IHDR(png, info, width, height, bits, color, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, nullptr);
    return true;
}

template <CheckFunc check>
bool load_png(const std::string &filename, Runtime::Buffer<void> *im) {
    const char *verb = "Error loading";
    FileOpener f(filename, "rb");
    if (!f.f) return fail<check>(verb, filename, f.why_not_open(true));
    uint8_t header[8];
    if (fread(header, 1, 8, f.f) != 8 || png_sig_cmp(header, 0, 8)) {
        return fail<check>(verb, filename, "not a PNG file (bad signature)");
    }
    PngError err;
    png_structp png =
        png_create_read_struct(PNG_LIBPNG_VER_STRING, &err, png_on_error, png_on_warning);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    struct Destroy {
        png_structp &p;
        png_infop &i;
        ~Destroy() {
            if (p) png_destroy_read_struct(&p, i ? &i : nullptr, nullptr);
        }
    } destroy{png, info};
    if (!info) return fail<check>(verb, filename, "libpng could not be initialized");
    if (!png_read_header_guarded(png, info, f.f)) {
        return fail<check>(verb, filename,
                           std::string("the PNG is truncated or corrupt (libpng: ") + err.message +
                               ")");
    }
    int width = (int)png_get_image_width(png, info), height = (int)png_get_image_height(png, info);
    int channels = png_get_channels(png, info), bits = png_get_bit_depth(png, info);
    size_t row_bytes = png_get_rowbytes(png, info);
    std::vector<uint8_t> data(row_bytes * height);
    std::vector<png_bytep> rows(height);
    for (int y = 0; y < height; y++) rows[y] = data.data() + y * row_bytes;
    if (!png_read_rows_guarded(png, rows.data())) {
        return fail<check>(verb, filename,
                           std::string("the PNG is truncated or corrupt (libpng: ") + err.message +
                               ")");
    }
    *im = make_image(bits, width, height, channels);
    deinterleave(data.data(), row_bytes, *im);
    return true;
}

inline const std::set<FormatInfo> &query_png() {
    static const std::set<FormatInfo> info = {{halide_type_t(halide_type_uint, 8), 2},
                                              {halide_type_t(halide_type_uint, 16), 2},
                                              {halide_type_t(halide_type_uint, 8), 3},
                                              {halide_type_t(halide_type_uint, 16), 3}};
    return info;
}

template <CheckFunc check>
bool save_png(const Runtime::Buffer<const void> &im, const std::string &filename) {
    const char *verb = "Error saving";
    int channels = channels_of(im);
    if (channels < 1 || channels > 4) {
        return fail<check>(verb, filename,
                           "PNG holds 1 to 4 channels; the buffer has " + std::to_string(channels));
    }
    std::vector<uint8_t> data = interleave(im, channels);
    int width = im.raw_buffer()->dim[0].extent, height = im.raw_buffer()->dim[1].extent;
    size_t row_bytes = (size_t)width * channels * im.type().bytes();
    std::vector<png_bytep> rows(height);
    for (int y = 0; y < height; y++) rows[y] = data.data() + y * row_bytes;
    FileOpener f(filename, "wb");
    if (!f.f) return fail<check>(verb, filename, f.why_not_open(false));
    PngError err;
    png_structp png =
        png_create_write_struct(PNG_LIBPNG_VER_STRING, &err, png_on_error, png_on_warning);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    struct Destroy {
        png_structp &p;
        png_infop &i;
        ~Destroy() {
            if (p) png_destroy_write_struct(&p, i ? &i : nullptr);
        }
    } destroy{png, info};
    if (!info) return fail<check>(verb, filename, "libpng could not be initialized");
    static const int colors[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                 PNG_COLOR_TYPE_RGB_ALPHA};
    if (!png_write_guarded(png, info, f.f, width, height, im.type().bits, colors[channels - 1],
                           rows.data())) {
        return fail<check>(verb, filename, std::string("libpng: ") + err.message);
    }
    return true;
}

#endif // HALIDE_NO_PNG

// ---- JPEG ----

#ifndef HALIDE_NO_JPEG

/// libjpeg's error manager, extended with where to jump back to and the message.
struct JpegError {
    jpeg_error_mgr mgr;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX] = "unknown error";
};

inline void jpeg_on_error(j_common_ptr cinfo) {
    JpegError *e = (JpegError *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, e->message);
    longjmp(e->jump, 1);
}
/// Warnings about damaged data (a premature end of file above all, which libjpeg would pad
/// with gray) are errors here; trace messages and harmless warnings are dropped.
inline void jpeg_on_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    int code = cinfo->err->msg_code;
    if (code == JWRN_ADOBE_XFORM || code == JWRN_JFIF_MAJOR) return;
    jpeg_on_error(cinfo);
}

inline bool jpeg_read_header_guarded(jpeg_decompress_struct *cinfo, JpegError *err, FILE *f) {
    cinfo->err = jpeg_std_error(&err->mgr);
    err->mgr.error_exit = jpeg_on_error;
    err->mgr.emit_message = jpeg_on_message;
    if (setjmp(err->jump)) return false;
    jpeg_create_decompress(cinfo);
    jpeg_stdio_src(cinfo, f);
    jpeg_read_header(cinfo, TRUE);
    jpeg_start_decompress(cinfo);
    return true;
}
inline bool jpeg_read_rows_guarded(jpeg_decompress_struct *cinfo, JpegError *err, uint8_t *data,
                                   size_t row_bytes) {
    if (setjmp(err->jump)) return false;
    while (cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW row = data + cinfo->output_scanline * row_bytes;
        jpeg_read_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_decompress(cinfo);
    return true;
}
inline bool jpeg_write_guarded(jpeg_compress_struct *cinfo, JpegError *err, FILE *f, int width,
                               int height, int channels, uint8_t *data) {
    cinfo->err = jpeg_std_error(&err->mgr);
    err->mgr.error_exit = jpeg_on_error;
    err->mgr.emit_message = jpeg_on_message;
    if (setjmp(err->jump)) return false;
    jpeg_create_compress(cinfo);
    jpeg_stdio_dest(cinfo, f);
    cinfo->image_width = width;
    cinfo->image_height = height;
    cinfo->input_components = channels;
    cinfo->in_color_space = channels == 3 ? JCS_RGB : JCS_GRAYSCALE;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, 99, TRUE); // Halide's quality
    jpeg_start_compress(cinfo, TRUE);
    while (cinfo->next_scanline < cinfo->image_height) {
        JSAMPROW row = data + (size_t)cinfo->next_scanline * width * channels;
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);
    return true;
}

template <CheckFunc check>
bool load_jpg(const std::string &filename, Runtime::Buffer<void> *im) {
    const char *verb = "Error loading";
    FileOpener f(filename, "rb");
    if (!f.f) return fail<check>(verb, filename, f.why_not_open(true));
    jpeg_decompress_struct cinfo;
    std::memset(&cinfo, 0, sizeof(cinfo));
    JpegError err;
    struct Destroy {
        jpeg_decompress_struct &c;
        ~Destroy() { jpeg_destroy_decompress(&c); }
    } destroy{cinfo};
    std::string corrupt = "the JPEG is truncated or corrupt (libjpeg: ";
    if (!jpeg_read_header_guarded(&cinfo, &err, f.f)) {
        return fail<check>(verb, filename, corrupt + err.message + ")");
    }
    int width = (int)cinfo.output_width, height = (int)cinfo.output_height;
    int channels = cinfo.output_components;
    size_t row_bytes = (size_t)width * channels;
    std::vector<uint8_t> data(row_bytes * height);
    if (!jpeg_read_rows_guarded(&cinfo, &err, data.data(), row_bytes)) {
        return fail<check>(verb, filename, corrupt + err.message + ")");
    }
    *im = make_image(8, width, height, channels);
    deinterleave(data.data(), row_bytes, *im);
    return true;
}

inline const std::set<FormatInfo> &query_jpg() {
    static const std::set<FormatInfo> info = {{halide_type_t(halide_type_uint, 8), 2},
                                              {halide_type_t(halide_type_uint, 8), 3}};
    return info;
}

template <CheckFunc check>
bool save_jpg(const Runtime::Buffer<const void> &im, const std::string &filename) {
    const char *verb = "Error saving";
    int channels = channels_of(im);
    if (channels != 1 && channels != 3) {
        return fail<check>(verb, filename,
                           "JPEG holds 1 or 3 channels; the buffer has " +
                               std::to_string(channels));
    }
    std::vector<uint8_t> data = interleave(im, channels);
    FileOpener f(filename, "wb");
    if (!f.f) return fail<check>(verb, filename, f.why_not_open(false));
    jpeg_compress_struct cinfo;
    std::memset(&cinfo, 0, sizeof(cinfo));
    JpegError err;
    struct Destroy {
        jpeg_compress_struct &c;
        ~Destroy() { jpeg_destroy_compress(&c); }
    } destroy{cinfo};
    if (!jpeg_write_guarded(&cinfo, &err, f.f, im.raw_buffer()->dim[0].extent,
                            im.raw_buffer()->dim[1].extent, channels, data.data())) {
        return fail<check>(verb, filename, std::string("libjpeg: ") + err.message);
    }
    return true;
}

#endif // HALIDE_NO_JPEG

// ---- PGM / PPM ----

/// Reads one header number, skipping whitespace and '#' comments; -1 on a malformed header.
inline long read_pnm_number(FILE *f) {
    int c = fgetc(f);
    while (c == '#' || std::isspace(c)) {
        if (c == '#') {
            while (c != '\n' && c != EOF) c = fgetc(f);
        }
        c = fgetc(f);
    }
    if (!std::isdigit(c)) return -1;
    long v = 0;
    while (std::isdigit(c)) {
        v = v * 10 + (c - '0');
        if (v > (1L << 30)) return -1;
        c = fgetc(f);
    }
    // The one whitespace byte after the last header number belongs to the header.
    if (c != EOF && !std::isspace(c)) return -1;
    return v;
}

template <CheckFunc check>
bool load_pnm(const std::string &filename, Runtime::Buffer<void> *im) {
    const char *verb = "Error loading";
    FileOpener f(filename, "rb");
    if (!f.f) return fail<check>(verb, filename, f.why_not_open(true));
    char magic[2] = {0, 0};
    if (fread(magic, 1, 2, f.f) != 2 || magic[0] != 'P' || (magic[1] != '5' && magic[1] != '6')) {
        return fail<check>(verb, filename, "not a binary PGM/PPM file (expected P5 or P6)");
    }
    long width = read_pnm_number(f.f), height = read_pnm_number(f.f);
    long maxval = read_pnm_number(f.f);
    if (width <= 0 || height <= 0 || maxval <= 0 || maxval > 65535) {
        return fail<check>(verb, filename, "malformed PGM/PPM header");
    }
    int channels = magic[1] == '5' ? 1 : 3, bits = maxval > 255 ? 16 : 8;
    size_t row_bytes = (size_t)width * channels * (bits / 8);
    std::vector<uint8_t> data(row_bytes * height);
    if (fread(data.data(), 1, data.size(), f.f) != data.size()) {
        return fail<check>(verb, filename,
                           "the PGM/PPM is truncated (fewer samples than " + std::to_string(width) +
                               " x " + std::to_string(height) + " needs)");
    }
    *im = make_image(bits, (int)width, (int)height, channels);
    deinterleave(data.data(), row_bytes, *im);
    return true;
}

inline const std::set<FormatInfo> &query_pgm() {
    static const std::set<FormatInfo> info = {{halide_type_t(halide_type_uint, 8), 2},
                                              {halide_type_t(halide_type_uint, 16), 2}};
    return info;
}
inline const std::set<FormatInfo> &query_ppm() {
    static const std::set<FormatInfo> info = {{halide_type_t(halide_type_uint, 8), 3},
                                              {halide_type_t(halide_type_uint, 16), 3}};
    return info;
}

template <CheckFunc check>
bool save_pnm(const Runtime::Buffer<const void> &im, int channels, const std::string &filename) {
    const char *verb = "Error saving";
    if (channels_of(im) != channels) {
        return fail<check>(verb, filename,
                           std::string(channels == 1 ? "PGM holds 1 channel" : "PPM holds 3") +
                               "; the buffer has " + std::to_string(channels_of(im)));
    }
    std::vector<uint8_t> data = interleave(im, channels);
    FileOpener f(filename, "wb");
    if (!f.f) return fail<check>(verb, filename, f.why_not_open(false));
    std::fprintf(f.f, "P%d\n%d %d\n%d\n", channels == 1 ? 5 : 6, im.raw_buffer()->dim[0].extent,
                 im.raw_buffer()->dim[1].extent, im.type().bits == 16 ? 65535 : 255);
    if (fwrite(data.data(), 1, data.size(), f.f) != data.size()) {
        return fail<check>(verb, filename,
                           "write failed (" + std::string(std::strerror(errno)) + ")");
    }
    return true;
}

// ---- Dispatch on the extension ----

enum class FileFormat { Unknown, Png, Jpeg, Pgm, Ppm };

inline FileFormat format_of(const std::string &ext) {
#ifndef HALIDE_NO_PNG
    if (ext == "png") return FileFormat::Png;
#endif
#ifndef HALIDE_NO_JPEG
    if (ext == "jpg" || ext == "jpeg") return FileFormat::Jpeg;
#endif
    if (ext == "pgm") return FileFormat::Pgm;
    if (ext == "ppm") return FileFormat::Ppm;
    return FileFormat::Unknown;
}

template <CheckFunc check>
bool unknown_format(const char *verb, const std::string &filename) {
    std::string supported;
#ifndef HALIDE_NO_JPEG
    supported += "jpeg jpg ";
#endif
    supported += "pgm ";
#ifndef HALIDE_NO_PNG
    supported += "png ";
#endif
    supported += "ppm";
    return fail<check>(verb, filename,
                       "unsupported file extension \"" + lowercase_extension(filename) +
                           "\" (supported: " + supported + ")");
}

/// Loads any supported file in its own sample type.
template <CheckFunc check>
bool load_any(const std::string &filename, Runtime::Buffer<void> *im) {
    switch (format_of(lowercase_extension(filename))) {
#ifndef HALIDE_NO_PNG
    case FileFormat::Png:
        return load_png<check>(filename, im);
#endif
#ifndef HALIDE_NO_JPEG
    case FileFormat::Jpeg:
        return load_jpg<check>(filename, im);
#endif
    case FileFormat::Pgm:
    case FileFormat::Ppm:
        return load_pnm<check>(filename, im);
    default:
        return unknown_format<check>("Error loading", filename);
    }
}

inline const std::set<FormatInfo> &query(FileFormat fmt) {
    static const std::set<FormatInfo> none;
    switch (fmt) {
#ifndef HALIDE_NO_PNG
    case FileFormat::Png:
        return query_png();
#endif
#ifndef HALIDE_NO_JPEG
    case FileFormat::Jpeg:
        return query_jpg();
#endif
    case FileFormat::Pgm:
        return query_pgm();
    case FileFormat::Ppm:
        return query_ppm();
    default:
        return none;
    }
}

/// Saves a buffer the format holds exactly (type and dimension count checked).
template <CheckFunc check>
bool save_any(const Runtime::Buffer<const void> &im, const std::string &filename) {
    const char *verb = "Error saving";
    FileFormat fmt = format_of(lowercase_extension(filename));
    if (fmt == FileFormat::Unknown) return unknown_format<check>(verb, filename);
    if (!im.raw_buffer()->host) {
        return fail<check>(verb, filename, "the buffer is undefined or has no memory");
    }
    if (!query(fmt).count({im.type(), im.dimensions()})) {
        std::string holds;
        for (const FormatInfo &fi : query(fmt)) {
            holds += (holds.empty() ? "" : ", ") + type_name(fi.type) + " in " +
                     std::to_string(fi.dimensions) + "-D";
        }
        return fail<check>(verb, filename,
                           "this format cannot hold a " + type_name(im.type()) + " buffer of " +
                               std::to_string(im.dimensions()) + " dimensions (it holds " + holds +
                               "); use convert_and_save_image to convert it");
    }
    switch (fmt) {
#ifndef HALIDE_NO_PNG
    case FileFormat::Png:
        return save_png<check>(im, filename);
#endif
#ifndef HALIDE_NO_JPEG
    case FileFormat::Jpeg:
        return save_jpg<check>(im, filename);
#endif
    case FileFormat::Pgm:
        return save_pnm<check>(im, 1, filename);
    default:
        return save_pnm<check>(im, 3, filename);
    }
}

} // namespace Internal
} // namespace Tools
} // namespace Halide

#endif
